"""The buttons and forms of play: the decisions of the player to move, as the game
states them (``state.decisions()``: a move such as swap or a colour, or a number asked
for in a form), the confirmation of ``/resign``, and the confirmation of a move (for
members who asked ``/move`` to wait for one).

Buttons survive restarts: each ``custom_id`` carries the ids it needs
(``bb:<kind>:<ids…>``), and the state lives in the database.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from bot import texts
from bot.core.boards import Boards
from bot.core.members import MemberSettings
from bot.core.moves import Moves
from bot.i18n import _, said
from bot.model import GameUpdate, Post, UserError
from bot.storage import GameRow
from bot.ui.answers import reply
from bot.ui.context import ROW_ID, SMALL, SNOWFLAKE, guild_of, member_of, service
from bot.ui.errors import guarded
from bot.ui.forms import Form, form_values
from rules import NumberChoice

#: A move in a ``custom_id``: canonical text (lower case), short enough for its 100
#: characters with the ids around it.
MOVE = "[a-z0-9][a-z0-9 ._+-]{0,39}"
#: Discord's limit for a button's label (a Decision's label is at most 40 characters).
LABEL_LIMIT = 80
#: Decisions shown as buttons at most (one row).
SHOWN_DECISIONS = 5


class DecisionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:choice:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):(?P<move>{MOVE})",
):
    """A decision that is a move (swap, a colour, pass…), valid at one ply."""

    def __init__(self, game_id: int, ply: int, move: str, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or move.capitalize())[:LABEL_LIMIT],
                style=discord.ButtonStyle.primary,
                custom_id=f"bb:choice:{game_id}:{ply}:{move}",
            )
        )
        self.game_id, self.ply, self.move = game_id, ply, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DecisionButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["game"]), int(match["ply"]), match["move"], label)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await service(interaction, Moves).play_move(
            guild_id=guild_of(interaction),
            game_id=self.game_id,
            member=member_of(interaction.user),
            text=self.move,
            expected_ply=self.ply,
        )
        await interaction.edit_original_response(view=None)  # the decision is made


class NumberButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:number:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):(?P<index>{SMALL})",
):
    """A decision that is a number (a komi…): opens a form asking for it. ``index`` is
    the decision's place in ``state.decisions()`` at ``ply``."""

    def __init__(self, game_id: int, ply: int, index: int, label: str = "Choose…") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:LABEL_LIMIT],
                style=discord.ButtonStyle.primary,
                custom_id=f"bb:number:{game_id}:{ply}:{index}",
            )
        )
        self.game_id, self.ply, self.index = game_id, ply, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NumberButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["game"]), int(match["ply"]), int(match["index"]), label or "Choose…")

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        _asked, number = await asked_number(interaction, self.game_id, self.ply, self.index)
        await interaction.response.send_modal(
            NumberForm(self.game_id, self.ply, self.index, number)
        )


async def asked_number(
    interaction: discord.Interaction, game_id: int, ply: int, index: int
) -> tuple[GameRow, NumberChoice]:
    """The number decision ``index`` of the game at ``ply``, refused unless it is the
    member's turn there."""
    row, state = await service(interaction, Moves).check_turn(
        guild_id=guild_of(interaction),
        game_id=game_id,
        member=member_of(interaction.user),
        expected_ply=ply,
    )
    decisions = state.decisions()
    number = decisions[index].number if index < len(decisions) else None
    if number is None:
        raise UserError(_("That button is out of date: the game has moved on since."))
    return row, number


#: The number form's ``custom_id``: the game, the ply and the decision's index.
NUMBER_FORM = re.compile(rf"bb:numberform:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):(?P<index>{SMALL})")
NUMBER_FIELD = "number"


class NumberForm(discord.ui.Modal):
    """The form of a number decision, answered by :func:`answer_number` (see
    :mod:`bot.ui.forms`)."""

    def __init__(self, game_id: int, ply: int, index: int, number: NumberChoice) -> None:
        super().__init__(
            title=said(number.question)[:45], custom_id=f"bb:numberform:{game_id}:{ply}:{index}"
        )
        self.add_item(
            discord.ui.TextInput(
                label=_(
                    "A whole number from {least} to {most}",
                    least=number.minimum,
                    most=number.maximum,
                )[:45],
                custom_id=NUMBER_FIELD,
                placeholder=str(number.minimum),
                min_length=1,
                max_length=max(len(str(number.minimum)), len(str(number.maximum))) + 2,
            )
        )
        self.stop()  # answered by answer_number, never by this instance


