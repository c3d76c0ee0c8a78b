"""The AI never holds the bot up, even on a busy host: with CPU-bound processes beside
the bot, while its AI workers start (at boot) and think (practice games at the hard
level, every worker busy), every member's interaction gets its first answer within
Discord's window. Counted (interactions that missed it: none), never timed."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT

#: CPU-bound processes beside the bot (each stops by itself after a minute).
HOGS = 6
HOG = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"


@contextmanager
def busy_host(count: int) -> Iterator[None]:
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(count)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


async def test_members_are_answered_in_time_while_the_ai_starts_and_thinks(
    world: World, tmp_path: Path
) -> None:
    fake = world.fake
    others = [fake.add_member(world.guild, f"member{n}") for n in range(6)]
    proc = BotProcess(world.fake, tmp_path, AI_WORKERS="2", AI_TEST_PLAYOUTS="100000")
    with busy_host(HOGS):
        await proc.start("practice", "games")  # the AI's workers start at boot, loaded
        try:
            sent = []
            # Every worker thinking: two practice games where the bot moves first.
            for member in (world.alice, world.bob):
                sent.append(
                    await fake.run_command(
                        member,
                        "practice",
                        {"game": "lifeline", "size": 7, "first": "opponent", "level": "hard"},
                        channel=world.channel,
                    )
                )
            # Meanwhile, other members' commands, a few at a time.
            for _ in range(3):
                batch = [
                    await fake.run_command(member, "games", {}, channel=world.channel)
                    for member in others
                ]
                sent += batch
                await asyncio.gather(*(ix.reply(WAIT) for ix in batch))
            for ix in sent[:2]:
                await ix.reply(WAIT)
            missed = [ix.name for ix in sent if ix.responded_at is None]
            late = [v for v in fake.violations if "first answer" in v]
            assert missed == [] and late == [], (missed, late, proc.log())
        finally:
            await proc.stop()
