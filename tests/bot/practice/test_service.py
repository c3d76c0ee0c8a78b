"""Practice games against the bot, through the services as the bot wires them
(bot.app.build), with a real SQLite file, a fake Discord and a tiny, seeded search
in a thread instead of the worker processes."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import ai
import rules
from bot.app import App, Tuning, build
from bot.model import Member
from bot.storage import Database, queries
from tests.bot.conftest import ANA, CHANNEL, GUILD, SMALL
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.fakes import FakeClock, FakePoster, fake_renderer
from tests.bot.test_app import fake_replayer

BOT = Member(99, "Boardbot")


class Thinker:
    """The AI in a thread, seeded, counting its searches."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, game: str, options: Mapping[str, Any], moves: Sequence[str],
                       level: ai.Level) -> str:
        self.calls += 1
        state = rules.get_game(game).replay(list(moves), **options)
        return await asyncio.to_thread(ai.choose_move, state, level, 1)


class Harness:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.poster = FakePoster()
        self.clock = FakeClock()
        self.think = Thinker()
        self.app: App | None = None

    async def start(self) -> App:
        db = await Database.open(self.path)
        self.app = build(db, self.poster, FakeMessenger(), tuning=Tuning(ai_test_playouts=8),
                         now=self.clock, renderer=fake_renderer, replayer=fake_replayer,
                         rng=random.Random(1), think=self.think)
        self.app.practice.me = BOT
        await self.app.start()
        return self.app

    async def stop(self) -> None:
        assert self.app is not None
        await self.app.stop()
        await self.app.db.close()


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(tmp_path / "bot.sqlite3")
    await h.start()
    yield h
    await h.stop()


async def _state(app: App, game_id: int) -> tuple[Any, rules.State]:
    row = await app.games.get_game(GUILD, game_id)
    return row, await app.games.state_of(row)


@pytest.mark.parametrize("game", sorted(SMALL))
async def test_a_whole_practice_game_against_the_bot(harness: Harness, game: str) -> None:
    app = harness.app
    assert app is not None
    started = await app.practice.start_game(guild_id=GUILD, channel_id=CHANNEL, member=ANA,
                                            game=game, options=SMALL[game], level="easy")
    game_id = started.game.id
    pick = random.Random(3)
    for _ in range(400):
        await app.practice.idle()
        row, state = await _state(app, game_id)
        if not row.is_active:
            break
        assert row.player_ids[state.to_move] == ANA.id, "the bot answered every move"
        move = pick.choice(sorted(state.legal_moves()))
        await app.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=move)
    row, state = await _state(app, game_id)
    assert not row.is_active and row.result
    async with app.db.reading() as conn:
        moves = await queries.moves_of_game(conn, game_id)
    assert {m.member_id for m in moves} == {ANA.id, BOT.id}
    assert row.settings["rated"] is False and row.settings["practice"] == "easy"
    async with app.db.reading() as conn:
        assert await queries.get_rating_change(conn, game_id) is None  # never rated
        assert await queries.ratings_of_member(conn, GUILD, ANA.id) == []
    [record] = await app.practice.record(guild_id=GUILD, member_id=ANA.id)
    assert record.level == "easy"
    assert record.wins + record.losses + record.draws == 1
