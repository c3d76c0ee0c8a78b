"""The slash commands and buttons, called as discord.py calls them, with a stand-in
Interaction that records the answers: each command answers once, in time, and
refusals are ephemeral."""

from __future__ import annotations

import pytest

from bot.challenges.views import ChallengeButton, challenge_view
from bot.core.options import MyGame
from bot.play.commands import PlayCommands, legal_moves
from bot.play.views import FORMS, NUMBER_FORM, DecisionButton, NumberButton, ResignButton
from bot.ui.forms import submit_form
from tests.bot.challenges.test_commands import challenge
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, Env
from tests.bot.interactions import Interaction, invoke


async def test_challenge_accept_move_resign_through_the_handlers(env: Env) -> None:
    posted = await challenge(env)
    assert posted.response.calls == [("defer", {"ephemeral": True, "thinking": True})]
    [(challenge_id, text, message_id)] = env.poster.challenges
    assert challenge_id == 1 and "challenges <@2> to **Astralis**" in text
    [told] = posted.followup.sent
    assert told["ephemeral"] is True and told["content"] == (
        "Your challenge to Bo is posted: "
        f"https://discord.com/channels/{GUILD}/{CHANNEL}/{message_id}"
    )
    view = challenge_view(await env.challenges.get(GUILD, 1))
    assert [item.custom_id for item in view.children] == [
        "bb:challenge:accept:1",
        "bb:challenge:decline:1",
        "bb:challenge:cancel:1",
    ]

    click = Interaction(env, BO, message_id=5555)
    await ChallengeButton("accept", 1).callback(click)
    assert click.response.calls == [("defer", {})]
    row = await env.games.get_game(GUILD, 1)
    stored = await env.challenges.get(GUILD, 1)
    assert row.challenge_message_id == stored.message_id is not None  # the thread grows there
    assert (
        f"Accepted by Bo: **Astralis #1** has started in <#{row.thread_id}>"
        in click.edits[-1]["content"]
    )
    assert click.edits[-1]["view"] is None

    thread = row.thread_id
    choices = await legal_moves(Interaction(env, ANA, channel_id=thread), "a")
    assert [c.value for c in choices] == ["a2", "a3", "a4", "a5", "a6"]
    played = Interaction(env, ANA, channel_id=thread)
    await invoke(PlayCommands.move, PlayCommands(), played, "A3", None)
    assert played.response.calls == [("defer", {"ephemeral": True, "thinking": True})]
    # A jump link in words to the new board, not a bare URL.
    board = env.poster.sent[-1]
    assert played.followup.sent[0]["content"] == (
        f"You played `a3` in [Astralis #1](https://discord.com/channels/{GUILD}/{thread}/"
        f"{board.message_id})."
    )

    refused = Interaction(env, ANA, channel_id=thread)
    await invoke(PlayCommands.move, PlayCommands(), refused, "m3", None)
    assert refused.followup.sent == [
        {"content": "It's not your turn in Astralis #1: waiting for Bo.", "ephemeral": True}
    ]

    asked = Interaction(env, BO)
    await invoke(PlayCommands.resign, PlayCommands(), asked, None)
    [confirm] = asked.followup.sent
    assert confirm["ephemeral"] and "Resign **Astralis #1** against Ana?" in confirm["content"]
    [button] = confirm["view"].children
    assert button.custom_id == f"bb:resign:1:{BO.id}"
    stranger = Interaction(env, CY)
    await ResignButton(1, BO.id).callback(stranger)
    assert stranger.answers() == ["This confirmation belongs to someone else."]
    yes = Interaction(env, BO)
    await ResignButton(1, BO.id).callback(yes)
    assert yes.edits[-1]["content"] == "You resigned Astralis #1. Yellow wins: Cyan resigned."
    assert (await env.games.get_game(GUILD, 1)).winner_seat == 0


async def test_an_out_of_date_choice_button(env: Env) -> None:
    await challenge(env, game="sliglube", size=5)
    await ChallengeButton("accept", 1).callback(Interaction(env, BO))
    await env.moves.play_move(guild_id=GUILD, game_id=1, member=ANA, text="c3")
    chosen = Interaction(env, BO)
    await DecisionButton(1, 1, "white").callback(chosen)
    assert chosen.edits == [{"view": None}]
    again = Interaction(env, BO)
    await DecisionButton(1, 1, "black").callback(again)
    assert again.answers() == ["That button is out of date: the game has moved on since."]


async def test_board_and_games(env: Env) -> None:
    await challenge(env)
    await ChallengeButton("accept", 1).callback(Interaction(env, BO))
    info = PlayCommands()

    board = Interaction(env, CY)  # a spectator may look
    await invoke(PlayCommands.board, info, board, "#1", False)
    [shown] = board.followup.sent
    assert shown["ephemeral"] is True and shown["file"].filename == "board.png"
    assert shown["content"].startswith("**Astralis #1**: Ana (yellow) vs Bo (cyan) · move 0")

    games = Interaction(env, ANA)
    await invoke(PlayCommands.games, info, games, None)
    embed = games.followup.sent[0]["embed"]
    assert "Astralis #1" in embed.fields[0].value and "**your turn**" in embed.fields[0].value


async def test_the_game_options_suggest_the_members_games(env: Env) -> None:
    assert await MyGame().autocomplete(Interaction(env, ANA, guild_id=None), "") == []


@pytest.mark.parametrize("command", ["move", "resign"])
async def test_no_game_here(env: Env, command: str) -> None:
    interaction = Interaction(env, ANA)
    handler = getattr(PlayCommands, command)
    arguments = ("c3", None) if command == "move" else (None,)
    await invoke(handler, PlayCommands(), interaction, *arguments)
    assert interaction.answers() == [
        "You have no game in progress here: start one with /challenge, or name a game with "
        "the `game` option."
    ]


async def test_a_number_decision_through_its_button_and_form(env: Env) -> None:
    """Asli's komi: the game asks for a number; its button opens a form titled with the
    game's question, and the form's answer is played as the game's move."""
    await challenge(env, game="asli", size=5)
    await ChallengeButton("accept", 1).callback(Interaction(env, BO))
    opened = Interaction(env, ANA)
    await NumberButton(1, 0, 0).callback(opened)
    [(kind, sent)] = opened.response.calls
    form = sent["modal"]
    assert kind == "send_modal" and form.title == "Komi (0–25)"
    assert form.custom_id == "bb:numberform:1:0:0" and NUMBER_FORM.fullmatch(form.custom_id)

    async def submit(member, typed: str) -> Interaction:
        submitted = Interaction(env, member)
        submitted.data = {
            "custom_id": form.custom_id,
            "components": [
                {"type": 1, "components": [{"type": 4, "custom_id": "number", "value": typed}]}
            ],
        }
        await submit_form(submitted, FORMS)
        return submitted

    assert (await submit(ANA, "lots")).answers() == [
        "`lots` won't do: type a whole number from 0 to 25."
    ]
    assert (await submit(ANA, "26")).answers() == [
        "`26` won't do: type a whole number from 0 to 25."
    ]
    assert (await submit(BO, "3")).answers() == ["It's not your turn in Asli #1: waiting for Ana."]
    assert (await submit(ANA, " 3 ")).answers() == ["Done: `komi 3`."]
    row = await env.games.get_game(GUILD, 1)
    assert (await env.games.state_of(row)).history == ("komi 3",)
    assert (await submit(ANA, "4")).answers() == [
        "That button is out of date: the game has moved on since."
    ]
