"""``/rules`` (the illustrated guide of a game) and ``/explore`` (a move in your
sandbox)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.config import Settings
from bot.core.members import MemberSettings
from bot.core.options import GameKind
from bot.learning import views
from bot.learning.guide import guide_for
from bot.learning.sandbox import Sandboxes
from bot.learning.views import guide_message, rules_url, sandbox_message
from bot.ui.areas import AreaHost
from bot.ui.context import service


async def sandbox_moves(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The legal moves of the member's latest sandbox."""
    found = await service(interaction, Sandboxes).suggestions(interaction.user.id, current)
    return [app_commands.Choice(name=s.name, value=s.value) for s in found]


class LearningCommands(commands.Cog):
    @app_commands.command(name="rules", description="Learn a game: a short illustrated guide")
    @app_commands.describe(game="Which game", page="Start at this page (default: the first)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def rules(
        self,
        interaction: discord.Interaction,
        game: app_commands.Transform[rules.Game, GameKind],
        page: app_commands.Range[int, 1, 25] = 1,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        url = rules_url(service(interaction, Settings).rules_url_base, game.name)
        theme = await service(interaction, MemberSettings).theme(interaction.user.id)
        await interaction.followup.send(
            ephemeral=True,
            **await guide_message(guide_for(game.name), page - 1, url=url, theme=theme),
        )

    @app_commands.command(
        name="explore",
        description="Play a move in your private sandbox (open one with "
        "Explore in /review or /import)",
    )
    @app_commands.describe(
        move="A move for whoever is to move there (start typing to see the "
        "legal ones); leave it out to see the sandbox"
    )
    @app_commands.autocomplete(move=sandbox_moves)
    async def explore(
        self, interaction: discord.Interaction, move: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        member = interaction.user.id
        sandbox = await (
            service(interaction, Sandboxes).play(None, member, move)
            if move
            else service(interaction, Sandboxes).get(None, member)
        )
        fields = await sandbox_message(interaction, sandbox, member)
        await interaction.followup.send(ephemeral=True, **fields)


async def setup(bot: AreaHost) -> None:
    """The learning area's commands, buttons in the bot."""
    await bot.add_cog(LearningCommands())
    bot.add_dynamic_items(*views.ITEMS)
