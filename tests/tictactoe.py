"""A game defined outside ``rules``: 3×3 tic-tac-toe, for the tests that show a further
game needs only its rules module, its plug-ins and a registry line (tests/rules'
plug-ins, tests/render's painters, tests/bot's fifth game). It declares a painter
(tests/tictactoe_painter.py) and a guide of one page (tests/tictactoe_guide.py), and
no fast position and no AI knowledge: the search plays it with the defaults."""

from __future__ import annotations

from typing import Any

from rules import (
    NO_CHANGE,
    Change,
    Game,
    IllegalMove,
    InvalidMove,
    Outcome,
    Plugins,
    State,
    Termination,
)
from rules.game import normalize_move
from rules.square import SquareBoard

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ("x", "o")


class TicTacToeState(State):
    __slots__ = ("_cells", "_change", "board", "game", "history", "options")

    def __init__(
        self, game: Game, history: tuple[str, ...], cells: tuple[str | None, ...], change: Change
    ) -> None:
        for name, value in (
            ("game", game),
            ("options", {}),
            ("board", SquareBoard.of(3)),
            ("history", history),
            ("_cells", cells),
            ("_change", change),
        ):
            object.__setattr__(self, name, value)

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.ply % 2

    def color_of(self, seat: int) -> str | None:
        return MARKS[seat]

    def legal_moves(self) -> list[str]:
        return (
            []
            if self.is_over
            else [self.board.name(i) for i, mark in enumerate(self._cells) if mark is None]
        )

    def parse(self, text: str) -> str:
        move = normalize_move(text)
        if not move:
            raise InvalidMove("name a free cell, like b2")
        return self.board.name(self.board.index(move))

    def play(self, move: str) -> TicTacToeState:
        cell = self.parse(move)
        index = self.board.index(cell)
        if self.is_over or self._cells[index] is not None:
            raise IllegalMove(f"{cell} is taken" if not self.is_over else "the game is over")
        cells = list(self._cells)
        cells[index] = MARKS[self.ply % 2]
        return TicTacToeState(
            self.game, (*self.history, cell), tuple(cells), Change(placed=(cell,))
        )

    @property
    def outcome(self) -> Outcome | None:
        for a, b, c in LINES:
            mark = self._cells[a]
            if mark is not None and mark == self._cells[b] == self._cells[c]:
                return Outcome(
                    MARKS.index(mark), Termination.GOAL, f"{mark.upper()} wins: three in a row"
                )
        if all(self._cells):
            return Outcome(None, Termination.GOAL, "Draw: the board is full")
        return None

    def stone_at(self, cell: str) -> str | None:
        return self._cells[self.board.index(cell)]

    @property
    def last_change(self) -> Change:
        return self._change

    @property
    def prompt(self) -> str:
        return "" if self.is_over else "place your mark"


class TicTacToe(Game):
    name = "tictactoe"
    title = "Tic-tac-toe"
    colors = MARKS
    option_specs = ()
    summary = "Place your mark on a free cell; three in a row wins."
    plugins = Plugins(
        painter="tests.tictactoe_painter:PAINTER", guide="tests.tictactoe_guide:GUIDE"
    )

    def _initial(self, options: dict[str, Any]) -> TicTacToeState:
        return TicTacToeState(self, (), (None,) * 9, NO_CHANGE)


GAME = TicTacToe()
