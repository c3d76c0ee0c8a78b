"""Autocomplete callbacks shared by several commands."""

from __future__ import annotations

import discord
from discord import app_commands

import rules
from bot.interactions import channel_of, service_of


async def game_names(interaction: discord.Interaction,
                     current: str) -> list[app_commands.Choice[str]]:
    """The games the bot plays, by title."""
    needle = current.strip().lower()
    return [app_commands.Choice(name=game.title, value=name)
            for name, game in rules.GAMES.items()
            if needle in name or needle in game.title.lower()][:25]


async def my_games(interaction: discord.Interaction,
                   current: str) -> list[app_commands.Choice[str]]:
    """The member's active games in this server, those waiting for them first."""
    if interaction.guild_id is None:
        return []
    suggestions = await service_of(interaction).game_suggestions(
        guild_id=interaction.guild_id, member_id=interaction.user.id, typed=current)
    return [app_commands.Choice(name=s.name, value=s.value) for s in suggestions]


async def moves(interaction: discord.Interaction,
                current: str) -> list[app_commands.Choice[str]]:
    """Legal moves of the game meant (its thread, the ``game`` option, or the only one)."""
    if interaction.guild_id is None:
        return []
    suggestions = await service_of(interaction).move_suggestions(
        guild_id=interaction.guild_id, channel_id=channel_of(interaction),
        member_id=interaction.user.id, typed=current,
        ref=getattr(interaction.namespace, "game", None))
    return [app_commands.Choice(name=s.name, value=s.value) for s in suggestions]
