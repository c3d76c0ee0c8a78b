"""The code stays ruff-clean and ruff-formatted: checked with every test run, not by habit."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.timing import seconds

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "command", [["check", "--no-cache", "."], ["format", "--check", "--no-cache", "."]]
)
def test_ruff_finds_nothing(command: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "ruff", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=seconds(300),
    )
    assert run.returncode == 0, run.stdout + run.stderr
