"""``/export`` (a game's record, as text or JSON) and ``/import`` (check a record by
replaying it, and show where it ends). An import stores nothing."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import records, texts
from bot.cogs.review import any_game
from bot.interactions import game_meant, service_of
from bot.model import UserError

FORMATS = [app_commands.Choice(name="text record", value="text"),
           app_commands.Choice(name="JSON (Abstract Play style)", value="json")]


class Records(commands.Cog):
    @app_commands.command(name="export", description="A game's record, as a file")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (implied inside a game's thread)",
                           kind="Text record (default) or JSON",
                           public="Post it for everyone (default: only you see it)")
    @app_commands.autocomplete(game=any_game)
    @app_commands.choices(kind=FORMATS)
    @app_commands.rename(kind="format")
    async def export(self, interaction: discord.Interaction, game: str | None = None,
                     kind: app_commands.Choice[str] | None = None,
                     public: bool = False) -> None:
        service = service_of(interaction)
        row = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        stored = await records.load(service.db, row)
        name, data = records.export(stored, kind.value if kind else "text",
                                    generated=service.now())
        await interaction.followup.send(
            f"The record of **{texts.label(row)}** ({len(stored.moves)} moves).",
            file=discord.File(io.BytesIO(data), filename=name), ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="import",
                          description="Check a game record (text or JSON) and show its position")
    @app_commands.guild_only()
    @app_commands.describe(record="The record, pasted (or attach it as a file instead)",
                           file="The record as a file (.txt or .json)",
                           public="Show the result to everyone (default: only you)")
    async def import_(self, interaction: discord.Interaction,
                      record: app_commands.Range[str, 1, 6000] | None = None,
                      file: discord.Attachment | None = None, public: bool = False) -> None:
        if (record is None) == (file is None):
            raise UserError("Give the record either pasted in `record` or as a `file`, "
                            "one of the two.")
        if file is not None and file.size > records.MAX_RECORD_BYTES:
            raise UserError(f"That file is too big for a record (the limit is "
                            f"{records.MAX_RECORD_BYTES // 1024} KB).")
        await interaction.response.defer(ephemeral=not public, thinking=True)
        text = records.decode(await file.read()) if file is not None else record or ""
        imported = await records.import_record(text)
        names = {seat: player.name for seat, player in enumerate(imported.record.players)}
        picture = await service_of(interaction).renderer(imported.state, names)
        kwargs = {"file": discord.File(io.BytesIO(picture), filename="record.png")} \
            if picture else {}
        await interaction.followup.send(records.imported_text(imported), ephemeral=not public,
                                        allowed_mentions=discord.AllowedMentions.none(),
                                        **kwargs)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Records())
