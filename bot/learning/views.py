"""The guide's controls: ◀ ▶ and a list of its pages. A guide page is the game and
the page number, and both travel in the ``custom_id``, so a guide keeps turning
after a restart. Guides are private (ephemeral): a click turns the reader's own copy."""

from __future__ import annotations

import io
import re
from typing import Any

import discord

import rules
from bot.errors import guarded
from bot.learning.guide import Guide, guide_for
from bot.model import DEFAULT_THEME, UserError
from bot.pictures import render_diagram
from bot.ui.context import SMALL, app_of

#: A game's name in a ``custom_id``.
GAME_NAME = "[a-z0-9_]{1,32}"


def _guide(name: str) -> Guide:
    try:
        return guide_for(name)
    except Exception as error:  # a game no longer registered
        raise UserError("That guide is out of date: open it again with /rules.") from error


class GuideButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"bb:guide:(?P<game>{GAME_NAME}):(?P<page>{SMALL})"):
    """◀ or ▶: shows page ``page`` of the guide of ``game``."""

    def __init__(self, game: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            emoji=label, style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"bb:guide:{game}:{page}", row=0))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> GuideButton:
        return cls(match["game"], int(match["page"]), str(item.emoji or "▶"))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await turn_page(interaction, self.game, self.page)


class GuideSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=rf"bb:guidejump:(?P<game>{GAME_NAME})"):
    """The guide's pages by title."""

    def __init__(self, game: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"bb:guidejump:{game}", placeholder="Go to a page…",
            options=options or [discord.SelectOption(label="The start", value="0")], row=1))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> GuideSelect:
        return cls(match["game"], list(item.options))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        if not values or not re.fullmatch(SMALL, str(values[0])):
            raise UserError("Pick a page from the list.")
        await turn_page(interaction, self.game, int(values[0]))


def guide_view(guide: Guide, number: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = len(guide.pages) - 1
    if last > 0:  # (one page: nothing to turn, and two buttons would share a custom_id)
        view.add_item(GuideButton(guide.game, max(0, number - 1), "◀", disabled=number <= 0))
        view.add_item(GuideButton(guide.game, min(last, number + 1), "▶",
                                  disabled=number >= last))
        view.add_item(GuideSelect(guide.game, [
            discord.SelectOption(label=f"{k + 1}. {page.title}"[:100], value=str(k),
                                 default=k == number)
            for k, page in enumerate(guide.pages[:25])]))
    return view


async def guide_message(guide: Guide, number: int, *, url: str | None,
                        theme: str = DEFAULT_THEME) -> dict[str, Any]:
    """The fields of the message showing page ``number`` of ``guide``: an embed with
    the page's text and diagram, and the controls."""
    number = max(0, min(number, len(guide.pages) - 1))
    page = guide.page(number)
    embed = discord.Embed(title=f"{guide.title}: {page.title}", url=url,
                          description=page.text[:4000])
    credit = f" · {guide.title} by {guide.credit}" if guide.credit else ""
    embed.set_footer(text=f"Page {number + 1} of {len(guide.pages)}{credit}")
    if number == len(guide.pages) - 1:
        options = rules.get_game(guide.game).options()
        embed.add_field(name="Options for /challenge", inline=False,
                        value="\n".join(o.describe() for o in options)[:1024] or "None")
    fields: dict[str, Any] = {"embed": embed, "view": guide_view(guide, number)}
    diagram = page.diagram
    if diagram is not None:
        name = f"{guide.game}-{page.key}.png"
        picture = await render_diagram(guide.game, diagram, theme)
        embed.add_field(name="In the picture", value=diagram.caption[:1024], inline=False)
        embed.set_image(url=f"attachment://{name}")
        fields["file"] = discord.File(io.BytesIO(picture), filename=name)
    return fields


def rules_url(base: str, game: str) -> str | None:
    """Where the full rules of ``game`` live, if the operator said (RULES_URL_BASE)."""
    return f"{base}/{game}.md" if base else None


async def turn_page(interaction: discord.Interaction, game: str, number: int) -> None:
    guide = _guide(game)
    app = app_of(interaction)
    fields = await guide_message(guide, number, url=rules_url(app.rules_url_base, game),
                                 theme=await app.settings.theme(interaction.user.id))
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        file = fields.pop("file", None)
        await interaction.response.edit_message(attachments=[file] if file else [], **fields)
    else:  # a guide someone made public: the clicker gets their own copy
        await interaction.response.send_message(ephemeral=True, **fields)


ITEMS = (GuideButton, GuideSelect)
