"""``/rules`` (the illustrated guide of a game) and ``/explore`` (a move in your
sandbox)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.learning.guide import guide_for
from bot.learning.views import guide_message, rules_url
from bot.ui.context import app_of
from bot.ui.options import GameKind


class LearningCommands(commands.Cog):
    @app_commands.command(name="rules", description="Learn a game: a short illustrated guide")
    @app_commands.describe(game="Which game", page="Start at this page (default: the first)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def rules(self, interaction: discord.Interaction,
                    game: app_commands.Transform[rules.Game, GameKind],
                    page: app_commands.Range[int, 1, 25] = 1) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        app = app_of(interaction)
        url = rules_url(app.rules_url_base, game.name)
        theme = await app.settings.theme(interaction.user.id)
        await interaction.followup.send(ephemeral=True, **await guide_message(
            guide_for(game.name), page - 1, url=url, theme=theme))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LearningCommands())
