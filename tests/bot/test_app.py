"""The composition root: the services built and wired as in the bot (only Discord and
the clock are stand-ins). A whole game through it shows the wiring: the clock is
stored with the game (the opening board already states a deadline), and the listeners
are told in the stated order, so the thread ends with the final board, the replay, the
summary with the rating change, and the rematch offer."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from bot.app import App, build
from bot.config import Settings
from bot.model import Member
from bot.storage import open_database, queries
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.fakes import FakeClock, FakePoster, fake_renderer
from tests.e2e.driver import PLANS, planned_moves


async def fake_replayer(
    game: str, options: Mapping, moves: list[str], names: Mapping[int, str], **drawing: object
) -> bytes:
    return f"GIF89a {game} {len(moves)} moves".encode()


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[App, FakePoster]]:
    db = await open_database(tmp_path / "bot.sqlite3")
    poster = FakePoster()
    built = build(
        db,
        poster,
        FakeMessenger(),
        settings=Settings(challenge_expiry_days=7),
        now=FakeClock(),
        renderer=fake_renderer,
        replayer=fake_replayer,
        rng=random.Random(1),
    )
    yield built, poster
    await built.stop()
    await db.close()


async def test_a_whole_game_through_the_composition_root(app: tuple[App, FakePoster]) -> None:
    app_, poster = app
    options, seed = PLANS["lifeline"]
    challenge = await app_.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="lifeline",
        options=options,
        opponent=BO,
    )
    started = await app_.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    game_id = started.game.id
    async with app_.db.reading() as conn:
        clock = await queries.get_clock(conn, game_id)
    assert clock is not None and (clock.turn_ply, clock.turn_seat) == (0, 0)
    [opening] = poster.posts_for(game_id)
    assert "Ana's time for this move runs out <t:" in opening.content

    for move in planned_moves("lifeline", options, seed):
        row = await app_.games.get_game(GUILD, game_id)
        state = await app_.games.state_of(row)
        seat = state.to_move
        await app_.moves.play_move(
            guild_id=GUILD,
            game_id=game_id,
            text=move,
            member=Member(row.player_ids[seat], row.player_names[seat]),
        )

    posts = poster.posts_for(game_id)
    final = posts[-1]
    assert len(posts) == 1 + len(planned_moves("lifeline", options, seed))  # nothing after
    assert "Game over" in final.content and "runs out" not in final.content
    assert "Ratings: Ana 1500 → " in final.content
    replay, record = final.attachments
    assert replay.data.startswith(b"GIF89a lifeline") and record.filename.endswith(".txt")
    assert final.actions == ("rematch",)
    async with app_.db.reading() as conn:
        assert (await queries.get_clock(conn, game_id)).turn_seat is None  # stopped
    assert app_.games.cached(game_id) is None


async def test_start_up_removes_the_buttons_of_games_that_ended_while_down(
    app: tuple[App, FakePoster],
) -> None:
    app_, poster = app
    challenge = await app_.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="sliglube",
        options={"size": 5},
        opponent=BO,
    )
    game_id = (
        await app_.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    ).game.id
    await app_.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="c3")
    assert len(poster.with_buttons(game_id)) == 1  # Bo: black or white?
    await app_.db.write(
        [
            (
                "UPDATE games SET status = 'finished', result = 'Ana wins',"
                " winner_seat = 0, end_reason = 'timeout' WHERE id = ?",
                (game_id,),
            )
        ]
    )
    await app_.start()  # as after a restart
    await app_._buttons
    assert poster.with_buttons(game_id) == []
