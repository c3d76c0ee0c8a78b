"""Practice games against the bot, through the services as the bot wires them
(bot.app.build), with a real SQLite file, a fake Discord and a tiny, seeded search
in a thread instead of the worker processes (tests.bot.fakes.InProcessAI)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.app import App, build
from bot.config import Settings
from bot.model import Member, UserError
from bot.shards import EVERY_SHARD, Shards, shard_of
from bot.storage import open_database, queries
from tests.bot.conftest import ANA, CHANNEL, GUILD, SMALL
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.fakes import FakeClock, FakePoster, InProcessAI, fake_renderer
from tests.bot.support import Heard
from tests.bot.test_app import fake_replayer

BOT = Member(99, "Boardbot")


#: The bot's moves, resumed at start-up, are the same on either database.
pytestmark = pytest.mark.both_backends


class Harness:
    def __init__(self, path: Path | str) -> None:
        self.path = path
        self.poster = FakePoster()
        self.clock = FakeClock()
        self.ai = InProcessAI()
        self.app: App | None = None
        #: What the app (its last start) told of its games: the bot's moves are made by
        #: background tasks, and awaited as they are told.
        self.heard = Heard()
        #: The process's shards (its next start).
        self.shards = EVERY_SHARD

    async def start(self) -> App:
        db = await open_database(self.path)
        self.app = build(
            db,
            self.poster,
            FakeMessenger(),
            settings=Settings(
                ai_test_playouts=8, shard_count=self.shards.count, shard_ids=self.shards.ids
            ),
            now=self.clock,
            renderer=fake_renderer,
            replayer=fake_replayer,
            rng=random.Random(1),
            thinker=self.ai,
        )
        self.app.practice.me = BOT
        self.heard = Heard()  # subscribed before the start, which resumes the bot's turns
        self.app.events.subscribe(self.heard)
        await self.app.start()
        return self.app

    async def stop(self) -> None:
        assert self.app is not None
        await self.app.stop()
        await self.app.db.close()


@pytest.fixture
async def harness(database_url: Path | str) -> AsyncIterator[Harness]:
    h = Harness(database_url)
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
    started = await app.practice.start_game(
        guild_id=GUILD, channel_id=CHANNEL, member=ANA, game=game, options=SMALL[game], level="easy"
    )
    game_id = started.game.id
    pick = random.Random(3)
    for _ in range(400):
        await harness.heard.turn_of(game_id, ANA.id)
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


async def _start(app: App, game: str = "astralis", **kwargs: Any) -> int:
    started = await app.practice.start_game(
        guild_id=GUILD, channel_id=CHANNEL, member=ANA, game=game, options=SMALL[game], **kwargs
    )
    return started.game.id


async def _moves(app: App, game_id: int) -> list[Any]:
    async with app.db.reading() as conn:
        return await queries.moves_of_game(conn, game_id)


async def test_the_bot_moves_first_when_asked_to(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    game_id = await _start(app, first="opponent", level="hard")
    await harness.heard.at_ply(game_id, 1)
    [move] = await _moves(app, game_id)
    assert move.member_id == BOT.id
    row, state = await _state(app, game_id)
    assert row.player_ids[state.to_move] == ANA.id


async def test_after_a_restart_the_bot_makes_the_move_it_owes(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    game_id = await _start(app)
    _, state = await _state(app, game_id)
    move = sorted(state.legal_moves())[0]
    app.practice.me = None  # the member moves while the bot is going down
    await app.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=move)
    await harness.stop()
    assert len(await _moves_after_restart(harness, game_id)) == 2


async def test_a_process_makes_the_owed_moves_of_its_own_servers_only(harness: Harness) -> None:
    """Two processes on the two shards of one database, both started again: the bot's
    owed move is made by the one whose servers include the game's, and by it alone."""
    app = harness.app
    assert app is not None
    game_id = await _start(app)
    _, state = await _state(app, game_id)
    app.practice.me = None  # the member moves while the bot is going down
    await app.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=ANA, text=sorted(state.legal_moves())[0]
    )
    await harness.stop()
    mine = shard_of(GUILD, 2)
    harness.shards = Shards(2, (1 - mine,))
    app = await harness.start()
    assert await app.practice.resume() == 0  # as at its start: not its server's game
    assert len(await _moves(app, game_id)) == 1
    await harness.stop()
    harness.shards = Shards(2, (mine,))
    assert len(await _moves_after_restart(harness, game_id)) == 2


async def _moves_after_restart(harness: Harness, game_id: int) -> list[Any]:
    """The moves of game ``game_id`` once the bot, started again, has made the move it
    owes there (the member's turn again)."""
    app = await harness.start()
    await harness.heard.turn_of(game_id, ANA.id)
    return await _moves(app, game_id)


async def test_duplicate_triggers_make_one_move(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    game_id = await _start(app)
    row, state = await _state(app, game_id)
    await app.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=ANA, text=sorted(state.legal_moves())[0]
    )
    for _ in range(3):
        app.practice.poke(game_id)
    await app.practice.resume()
    await harness.heard.turn_of(game_id, ANA.id)
    moves = await _moves(app, game_id)
    assert [m.member_id for m in moves] == [ANA.id, BOT.id]
    assert harness.ai.chosen == [moves[1].move]  # thought once, by the one task of the game
    row, state = await _state(app, game_id)
    assert row.player_ids[state.to_move] == ANA.id


