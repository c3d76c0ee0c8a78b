"""``/challenge`` and the challenge buttons, called as discord.py calls them."""

from __future__ import annotations

import re
from typing import Any

import discord

import rules
from bot import texts
from bot.challenges.commands import ChallengeCommands
from bot.challenges.views import ChallengeButton
from bot.core.options import option_values
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, Env
from tests.bot.interactions import Interaction, invoke, user


async def challenge(env: Env, member=ANA, opponent=BO, **options: Any) -> Interaction:
    interaction = Interaction(env, member)
    await invoke(
        ChallengeCommands.challenge,
        ChallengeCommands(),
        interaction,
        options.pop("game", "astralis"),
        user(opponent) if opponent else None,
        options.pop("size", 7),
        None,
        None,
    )
    return interaction


async def test_a_refused_challenge_is_ephemeral_and_posts_nothing(env: Env) -> None:
    interaction = await challenge(env, opponent=ANA)
    # answered first, privately; the refusal follows in private too
    assert interaction.response.calls == [("defer", {"ephemeral": True, "thinking": True})]
    [sent] = interaction.followup.sent
    assert sent["ephemeral"] is True
    assert sent["content"].startswith("You can't challenge yourself")
    assert (await env.dump())["challenges"] == [] and env.poster.challenges == []


async def test_decline_and_cancel_buttons(env: Env) -> None:
    await challenge(env)
    wrong = Interaction(env, CY)
    await ChallengeButton("decline", 1).callback(wrong)
    assert wrong.answers() == ["Only Bo can decline this challenge."]
    declined = Interaction(env, BO)
    await ChallengeButton("decline", 1).callback(declined)
    assert "❌ Declined by Bo." in declined.edits[-1]["content"]
    await challenge(env)
    cancelled = Interaction(env, ANA)
    await ChallengeButton("cancel", 2).callback(cancelled)
    assert "🚫 Cancelled by Ana." in cancelled.edits[-1]["content"]


async def test_option_autocompletes_follow_the_chosen_game(env: Env) -> None:
    interaction = Interaction(env, ANA, game="lifeline")
    openings, sizes = option_values("opening"), option_values("size")
    assert [c.value for c in await openings(interaction, "")] == [
        "strong-pie",
        "weak-pie",
        "komi-pie",
    ]
    assert [c.value for c in await sizes(interaction, "")][:3] == [7, 3, 4]
    # no game of ours picked yet: a hint of what each game takes (tests/bot/core/test_options)
    assert all(
        "pick the game first" in c.name
        for c in await sizes(Interaction(env, ANA, game="chess"), "")
    )


def test_the_games_own_options_are_the_challenges_and_no_description_names_a_game() -> None:
    params = ChallengeCommands.challenge._params
    assert {o.name for game in rules.GAMES.values() for o in game.options()} <= set(params)
    assert params["size"].type is discord.AppCommandOptionType.integer
    for param in params.values():
        assert 1 <= len(param.description) <= 100
        for game in rules.GAMES.values():
            assert game.title.lower() not in param.description.lower(), param.description


async def test_a_challenge_and_the_game_it_becomes_show_one_number(env: Env) -> None:
    """A member sees one number, the game's, which they can type where a game is asked
    for: the challenge message shows no number of its own beside it."""
    first = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=CY, game="asli", opponent=BO
    )
    await env.challenges.cancel(guild_id=GUILD, challenge_id=first.id, member=CY)
    made = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game="sliglube", opponent=BO
    )
    assert made.id == 2
    numbers = re.compile(r"(?<!<)#\d+")  # not a channel's <#id>
    assert numbers.findall(texts.challenge_text(made)) == []
    await env.challenges.set_message(made.id, 5000)  # posted
    update = await env.challenges.accept(guild_id=GUILD, challenge_id=made.id, member=BO)
    assert update.game.id == 1
    *_, (shown_id, closed, _) = env.poster.shown
    assert shown_id == made.id
    assert numbers.findall(closed) == ["#1"] and "**Sliglube #1**" in closed
