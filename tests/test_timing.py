"""The tests' time limits scale with the machine (tests/timing.py): on a machine ten
times slower, every limit is ten times as long, none is left as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LIMITS = """
from tests.e2e.driver import WAIT
from tests.e2e.test_broken_database import SECONDS
from tests.fakediscord.fake import RESPONSE_DEADLINE
from tests.fakediscord.process import BotProcess
from tests.fakediscord.interactions import Interaction
import inspect
start = inspect.signature(BotProcess.start).parameters["timeout"].default
reply = inspect.signature(Interaction.reply).parameters["timeout"].default
print(WAIT, SECONDS, RESPONSE_DEADLINE, start, reply)
"""


def limits(scale: str) -> list[float]:
    env = {**os.environ, "TEST_TIME_SCALE": scale}
    out = subprocess.run(
        [sys.executable, "-c", LIMITS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return [float(word) for word in out.stdout.split()]


def test_every_limit_scales_with_the_machine() -> None:
    healthy, slow = limits("1"), limits("10")
    assert healthy == [15.0, 15.0, 3.0, 30.0, 15.0]
    assert slow == [10 * limit for limit in healthy]


#: A time limit written as a bare number of seconds in a check or a wait.
BARE = re.compile(
    r"response_delay[^\n]*< ?\d|slowest < ?\d|(?<![_\w])timeout=\d|timeout: float = \d"
    r"|^\w+ = \d+\.\d+ +#"
)


def test_no_time_limit_is_left_as_written() -> None:
    found = []
    for path in (ROOT / "tests").rglob("*.py"):
        if path.name in ("timing.py", "test_timing.py"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if BARE.search(line) and "sqlite3.connect" not in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == [], "\n".join(found)
