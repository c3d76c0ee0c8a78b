"""The buttons and forms of play: a decision of the player to move (a choice such as
swap or a colour, or the komi's number form), and the confirmation of ``/resign``.

Buttons survive restarts: each ``custom_id`` carries the ids it needs
(``bb:<kind>:<ids…>``), and the state lives in the database.
"""

from __future__ import annotations

import re

import discord

from bot import texts
from bot.errors import guarded
from bot.model import Post, UserError
from bot.ui.answers import reply
from bot.ui.context import ROW_ID, SMALL, SNOWFLAKE, app_of, guild_of, member_of
from bot.ui.forms import Form, form_values


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
        await interaction.response.defer()
        await app_of(interaction).moves.play_move(
            guild_id=guild_of(interaction), game_id=self.game_id,
            member=member_of(interaction.user), text=self.move, expected_ply=self.ply)
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
        row, _ = await app_of(interaction).moves.check_turn(
            guild_id=guild_of(interaction), game_id=self.game_id,
            member=member_of(interaction.user), expected_ply=self.ply)
        await interaction.response.send_modal(
            KomiForm(self.game_id, self.ply, self.low, self.high, texts.label(row)))


#: The komi form's ``custom_id``: the game and the ply it was opened at.
KOMI_FORM = re.compile(rf"bb:komiform:(?P<game>{ROW_ID}):(?P<ply>{SMALL})")
KOMI_FIELD = "komi"


class KomiForm(discord.ui.Modal):
    """The komi form, answered by :func:`answer_komi` (see :mod:`bot.ui.forms`)."""

    def __init__(self, game_id: int, ply: int, low: int, high: int, label: str) -> None:
        super().__init__(title=f"Komi for {label}"[:45], custom_id=f"bb:komiform:{game_id}:{ply}")
        self.add_item(discord.ui.TextInput(
            label=f"Komi: a whole number from {low} to {high}", custom_id=KOMI_FIELD,
            placeholder=str(low), min_length=1, max_length=4))
        self.stop()  # answered by answer_komi, never by this instance


async def answer_komi(interaction: discord.Interaction, found: re.Match[str]) -> None:
    """The komi form submitted (at any time, restarts included): play ``komi N``."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    komi = " ".join(form_values(interaction.data).get(KOMI_FIELD, "").split())
    update = await app_of(interaction).moves.play_move(
        guild_id=guild_of(interaction), game_id=int(found["game"]),
        member=member_of(interaction.user), text=f"komi {komi}",
        expected_ply=int(found["ply"]))
    await reply(interaction, f"Done: `{update.move}`.", ephemeral=True)


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
        update = await app_of(interaction).moves.resign(
            guild_id=guild_of(interaction), game_id=self.game_id,
            member=member_of(interaction.user))
        await interaction.edit_original_response(
            content=f"You resigned {texts.label(update.game)}. {update.game.result}.", view=None)


def resign_view(game_id: int, member_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, member_id))
    return view


def decision_items(game_id: int, post: Post) -> list[discord.ui.Item]:
    """The buttons of the decisions a board post asks for (at most five)."""
    items: list[discord.ui.Item] = []
    if post.komi is not None:
        items.append(KomiButton(game_id, post.ply, *post.komi))
    items += [ChoiceButton(game_id, post.ply, move) for move in post.choices[: 5 - len(items)]]
    return items


ITEMS = (ChoiceButton, KomiButton, ResignButton)
FORMS: tuple[Form, ...] = ((KOMI_FORM, answer_komi),)
