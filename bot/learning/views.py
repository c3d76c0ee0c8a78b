"""The learning area's buttons, all private to the member who uses them and all
restart-proof (what they need travels in the ``custom_id``):

* the guide of ``/rules``: ◀ ▶ and a list of its pages (the game and the page);
* **Analysis** under a ``/review`` browser of a finished game, and its ⏮ ◀ ▶ ⏭
  (the game and the move);
* **Explore** (a game and a move, or an imported record's sandbox) and a sandbox's
  ◀ and **AI move** (the sandbox and how many moves it had when the message was made),
  and, in a sandbox opened from a game in progress, **Save as conditional moves** (the
  line played there, saved through :class:`bot.core.plans.ConditionalPlans`).
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

import rules
from bot import texts
from bot.config import Settings
from bot.core.members import MemberSettings
from bot.core.plans import ConditionalPlans
from bot.i18n import N_, _
from bot.learning.analysis import Analyses, GameAnalysis, positions
from bot.learning.guide import Guide, guide_footer, guide_for
from bot.learning.sandbox import MOVED_ON, Sandbox, Sandboxes
from bot.model import DEFAULT_THEME, UserError, names
from bot.pictures import render_chart, render_diagram, render_suggestion
from bot.ui.context import ROW_ID, SMALL, guild_of, member_of, selected_values, service
from bot.ui.errors import guarded
from rules import State

#: A game's name in a ``custom_id``.
GAME_NAME = "[a-z0-9_]{1,32}"


def _guide(name: str) -> Guide:
    try:
        return guide_for(name)
    except Exception as error:  # a game no longer registered
        raise UserError(_("That guide is out of date: open it again with /rules.")) from error


class GuideButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:guide:(?P<game>{GAME_NAME}):(?P<page>{SMALL})",
):
    """◀ or ▶: shows page ``page`` of the guide of ``game``."""

    def __init__(self, game: str, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"bb:guide:{game}:{page}",
                row=0,
            )
        )
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GuideButton:
        emoji = item.emoji if isinstance(item, discord.ui.Button) else None
        return cls(match["game"], int(match["page"]), str(emoji or "▶"))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await turn_page(interaction, self.game, self.page)


class GuideSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=rf"bb:guidejump:(?P<game>{GAME_NAME})"
):
    """The guide's pages by title."""

    def __init__(self, game: str, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"bb:guidejump:{game}",
                placeholder=_("Go to a page…"),
                options=options or [discord.SelectOption(label=_("The start"), value="0")],
                row=1,
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GuideSelect:
        return cls(
            match["game"], list(item.options) if isinstance(item, discord.ui.Select) else None
        )

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = selected_values(interaction)
        if not values or not re.fullmatch(SMALL, values[0]):
            raise UserError(_("Pick a page from the list."))
        await turn_page(interaction, self.game, int(values[0]))


def guide_view(guide: Guide, number: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = len(guide.pages) - 1
    if last > 0:  # (one page: nothing to turn, and two buttons would share a custom_id)
        view.add_item(GuideButton(guide.game, max(0, number - 1), "◀", disabled=number <= 0))
        view.add_item(GuideButton(guide.game, min(last, number + 1), "▶", disabled=number >= last))
        view.add_item(
            GuideSelect(
                guide.game,
                [
                    discord.SelectOption(
                        label=f"{k + 1}. {_(page.title)}"[:100], value=str(k), default=k == number
                    )
                    for k, page in enumerate(guide.pages[:25])
                ],
            )
        )
    return view


async def guide_message(
    guide: Guide, number: int, *, url: str | None, theme: str = DEFAULT_THEME
) -> dict[str, Any]:
    """The fields of the message showing page ``number`` of ``guide``: an embed with
    the page's text and diagram, and the controls."""
    number = max(0, min(number, len(guide.pages) - 1))
    page = guide.page(number)
    embed = discord.Embed(
        title=f"{guide.title}: {_(page.title)}", url=url, description=_(page.text)[:4000]
    )
    embed.set_footer(text=guide_footer(guide, number))
    if number == len(guide.pages) - 1:
        options = rules.get_game(guide.game).options()
        embed.add_field(
            name=_("Options for /challenge"),
            inline=False,
            value="\n".join(o.describe() for o in options)[:1024] or _("None"),
        )
    fields: dict[str, Any] = {"embed": embed, "view": guide_view(guide, number)}
    diagram = page.diagram
    if diagram is not None:
        name = f"{guide.game}-{page.key}.png"
        picture = await render_diagram(guide.game, diagram, theme)
        embed.add_field(name=_("In the picture"), value=_(diagram.caption)[:1024], inline=False)
        embed.set_image(url=f"attachment://{name}")
        fields["file"] = discord.File(io.BytesIO(picture), filename=name)
    return fields


def rules_url(base: str, game: str) -> str | None:
    """Where the full rules of ``game`` live, if the operator said (RULES_URL_BASE)."""
    return f"{base}/{game}.md" if base else None


async def turn_page(interaction: discord.Interaction, game: str, number: int) -> None:
    guide = _guide(game)
    fields = await guide_message(
        guide,
        number,
        url=rules_url(service(interaction, Settings).rules_url_base, game),
        theme=await service(interaction, MemberSettings).theme(interaction.user.id),
    )
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        file = fields.pop("file", None)
        await interaction.response.edit_message(attachments=[file] if file else [], **fields)
    else:  # a guide someone made public: the clicker gets their own copy
        await interaction.response.send_message(ephemeral=True, **fields)


# -- Analysis: the AI's estimate of a finished game, move by move --------------------

STEPS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}


class AnalysisButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:analysis:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):"
    r"(?P<kind>open|first|prev|next|last)",
):
    """**Analysis** under a browser (``open``), and ⏮ ◀ ▶ ⏭ of the Analysis view
    showing move ``ply`` of game ``game``."""

    def __init__(self, game_id: int, ply: int, kind: str, *, disabled: bool = False) -> None:
        button: discord.ui.Button[discord.ui.View] = (
            discord.ui.Button(
                label=_("Analysis"),
                emoji="📈",
                style=discord.ButtonStyle.primary,
                row=2,
                custom_id=f"bb:analysis:{game_id}:{ply}:{kind}",
                disabled=disabled,
            )
            if kind == "open"
            else discord.ui.Button(
                emoji=STEPS[kind],
                style=discord.ButtonStyle.secondary,
                row=0,
                disabled=disabled,
                custom_id=f"bb:analysis:{game_id}:{ply}:{kind}",
            )
        )
        super().__init__(button)
        self.game_id, self.ply, self.kind = game_id, ply, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnalysisButton:
        return cls(int(match["game"]), int(match["ply"]), match["kind"])

    def target(self) -> int | None:
        return {
            "open": self.ply,
            "first": 0,
            "prev": max(0, self.ply - 1),
            "next": self.ply + 1,
            "last": None,
        }[self.kind]

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        in_place = await _defer(interaction, opening=self.kind == "open")
        found = await service(interaction, Analyses).of_game(
            guild_id=guild_of(interaction), game_id=self.game_id
        )
        ply = found.last if self.target() is None else min(found.last, self.target() or 0)
        fields = await analysis_message(
            found, ply, theme=await service(interaction, MemberSettings).theme(interaction.user.id)
        )
        await _show(interaction, fields, in_place)


