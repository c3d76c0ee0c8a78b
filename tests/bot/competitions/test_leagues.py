"""Leagues: divisions by rating, a double round robin each, the top 2 up and the bottom
2 down, the next season begun by itself, members staying in until they leave,
earlier seasons viewable."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.competitions.leagues import (
    LARGEST_DIVISION,
    Leagues,
    divide,
    next_divisions,
    next_order,
)
from bot.model import Member, UserError
from tests.bot.competitions.test_service import GAME, ORGANISER
from tests.bot.conftest import CHANNEL, GUILD, SMALL, Env

MEMBERS = [Member(200 + i, f"M{i}") for i in range(14)]

# (the season turns and their queries, on both databases)
pytestmark = pytest.mark.both_backends


@given(st.integers(1, 120), st.integers(6, 10))
def test_divisions_are_about_the_size_asked_and_none_too_large(n: int, size: int) -> None:
    order = list(range(n))
    cut = divide(order, size)
    assert [m for d in cut for m in d] == order
    sizes = [len(d) for d in cut]
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= max(LARGEST_DIVISION, 1)
    assert sizes == sorted(sizes, reverse=True)


def test_the_top_two_go_up_and_the_bottom_two_down() -> None:
    order = next_order([[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18]])
    assert order == [1, 2, 3, 4, 7, 8, 5, 6, 9, 10, 13, 14, 11, 12, 15, 16, 17, 18]
    last = [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    staying = set(range(1, 13)) - {12}
    assert next_divisions(last, staying, [13], 6) == [[1, 2, 3, 4, 7, 8], [5, 6, 9, 10, 11, 13]]
    # one leaves the top division: too small, so cut again, in the same order
    staying = set(range(1, 13)) - {1}
    assert next_divisions(last, staying, [], 6) == [[2, 3, 4, 7, 8, 5], [6, 9, 10, 11, 12]]


async def play_division_seasons(env: Env, leagues: Leagues, league_id: int, season: int) -> None:
    """Every game of the season: in each game the member who joined first wins."""
    svc = leagues.tournaments
    while True:
        _, _, tables = await leagues.season_tables(GUILD, league_id, season)
        waiting = []
        for t, _ in tables:
            table = await svc.table(GUILD, t.id)
            waiting += [g for g in table.games if g.points is None and g.game_id is not None]
        if not waiting:
            return
        for g in waiting:
            assert g.player1_id is not None and g.game_id is not None
            loser = max(g.player0_id, g.player1_id)
            await env.moves.resign(guild_id=GUILD, game_id=g.game_id, member=Member(loser, "L"))


async def test_a_league_plays_a_season_then_begins_the_next_by_itself(env: Env) -> None:
    leagues = env.app.leagues
    made = await leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser=ORGANISER,
        name="Club league",
        game=GAME,
        options=SMALL[GAME],
        starts_at=env.clock() + timedelta(days=1),
        division_size=6,
    )
    for member in MEMBERS[:12]:
        await leagues.join(guild_id=GUILD, league_id=made.id, member=member)
    with pytest.raises(UserError, match="already in"):
        await leagues.join(guild_id=GUILD, league_id=made.id, member=MEMBERS[0])
    env.clock.advance(days=1)
    assert await leagues.start_due() == [made.id]
    assert await leagues.start_due() == []
    league, season, tables = await leagues.season_tables(GUILD, made.id)
    assert (league.season, season, len(tables)) == (1, 1, 2)
    assert all(len(table) == 6 and t.status == "running" for t, table in tables)
    # Someone leaves (they finish the season), someone joins (next season, at the bottom).
    await leagues.leave(guild_id=GUILD, league_id=made.id, member=MEMBERS[11])
    await leagues.join(guild_id=GUILD, league_id=made.id, member=MEMBERS[12])
    await play_division_seasons(env, leagues, made.id, 1)
    _, _, first = await leagues.season_tables(GUILD, made.id, 1)
    assert all(t.status == "finished" for t, _ in first)
    # The next season waits for the break after the last game (a day by default)
    assert (await leagues.get(GUILD, made.id)).season == 1
    assert await leagues._next_start() == max(t.finished_at for t, _ in first) + timedelta(days=1)
    env.clock.advance(hours=23)
    assert await leagues.start_due() == []
    env.clock.advance(hours=1)
    assert await leagues.start_due() == [made.id]
    assert await leagues.start_due() == []
    top, bottom = ([s.player for s in table] for _, table in first)
    league, season, second = await leagues.season_tables(GUILD, made.id)
    assert (league.season, season) == (2, 2)
    upper, lower = ([s.player for s in table] for _, table in second)
    assert set(top[-2:]) <= set(lower) and set(bottom[:2]) <= set(upper)
    assert MEMBERS[11].id not in upper + lower and MEMBERS[12].id in lower
    assert sorted(upper + lower) == sorted(m.id for m in MEMBERS[:13] if m != MEMBERS[11])
    # the first season is still there to see
    _, _, again = await leagues.season_tables(GUILD, made.id, 1)
    assert [[s.player for s in table] for _, table in again] == [top, bottom]
    with pytest.raises(UserError, match="pick one"):
        await leagues.season_tables(GUILD, made.id, 5)


async def test_impossible_league_settings_are_refused(env: Env) -> None:
    leagues = env.app.leagues
    base = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "organiser": ORGANISER,
        "name": "L",
        "game": GAME,
        "starts_at": env.clock() + timedelta(days=1),
    }
    with pytest.raises(UserError, match="6 to 10"):
        await leagues.create(**{**base, "division_size": 12})
    with pytest.raises(UserError, match="in the past"):
        await leagues.create(**{**base, "starts_at": env.clock()})
    with pytest.raises(UserError, match="0 to 720 hours"):
        await leagues.create(**{**base, "break_hours": 721})
    assert await leagues.listed(GUILD) == []


async def test_a_season_over_while_the_bot_was_down_is_followed_at_start(env: Env) -> None:
    leagues = env.app.leagues
    made = await leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser=ORGANISER,
        name="Small league",
        game=GAME,
        options=SMALL[GAME],
        starts_at=env.clock() + timedelta(hours=1),
        division_size=6,
    )
    for member in MEMBERS[:4]:
        await leagues.join(guild_id=GUILD, league_id=made.id, member=member)
    env.clock.advance(hours=1)
    assert await leagues.start_due() == [made.id]
    # Its games end without the leagues hearing of it (the bot's leagues down meanwhile).
    with env.without(leagues):
        await play_division_seasons(env, leagues, made.id, 1)
    assert (await leagues.get(GUILD, made.id)).season == 1
    env.clock.advance(days=1)  # the break between seasons went by too
    await leagues.start()
    try:
        league, season, tables = await leagues.season_tables(GUILD, made.id)
        assert (league.season, season, len(tables)) == (2, 2, 1)
        assert tables[0][0].status == "running"
    finally:
        await leagues.stop()


async def test_a_crash_while_a_season_begins_is_made_good_by_the_timers(env: Env) -> None:
    """The process dies after the season's turn is stored (its divisions with it) and
    before any division started: no division is lost, each starts once, and the news of
    who went up and down is in the finished divisions' threads."""
    leagues, tournaments = env.app.leagues, env.app.tournaments
    made = await leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser=ORGANISER,
        name="Crash league",
        game=GAME,
        options=SMALL[GAME],
        starts_at=env.clock() + timedelta(hours=1),
        division_size=6,
    )
    for member in MEMBERS[:12]:
        await leagues.join(guild_id=GUILD, league_id=made.id, member=member)
    env.clock.advance(hours=1)

    async def dies(made: object) -> None:
        raise RuntimeError("the process died here")

    launch = tournaments.launch
    tournaments.launch = dies  # type: ignore[method-assign]
    try:
        with pytest.raises(RuntimeError):
            await leagues.start_due()
    finally:
        tournaments.launch = launch  # type: ignore[method-assign]
    league, _, tables = await leagues.season_tables(GUILD, made.id)
    assert league.season == 1 and [t.status for t, _ in tables] == ["signup", "signup"]
    assert await leagues.start_due() == []  # begun: not again
    assert not await leagues.turn(made.id)  # its divisions not started are not over
    assert sorted(await tournaments.start_due()) == sorted(t.id for t, _ in tables)
    _, _, tables = await leagues.season_tables(GUILD, made.id)
    assert [t.status for t, _ in tables] == ["running", "running"]
    assert await tournaments.start_due() == []
    await play_division_seasons(env, leagues, made.id, 1)
    env.clock.advance(days=1)
    assert await leagues.start_due() == [made.id]
    _, _, first = await leagues.season_tables(GUILD, made.id, 1)
    news = [p.content for p in env.poster.posts_for(-first[0][0].id)]
    upper = [s.player for s in first[0][1]]
    names = {m.id: m.name for m in MEMBERS}
    said = next(n for n in news if "Relegated" in n)
    assert f"{names[upper[-1]]} (division 2)" in said and "Season 2 begins" in said


async def test_a_league_left_by_too_many_ends_after_its_season(env: Env) -> None:
    """Too few members stay for another season: the league ends (its timer has
    nothing more to wait for) and takes no one any more."""
    leagues = env.app.leagues
    made = await leagues.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser=ORGANISER,
        name="Tiny league",
        game=GAME,
        options=SMALL[GAME],
        starts_at=env.clock() + timedelta(hours=1),
        break_hours=0,
    )
    for member in MEMBERS[:4]:
        await leagues.join(guild_id=GUILD, league_id=made.id, member=member)
    env.clock.advance(hours=1)
    assert await leagues.start_due() == [made.id]
    await leagues.leave(guild_id=GUILD, league_id=made.id, member=MEMBERS[0])
    await play_division_seasons(env, leagues, made.id, 1)
    assert await leagues.start_due() == []
    assert (await leagues.get(GUILD, made.id)).status == "stopped"
    assert await leagues._next_start() is None
    with pytest.raises(UserError, match="is over"):
        await leagues.join(guild_id=GUILD, league_id=made.id, member=MEMBERS[5])