async def test_a_takeback_is_granted_at_once(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    game_id = await _start(app, game="lifeline")
    row, state = await _state(app, game_id)
    first = sorted(state.legal_moves())[0]
    await app.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=first)
    await harness.heard.turn_of(game_id, ANA.id)
    assert len(await _moves(app, game_id)) == 2
    await app.practice.take_back(guild_id=GUILD, game_id=game_id, member=ANA)
    assert await _moves(app, game_id) == []
    row, state = await _state(app, game_id)
    assert state.ply == 0 and row.player_ids[state.to_move] == ANA.id
    assert "Ana took back" in harness.poster.posts_for(game_id)[-1].content
    with pytest.raises(UserError, match="nothing of yours"):
        await app.practice.take_back(guild_id=GUILD, game_id=game_id, member=ANA)


async def test_the_bots_clock_never_runs_out_and_the_members_does(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    game_id = await _start(
        app, settings={"time_control": "1d", "takebacks": True, "vacation": True}
    )
    row, state = await _state(app, game_id)
    app.practice.me = None  # the bot is slow to answer: weeks pass
    await app.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=ANA, text=sorted(state.legal_moves())[0]
    )
    harness.clock.advance(days=30)
    await app.clocks.run_due()
    row = await app.games.get_game(GUILD, game_id)
    assert row.is_active and await app.clocks.deadline_of(row) is None
    app.practice.me = BOT
    await app.practice.resume()
    await harness.heard.turn_of(game_id, ANA.id)
    row, state = await _state(app, game_id)
    assert row.player_ids[state.to_move] == ANA.id
    assert await app.clocks.deadline_of(row) is not None  # the member's turn is timed
    harness.clock.advance(days=2)
    await app.clocks.run_due()
    row = await app.games.get_game(GUILD, game_id)
    assert not row.is_active and row.winner_seat == row.seat_of(BOT.id)
    assert "ran out of time" in (row.result or "")


async def test_the_profile_counts_results_per_level(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    for level in ("hard", "easy", "easy"):
        game_id = await _start(app, level=level)
        await app.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    records = await app.practice.record(guild_id=GUILD, member_id=ANA.id)
    assert [(r.level, r.wins, r.losses, r.draws) for r in records] == [
        ("easy", 0, 2, 0),
        ("hard", 0, 1, 0),
    ]


async def test_a_rematch_starts_at_once_with_the_seats_swapped(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    game_id = await _start(app, level="medium")
    await app.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    again = await app.practice.rematch(guild_id=GUILD, game_id=game_id, member=ANA)
    await harness.heard.at_ply(again.game.id, 1)
    assert again.game.player_ids == (BOT.id, ANA.id)
    assert again.game.settings["practice"] == "medium" and again.game.settings["rated"] is False
    [move] = await _moves(app, again.game.id)  # the bot, first now, has moved
    assert move.member_id == BOT.id


@pytest.mark.parametrize("first", ["challenger", "opponent"])
async def test_the_bot_speaks_as_the_opponent_and_never_pings_itself(
    harness: Harness, first: str
) -> None:
    """In a practice thread the bot is the member's opponent: it never mentions itself
    (its turn is shown by its typing indicator), says its own moves in the first
    person, thanks the member alone, and calls the game practice, never rated."""
    app = harness.app
    assert app is not None
    game_id = await _start(app, "lifeline", first=first)
    pick = random.Random(2)
    for _ in range(100):
        await harness.heard.turn_of(game_id, ANA.id)
        row, state = await _state(app, game_id)
        if not row.is_active:
            break
        move = pick.choice(sorted(state.legal_moves()))
        await app.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=move)
    row, _ = await _state(app, game_id)
    assert not row.is_active
    posts = harness.poster.posts_for(game_id)
    bots = [m for m in await _moves(app, game_id) if m.member_id == BOT.id]
    assert bots
    for post in posts:
        assert f"<@{BOT.id}>" not in post.content, post.content
        assert BOT.id not in post.mentions, post.content
        assert "Boardbot" not in post.content.splitlines()[0] or post is posts[0], post.content
    opening = posts[0].content
    assert "Practice, never rated." in opening
    if first == "opponent":
        assert "I play first." in opening and "your turn" not in opening
    else:
        assert f"<@{ANA.id}>, your turn" in opening
    said = [p.content.splitlines()[0] for p in posts[1:]]
    for move in bots:
        assert any(f"move {move.ply}: I " in line for line in said), (move, said)
    final = posts[-1].content
    assert f"Well played, <@{ANA.id}>!" in final
    assert "Practice, never rated." in final and "casual" not in final.lower()


async def test_two_practice_commands_at_once_start_one_game_and_say_why(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    started = [
        app.practice.start_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            member=ANA,
            game="lifeline",
            options=SMALL["lifeline"],
        )
        for _ in range(2)
    ]
    done = await asyncio.gather(*started, return_exceptions=True)
    games = [d for d in done if not isinstance(d, BaseException)]
    [refused] = [d for d in done if isinstance(d, BaseException)]
    assert len(games) == 1
    assert isinstance(refused, UserError), refused
    assert "cancel" not in refused.message and "challenge" not in refused.message
    assert "already setting up" in refused.message
    async with app.db.reading() as conn:
        assert len(await queries.active_games(conn)) == 1
    again = await _start(app, "lifeline")  # once it is up, another is welcome
    assert again != games[0].game.id
