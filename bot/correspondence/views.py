"""The takeback buttons: the opponent's answer to a request, restart-proof (the
request's id is in the ``custom_id``, its state in the database)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.correspondence.service import Correspondence
from bot.i18n import _, speaking
from bot.i18n.languages import guild_language
from bot.ui.context import ROW_ID, guild_of, member_of, service
from bot.ui.errors import guarded


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:takeback:(?P<answer>accept|decline):(?P<id>{ROW_ID})",
):
    """The opponent's answer to a takeback request."""

    def __init__(self, answer: str, takeback_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Accept takeback") if answer == "accept" else _("Decline"),
                style=discord.ButtonStyle.success
                if answer == "accept"
                else discord.ButtonStyle.danger,
                custom_id=f"bb:takeback:{answer}:{takeback_id}",
            )
        )
        self.answer, self.takeback_id = answer, takeback_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TakebackButton:
        return cls(match["answer"], int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        member = member_of(interaction.user)
        await interaction.response.defer()  # an accepted takeback re-draws the board
        await service(interaction, Correspondence).answer_takeback(
            guild_id=guild_of(interaction),
            takeback_id=self.takeback_id,
            member=member,
            accept=self.answer == "accept",
        )
        with speaking(guild_language(interaction.guild_id)):  # the thread's message
            verdict = (
                _("✅ Accepted by {name}.", name=member.name)
                if self.answer == "accept"
                else _("❌ Declined by {name}.", name=member.name)
            )
        question = interaction.message.content if interaction.message else ""
        await interaction.edit_original_response(
            content=f"{question}\n{verdict}",
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )


def takeback_items(game_id: int, argument: str) -> list[discord.ui.Item]:
    """The buttons of a post's ``takeback:<request id>`` action."""
    if not argument.isdigit():
        raise ValueError(f"a takeback action needs a request id, not {argument!r}")
    return [TakebackButton("accept", int(argument)), TakebackButton("decline", int(argument))]


ITEMS = (TakebackButton,)
