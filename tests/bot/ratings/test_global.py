"""Global ratings: one pool of players over every server, updated with the server's
rating at the end of each rated game, rebuilt from the history for the games rated
before they existed, and shown by ``/leaderboard scope:global``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.ratings.commands import RatingCommands
from bot.ratings.glicko import Rating, rate
from tests.bot.conftest import ANA, BO, CY, GUILD, OTHER_GUILD, Env
from tests.bot.interactions import invoke
from tests.bot.ratings.test_ranking import play_game
from tests.bot.support import StandIn

pytestmark = pytest.mark.both_backends


@pytest.fixture
def rated_env(env: Env) -> Env:
    env.endings.finale = env.epilogue  # rates each game as it ends, as in bot.app
    return env


def by_member(rows: list) -> dict[int, object]:
    return {row.member_id: row for row in rows}


async def test_a_rated_game_changes_the_server_and_the_global_rating(rated_env: Env) -> None:
    first = await play_game(rated_env, "asli")  # Ana v Bo here
    second = await play_game(rated_env, "asli", challenger=CY, opponent=ANA, guild=OTHER_GUILD)
    here = by_member(await rated_env.ratings.leaderboard(GUILD, "asli"))
    there = by_member(await rated_env.ratings.leaderboard(OTHER_GUILD, "asli"))
    everywhere = by_member(await rated_env.ratings.global_leaderboard("asli"))
    assert set(everywhere) == {ANA.id, BO.id, CY.id}
    # Ana played once in each server, twice in the pool
    assert here[ANA.id].games == there[ANA.id].games == 1  # type: ignore[attr-defined]
    assert everywhere[ANA.id].games == 2  # type: ignore[attr-defined]
    # the second game started from Ana's global rating after the first, not from 1500
    first_change = await rated_env.ratings.global_change(first)
    second_change = await rated_env.ratings.global_change(second)
    assert first_change is not None and second_change is not None
    first_row = await rated_env.games.get_game(GUILD, first)
    ana_after_first = first_change.after[first_row.seat_of(ANA.id)]
    second_row = await rated_env.games.get_game(OTHER_GUILD, second)
    assert second_change.before[second_row.seat_of(ANA.id)] == pytest.approx(ana_after_first)
    assert (await rated_env.ratings.rating_change(second)).before == (1500, 1500)  # type: ignore[union-attr]
    leaders = await rated_env.ratings.global_leaderboard("asli")
    assert [r.rating for r in leaders] == sorted((r.rating for r in leaders), reverse=True)


async def test_the_games_rated_before_are_rebuilt_into_the_global_pool(rated_env: Env) -> None:
    games = [
        await play_game(rated_env, "asli"),
        await play_game(rated_env, "asli", challenger=CY, opponent=ANA, guild=OTHER_GUILD),
        await play_game(rated_env, "asli", challenger=BO, opponent=CY),
    ]
    expected = by_member(await rated_env.ratings.global_leaderboard("asli"))
    async with rated_env.db.transaction() as tx:  # as a database of before global ratings
        await tx.change("DELETE FROM global_rating_changes")
        await tx.change("DELETE FROM global_ratings")
    assert await rated_env.ratings.global_leaderboard("asli") == []
    assert await rated_env.ratings.rebuild_global(page=2) == len(games)
    rebuilt = by_member(await rated_env.ratings.global_leaderboard("asli"))
    assert set(rebuilt) == set(expected)
    for member_id, row in rebuilt.items():
        assert row.rating == pytest.approx(expected[member_id].rating)  # type: ignore[attr-defined]
        assert row.games == expected[member_id].games  # type: ignore[attr-defined]
    assert await rated_env.ratings.rebuild_global() == 0  # each game at most once


async def test_the_arithmetic_of_one_global_game(rated_env: Env) -> None:
    game_id = await play_game(rated_env, "asli")
    row = await rated_env.games.get_game(GUILD, game_id)
    score = 1.0 if row.winner_seat == 0 else 0.0
    expected = rate(Rating(), Rating(), score)
    change = await rated_env.ratings.global_change(game_id)
    assert change is not None
    assert change.after == pytest.approx((expected[0].rating, expected[1].rating))


async def test_leaderboard_scope_global_and_its_default_in_dms(rated_env: Env) -> None:
    await play_game(rated_env, "asli")
    await play_game(rated_env, "asli", challenger=CY, opponent=ANA, guild=OTHER_GUILD)
    cog = RatingCommands()
    here = StandIn(rated_env, CY)
    await invoke(RatingCommands.leaderboard, cog, here, "asli", False)
    assert here.answer["embed"].title == "Asli: leaderboard"
    assert "Cy" not in here.answer["embed"].description  # Cy never played here
    wide = StandIn(rated_env, CY)
    scope = SimpleNamespace(value="global", name="every server")
    await invoke(RatingCommands.leaderboard, cog, wide, "asli", False, scope)
    board = wide.answer["embed"]
    assert board.title == "Asli: leaderboard of every server"
    assert all(name in board.description for name in ("Ana", "Bo", "Cy"))
    assert "(2–0 in 2)" in board.description or "in 2)" in board.description
    in_dms = StandIn(rated_env, CY, guild_id=None)  # type: ignore[arg-type]
    await invoke(RatingCommands.leaderboard, cog, in_dms, "asli", False)
    assert in_dms.answer["embed"].title == "Asli: leaderboard of every server"
    server_in_dms = StandIn(rated_env, CY, guild_id=None)  # type: ignore[arg-type]
    scope = SimpleNamespace(value="server", name="this server")
    await invoke(RatingCommands.leaderboard, cog, server_in_dms, "asli", False, scope)
    assert server_in_dms.answer["ephemeral"] and "server" in server_in_dms.answer["content"]
