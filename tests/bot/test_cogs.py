"""The slash commands and buttons, called as discord.py calls them, with a stand-in
Interaction that records the answers: each command answers once, in time, and
refusals are ephemeral."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cogs.autocomplete import moves, my_games
from bot.cogs.challenge import Challenges, openings, sizes
from bot.cogs.info import Info
from bot.cogs.play import Play
from bot.errors import report
from bot.service import UserError
from bot.views import ChallengeButton, ChoiceButton, ResignButton
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, Env

_ids = itertools.count(7000)


def user(member) -> Any:
    return SimpleNamespace(id=member.id, display_name=member.name, bot=member.bot,
                           mention=f"<@{member.id}>")


@dataclass
class Response:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def is_done(self) -> bool:
        return bool(self.calls)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        assert not self.calls, "answered twice"
        self.calls.append(("send_message", {"content": content, **kwargs}))

    async def defer(self, **kwargs: Any) -> None:
        assert not self.calls, "answered twice"
        self.calls.append(("defer", kwargs))

    async def send_modal(self, modal: Any) -> None:
        assert not self.calls, "answered twice"
        self.calls.append(("send_modal", {"modal": modal}))


@dataclass
class Followup:
    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


class Interaction:
    def __init__(self, env: Env, member, *, channel_id: int = CHANNEL, guild_id: int = GUILD,
                 message_id: int | None = None, **namespace: Any) -> None:
        self.client = SimpleNamespace(service=env.service)
        self.user = user(member)
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.namespace = SimpleNamespace(**namespace)
        self.message = SimpleNamespace(id=message_id) if message_id else None
        self.response = Response()
        self.followup = Followup()
        self.edits: list[dict[str, Any]] = []
        self.type = None
        self.command = None
        self.data: dict[str, Any] = {}

    async def original_response(self) -> Any:
        return SimpleNamespace(id=next(_ids))

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)

    def answers(self) -> list[str]:
        """Everything said to the member, in order."""
        said = [kw.get("content") for name, kw in self.response.calls if name == "send_message"]
        return [*said, *(sent["content"] for sent in self.followup.sent),
                *(edit.get("content") for edit in self.edits)]


async def run(call, interaction: Interaction) -> Interaction:
    """Invoke like the command tree does: errors go to the central handler."""
    try:
        await call
    except UserError as error:
        await report(interaction, error)
    return interaction


async def challenge(env: Env, member=ANA, opponent=BO, **options: Any) -> Interaction:
    interaction = Interaction(env, member)
    await run(Challenges().challenge.callback(
        Challenges(), interaction, options.pop("game", "astralis"),
        user(opponent) if opponent else None, options.pop("size", 7), None, None), interaction)
    return interaction


async def test_challenge_accept_move_resign_through_the_handlers(env: Env) -> None:
    posted = await challenge(env)
    [(kind, sent)] = posted.response.calls
    assert kind == "send_message" and "challenges <@2> to **Astralis**" in sent["content"]
    assert [item.custom_id for item in sent["view"].children] == [
        "bb:challenge:accept:1", "bb:challenge:decline:1", "bb:challenge:cancel:1"]

    click = Interaction(env, BO, message_id=5555)
    await ChallengeButton("accept", 1).callback(click)
    assert click.response.calls == [("defer", {})]
    row = await env.service.get_game(GUILD, 1)
    stored = await env.service.get_challenge(GUILD, 1)
    assert row.challenge_message_id == stored.message_id is not None  # the thread grows there
    assert f"Accepted by Bo: **Astralis #1** has started in <#{row.thread_id}>" in \
        click.edits[-1]["content"]
    assert click.edits[-1]["view"] is None

    thread = row.thread_id
    choices = await moves(Interaction(env, ANA, channel_id=thread), "a")
    assert [c.value for c in choices] == ["a2", "a3", "a4", "a5", "a6"]
    played = Interaction(env, ANA, channel_id=thread)
    await run(Play().move.callback(Play(), played, "A3", None), played)
    assert played.response.calls == [("defer", {"ephemeral": True, "thinking": True})]
    assert played.followup.sent[0]["content"].startswith("You played `a3` in Astralis #1.")

    refused = Interaction(env, ANA, channel_id=thread)
    await run(Play().move.callback(Play(), refused, "m3", None), refused)
    assert refused.followup.sent == [{"content": "It's not your turn in Astralis #1: waiting "
                                      "for Bo.", "ephemeral": True}]

    asked = Interaction(env, BO)
    await run(Play().resign.callback(Play(), asked, None), asked)
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
    assert (await env.service.get_game(GUILD, 1)).winner_seat == 0


async def test_a_refused_challenge_is_ephemeral_and_posts_nothing(env: Env) -> None:
    interaction = await challenge(env, opponent=ANA)
    [(kind, sent)] = interaction.response.calls
    assert kind == "send_message" and sent["ephemeral"] is True
    assert sent["content"].startswith("You can't challenge yourself")
    assert (await env.dump())["challenges"] == []


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


async def test_an_out_of_date_choice_button(env: Env) -> None:
    await challenge(env, game="sliglube", size=5)
    await ChallengeButton("accept", 1).callback(Interaction(env, BO))
    await env.service.play_move(guild_id=GUILD, game_id=1, member=ANA, text="c3")
    chosen = Interaction(env, BO)
    await ChoiceButton(1, 1, "white").callback(chosen)
    assert chosen.edits == [{"view": None}]
    again = Interaction(env, BO)
    await ChoiceButton(1, 1, "black").callback(again)
    assert again.answers() == ["That button is out of date: the game has moved on since."]


async def test_board_games_and_rules(env: Env) -> None:
    await challenge(env)
    await ChallengeButton("accept", 1).callback(Interaction(env, BO))
    info = Info("https://example.org/rules")

    board = Interaction(env, CY)  # a spectator may look
    await run(info.board.callback(info, board, "#1", False), board)
    [shown] = board.followup.sent
    assert shown["ephemeral"] is True and shown["file"].filename == "board.png"
    assert shown["content"].startswith("**Astralis #1**: Ana (yellow) vs Bo (cyan) · move 0")

    games = Interaction(env, ANA)
    await run(info.games.callback(info, games, None), games)
    embed = games.followup.sent[0]["embed"]
    assert "Astralis #1" in embed.fields[0].value and "**your turn**" in embed.fields[0].value

    rules_ = Interaction(env, CY)
    await run(info.rules.callback(info, rules_, "astralis"), rules_)
    embed = rules_.response.calls[0][1]["embed"]
    assert embed.title == "Astralis"
    assert embed.url == "https://example.org/rules/astralis.md"
    assert "size: 7–8 (default 8)" in embed.fields[0].value


async def test_option_autocompletes_follow_the_chosen_game(env: Env) -> None:
    interaction = Interaction(env, ANA, game="lifeline")
    assert [c.value for c in await openings(interaction, "")] == [
        "strong-pie", "weak-pie", "komi-pie"]
    assert [c.value for c in await sizes(interaction, "")][:3] == [7, 3, 4]
    assert await sizes(Interaction(env, ANA, game="chess"), "") == []
    assert await my_games(Interaction(env, ANA, guild_id=None), "") == []


@pytest.mark.parametrize("command", ["move", "resign"])
async def test_no_game_here(env: Env, command: str) -> None:
    interaction = Interaction(env, ANA)
    handler = getattr(Play(), command)
    arguments = ("c3", None) if command == "move" else (None,)
    await run(handler.callback(Play(), interaction, *arguments), interaction)
    assert interaction.answers() == [
        "You have no game in progress here: start one with /challenge, or name a game with "
        "the `game` option."]
