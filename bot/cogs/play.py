"""``/move`` and ``/resign``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import texts
from bot.cogs.autocomplete import moves, my_games
from bot.interactions import game_meant, guild_of, member_of, service_of
from bot.views import resign_view


class Play(commands.Cog):
    @app_commands.command(name="move", description="Play a move in one of your games")
    @app_commands.guild_only()
    @app_commands.describe(move="The move, e.g. c3 (start typing to see the legal ones)",
                           game="Which game (implied inside a game's thread)")
    @app_commands.autocomplete(move=moves, game=my_games)
    async def move(self, interaction: discord.Interaction,
                   move: app_commands.Range[str, 1, 100], game: str | None = None) -> None:
        service = service_of(interaction)
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        row = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        update = await service.play_move(guild_id=guild_id, game_id=row.id, member=member,
                                         text=move)
        text = f"You played `{update.move}` in {texts.label(update.game)}."
        if update.posted and update.posted.message_id:
            where = update.posted.thread_id or update.game.channel_id
            text += f" {texts.jump_url(guild_id, where, update.posted.message_id)}"
        elif update.posted is None:
            text += " (It is saved, but I couldn't post the new board; try `/board`.)"
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="resign", description="Resign one of your games (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (implied inside a game's thread)")
    @app_commands.autocomplete(game=my_games)
    async def resign(self, interaction: discord.Interaction, game: str | None = None) -> None:
        service = service_of(interaction)
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        row = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row, _ = await service.check_player(guild_id=guild_id, game_id=row.id, member=member)
        opponent = row.player_names[1 - row.seat_of(member.id)]
        await interaction.followup.send(
            f"Resign **{texts.label(row)}** against {opponent}? {opponent} wins; this can't be "
            "undone. (Dismiss this message to keep playing.)",
            view=resign_view(row.id, member.id), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play())
