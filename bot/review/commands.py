"""``/review`` (the move browser) and ``/replay`` (the animated GIF), for any game of
the server: anyone may look, nobody can change anything from here; ``/export`` (a
game's record, as text or JSON) and ``/import`` (check a record by replaying it, and
show where it ends, with **Explore** to play on from there privately; an import stores
nothing but that sandbox)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import texts
from bot.core.members import MemberSettings
from bot.core.options import AnyGame, GameKind, game_meant
from bot.core.views import own_note
from bot.i18n import _, _n
from bot.learning.views import explore_record
from bot.model import UserError
from bot.review import records, views
from bot.review.browser import Browser
from bot.review.records import Records
from bot.review.views import browser
from bot.storage import GameRow
from bot.ui.areas import AreaHost
from bot.ui.context import guild_of, service

AnyGameOption = app_commands.Transform[GameRow, AnyGame]
GAME_MEANT = "Which game (implied inside a game's thread)"
FORMATS = [
    app_commands.Choice(name="text record", value="text"),
    app_commands.Choice(name="JSON (Abstract Play style)", value="json"),
]


class ReviewCommands(commands.Cog):
    @app_commands.command(name="review", description="Browse any game of this server, move by move")
    @app_commands.describe(
        game=GAME_MEANT,
        move="Start at this move (0: the start; default: the latest)",
        public="Post the browser for everyone (default: only you see it)",
    )
    async def review(
        self,
        interaction: discord.Interaction,
        game: AnyGameOption | None = None,
        move: app_commands.Range[int, 0, 100000] | None = None,
        public: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        row = await game_meant(interaction, game)
        page = await service(interaction, Browser).open_page(
            guild_id=guild_of(interaction), game_id=row.id, ply=move
        )
        theme = await service(interaction, MemberSettings).theme(
            interaction.user.id, private=not public
        )
        fields = await browser(interaction, page, theme=theme)
        if not public and (note := await own_note(interaction, row.id)):
            fields["content"] = f"{fields['content']}\n{note}"  # theirs only
        await interaction.followup.send(
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
            **fields,
        )

    @app_commands.command(name="replay", description="An animated replay (GIF) of a game")
    @app_commands.describe(
        game=GAME_MEANT, public="Post it for everyone (default: only you see it)"
    )
    async def replay(
        self,
        interaction: discord.Interaction,
        game: AnyGameOption | None = None,
        public: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        row = await game_meant(interaction, game)
        page = await service(interaction, Browser).open_page(
            guild_id=guild_of(interaction), game_id=row.id, ply=None
        )
        gif = await service(interaction, Browser).replay(
            page,
            theme=await service(interaction, MemberSettings).theme(
                interaction.user.id, private=not public
            ),
        )
        await interaction.followup.send(
            _n(
                "**{game}**, move by move ({count} move).",
                "**{game}**, move by move ({count} moves).",
                page.last,
                game=texts.label(row),
            ),
            ephemeral=not public,
            file=discord.File(io.BytesIO(gif), filename=f"{row.game}-{row.id}.gif"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="export", description="A game's record, as a file")
    @app_commands.describe(
        game=GAME_MEANT,
        kind="Text record (default) or JSON",
        public="Post it for everyone (default: only you see it)",
    )
    @app_commands.choices(kind=FORMATS)
    @app_commands.rename(kind="format")
    async def export(
        self,
        interaction: discord.Interaction,
        game: AnyGameOption | None = None,
        kind: app_commands.Choice[str] | None = None,
        public: bool = False,
    ) -> None:
        await interaction.response.defer(ephemeral=not public, thinking=True)
        row = await game_meant(interaction, game)
        stored = await service(interaction, Records).load(row)
        name, data = records.export(
            stored, kind.value if kind else "text", generated=service(interaction, Records).now()
        )
        await interaction.followup.send(
            _n(
                "The record of **{game}** ({count} move).",
                "The record of **{game}** ({count} moves).",
                len(stored.moves),
                game=texts.label(row),
            ),
            file=discord.File(io.BytesIO(data), filename=name),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="import", description="Check a game record (text or JSON) and show its position"
    )
    @app_commands.describe(
        record="The record, pasted: tags then moves, or the moves alone (then say the game)",
        file="The record as a file (.txt or .json)",
        game="The game, if the record does not say",
        public="Show the result to everyone (default: only you)",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        record: app_commands.Range[str, 1, 6000] | None = None,
        file: discord.Attachment | None = None,
        public: bool = False,
        game: app_commands.Transform[rules.Game, GameKind] | None = None,
    ) -> None:
        if (record is None) == (file is None):
            raise UserError(
                _("Give the record either pasted in `record` or as a `file`, one of the two.")
            )
        if file is not None and file.size > records.MAX_RECORD_BYTES:
            raise UserError(records.too_big())
        await interaction.response.defer(ephemeral=not public, thinking=True)
        text = records.decode(await file.read()) if file is not None else record or ""
        imported = await records.import_record(text, game.name if game else None)
        theme = await service(interaction, MemberSettings).theme(
            interaction.user.id, private=not public
        )
        picture = await service(interaction, Browser).renderer(
            imported.state, records.player_names(imported.record), theme=theme
        )
        board = (
            discord.File(io.BytesIO(picture), filename="record.png")
            if picture
            else discord.utils.MISSING
        )
        explore = await explore_record(interaction, imported.state)
        await interaction.followup.send(
            records.imported_text(imported),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
            view=explore,
            file=board,
        )


async def setup(bot: AreaHost) -> None:
    """The review area's commands, buttons in the bot."""
    await bot.add_cog(ReviewCommands())
    bot.add_dynamic_items(*views.ITEMS)
