"""``/practice``: a game against the bot itself, at a level of its AI, with every
option of the game (as ``/challenge`` takes them)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.core.options import game_command
from bot.core.views import LEVEL_CHOICES, start_automatic_game
from bot.i18n import N_
from bot.practice import views
from bot.practice.service import Practice
from bot.ui.areas import AreaHost
from bot.ui.context import service

FIRST = [
    app_commands.Choice(name=N_("me"), value="challenger"),
    app_commands.Choice(name=N_("the bot"), value="opponent"),
    app_commands.Choice(name=N_("random"), value="random"),
]
#: The AI's levels, as the bot names them (``_(level)``).
LEVEL_WORDS = (N_("easy"), N_("medium"), N_("hard"))
DESCRIPTIONS = {
    "game": "Which game",
    "level": "How strong I play (default: easy)",
    "first": "Who plays first (default: you)",
}


async def practice(
    self: PracticeCommands,
    interaction: discord.Interaction,
    game: rules.Game,
    level: app_commands.Choice[str] | None = None,
    first: app_commands.Choice[str] | None = None,
    **options: Any,
) -> None:
    await start_automatic_game(
        interaction,
        service(interaction, Practice),
        game=game.name,
        options={name: value for name, value in options.items() if value is not None},
        level=level.value if level else None,
        first=first.value if first else "challenger",
    )


def _practice_command() -> app_commands.Command[Any, ..., None]:
    command = game_command(
        "practice",
        "Play a game against me (never rated)",
        practice,
        cog="PracticeCommands",
        before=[
            ("level", app_commands.Choice[str] | None, None),
            ("first", app_commands.Choice[str] | None, None),
        ],
        after=[],
        descriptions=DESCRIPTIONS,
    )
    app_commands.choices(level=LEVEL_CHOICES, first=FIRST)(command)
    return command


class PracticeCommands(commands.Cog):
    practice = _practice_command()


async def setup(bot: AreaHost) -> None:
    """The practice area's commands in the bot."""
    await bot.add_cog(PracticeCommands())
    if Practice in bot.services:  # (none when only the commands are listed)
        # Discord's typing indicator in the game's thread while the bot thinks.
        bot.services.get(Practice).typing = views.thread_typing(bot)
