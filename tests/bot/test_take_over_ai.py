"""A process that dies while the bot thinks (its move in a practice game, or the
analysis of a finished game a member asked for): once its lease ran out, the survivor
that takes its work over (bot.processes) finishes it, in the dead process's servers
only, once; what the dead one would still have done is refused (the move names the ply
it answers) or already there. Two processes of the app as the bot builds it, on the two
shards of one database, with the AI in the test's process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ai import Analysis, Budget
from bot.shards import Shards, shard_of
from bot.storage import queries
from tests.bot.conftest import ANA, CHANNEL, GUILD, SMALL
from tests.bot.fakes import InProcessAI
from tests.bot.practice.test_service import BOT, Harness, _moves, _state
from tests.timing import seconds

pytestmark = pytest.mark.both_backends

#: The default lease (PROCESS_LEASE_SECONDS), which the tests' clock runs past.
LEASE = timedelta(seconds=30)


class StuckAI(InProcessAI):
    """The AI of a process about to die: it answers ``answers`` analyses, then thinks
    for ever (a move or an analysis), as a killed process's workers do."""

    def __init__(self, answers: int = 0) -> None:
        super().__init__()
        self.answers = answers
        self.thinking = asyncio.Event()
        self.forever = asyncio.Event()

    async def analyse(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        budget: Budget,
        seed: int | None = None,
    ) -> Analysis:
        if self.answers <= 0:
            self.thinking.set()
            await self.forever.wait()
        self.answers -= 1
        return await super().analyse(game_name, options, moves, budget, seed)

    async def choose(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: str = "medium",
        seed: int | None = None,
    ) -> str:
        self.thinking.set()
        await self.forever.wait()
        return await super().choose(game_name, options, moves, level, seed)


@pytest.fixture
async def pair(database_url: Path | str) -> AsyncIterator[tuple[Harness, Harness]]:
    """The process of the game's server (about to die) and the other shard's."""
    mine = shard_of(GUILD, 2)
    dying, survivor = Harness(database_url), Harness(database_url)
    survivor.clock = dying.clock
    dying.ai = StuckAI(answers=1)
    dying.shards, survivor.shards = Shards(2, (mine,)), Shards(2, (1 - mine,))
    await dying.start()
    await survivor.start()
    yield dying, survivor
    assert isinstance(dying.ai, StuckAI)
    dying.ai.forever.set()  # what it still does now is refused or already done
    await asyncio.sleep(0)
    await survivor.stop()
    await dying.stop()


async def die(dying: Harness, survivor: Harness) -> None:
    """``dying`` stops beating (its work half-way); the survivor's next heartbeat, past
    the lease, takes its work over."""
    assert isinstance(dying.ai, StuckAI)
    await asyncio.wait_for(dying.ai.thinking.wait(), seconds(10))
    assert survivor.app is not None
    dying.clock.advance(seconds=LEASE.total_seconds() + 1)
    [taken] = await survivor.app.processes.beat()
    assert taken.servers is not None and taken.servers.holds(GUILD)


async def test_a_survivor_makes_the_move_a_dead_process_was_thinking_of(
    pair: tuple[Harness, Harness],
) -> None:
    dying, survivor = pair
    assert dying.app is not None and survivor.app is not None
    started = await dying.app.practice.start_game(
        guild_id=GUILD, channel_id=CHANNEL, member=ANA, game="astralis", options=SMALL["astralis"]
    )
    game_id = started.game.id
    _, state = await _state(dying.app, game_id)
    await dying.app.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=ANA, text=sorted(state.legal_moves())[0]
    )
    # Nothing of the other process's before the take-over: not its server's game.
    assert await survivor.app.practice.resume() == 0
    await die(dying, survivor)
    await survivor.heard.turn_of(game_id, ANA.id)
    moves = await _moves(survivor.app, game_id)
    assert [m.member_id for m in moves] == [ANA.id, BOT.id]
    assert survivor.ai.chosen == [moves[1].move]  # thought once, by the survivor
    assert survivor.poster.posts_for(game_id)  # its board, posted by the survivor
    assert isinstance(dying.ai, StuckAI)
    dying.ai.forever.set()  # the dead process's late move: refused, not stored
    for _ in range(50):
        await asyncio.sleep(0.01)
    assert [m.member_id for m in await _moves(survivor.app, game_id)] == [ANA.id, BOT.id]


async def test_a_survivor_finishes_an_analysis_a_dead_process_left_half_way(
    pair: tuple[Harness, Harness],
) -> None:
    dying, survivor = pair
    assert dying.app is not None and survivor.app is not None
    started = await dying.app.practice.start_game(
        guild_id=GUILD, channel_id=CHANNEL, member=ANA, game="lifeline", options=SMALL["lifeline"]
    )
    game_id = started.game.id
    dying.app.practice.me = None  # the member moves, then resigns before the bot answers
    _, state = await _state(dying.app, game_id)
    await dying.app.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=ANA, text=sorted(state.legal_moves())[0]
    )
    await dying.app.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    _, state = await _state(dying.app, game_id)
    await die(dying, survivor)  # the first position analysed, then it died thinking
    assert survivor.app is not None
    for _ in range(int(seconds(10) / 0.02)):
        found = await survivor.app.db.read(queries.analyses_of_game(game_id))
        if len(found) == state.ply + 1:
            break
        await asyncio.sleep(0.02)
    assert [known.ply for known in found] == list(range(state.ply + 1))
    assert survivor.ai.asked  # by the survivor
