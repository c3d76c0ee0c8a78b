"""Starting a practice game from a command (``/practice``, or ``/challenge`` naming the
bot), and the bot's typing indicator while it thinks."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import discord
from discord import app_commands

import ai
from bot import texts
from bot.practice.service import Typing
from bot.storage import GameRow
from bot.ui.context import app_of, channel_of, guild_of, member_of

#: The AI's levels, for ``/practice`` and ``/challenge`` naming the bot.
LEVEL_CHOICES = [app_commands.Choice(name=name, value=name) for name in ai.LEVELS]


async def start_practice(
    interaction: discord.Interaction,
    *,
    game: str,
    options: Mapping[str, Any],
    level: str | None,
    first: str,
    settings: Mapping[str, Any] | None = None,
) -> None:
    """Start the game against the bot and say where it is played."""
    app = app_of(interaction)
    chosen = app.practice.check(game, options, level)  # refusals stay private
    channel = getattr(interaction, "channel", None)
    home = channel.parent_id if isinstance(channel, discord.Thread) else channel_of(interaction)
    await interaction.response.defer(thinking=True)
    update = await app.practice.start_game(
        guild_id=guild_of(interaction),
        channel_id=home or 0,
        member=member_of(interaction.user),
        game=game,
        options=options,
        level=chosen,
        first=first,
        settings=settings,
    )
    row = update.game
    url = texts.jump_url(row.guild_id, row.where_id, row.last_message_id)
    await interaction.followup.send(
        f"{interaction.user.mention} practises {texts.label(row)} against me "
        f"(level **{chosen}**, not rated): {url}",
        allowed_mentions=discord.AllowedMentions.none(),
    )


def thread_typing(client: discord.Client) -> Typing:
    """The typing indicator in a game's thread while the bot thinks (nothing if the
    thread is out of reach)."""

    @contextlib.asynccontextmanager
    async def typing(row: GameRow) -> AsyncIterator[None]:
        channel = client.get_channel(row.where_id)
        indicator = channel.typing() if isinstance(channel, discord.abc.Messageable) else None
        if indicator is not None:
            try:
                await indicator.__aenter__()
            except discord.HTTPException:
                indicator = None
        try:
            yield
        finally:
            if indicator is not None:
                with contextlib.suppress(Exception):
                    await indicator.__aexit__(None, None, None)

    return typing
