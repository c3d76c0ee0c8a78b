"""Small helpers shared by the cogs and views: who is asking, and where."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.model import Member, UserError
from bot.service import Service
from bot.storage.models import GameRow

#: A database row id (game, challenge, takeback) in a ``custom_id``: at most 19 digits
#: (SQLite's integers; one above 2**63 - 1 is refused as out of range, see bot.errors).
ROW_ID = "[0-9]{1,19}"
#: A ply or a komi in a ``custom_id``.
SMALL = "[0-9]{1,6}"
#: A member's id (a snowflake; only compared, never stored).
SNOWFLAKE = "[0-9]{1,20}"

if TYPE_CHECKING:
    from bot.client import BoardBot
    from bot.clocks import Clocks
    from bot.expiry import ChallengeExpiry


def member_of(user: discord.abc.User) -> Member:
    return Member(user.id, user.display_name, user.bot)


def service_of(interaction: discord.Interaction) -> Service:
    client: BoardBot = interaction.client  # type: ignore[assignment]
    return client.service


def clocks_of(interaction: discord.Interaction) -> Clocks | None:
    """The game clocks (None in a client without them: then no deadline is shown)."""
    return getattr(interaction.client, "clocks", None)


def expiry_of(interaction: discord.Interaction) -> ChallengeExpiry | None:
    """Challenge expiry (None in a client without it: challenges then never expire)."""
    return getattr(interaction.client, "expiry", None)


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("This only works in a server, not in direct messages.")
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    return interaction.channel_id or 0


async def game_meant(interaction: discord.Interaction, ref: str | None) -> GameRow:
    """The game a command means (``ref``, else the thread's game, else the member's
    only active game): see :meth:`Service.find_game`."""
    return await service_of(interaction).find_game(
        guild_id=guild_of(interaction), channel_id=channel_of(interaction),
        member_id=interaction.user.id, ref=ref)