async def answer_number(interaction: discord.Interaction, found: re.Match[str]) -> None:
    """A number form submitted (at any time, restarts included): play its move."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    game_id, ply = int(found["game"]), int(found["ply"])
    _asked, number = await asked_number(interaction, game_id, ply, int(found["index"]))
    typed = "".join(form_values(interaction.data).get(NUMBER_FIELD, "").split())
    if (
        not re.fullmatch(r"[+-]?[0-9]{1,9}", typed)
        or not number.minimum <= int(typed) <= number.maximum
    ):
        raise UserError(
            _(
                "`{typed}` won't do: type a whole number from {least} to {most}.",
                typed=typed[:20] or _("nothing"),
                least=number.minimum,
                most=number.maximum,
            )
        )
    update = await service(interaction, Moves).play_move(
        guild_id=guild_of(interaction),
        game_id=game_id,
        member=member_of(interaction.user),
        text=number.template.format(int(typed)),
        expected_ply=ply,
    )
    await reply(interaction, _("Done: `{move}`.", move=update.move), ephemeral=True)


class ResignButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:resign:(?P<game>{ROW_ID}):(?P<member>{SNOWFLAKE})",
):
    """The confirmation of ``/resign``; only the member who asked can press it."""

    def __init__(self, game_id: int, member_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Yes, resign"),
                style=discord.ButtonStyle.danger,
                custom_id=f"bb:resign:{game_id}:{member_id}",
            )
        )
        self.game_id, self.member_id = game_id, member_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["game"]), int(match["member"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.member_id:
            raise UserError(_("This confirmation belongs to someone else."))
        await interaction.response.defer()
        update = await service(interaction, Moves).resign(
            guild_id=guild_of(interaction), game_id=self.game_id, member=member_of(interaction.user)
        )
        await interaction.edit_original_response(
            content=_(
                "You resigned {game}. {result}.",
                game=texts.label(update.game),
                result=texts.result_text(update.game, update.state),
            ),
            view=None,
        )


def resign_view(game_id: int, member_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ResignButton(game_id, member_id))
    return view


class ConfirmMoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:confirm:(?P<game>{ROW_ID}):(?P<ply>{SMALL}):"
    rf"(?P<move>{MOVE})",
):
    """**Confirm** under a move shown privately before it is played (the member's
    "confirm moves" setting); valid while the game is at ``ply``."""

    def __init__(self, game_id: int, ply: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Confirm"),
                style=discord.ButtonStyle.success,
                custom_id=f"bb:confirm:{game_id}:{ply}:{move}",
            )
        )
        self.game_id, self.ply, self.move = game_id, ply, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmMoveButton:
        return cls(int(match["game"]), int(match["ply"]), match["move"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        update = await service(interaction, Moves).play_move(
            guild_id=guild_of(interaction),
            game_id=self.game_id,
            member=member_of(interaction.user),
            text=self.move,
            expected_ply=self.ply,
        )
        # The preview gives way to the board as played (in the member's theme).
        theme = await service(interaction, MemberSettings).theme(interaction.user.id)
        picture = await service(interaction, Boards).picture(update.game, update.state, theme=theme)
        name = f"{update.game.game}-{update.state.ply}.png"
        board = [discord.File(io.BytesIO(picture), filename=name)] if picture else []
        await interaction.edit_original_response(
            content=played_text(update), view=None, attachments=board
        )


async def confirm_move(
    interaction: discord.Interaction, game_id: int, text: str, theme: str
) -> None:
    """Show ``text`` played on the board, privately, with **Confirm** (the interaction is
    deferred); refused as the move itself would be."""
    row, state, after = await service(interaction, Moves).preview(
        guild_id=guild_of(interaction),
        game_id=game_id,
        member=member_of(interaction.user),
        text=text,
    )
    move = after.history[-1]
    picture = await service(interaction, Boards).picture(row, after, theme=theme, preview=True)
    view = discord.ui.View(timeout=None)
    if re.fullmatch(MOVE, move):
        view.add_item(ConfirmMoveButton(row.id, state.ply, move))
        ask = _("Press **Confirm** to play it, or dismiss this message to choose again.")
    else:  # too long to travel in a button: cannot be confirmed, so say how to play it
        ask = _(
            "This move is too long to confirm with a button: turn off confirm moves in "
            "`/settings` to play it."
        )
    kwargs = (
        {"file": discord.File(io.BytesIO(picture), filename=f"{row.game}-preview.png")}
        if picture
        else {}
    )
    await reply(
        interaction,
        _(
            "**{game}**: `{move}` is marked on the board below (not played yet). {ask}",
            game=texts.label(row),
            move=move,
            ask=ask,
        ),
        view=view,
        ephemeral=True,
        **kwargs,
    )


def played_text(update: GameUpdate) -> str:
    """``You played `c3` in [Asli #3](link to its new board).``"""
    row, posted = update.game, update.posted
    if row.in_dms and posted is not None and posted.message_id:
        return _(
            "You played `{move}` in **{game}**: its board is in your DMs with me.",
            move=update.move,
            game=texts.label(row),
        )
    if posted is not None and posted.message_id:
        where = posted.channel_id or posted.thread_id or row.channel_id
        url = texts.jump_url(row.guild_id, where, posted.message_id)
        game = f"[{texts.label(row)}]({url})"
        return _("You played `{move}` in {game}.", move=update.move, game=game)
    if posted is None:
        return _(
            "You played `{move}` in {game}. It is saved; its board is not posted yet: it "
            "will be as soon as Discord lets me, and `/board` shows it now.",
            move=update.move,
            game=texts.label(row),
        )
    return _("You played `{move}` in {game}.", move=update.move, game=texts.label(row))


def decision_items(game_id: int, post: Post) -> list[discord.ui.Item]:
    """The buttons of the decisions a board post asks for (one row of them)."""
    items: list[discord.ui.Item] = []
    for index, decision in enumerate(post.decisions[:SHOWN_DECISIONS]):
        if decision.number is not None:
            items.append(NumberButton(game_id, post.ply, index, said(decision.label)))
        elif decision.move is not None and re.fullmatch(MOVE, decision.move):
            items.append(DecisionButton(game_id, post.ply, decision.move, said(decision.label)))
    return items


ITEMS = (DecisionButton, NumberButton, ResignButton, ConfirmMoveButton)
FORMS: tuple[Form, ...] = ((NUMBER_FORM, answer_number),)
