"""The core's Discord side shared by the areas: starting a game against an automatic
player (``/practice``, or ``/challenge`` naming the bot)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

import ai
from bot import texts
from bot.core.plans import PrivateNotes
from bot.core.players import AutomaticPlayer
from bot.i18n import _
from bot.ui.context import channel_of, guild_of, member_of, service

#: The AI's levels, for ``/practice`` and ``/challenge`` naming the bot.
LEVEL_CHOICES = [app_commands.Choice(name=name, value=name) for name in ai.LEVELS]


async def start_automatic_game(
    interaction: discord.Interaction,
    player: AutomaticPlayer,
    *,
    game: str,
    options: Mapping[str, Any],
    level: str | None,
    first: str,
    settings: Mapping[str, Any] | None = None,
) -> None:
    """Start a game against ``player`` and say where it is played."""
    chosen = player.check(game, options, level)  # refusals stay private
    channel = getattr(interaction, "channel", None)
    home = channel.parent_id if isinstance(channel, discord.Thread) else channel_of(interaction)
    await interaction.response.defer(thinking=True)
    update = await player.start_game(
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
        _(
            "{member} practises {game} against me (level **{level}**, not rated): {url}",
            member=interaction.user.mention,
            game=texts.label(row),
            level=chosen,
            url=url,
        ),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def own_note(interaction: discord.Interaction, game_id: int) -> str:
    """The member's private note on the game, as a line of their private answer (``/board``,
    ``/review``), after the notice about their conditional moves no DM could carry (shown
    once); "" if they have neither."""
    try:
        notes = service(interaction, PrivateNotes)
    except LookupError:  # no notes in this bot
        return ""
    note = await notes.note_of(game_id, interaction.user.id)
    notice = await notes.unseen_notice(game_id, interaction.user.id)
    lines = [
        f"🔔 {notice}" if notice else "",
        _("📝 Your note (only you see it): {note}", note=note) if note else "",
    ]
    return "\n".join(line for line in lines if line)
