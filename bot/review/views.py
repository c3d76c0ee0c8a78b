"""The move browser's controls: ⏮ ◀ ▶ ⏭ and a jump menu. Everything a browser needs is
the game id and the ply, so both travel in the ``custom_id`` and a browser keeps
working after a restart. On a private (ephemeral) browser they turn its page; on a
browser posted publicly they open a private copy for whoever clicks, so nobody turns
the page under someone else."""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot.core.members import MemberSettings
from bot.i18n import _
from bot.learning.views import browser_items
from bot.model import UserError
from bot.review.browser import NAVIGATION, Browser, Page, caption, jump_label
from bot.ui.context import ROW_ID, SMALL, guild_of, selected_values, service
from bot.ui.errors import guarded

ARROWS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:review:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):"
    r"(?P<kind>first|prev|next|last)",
):
    """⏮ ◀ ▶ ⏭ on a browser showing ``ply`` of game ``game``."""

    def __init__(self, game_id: int, ply: int, kind: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji=ARROWS[kind],
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"bb:review:{game_id}:{ply}:{kind}",
                row=0,
            )
        )
        self.game_id, self.ply, self.kind = game_id, ply, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(int(match["game"]), int(match["ply"]), match["kind"])

    def target(self) -> int | None:
        """The ply to show; None for the latest (a live game may have moved on)."""
        return {"first": 0, "prev": max(0, self.ply - 1), "next": self.ply + 1, "last": None}[
            self.kind
        ]

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await turn_page(interaction, self.game_id, self.target())


class JumpSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"bb:reviewjump:(?P<game>{ROW_ID}):(?P<ply>{SMALL})",
):
    """Jump to a move: up to 25 moves around the one shown."""

    def __init__(
        self, game_id: int, ply: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"bb:reviewjump:{game_id}:{ply}",
                placeholder=_("Jump to a move…"),
                options=options or [discord.SelectOption(label=_("Start"), value="0")],
                row=1,
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JumpSelect:
        options = list(item.options) if isinstance(item, discord.ui.Select) else None
        return cls(int(match["game"]), int(match["ply"]), options)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = selected_values(interaction)
        if not values or not re.fullmatch(SMALL, values[0]):
            raise UserError(_("Pick a move from the list."))
        await turn_page(interaction, self.game_id, int(values[0]))


def browser_view(page: Page) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for kind in NAVIGATION:
        view.add_item(ReviewButton(page.row.id, page.ply, kind, disabled=not page.enabled(kind)))
    if page.last > 0:
        options = [
            discord.SelectOption(
                label=jump_label(page, ply), value=str(ply), default=ply == page.ply
            )
            for ply in page.jump_plies()
        ]
        view.add_item(JumpSelect(page.row.id, page.ply, options))
    for item in browser_items(page.row.id, page.ply, finished=page.row.status == "finished"):
        view.add_item(item)  # Analysis, Explore
    return view


async def browser(interaction: discord.Interaction, page: Page, *, theme: str) -> dict[str, Any]:
    """The message fields of a browser at ``page``: caption, board (in ``theme``),
    controls."""
    picture = await service(interaction, Browser).picture(page, theme=theme)
    fields: dict[str, Any] = {"content": caption(page), "view": browser_view(page)}
    if picture is not None:
        fields["file"] = discord.File(
            io.BytesIO(picture), filename=f"{page.row.game}-{page.row.id}-{page.ply}.png"
        )
    return fields


async def turn_page(interaction: discord.Interaction, game_id: int, ply: int | None) -> None:
    guild_id = guild_of(interaction)
    message = interaction.message
    private = message is not None and message.flags.ephemeral
    if private:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    page = await service(interaction, Browser).open_page(
        guild_id=guild_id, game_id=game_id, ply=ply
    )
    # Either way only the member who clicked sees the page: in their own theme.
    fields = await browser(
        interaction,
        page,
        theme=await service(interaction, MemberSettings).theme(interaction.user.id),
    )
    if private:
        file = fields.pop("file", None)
        await interaction.edit_original_response(
            attachments=[file] if file else [],
            allowed_mentions=discord.AllowedMentions.none(),
            **fields,
        )
    else:
        await interaction.followup.send(
            ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **fields
        )


ITEMS = (ReviewButton, JumpSelect)