def _private(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def _defer(interaction: discord.Interaction, *, opening: bool) -> bool:
    """Answer a click at once; True when what it shows replaces the private message
    clicked (a step), False when it comes as a new private message (an opening)."""
    in_place = not opening and _private(interaction)
    await (
        interaction.response.defer()
        if in_place
        else interaction.response.defer(ephemeral=True, thinking=True)
    )
    return in_place


async def _show(interaction: discord.Interaction, fields: dict[str, Any], in_place: bool) -> None:
    files = fields.pop("files", [])
    if in_place:
        await interaction.edit_original_response(attachments=files, **fields)
    else:
        await interaction.followup.send(ephemeral=True, files=files, **fields)


async def analysis_message(found: GameAnalysis, ply: int, *, theme: str) -> dict[str, Any]:
    """The Analysis view at move ``ply``: what the move changed and what the AI
    preferred, the chart of the whole game and the board with both moves."""
    row = found.row
    before, after = await positions(row, found.moves, ply)
    who = names(row)
    color = before.color_to_move if ply else None
    board = await render_suggestion(after, who, found.alternative(ply), color, theme)
    chart = await render_chart(found.chances(), who, current=ply, theme=theme)
    base = f"{row.game}-{row.id}-{ply}"
    return {
        "content": found.caption(ply),
        "view": analysis_view(found, ply),
        "files": [
            discord.File(io.BytesIO(chart), filename=f"{base}-chart.png"),
            discord.File(io.BytesIO(board), filename=f"{base}.png"),
        ],
        "allowed_mentions": discord.AllowedMentions.none(),
    }


def analysis_view(found: GameAnalysis, ply: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    game_id, last = found.row.id, found.last
    target = {"first": 0, "prev": max(0, ply - 1), "next": min(last, ply + 1), "last": last}
    for kind in STEPS:
        view.add_item(AnalysisButton(game_id, ply, kind, disabled=target[kind] == ply))
    view.add_item(ExploreButton(game_id, ply))
    return view


# -- Explore: a private sandbox ---------------------------------------------------------


class ExploreButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:explore:(?P<game>{ROW_ID}):(?P<ply>{SMALL})",
):
    """**Explore**: a sandbox of the clicker's at move ``ply`` of game ``game``."""

    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Explore"),
                emoji="🧪",
                style=discord.ButtonStyle.secondary,
                row=2,
                custom_id=f"bb:explore:{game_id}:{ply}",
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ExploreButton:
        return cls(int(match["game"]), int(match["ply"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        sandbox = await service(interaction, Sandboxes).open_from_game(
            guild_id=guild_of(interaction),
            game_id=self.game_id,
            ply=self.ply,
            member=member_of(interaction.user),
        )
        await _show(
            interaction,
            await sandbox_message(interaction, sandbox, interaction.user.id),
            in_place=False,
        )


SANDBOX_LOOKS = {
    "open": (N_("Explore"), "🧪"),
    "back": (N_("Step back"), "◀"),
    "ai": (N_("AI move"), "🤖"),
    "save": (N_("Save as conditional moves"), "📌"),
}


class SandboxButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:sandbox:(?P<id>{ROW_ID}):(?P<ply>{SMALL}):"
    r"(?P<kind>open|back|ai|save)",
):
    """On a sandbox's message: ◀ (take back) and **AI move**, or **Save as conditional
    moves** (``save``) in a sandbox of a game in progress; under an imported record:
    **Explore** (``open``)."""

    def __init__(self, sandbox_id: int, ply: int, kind: str, *, disabled: bool = False) -> None:
        label, emoji = SANDBOX_LOOKS[kind]
        super().__init__(
            discord.ui.Button(
                label=_(label),
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"bb:sandbox:{sandbox_id}:{ply}:{kind}",
                row=0,
            )
        )
        self.sandbox_id, self.ply, self.kind = sandbox_id, ply, kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SandboxButton:
        return cls(int(match["id"]), int(match["ply"]), match["kind"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        in_place = await _defer(interaction, opening=self.kind in ("open", "save"))
        member = interaction.user.id
        if self.kind == "save":
            await self._save(interaction)
            return
        note = ""
        if self.kind == "back":
            sandbox = await service(interaction, Sandboxes).back(
                self.sandbox_id, member, at=self.ply
            )
        elif self.kind == "ai":
            sandbox, move = await service(interaction, Sandboxes).ai_move(
                self.sandbox_id, member, at=self.ply
            )
            note = _("The AI played `{move}`.", move=move)
        else:  # Explore under a record: the owner's sandbox, or a copy of it for another
            sandbox = await service(interaction, Sandboxes).open_copy(
                self.sandbox_id, member_of(interaction.user)
            )
        await _show(
            interaction, await sandbox_message(interaction, sandbox, member, note), in_place
        )

    async def _save(self, interaction: discord.Interaction) -> None:
        """The line played since the sandbox was opened, as conditional moves in its game
        (refused, with nothing saved, unless the member plays that game, in progress)."""
        sandbox = await service(interaction, Sandboxes).get(self.sandbox_id, interaction.user.id)
        if sandbox.ply != self.ply:
            raise UserError(_(MOVED_ON))
        if sandbox.row.source_game_id is None:
            raise UserError(_("This sandbox is not from a game: there is nothing to plan in."))
        said = await service(interaction, ConditionalPlans).save_line(
            guild_id=guild_of(interaction),
            game_id=sandbox.row.source_game_id,
            member=member_of(interaction.user),
            moves=sandbox.row.moves,
        )
        await interaction.followup.send(
            said, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


async def sandbox_message(
    interaction: discord.Interaction, sandbox: Sandbox, member_id: int, note: str = ""
) -> dict[str, Any]:
    """A sandbox as the member sees it: where it stands, the board, its buttons."""
    row, state = sandbox.row, sandbox.state
    title = rules.get_game(row.game).title
    opened = (
        _(
            "**Sandbox** · {game} · opened at move {number} of game #{id}.",
            game=title,
            number=row.opened_at,
            id=row.source_game_id,
        )
        if row.source_game_id
        else _(
            "**Sandbox** · {game} · opened at move {number} of an imported record.",
            game=title,
            number=row.opened_at,
        )
    )
    lines = [
        opened + " " + _("Only you see it; nothing here reaches a game."),
        note,
        _("Move {number}: `{move}`.", number=sandbox.ply, move=row.moves[-1])
        if row.moves
        else _("Move {number}: the start.", number=sandbox.ply),
    ]
    if state.is_over:
        lines.append(_("**Over here:** {result}", result=state.result))
    else:
        lines.append(
            _(
                "To move: {player} ({prompt}). Play for either side with `/explore move:…`.",
                player=_("the next player")
                if state.to_move is None
                else texts.player_word(state, state.to_move),
                prompt=state.prompt,
            )
        )
    theme = await service(interaction, MemberSettings).theme(member_id)
    picture = await render_suggestion(state, {}, None, None, theme)
    view = discord.ui.View(timeout=None)
    view.add_item(SandboxButton(row.id, sandbox.ply, "back", disabled=not row.moves))
    if sandbox.ai:
        view.add_item(SandboxButton(row.id, sandbox.ply, "ai", disabled=state.is_over))
    elif row.source_game_id is not None and len(row.moves) > row.opened_at:
        # a game in progress, and a line played from it: plan it
        view.add_item(SandboxButton(row.id, sandbox.ply, "save"))
    return {
        "content": "\n".join(line for line in lines if line),
        "view": view,
        "files": [discord.File(io.BytesIO(picture), filename=f"sandbox-{row.id}.png")],
        "allowed_mentions": discord.AllowedMentions.none(),
    }


async def explore_record(interaction: discord.Interaction, state: State) -> discord.ui.View:
    """**Explore** under an imported record (``state``, its position): a sandbox of
    the member's with its moves, opened by the button."""
    sandbox = await service(interaction, Sandboxes).open_from_record(
        member=member_of(interaction.user),
        game=state.game.name,
        options=dict(state.options),
        moves=state.history,
    )
    view = discord.ui.View(timeout=None)
    view.add_item(SandboxButton(sandbox.id, sandbox.ply, "open"))
    return view


def browser_items(game_id: int, ply: int, finished: bool) -> list[discord.ui.Item]:
    """The learning buttons under a ``/review`` browser: Explore from the position, and
    Analysis once the game is over."""
    items: list[discord.ui.Item] = [ExploreButton(game_id, ply)]
    if finished:
        items.insert(0, AnalysisButton(game_id, ply, "open"))
    return items


ITEMS = (GuideButton, GuideSelect, AnalysisButton, ExploreButton, SandboxButton)
