"""The Accept button of a seek (on its cards in the lobbies and under /seek list), and
who shares which server with the bot (asked of Discord at each accept). Restart-proof:
the seek's id is in the ``custom_id``, its state in the database."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.i18n import _
from bot.model import Member
from bot.seeks import texts
from bot.seeks.service import Membership, Seeks
from bot.storage import GameRow, SeekRow
from bot.ui.answers import reply
from bot.ui.context import ROW_ID, member_of, service
from bot.ui.errors import guarded

log = logging.getLogger(__name__)


class SeekButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"bb:seek:accept:(?P<id>{ROW_ID})"
):
    def __init__(self, seek_id: int, *, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or _("Accept"))[:80],
                style=discord.ButtonStyle.success,
                custom_id=f"bb:seek:accept:{seek_id}",
            )
        )
        self.seek_id = seek_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SeekButton:
        return cls(int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = await accept(interaction, self.seek_id, member_of(interaction.user))
        await reply(interaction, texts.started_text(game), ephemeral=True)


async def accept(interaction: discord.Interaction, seek_id: int, member: Member) -> GameRow:
    return await service(interaction, Seeks).accept(
        seek_id=seek_id,
        member=member,
        shares=membership(interaction.client),
        here=interaction.guild_id,
    )


def membership(client: discord.Client) -> Membership:
    """Whether a member is in a server the bot is in: the cache, else Discord."""

    async def shares(guild_id: int, member_id: int) -> bool:
        guild = client.get_guild(guild_id)
        if guild is None:
            return False  # the bot is not there: no game can start there
        if guild.get_member(member_id) is not None:
            return True
        try:
            await guild.fetch_member(member_id)
        except (discord.NotFound, discord.Forbidden):
            return False
        return True

    return shares


def card_items(game_id: int, argument: str) -> list[discord.ui.Item[Any]]:
    """The buttons of a seek card (the post action ``seek:<id>``)."""
    return [SeekButton(int(argument))]


def listing_view(seeks: list[SeekRow]) -> discord.ui.View | None:
    """An Accept button per listed seek (at most 25)."""
    if not seeks:
        return None
    view = discord.ui.View(timeout=None)
    for seek in seeks[:25]:
        view.add_item(
            SeekButton(
                seek.id, label=_("Accept #{number} ({name})", number=seek.id, name=seek.seeker_name)
            )
        )
    return view


ITEMS = (SeekButton,)
