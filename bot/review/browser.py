"""The move browser: any game of a server, live or over, shown at one move (a ply,
counted from 0 for the start), with the ways to go elsewhere.

Everything a browser needs is the game id and the ply, so both travel in the
buttons' ``custom_id`` and a browser keeps working after a restart. A ply past
the end of the game (it was taken back, or never existed) shows the last one.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import rules
from bot import texts
from bot.core.games import Games, outcome_of
from bot.i18n import _, _n
from bot.model import DEFAULT_THEME, Renderer, Replayer, names
from bot.storage import Database, GameRow, MoveRow, queries
from rules import State

#: Discord shows at most 25 options in a select menu.
JUMP_OPTIONS = 25
NAVIGATION = ("first", "prev", "next", "last")


@dataclass(frozen=True, slots=True)
class Page:
    """The game ``row`` shown after ``ply`` of its ``last`` moves."""

    row: GameRow
    ply: int
    last: int
    state: State
    moves: tuple[MoveRow, ...]

    @property
    def move(self) -> MoveRow | None:
        """The move that led to this position (None at the start)."""
        return self.moves[self.ply - 1] if self.ply else None

    def target(self, kind: str) -> int:
        """The ply a navigation button leads to."""
        return {
            "first": 0,
            "prev": max(0, self.ply - 1),
            "next": min(self.last, self.ply + 1),
            "last": self.last,
        }[kind]

    def enabled(self, kind: str) -> bool:
        return self.target(kind) != self.ply

    def jump_plies(self) -> list[int]:
        """At most 25 plies to jump to, a window around this one (ends included
        when they fit)."""
        return jump_window(self.ply, self.last)


def jump_window(ply: int, last: int, size: int = JUMP_OPTIONS) -> list[int]:
    """``size`` consecutive plies of 0..``last`` centred on ``ply`` as far as the ends allow."""
    count = min(size, last + 1)
    start = min(max(0, ply - count // 2), last + 1 - count)
    return list(range(start, start + count))


class Browser:
    """Pages of any game of a server, and the games to pick from."""

    def __init__(
        self, db: Database, games: Games, *, renderer: Renderer, replayer: Replayer
    ) -> None:
        self.db = db
        self.games = games
        self.renderer = renderer
        self.replayer = replayer

    async def open_page(self, *, guild_id: int, game_id: int, ply: int | None) -> Page:
        """The page of game ``game_id`` (of this server only) at ``ply`` (None: the
        latest), clamped to the game's moves."""
        row = await self.games.get_game(guild_id, game_id)
        async with self.db.reading() as conn:
            moves = tuple(await queries.moves_of_game(conn, row.id))
        last = len(moves)
        shown = last if ply is None else max(0, min(ply, last))
        game = rules.get_game(row.game)
        state = await asyncio.to_thread(game.replay, [m.move for m in moves[:shown]], **row.options)
        return Page(row, shown, last, state, moves)

    async def picture(self, page: Page, *, theme: str = DEFAULT_THEME) -> bytes | None:
        """The page's board; at the end of a finished game, it says how the game ended."""
        outcome = outcome_of(page.row) if page.ply == page.last else None
        return await self.renderer(page.state, names(page.row), theme=theme, outcome=outcome)

    async def replay(self, page: Page, *, theme: str = DEFAULT_THEME) -> bytes:
        """The animated replay of the page's game, every move of it."""
        row = page.row
        return await self.replayer(
            row.game,
            row.options,
            [m.move for m in page.moves],
            names(row),
            theme=theme,
            outcome=outcome_of(row),
        )


def caption(page: Page) -> str:
    """Where the browser is: the game, the move number and the move text."""
    row, state = page.row, page.state
    head = _(
        "**{game}** · {first} vs {second}",
        game=texts.label(row),
        first=texts.player(row, state, 0),
        second=texts.player(row, state, 1),
    )
    if page.move is None:
        where = (
            _n(
                "Start of the game ({count} move so far).",
                "Start of the game ({count} moves so far).",
                page.last,
            )
            if row.is_active
            else _n(
                "Start of the game ({count} move in all).",
                "Start of the game ({count} moves in all).",
                page.last,
            )
        )
        lines = [head, where]
    else:
        who = texts.player(row, state, page.move.seat)
        said = (
            _(
                "Move {number} of {count}: {player} played `{move}` (conditional move).",
                number=page.ply,
                count=page.last,
                player=who,
                move=page.move.move,
            )
            if page.move.conditional
            else _(
                "Move {number} of {count}: {player} played `{move}`.",
                number=page.ply,
                count=page.last,
                player=who,
                move=page.move.move,
            )
        )
        lines = [head, said]
    if page.ply == page.last:
        lines.append(_("This is the current position.") if row.is_active else texts.game_over(row))
    return "\n".join(line for line in lines if line)


def jump_label(page: Page, ply: int) -> str:
    """A select option: ``Move 12: c3`` (at most 100 characters)."""
    if ply == 0:
        return _("Start")
    label = _("Move {number}: {move}", number=ply, move=page.moves[ply - 1].move)
    return label if len(label) <= 100 else label[:99] + "…"
