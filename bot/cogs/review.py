"""``/review`` (the move browser) and ``/replay`` (the animated GIF), for any game of
the server: anyone may look, nobody can change anything from here.

The browser's buttons and jump menu are dynamic items whose ``custom_id`` holds the
game id and the ply shown, so they keep working after a restart. On a private
(ephemeral) browser they turn its page; on a browser posted publicly they open a
private copy for whoever clicks, so nobody turns the page under someone else.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import review, texts
from bot.ending import replay_gif
from bot.errors import guarded
from bot.interactions import ROW_ID, SMALL, game_meant, guild_of, service_of
from bot.model import UserError
from bot.service import Service

ARROWS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}
ARROW_NAMES = {"first": "first move", "prev": "previous move", "next": "next move",
               "last": "latest move"}


async def any_game(interaction: discord.Interaction,
                   current: str) -> list[app_commands.Choice[str]]:
    """Recent games of the server, newest first."""
    if interaction.guild_id is None:
        return []
    suggestions = await review.game_suggestions(service_of(interaction),
                                                guild_id=interaction.guild_id, typed=current)
    return [app_commands.Choice(name=s.name, value=s.value) for s in suggestions]


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=rf"bb:review:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):"
                            r"(?P<kind>first|prev|next|last)"):
    """⏮ ◀ ▶ ⏭ on a browser showing ``ply`` of game ``game``."""

    def __init__(self, game_id: int, ply: int, kind: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            emoji=ARROWS[kind], style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"bb:review:{game_id}:{ply}:{kind}", row=0))
        self.game_id, self.ply, self.kind = game_id, ply, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> ReviewButton:
        return cls(int(match["game"]), int(match["ply"]), match["kind"])

    def target(self) -> int | None:
        """The ply to show; None for the latest (a live game may have moved on)."""
        return {"first": 0, "prev": max(0, self.ply - 1), "next": self.ply + 1,
                "last": None}[self.kind]

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await turn_page(interaction, self.game_id, self.target())


class JumpSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=rf"bb:reviewjump:(?P<game>{ROW_ID}):(?P<ply>{SMALL})"):
    """Jump to a move: up to 25 moves around the one shown."""

    def __init__(self, game_id: int, ply: int,
                 options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"bb:reviewjump:{game_id}:{ply}", placeholder="Jump to a move…",
            options=options or [discord.SelectOption(label="Start", value="0")], row=1))
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> JumpSelect:
        return cls(int(match["game"]), int(match["ply"]), list(item.options))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        if not values or not re.fullmatch(SMALL, str(values[0])):
            raise UserError("Pick a move from the list.")
        await turn_page(interaction, self.game_id, int(values[0]))


def browser_view(page: review.Page) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for kind in review.NAVIGATION:
        view.add_item(ReviewButton(page.row.id, page.ply, kind, disabled=not page.enabled(kind)))
    if page.last > 0:
        options = [discord.SelectOption(label=review.jump_label(page, ply), value=str(ply),
                                        default=ply == page.ply)
                   for ply in page.jump_plies()]
        view.add_item(JumpSelect(page.row.id, page.ply, options))
    return view


async def browser(service: Service, page: review.Page) -> dict[str, Any]:
    """The message fields of a browser at ``page``: caption, board, controls."""
    picture = await review.picture(service, page)
    fields: dict[str, Any] = {"content": review.caption(page), "view": browser_view(page)}
    if picture is not None:
        fields["file"] = discord.File(io.BytesIO(picture),
                                      filename=f"{page.row.game}-{page.row.id}-{page.ply}.png")
    return fields


async def turn_page(interaction: discord.Interaction, game_id: int, ply: int | None) -> None:
    service = service_of(interaction)
    guild_id = guild_of(interaction)
    message = interaction.message
    private = message is not None and message.flags.ephemeral
    if private:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    page = await review.open_page(service, guild_id=guild_id, game_id=game_id, ply=ply)
    fields = await browser(service, page)
    if private:
        file = fields.pop("file", None)
        await interaction.edit_original_response(
            attachments=[file] if file else [], allowed_mentions=discord.AllowedMentions.none(),
            **fields)
    else:
        await interaction.followup.send(ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none(), **fields)


class Review(commands.Cog):
    @app_commands.command(name="review", description="Browse any game of this server, move by move")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (implied inside a game's thread)",
                           move="Start at this move (0: the start; default: the latest)",
                           public="Post the browser for everyone (default: only you see it)")
    @app_commands.autocomplete(game=any_game)
    async def review(self, interaction: discord.Interaction, game: str | None = None,
                     move: app_commands.Range[int, 0, 100000] | None = None,
                     public: bool = False) -> None:
        service = service_of(interaction)
        guild_id = guild_of(interaction)
        row = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        page = await review.open_page(service, guild_id=guild_id, game_id=row.id, ply=move)
        await interaction.followup.send(ephemeral=not public,
                                        allowed_mentions=discord.AllowedMentions.none(),
                                        **await browser(service, page))

    @app_commands.command(name="replay", description="An animated replay (GIF) of a game")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (implied inside a game's thread)",
                           public="Post it for everyone (default: only you see it)")
    @app_commands.autocomplete(game=any_game)
    async def replay(self, interaction: discord.Interaction, game: str | None = None,
                     public: bool = False) -> None:
        service = service_of(interaction)
        guild_id = guild_of(interaction)
        row = await game_meant(interaction, game)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        page = await review.open_page(service, guild_id=guild_id, game_id=row.id, ply=None)
        gif = await replay_gif(row.game, row.options, [m.move for m in page.moves],
                               {0: row.player_names[0], 1: row.player_names[1]})
        count = "1 move" if page.last == 1 else f"{page.last} moves"
        await interaction.followup.send(
            f"**{texts.label(row)}**, move by move ({count}).", ephemeral=not public,
            file=discord.File(io.BytesIO(gif), filename=f"{row.game}-{row.id}.gif"),
            allowed_mentions=discord.AllowedMentions.none())


REVIEW_ITEMS = (ReviewButton, JumpSelect)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*REVIEW_ITEMS)
    await bot.add_cog(Review())
