"""Buttons that survive restarts: each ``custom_id`` carries the ids it needs
(``bb:<kind>:<ids…>``), and the state lives in the database. Registered with
``client.add_dynamic_items(*DYNAMIC_ITEMS)``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot import buttons, texts
from bot.errors import guarded, report
from bot.interactions import ROW_ID, SMALL, SNOWFLAKE, expiry_of, guild_of, member_of, service_of
from bot.model import Post, UserError
from bot.storage import ChallengeRow


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"bb:challenge:(?P<action>accept|decline|cancel):(?P<id>{ROW_ID})"):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success, "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary}

    def __init__(self, action: str, challenge_id: int, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=action.capitalize(), style=self.STYLES[action], disabled=disabled,
            custom_id=f"bb:challenge:{action}:{challenge_id}"))
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> ChallengeButton:
        return cls(match["action"], int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        await interaction.response.defer()  # opening a thread and drawing may take a moment
        expiry = expiry_of(interaction)
        if expiry is not None:  # the message is edited to say so
            await expiry.refuse_if_expired(await service.get_challenge(guild_id,
                                                                       self.challenge_id))
        if self.action == "accept":
            update = await service.accept_challenge(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member,
                message_id=interaction.message.id if interaction.message else None)
            challenge = await service.get_challenge(guild_id, self.challenge_id)
            text = texts.challenge_closed_text(challenge, member.name, update.game)
        elif self.action == "decline":
            challenge = await service.decline_challenge(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member)
            text = texts.challenge_closed_text(challenge, member.name)
        else:
            challenge = await service.cancel_challenge(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member)
            text = texts.challenge_closed_text(challenge, member.name)
        await interaction.edit_original_response(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none())


def challenge_view(challenge: ChallengeRow, *, disabled: bool = False) -> discord.ui.View:
    """Accept, Decline (for a challenge to someone) and Cancel; all disabled once it
    expired."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton("accept", challenge.id, disabled=disabled))
    if challenge.opponent_id is not None:
        view.add_item(ChallengeButton("decline", challenge.id, disabled=disabled))
    view.add_item(ChallengeButton("cancel", challenge.id, disabled=disabled))
    return view


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=rf"bb:choice:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):(?P<move>[a-z]{{1,10}})"):
    """An opening decision that is a word (swap, black, white…), valid at one ply."""

    def __init__(self, game_id: int, ply: int, move: str) -> None:
        super().__init__(discord.ui.Button(
            label=move.capitalize(), style=discord.ButtonStyle.primary,
            custom_id=f"bb:choice:{game_id}:{ply}:{move}"))
        self.game_id, self.ply, self.move = game_id, ply, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> ChoiceButton:
        return cls(int(match["game"]), int(match["ply"]), match["move"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        service = service_of(interaction)
        await interaction.response.defer()
        await service.play_move(guild_id=guild_of(interaction), game_id=self.game_id,
                                member=member_of(interaction.user), text=self.move,
                                expected_ply=self.ply)
        await interaction.edit_original_response(view=None)  # the choice is made


class KomiButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"bb:komi:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):(?P<low>{SMALL}):(?P<high>{SMALL})"):
    """Opens a form with a number field for ``komi N``."""

    def __init__(self, game_id: int, ply: int, low: int, high: int) -> None:
        super().__init__(discord.ui.Button(
            label="Choose the komi…", style=discord.ButtonStyle.primary,
            custom_id=f"bb:komi:{game_id}:{ply}:{low}:{high}"))
        self.game_id, self.ply, self.low, self.high = game_id, ply, low, high

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> KomiButton:
        return cls(int(match["game"]), int(match["ply"]), int(match["low"]), int(match["high"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        row, _ = await service_of(interaction).check_turn(
            guild_id=guild_of(interaction), game_id=self.game_id,
            member=member_of(interaction.user), expected_ply=self.ply)
        await interaction.response.send_modal(
            KomiForm(self.game_id, self.ply, self.low, self.high, texts.label(row)))


#: The komi form's ``custom_id``: the game and the ply it was opened at.
KOMI_FORM = re.compile(rf"bb:komiform:(?P<game>{ROW_ID}):(?P<ply>{SMALL})")
KOMI_FIELD = "komi"
STALE_FORM = ("This form is out of date (I may have restarted since it was opened): "
              "use the game's latest post, or `/move`.")


class KomiForm(discord.ui.Modal):
    """The komi form. Its submission is answered by :func:`submit_form` from the
    ``custom_id`` alone, like a dynamic button (discord.py keeps modals only in
    memory, so a form opened before a restart would otherwise fail); the instance
    is stopped before it is sent, so that discord.py does not keep it at all."""

    def __init__(self, game_id: int, ply: int, low: int, high: int, label: str) -> None:
        super().__init__(title=f"Komi for {label}"[:45], custom_id=f"bb:komiform:{game_id}:{ply}")
        self.add_item(discord.ui.TextInput(
            label=f"Komi: a whole number from {low} to {high}", custom_id=KOMI_FIELD,
            placeholder=str(low), min_length=1, max_length=4))
        self.stop()  # answered by submit_form, never by this instance


def form_values(data: Any) -> dict[str, str]:
    """The text inputs of a modal submission, by ``custom_id`` (in action rows or labels)."""
    values: dict[str, str] = {}
    for row in (data or {}).get("components") or []:
        children = row.get("components") or ([row["component"]] if row.get("component") else [])
        for child in children:
            if child.get("custom_id") is not None:
                values[str(child["custom_id"])] = str(child.get("value") or "")
    return values


async def submit_form(interaction: discord.Interaction) -> None:
    """Answer any modal submission: the komi form (at any time, restarts included),
    and a polite refusal for a form the bot does not know."""
    try:
        data: Any = interaction.data or {}
        found = KOMI_FORM.fullmatch(str(data.get("custom_id", "")))
        if found is None:
            raise UserError(STALE_FORM)
        await interaction.response.defer(ephemeral=True, thinking=True)
        komi = " ".join(form_values(data).get(KOMI_FIELD, "").split())
        update = await service_of(interaction).play_move(
            guild_id=guild_of(interaction), game_id=int(found["game"]),
            member=member_of(interaction.user), text=f"komi {komi}",
            expected_ply=int(found["ply"]))
        await interaction.followup.send(f"Done: `{update.move}`.", ephemeral=True)
    except Exception as error:
        await report(interaction, error)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=rf"bb:resign:(?P<game>{ROW_ID}):(?P<member>{SNOWFLAKE})"):
    """The confirmation of ``/resign``; only the member who asked can press it."""

    def __init__(self, game_id: int, member_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="Yes, resign", style=discord.ButtonStyle.danger,
            custom_id=f"bb:resign:{game_id}:{member_id}"))
        self.game_id, self.member_id = game_id, member_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> ResignButton:
        return cls(int(match["game"]), int(match["member"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.member_id:
            raise UserError("This confirmation belongs to someone else.")
        await interaction.response.defer()
        update = await service_of(interaction).resign(
            guild_id=guild_of(interaction), game_id=self.game_id,
            member=member_of(interaction.user))
        await interaction.edit_original_response(
            content=f"You resigned {texts.label(update.game)}. {update.game.result}.", view=None)


def resign_view(game_id: int, member_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, member_id))
    return view


def decision_view(game_id: int, post: Post) -> discord.ui.View | None:
    """Buttons for the opening decisions a board post asks for, if any, and its
    correspondence actions (takeback answers, rematch: :mod:`bot.buttons`)."""
    if not post.choices and post.komi is None and not post.actions:
        return None
    view = discord.ui.View(timeout=None)
    if post.komi is not None:
        view.add_item(KomiButton(game_id, post.ply, *post.komi))
    for move in post.choices[: 5 - len(view.children)]:
        view.add_item(ChoiceButton(game_id, post.ply, move))
    for action in post.actions:
        for item in buttons.action_items(game_id, action):
            view.add_item(item)
    return view


DYNAMIC_ITEMS = (ChallengeButton, ChoiceButton, KomiButton, ResignButton,
                 *buttons.DYNAMIC_ITEMS)
