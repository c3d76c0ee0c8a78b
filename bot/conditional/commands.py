"""``/conditional add|show|clear`` (replies played at once on your behalf) and ``/note``
(a private note on a game). Every answer is private: the plans are secret until
played, the notes their author's only."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.conditional.service import LINE_HELP, Conditional
from bot.core.boards import Boards
from bot.core.members import MemberSettings
from bot.core.options import MyGame, game_meant
from bot.i18n import _
from bot.storage import GameRow
from bot.ui.answers import reply
from bot.ui.areas import AreaHost
from bot.ui.context import guild_of, member_of, service
from rules import State

MyGameOption = app_commands.Transform[GameRow, MyGame]
GAME_MEANT = "Which game (implied inside a game's thread)"


async def _show(
    interaction: discord.Interaction, shown_text: str, row: GameRow, after: State | None
) -> None:
    picture = None
    if after is not None:
        theme = await service(interaction, MemberSettings).theme(interaction.user.id, private=True)
        picture = await service(interaction, Boards).picture(row, after, theme=theme)
    fields: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    if picture:
        fields["file"] = discord.File(io.BytesIO(picture), filename="conditional.png")
    await reply(interaction, shown_text, ephemeral=True, **fields)


class ConditionalCommands(commands.Cog):
    conditional = app_commands.Group(
        name="conditional",
        description="Replies played at once on your behalf when your opponent moves",
    )

    @conditional.command(name="add", description="Plan replies: if they play this, I play that")
    @app_commands.describe(line=LINE_HELP, game=GAME_MEANT)
    async def add(
        self,
        interaction: discord.Interaction,
        line: app_commands.Range[str, 1, 2000],
        game: MyGameOption | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_meant(interaction, game)
        shown = await service(interaction, Conditional).add(
            guild_id=guild_of(interaction),
            game_id=row.id,
            member=member_of(interaction.user),
            line=line,
        )
        await _show(interaction, _("Saved.") + "\n" + shown.text, shown.row, shown.after)

    @conditional.command(name="show", description="Your conditional moves in a game (only you)")
    @app_commands.describe(game=GAME_MEANT)
    async def show(
        self, interaction: discord.Interaction, game: MyGameOption | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_meant(interaction, game)
        shown = await service(interaction, Conditional).show(
            guild_id=guild_of(interaction), game_id=row.id, member=member_of(interaction.user)
        )
        await _show(interaction, shown.text, shown.row, shown.after)

    @conditional.command(name="clear", description="Remove your conditional moves, or one branch")
    @app_commands.describe(
        line="The branch to remove, its moves separated by commas (default: all)",
        game=GAME_MEANT,
    )
    async def clear(
        self,
        interaction: discord.Interaction,
        line: app_commands.Range[str, 1, 2000] | None = None,
        game: MyGameOption | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_meant(interaction, game)
        text = await service(interaction, Conditional).clear(
            guild_id=guild_of(interaction),
            game_id=row.id,
            member=member_of(interaction.user),
            line=line,
        )
        await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="note", description="Your private note on a game (only you see it)")
    @app_commands.describe(
        text="The note (replaces your old one; leave it out to delete it)", game=GAME_MEANT
    )
    async def note(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, 4000] | None = None,
        game: MyGameOption | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await game_meant(interaction, game)
        answer = await service(interaction, Conditional).set_note(
            guild_id=guild_of(interaction),
            game_id=row.id,
            member=member_of(interaction.user),
            text=text or "",
        )
        await reply(interaction, answer, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: AreaHost) -> None:
    """The conditional area's commands in the bot."""
    await bot.add_cog(ConditionalCommands())
