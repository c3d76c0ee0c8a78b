"""``/tournament`` and the sign-up buttons, called as discord.py calls them: refusals
are private and change nothing; a forged or stale button is answered privately."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.competitions.commands import TournamentCommands, read_duration
from bot.competitions.views import SignupButton, signup_items
from bot.storage import queries
from tests.bot.competitions.test_posts import service
from tests.bot.competitions.test_service import GAME, PLAYERS
from tests.bot.conftest import GUILD, SMALL, Env
from tests.bot.interactions import Interaction, invoke, user

SWISS = app_commands.Choice(name="Swiss", value="swiss")
FULL = app_commands.Choice(name="knockout", value="knockout")


def interaction(env: Env, member: Any, *, manager: bool = False) -> Interaction:
    made = Interaction(env, member)
    made.permissions = SimpleNamespace(manage_guild=manager)  # type: ignore[attr-defined]
    return made


async def create(env: Env, member: Any, *, manager: bool, **given: Any) -> Interaction:
    command = TournamentCommands.tournament.get_command("create")
    assert isinstance(command, app_commands.Command)
    asked = interaction(env, member, manager=manager)
    values = {
        "game": GAME,
        "name": "Cup",
        "format": SWISS,
        "deadline": "2d",
        "rounds": 3,
        "size": SMALL[GAME].get("size"),
        **given,
    }
    await invoke(command, TournamentCommands(), asked, **values)
    return asked


async def stored(env: Env) -> list:
    async with env.db.reading() as conn:
        return await queries.tournaments_of_guild(conn, GUILD, ["signup", "running", "cancelled"])


async def test_making_a_tournament_needs_manage_server(env: Env) -> None:
    asked = await create(env, PLAYERS[0], manager=False)
    assert asked.answers() == ["Making a tournament needs the Manage Server permission."]
    assert all(kw.get("ephemeral") for _, kw in asked.response.calls)
    assert await stored(env) == []


async def test_impossible_settings_are_refused_privately(env: Env) -> None:
    for given, said in (
        ({"deadline": "soon"}, "Say when sign-up ends"),
        ({"rounds": 5, "min_players": 2}, "needs at least 6 players"),
        ({"size": 999}, "can't be played like that"),
    ):
        asked = await create(env, PLAYERS[0], manager=True, **given)
        [answer] = asked.answers()
        assert said in answer
    assert await stored(env) == []


async def test_made_then_joined_by_button_then_a_stale_button(env: Env) -> None:
    asked = await create(env, PLAYERS[0], manager=True)
    [answer] = asked.answers()
    assert "is open for sign-up" in answer
    [made] = await stored(env)
    items = signup_items(-made.id, str(made.id))
    assert [i.custom_id for i in items] == [
        f"bb:tournament:join:{made.id}",
        f"bb:tournament:leave:{made.id}",
    ]
    clicked = interaction(env, PLAYERS[1])
    await SignupButton("join", made.id).callback(clicked)
    assert clicked.answers()[-1].startswith("You're in **Cup**")
    again = interaction(env, PLAYERS[1])
    await SignupButton("join", made.id).callback(again)
    assert again.answers()[-1] == "You are already in Cup."
    forged = interaction(env, PLAYERS[2])
    await SignupButton("join", 99_999).callback(forged)
    assert forged.answers()[-1] == "That tournament doesn't exist."
    other = interaction(env, PLAYERS[2])
    await invoke(TournamentCommands.cancel, TournamentCommands(), other, made.id)
    assert other.answers() == ["Only P0 (or someone who may manage the server) can cancel Cup."]
    owner = interaction(env, PLAYERS[0])
    await invoke(TournamentCommands.cancel, TournamentCommands(), owner, made.id)
    assert owner.answers() == ["**Cup** is cancelled."]
    stale = interaction(env, PLAYERS[3])
    await SignupButton("join", made.id).callback(stale)
    assert stale.answers()[-1] == "Cup is cancelled."
    entrants = await service(env).entrants(made.id)
    assert [e.member_id for e in entrants] == [PLAYERS[1].id]


async def test_h2h_against_oneself_is_refused(env: Env) -> None:
    asked = interaction(env, PLAYERS[0])
    await invoke(TournamentCommands.h2h, TournamentCommands(), asked, user(PLAYERS[0]))
    assert asked.answers() == ["Name another member: your record against yourself is empty."]
    asked = interaction(env, PLAYERS[0])
    await invoke(TournamentCommands.h2h, TournamentCommands(), asked, user(PLAYERS[1]))
    assert asked.answers() == ["You haven't finished a game against P1 here yet."]


def test_deadlines_read_as_times_from_now() -> None:
    assert read_duration("2d").days == 2
    assert read_duration("1d12h").total_seconds() == 36 * 3600
    assert read_duration("90m").total_seconds() == 90 * 60


async def test_a_league_needs_manage_server_and_a_known_season(env: Env) -> None:
    from bot.competitions.commands import LeagueCommands

    command = LeagueCommands.league.get_command("create")
    assert isinstance(command, app_commands.Command)
    for manager, said in ((False, "needs the Manage Server permission"), (True, "takes members")):
        asked = interaction(env, PLAYERS[0], manager=manager)
        leagues = env.app.leagues
        await invoke(
            command, LeagueCommands(), asked, game=GAME, name="Club", deadline="1d", size=None
        )
        [answer] = asked.answers()
        assert said in answer
    [made] = await leagues.listed(GUILD)
    asked = interaction(env, PLAYERS[0])
    await invoke(LeagueCommands.standings, LeagueCommands(), asked, made.id)
    assert asked.answers() == ["Club has not started yet."]


async def test_a_ladder_shown_and_a_challenge_out_of_reach_refused(env: Env) -> None:
    from bot.competitions.commands import LadderCommands

    ladders = env.app.ladders
    made = await ladders.create(
        guild_id=GUILD, channel_id=1, organiser=PLAYERS[0], name="Steps", game=GAME
    )
    for member in PLAYERS[:5]:
        await ladders.join(guild_id=GUILD, ladder_id=made.id, member=member)
    asked = interaction(env, PLAYERS[4])
    await invoke(LadderCommands.challenge, LadderCommands(), asked, made.id, user(PLAYERS[0]))
    assert asked.answers()[-1] == (
        "You are 5th: you may challenge the 3 places above yours, and P0 is 1st."
    )
    assert env.poster.challenges == []
    # someone who left the server: resolved as a user, not a member
    gone = discord.Object(PLAYERS[2].id)
    departed = discord.User.__new__(discord.User)
    departed.id, departed.name, departed.global_name = gone.id, "P2", None
    asked = interaction(env, PLAYERS[3])
    await invoke(LadderCommands.challenge, LadderCommands(), asked, made.id, departed)
    assert asked.answers() == [
        "P2 is not a member of this server (any more): challenge someone who is."
    ]
    shown = interaction(env, PLAYERS[1])
    await invoke(LadderCommands.show, LadderCommands(), shown, made.id)
    [sent] = shown.followup.sent
    assert sent["content"].splitlines()[1:3] == ["1. P0 (0–0)", "2. P1 (0–0)"]
    assert sent["file"].filename == "ladder.png"


async def test_the_standings_of_a_finished_tournament_with_its_crosstable(env: Env) -> None:
    from datetime import timedelta

    from tests.bot.competitions.test_service import finish

    svc = service(env)
    made = await svc.create(
        guild_id=GUILD,
        channel_id=1,
        organiser=PLAYERS[0],
        name="Duel",
        format="round_robin",
        game=GAME,
        options=SMALL[GAME],
        starts_at=env.clock() + timedelta(days=1),
        min_players=2,
    )
    for member in PLAYERS[:2]:
        await svc.join(guild_id=GUILD, tournament_id=made.id, member=member)
    await svc.start_now(guild_id=GUILD, tournament_id=made.id, member=PLAYERS[0])
    [g] = (await svc.table(GUILD, made.id)).games
    await finish(env, g, 0.5)
    asked = Interaction(env, PLAYERS[3])
    await invoke(TournamentCommands.standings, TournamentCommands(), asked, made.id)
    [sent] = asked.followup.sent
    assert sent["content"].startswith("**Duel**: a round robin of Lifeline, finished.")
    assert "½" in sent["content"] or "0.5" in sent["content"]
    assert sent["file"].filename == "standings.png"


async def test_full_and_past_deadlines_and_second_joins_are_refused(env: Env) -> None:
    """Each refused privately, nothing changed: a tournament full, a deadline now (so
    past by the time it is read), joining a league or a ladder twice."""
    asked = await create(env, PLAYERS[0], manager=True, deadline="0m")
    assert "in the past" in asked.answers()[-1]
    assert await stored(env) == []
    svc = service(env)
    await create(
        env, PLAYERS[0], manager=True, format=FULL, rounds=None, min_players=2, max_players=2
    )
    [made] = await stored(env)
    for member in PLAYERS[1:3]:
        await SignupButton("join", made.id).callback(interaction(env, member))
    late = interaction(env, PLAYERS[3])
    await SignupButton("join", made.id).callback(late)
    assert late.answers()[-1] == "Cup is full (2 players)."
    assert [e.member_id for e in await svc.entrants(made.id)] == [p.id for p in PLAYERS[1:3]]
    from bot.competitions.commands import LadderCommands, LeagueCommands

    ladder = await env.app.ladders.create(
        guild_id=GUILD, channel_id=1, organiser=PLAYERS[0], name="Steps", game=GAME
    )
    league = await env.app.leagues.create(
        guild_id=GUILD,
        channel_id=1,
        organiser=PLAYERS[0],
        name="Club",
        game=GAME,
        starts_at=env.clock() + timedelta(days=1),
    )
    for cog, command, number in (
        (LadderCommands(), LadderCommands.join, ladder.id),
        (LeagueCommands(), LeagueCommands.join, league.id),
    ):
        await invoke(command, cog, interaction(env, PLAYERS[1]), number)
        again = interaction(env, PLAYERS[1])
        await invoke(command, cog, again, number)
        assert again.answers()[-1].startswith("You are already on") or again.answers()[
            -1
        ].startswith("You are already in"), again.answers()
        assert all(kw.get("ephemeral") for _, kw in again.response.calls)
    view = await env.app.ladders.view(GUILD, ladder.id)
    assert [r.member_id for r in view.rungs] == [PLAYERS[1].id]


@pytest.mark.both_backends
async def test_profile_lists_the_members_competitions(env: Env) -> None:
    from bot.ratings.commands import RatingCommands

    await create(env, PLAYERS[0], manager=True)
    [made] = await stored(env)
    await SignupButton("join", made.id).callback(interaction(env, PLAYERS[1]))
    ladder = await env.app.ladders.create(
        guild_id=GUILD, channel_id=1, organiser=PLAYERS[0], name="Steps", game=GAME
    )
    for member in PLAYERS[:2]:
        await env.app.ladders.join(guild_id=GUILD, ladder_id=ladder.id, member=member)
    asked = interaction(env, PLAYERS[1])
    await invoke(RatingCommands.profile, RatingCommands(), asked)
    [(_, sent)] = asked.response.calls
    fields = {f.name: f.value for f in sent["embed"].fields}
    assert fields["Competitions (2)"].splitlines() == [
        f"🪜 Steps (ladder #{ladder.id}, place 2)",
        f"🏆 Cup (tournament #{made.id}, signing up)",
    ]
    other = interaction(env, PLAYERS[5])
    await invoke(RatingCommands.profile, RatingCommands(), other)
    [(_, sent)] = other.response.calls
    assert not any(f.name.startswith("Competitions") for f in sent["embed"].fields)
