"""``/practice``: a game against the bot itself, at a level of its AI."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.practice.views import LEVEL_CHOICES, start_practice
from bot.ui.options import GameKind

FIRST = [
    app_commands.Choice(name="me", value="challenger"),
    app_commands.Choice(name="the bot", value="opponent"),
    app_commands.Choice(name="random", value="random"),
]
OPENINGS = [
    app_commands.Choice(name=value, value=value)
    for value in dict.fromkeys(
        choice
        for game in rules.GAMES.values()
        for option in game.options()
        if option.name == "opening"
        for choice in option.choices or ()
    )
]


class PracticeCommands(commands.Cog):
    @app_commands.command(name="practice", description="Play a game against me (never rated)")
    @app_commands.describe(
        game="Which game",
        level="How strong I play (default: easy)",
        first="Who plays first (default: you)",
        size="The board's size (the game's default if empty)",
        opening="Lifeline's opening (its default if empty)",
    )
    @app_commands.choices(level=LEVEL_CHOICES, first=FIRST, opening=OPENINGS)
    async def practice(
        self,
        interaction: discord.Interaction,
        game: app_commands.Transform[rules.Game, GameKind],
        level: app_commands.Choice[str] | None = None,
        first: app_commands.Choice[str] | None = None,
        size: int | None = None,
        opening: app_commands.Choice[str] | None = None,
    ) -> None:
        options = {"size": size, "opening": opening.value if opening else None}
        await start_practice(
            interaction,
            game=game.name,
            options={k: v for k, v in options.items() if v is not None},
            level=level.value if level else None,
            first=first.value if first else "challenger",
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PracticeCommands())
