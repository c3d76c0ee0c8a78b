"""The correspondence commands and buttons as discord.py calls them, the challenge's
clock options, and the two settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.challenges.commands import ChallengeCommands
from bot.config import ConfigError, load_settings
from bot.core.game_settings import challenge_settings
from bot.core.options import TimeControlOption
from bot.correspondence.commands import NOTIFY, VACATION, CorrespondenceCommands
from bot.correspondence.views import TakebackButton
from bot.model import UserError
from tests.bot.conftest import ANA, BO, CY
from tests.bot.correspondence.table import Table, open_table, start
from tests.bot.interactions import Interaction, invoke, user

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GAbCdE.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture
async def table(database_url: Path | str) -> AsyncIterator[Table]:
    async with open_table(database_url) as t:
        yield t


def asking(table: Table, member, **kwargs) -> Interaction:
    return Interaction(table.env, member, **kwargs)


def choice(choices, value: str):
    return next(c for c in choices if c.value == value)


def test_the_settings_have_defaults_and_refuse_nonsense() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, dotenv_path=None)
    assert (settings.reminder_share, settings.vacation_days) == (0.8, 14)
    tuned = load_settings(
        {"DISCORD_TOKEN": TOKEN, "REMINDER_SHARE": "0.5", "VACATION_DAYS": "30"}, dotenv_path=None
    )
    assert (tuned.reminder_share, tuned.vacation_days) == (0.5, 30)
    for name, value in (
        ("REMINDER_SHARE", "80%"),
        ("REMINDER_SHARE", "1"),
        ("VACATION_DAYS", "-3"),
        ("VACATION_DAYS", "two weeks"),
    ):
        with pytest.raises(ConfigError, match=name):
            load_settings({"DISCORD_TOKEN": TOKEN, name: value}, dotenv_path=None)


def test_the_challenge_clock_options() -> None:
    assert challenge_settings() == {"time_control": "3d", "takebacks": True, "vacation": True}
    assert challenge_settings("7", False, False) == {
        "time_control": "7d",
        "takebacks": False,
        "vacation": False,
    }
    assert challenge_settings("3d+1d/7d")["time_control"] == "3d+1d/7d"
    assert challenge_settings("none")["time_control"] == "none"
    for bad in ("4d", "12h", "3d+1d", "soon", "7d+1d/3d"):
        with pytest.raises(UserError, match="time control can't be used"):
            challenge_settings(bad)


async def test_the_time_control_autocomplete_offers_the_usual_ones(table: Table) -> None:
    offered = await TimeControlOption().autocomplete(asking(table, ANA), "")
    assert offered[0].value == "3d" and {"1d", "14d", "none", "3d+1d/7d"} <= {
        c.value for c in offered
    }
    typed = await TimeControlOption().autocomplete(asking(table, ANA), "2d+12h/4d")
    assert typed[0].value == "2d+12h/4d"


async def test_a_challenge_with_a_bad_time_control_is_refused_and_stores_nothing(
    table: Table,
) -> None:
    before = await table.env.dump()
    interaction = asking(table, ANA)
    await invoke(
        ChallengeCommands.challenge,
        ChallengeCommands(),
        interaction,
        "astralis",
        user(BO),
        7,
        None,
        None,
        True,
        "4 days",
    )
    [(kind, sent)] = interaction.response.calls
    assert kind == "send_message" and sent["ephemeral"] and "time control" in sent["content"]
    assert await table.env.dump() == before


async def test_a_challenge_shows_its_clock(table: Table) -> None:
    interaction = asking(table, ANA)
    await invoke(
        ChallengeCommands.challenge,
        ChallengeCommands(),
        interaction,
        "astralis",
        user(BO),
        7,
        None,
        None,
        True,
        "3d+1d/7d",
        False,
    )
    [(_, text, _)] = table.env.poster.challenges
    assert "a bank of 3 days, +1 day per move, up to 7 days, no takebacks" in text


async def test_my_turn_vacation_and_notify_commands(table: Table) -> None:
    urgent = await start(table, time_control="1d")
    await start(table, "lifeline", time_control="none")
    cog = CorrespondenceCommands()

    listed = asking(table, ANA)
    await invoke(cog.myturn, cog, listed)
    text = listed.followup.sent[0]["content"]
    assert text.startswith("**Your move in 2 games:**")
    assert text.index(f"Astralis #{urgent}") < text.index("Lifeline")
    assert "time runs out <t:" in text and "no time limit" in text
    idle = asking(table, BO)
    await invoke(cog.myturn, cog, idle)
    assert idle.followup.sent[0]["content"] == "No game is waiting for your move."

    for action, said in (
        ("on", "Enjoy your vacation"),
        ("on", "already on vacation"),
        ("status", "You are on vacation until"),
        ("off", "Welcome back"),
        ("off", "not on vacation"),
    ):
        asked = asking(table, ANA)
        await invoke(cog.vacation, cog, asked, choice(VACATION, action))
        assert said in asked.answers()[0], (action, asked.answers())

    asked = asking(table, ANA)
    await invoke(cog.notify, cog, asked, choice(NOTIFY, "digest"))
    assert "Once a day" in asked.answers()[0]
    assert await table.notifier.preference(ANA.id) == "digest"


async def test_takeback_and_abort_commands_and_buttons(table: Table) -> None:
    game_id = await start(table)
    thread = (await table.row(game_id)).thread_id
    await table.play(game_id)
    cog = CorrespondenceCommands()

    asked = asking(table, ANA, channel_id=thread)
    await invoke(cog.takeback, cog, asked, None)
    assert asked.followup.sent[0]["content"] == f"Asked Bo in Astralis #{game_id}'s thread."
    request = table.env.poster.posts_for(game_id)[-1]
    [takeback_id] = [int(a.split(":")[1]) for a in request.actions]

    for wrong in (ANA, CY):
        click = asking(table, wrong, message_id=77)
        click.message.content = request.content
        await TakebackButton("accept", takeback_id).callback(click)
        assert click.followup.sent[0]["ephemeral"] and click.edits == []
    click = asking(table, BO, message_id=77)
    click.message.content = request.content
    await TakebackButton("decline", takeback_id).callback(click)
    assert click.edits[-1]["content"].endswith("❌ Declined by Bo.")
    assert click.edits[-1]["view"] is None

    aborted = asking(table, BO, channel_id=thread)
    await invoke(cog.abort, cog, aborted, None)
    assert (
        aborted.followup.sent[0]["content"]
        == f"Astralis #{game_id} is aborted: it counts for nothing."
    )
    assert (await table.row(game_id)).status == "aborted"
