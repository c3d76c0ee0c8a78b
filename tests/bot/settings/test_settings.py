"""/settings: a member's picture theme, move confirmation and turn notices, stored in the
database and applied wherever the member is the one looking; /move with confirmation
shows the move privately and plays it only on Confirm, even after a restart."""

from __future__ import annotations

import discord
import pytest

from bot.core.autocomplete import NOTHING_TO_PLAY
from bot.play.commands import PlayCommands, legal_moves
from bot.play.views import ConfirmMoveButton
from bot.review.commands import ReviewCommands
from bot.settings.commands import SettingsCommands
from tests.bot.conftest import ANA, BO, CY, GUILD, Env, start_game
from tests.bot.interactions import Interaction, invoke
from tests.bot.support import StandIn

#: The same on either database (what they store: analyses, sandboxes, settings).
pytestmark = pytest.mark.both_backends

URL = "https://example.org/rules"


def choice(value: str) -> discord.app_commands.Choice[str]:
    return discord.app_commands.Choice(name=value, value=value)


async def settings(env: Env, member=ANA, **changes) -> str:
    asked = Interaction(env, member)
    await invoke(
        SettingsCommands.settings,
        SettingsCommands(),
        asked,
        **{k: choice(v) if isinstance(v, str) else v for k, v in changes.items()},
    )
    [(kind, sent)] = asked.response.calls
    assert kind == "send_message" and sent["ephemeral"] is True
    return sent["content"]


def picture_of(sent: dict) -> bytes:
    sent["file"].fp.seek(0)
    return sent["file"].fp.read()


async def test_settings_are_shown_changed_and_kept_across_a_restart(env: Env) -> None:
    shown = await settings(env)
    assert shown.startswith("Your settings:")
    assert "**dark**" in shown and "Confirm moves: **off**" in shown
    assert "**a mention in the game's thread**" in shown

    changed = await settings(env, theme="light", confirm_moves=True, notify="dm")
    assert changed.startswith("Saved.") and "**light**" in changed
    assert "Confirm moves: **on**" in changed and "**a direct message" in changed
    await env.restart()
    prefs = await env.settings.of(ANA.id)
    assert (prefs.theme, prefs.confirm_moves, prefs.notify) == ("light", True, "dm")
    assert (await env.settings.of(BO.id)).theme == "dark"  # only hers


async def test_the_theme_applies_where_the_member_looks_and_only_there(env: Env) -> None:
    game_id = await start_game(env, "astralis", size=7)
    await settings(env, CY, theme="light")
    info = PlayCommands(URL)

    private = Interaction(env, CY)
    await invoke(PlayCommands.board, info, private, f"#{game_id}", False)
    assert picture_of(private.followup.sent[0]).endswith(b"light")
    public = Interaction(env, CY)
    await invoke(PlayCommands.board, info, public, f"#{game_id}", True)
    assert picture_of(public.followup.sent[0]).endswith(b"dark")  # for everyone: default

    review = StandIn(env, CY)
    await invoke(ReviewCommands.review, ReviewCommands(), review, str(game_id), None, False)
    _, data = review.file()
    assert data.endswith(b"light")
    # Thread posts are for everyone: the default theme.
    assert env.poster.posts_for(game_id)[-1].picture.endswith(b"dark")


async def test_a_move_to_confirm_is_shown_privately_and_played_on_confirm(env: Env) -> None:
    game_id = await start_game(env, "astralis", size=7)
    await settings(env, ANA, confirm_moves=True, theme="light")
    posts = len(env.poster.sent)

    asked = Interaction(env, ANA)
    await invoke(PlayCommands.move, PlayCommands(URL), asked, "A3", f"#{game_id}")
    [shown] = asked.followup.sent
    assert shown["ephemeral"] is True
    assert shown["content"].startswith(f"**Astralis #{game_id}**: `a3` is marked on the board")
    # the move on it, marked as a preview
    assert picture_of(shown) == b"\x89PNG\r\n\x1a\nastralis ply 1 light preview"
    [button] = shown["view"].children
    assert button.custom_id == f"bb:confirm:{game_id}:0:a3"
    assert len(env.poster.sent) == posts  # nothing played, nothing posted
    assert (await env.games.state_of(await env.games.get_game(GUILD, game_id))).ply == 0

    await env.restart()  # the button holds all it needs
    restored = await ConfirmMoveButton.from_custom_id(
        None,
        button.item,
        ConfirmMoveButton.__discord_ui_compiled_template__.fullmatch(button.custom_id),
    )
    confirmed = Interaction(env, ANA)
    await restored.callback(confirmed)
    assert confirmed.edits[-1]["view"] is None
    assert confirmed.edits[-1]["content"].startswith(f"You played `a3` in [Astralis #{game_id}](")
    # the preview gives way to the board as played, in the member's theme
    [played] = confirmed.edits[-1]["attachments"]
    played.fp.seek(0)
    assert played.fp.read() == b"\x89PNG\r\n\x1a\nastralis ply 1 light"
    state = await env.games.state_of(await env.games.get_game(GUILD, game_id))
    assert state.history == ("a3",)

    again = Interaction(env, ANA)
    await restored.callback(again)  # the game has moved on: refused, nothing played twice
    assert again.answers() == ["That button is out of date: the game has moved on since."]


async def test_a_move_that_cannot_be_played_is_refused_before_any_confirmation(env: Env) -> None:
    game_id = await start_game(env, "astralis", size=7)
    await settings(env, ANA, confirm_moves=True)
    asked = Interaction(env, ANA)
    await invoke(PlayCommands.move, PlayCommands(URL), asked, "m3", f"#{game_id}")
    [refused] = asked.followup.sent
    assert refused["content"].startswith("`m3` can't be played: ") and "view" not in refused


@pytest.mark.parametrize("who", [BO, CY])
async def test_the_only_choice_for_a_member_with_nothing_to_play_says_why(env: Env, who) -> None:
    game_id = await start_game(env, "astralis", size=7)
    thread = (await env.games.get_game(GUILD, game_id)).thread_id
    [why] = await legal_moves(Interaction(env, who, channel_id=thread), "")
    expected = (
        f"It's Ana's turn in Astralis #{game_id}: nothing for you to play yet."
        if who is BO
        else f"You are not playing in Astralis #{game_id}."
    )
    assert why.name == expected and why.value.startswith(NOTHING_TO_PLAY)
    sent = Interaction(env, who, channel_id=thread)  # chosen and sent all the same
    await invoke(PlayCommands.move, PlayCommands(URL), sent, why.value, None)
    assert sent.answers() == [f"Nothing was played: {expected}"]
    assert (await env.games.state_of(await env.games.get_game(GUILD, game_id))).ply == 0


async def test_settings_language_overrides_the_members_discord_language(env: Env) -> None:
    """/settings language: the answer is at once in the language chosen; automatic again
    goes back to the member's Discord's (here, none known: English)."""
    shown = await settings(env, language="de")
    assert "**Deutsch**" in shown
    assert shown.startswith("Saved.") or shown.startswith("Gespeichert")
    from bot.i18n.languages import Languages

    languages = env.services.get(Languages)
    assert await languages.chosen(ANA.id) == "de"
    assert await languages.member_seen(ANA.id, "fr") == "de"  # the choice wins
    assert await languages.of_member(ANA.id) == "de"  # their DMs too
    shown = await settings(env, language="auto")
    assert "**automatic**" in shown or "automat" in shown.lower()
    assert await languages.member_seen(ANA.id, "fr") == "fr"
    assert await languages.chosen(BO.id) is None  # only hers
