"""Who is asking, and where, for the commands and buttons of every area; and the
services they reach (``interaction.client.app``, built by :mod:`bot.app`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.model import Member, UserError
from bot.storage import GameRow

if TYPE_CHECKING:
    from bot.app import App

#: A database row id (game, challenge, takeback) in a ``custom_id``: at most 19 digits
#: (SQLite's integers; one above 2**63 - 1 is refused as out of range, see bot.errors).
ROW_ID = "[0-9]{1,19}"
#: A ply or a number in a ``custom_id``.
SMALL = "[0-9]{1,6}"
#: A member's id (a snowflake; only compared, never stored).
SNOWFLAKE = "[0-9]{1,20}"


def app_of(interaction: discord.Interaction) -> App:
    """The bot's services."""
    # discord.py types the client as a plain Client; ours (bot.client) carries the app.
    return interaction.client.app  # type: ignore[attr-defined]


def custom_id_of(interaction: discord.Interaction) -> str | None:
    """The ``custom_id`` of the component or form used; None for a command."""
    found = interaction.data.get("custom_id") if interaction.data is not None else None
    return None if found is None else str(found)


def selected_values(interaction: discord.Interaction) -> list[str]:
    """What the member picked in a select menu (nothing for anything else)."""
    found = interaction.data.get("values") if interaction.data is not None else None
    return [str(value) for value in found] if isinstance(found, list) else []


def member_of(user: discord.abc.User) -> Member:
    return Member(user.id, user.display_name, user.bot)


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("This only works in a server, not in direct messages.")
    return interaction.guild_id


def channel_of(interaction: discord.Interaction) -> int:
    return interaction.channel_id or 0


async def game_meant(interaction: discord.Interaction, game: GameRow | None) -> GameRow:
    """The game a command means: ``game`` if the member named one (resolved by
    :class:`bot.ui.options.MyGame` or :class:`~bot.ui.options.AnyGame`), else the game
    of the thread the command is used in, else the member's only active game."""
    if game is not None:
        return game
    return await app_of(interaction).games.find_game(
        guild_id=guild_of(interaction),
        channel_id=channel_of(interaction),
        member_id=interaction.user.id,
    )
