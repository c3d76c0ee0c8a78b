"""A few cycles of the soak (bench/soak.py): members play while the bot is killed and
started again at random moments and on requests held in flight, with faults after the
action and gateway drops, and members plan conditional replies. Nothing a member would
check goes wrong: no answered move lost, no board post lost or doubled, no half-opened
game, no conditional reply owed or doubled once the bot is back, every first answer in
time.
(The bench runs the same loop for 200 cycles and more.)"""

from __future__ import annotations

import random

from bench.soak import Soak
from tests.fakediscord.process import BotProcess

from .conftest import World

CYCLES = 4


async def test_kills_and_faults_lose_and_double_nothing(world: World, botproc: BotProcess) -> None:
    soak = Soak(world.fake, world.guild, world.channel, botproc, rng=random.Random(7), games=2)
    tally = await soak.run(CYCLES)
    found = soak.findings()
    assert (tally.cycles, tally.kills) == (CYCLES, CYCLES)
    assert found.stored_moves > CYCLES and found.games >= 2
    assert found.answered_lost == []
    assert found.boards_lost == []
    assert found.doubled == []
    assert found.half_opened == []
    assert tally.plans and found.replies_played >= 1  # plans were made, and answered
    assert found.replies_owed == []
    assert found.replies_doubled == []
    assert found.unposted == []  # every challenge made is seen, kills or not
    assert found.late == []
    assert found.violations == []
