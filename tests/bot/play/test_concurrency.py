"""Submissions arriving together: exactly one is applied."""

from __future__ import annotations

import asyncio
import random

import pytest

import rules
from bot.model import UserError
from bot.storage import open_database, queries
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, Env, start_game
from tests.bot.fakes import FakePoster

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


async def stored_moves(env: Env, game_id: int) -> list[str]:
    async with env.db.reading() as conn:
        return [move.move for move in await queries.moves_of_game(conn, game_id)]


def any_game() -> str:
    return next(iter(rules.GAMES))


async def test_two_different_moves_for_one_turn(env: Env) -> None:
    game_id = await start_game(env, any_game())
    state = await env.games.state_of(await env.games.get_game(GUILD, game_id))
    first, second = state.legal_moves()[-2:]
    posts = len(env.poster.sent)

    outcomes = await asyncio.gather(
        *(
            env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=text)
            for text in (first, second)
        ),
        return_exceptions=True,
    )

    applied = [outcome for outcome in outcomes if not isinstance(outcome, Exception)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, UserError)]
    assert len(applied) == 1 and len(refused) == 1
    assert "not your turn" in refused[0].message
    assert await stored_moves(env, game_id) == [applied[0].move]
    assert len(env.poster.sent) == posts + 1


async def test_the_same_move_submitted_twice(env: Env) -> None:
    game_id = await start_game(env, any_game())
    state = await env.games.state_of(await env.games.get_game(GUILD, game_id))
    move = state.legal_moves()[-1]

    outcomes = await asyncio.gather(
        *(
            env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=move)
            for _ in range(2)
        ),
        return_exceptions=True,
    )

    assert sum(not isinstance(outcome, Exception) for outcome in outcomes) == 1
    assert await stored_moves(env, game_id) == [move]


async def test_two_bot_processes_on_one_database(env: Env) -> None:
    """Without a shared lock, the UNIQUE (game_id, ply) constraint decides."""
    game_id = await start_game(env, any_game())
    other_db = await open_database(env.path)
    other = Env.compose(env.path, other_db, FakePoster(), env.clock, rng=random.Random(1))
    try:
        row = await env.games.get_game(GUILD, game_id)
        state = await env.games.state_of(row)
        await other.games.state_of(row)  # both processes have the position cached
        first, second = state.legal_moves()[-2:]
        await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=first)
        try:
            await other.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=second)
        except UserError as error:
            assert "saved just before yours" in error.message
        else:
            raise AssertionError("the second move of the same turn was applied")
        assert await stored_moves(env, game_id) == [first]
        # The refused process forgot its stale position and agrees with the database.
        fresh = await other.games.state_of(await other.games.get_game(GUILD, game_id))
        assert fresh.history == (first,)
        assert (
            await other.moves.play_move(
                guild_id=GUILD, game_id=game_id, member=BO, text=fresh.legal_moves()[-1]
            )
        ).state.ply == 2
    finally:
        await other_db.close()


async def test_two_members_accepting_an_open_challenge_together(env: Env) -> None:
    challenge = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game=any_game(), opponent=None
    )

    outcomes = await asyncio.gather(
        *(
            env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=member)
            for member in (BO, CY)
        ),
        return_exceptions=True,
    )

    started = [outcome for outcome in outcomes if not isinstance(outcome, Exception)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, UserError)]
    assert len(started) == 1 and len(refused) == 1
    assert "accepted" in refused[0].message
    tables = await env.dump()
    assert len(tables["games"]) == 1
    assert env.poster.posts_for(started[0].game.id)  # only the real game got a board
    assert len(env.poster.sent) == 1
