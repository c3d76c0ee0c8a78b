"""A game defined outside ``rules``: 3×3 tic-tac-toe, for the painter registry tests."""

from __future__ import annotations

from typing import Any

from rules import (
    NO_CHANGE,
    Change,
    Game,
    IllegalMove,
    InvalidMove,
    Option,
    Outcome,
    State,
    Termination,
)
from rules.square import SquareBoard

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToeState(State):
    def __init__(self, game: Game, history: tuple[str, ...], cells: tuple[str | None, ...],
                 change: Change) -> None:
        for name, value in (("game", game), ("options", {"size": 3}),
                            ("board", SquareBoard.of(3)), ("history", history),
                            ("_cells", cells), ("_change", change)):
            object.__setattr__(self, name, value)  # States are immutable once made

    def _line(self) -> str | None:
        for a, b, c in LINES:
            if self._cells[a] and self._cells[a] == self._cells[b] == self._cells[c]:
                return self._cells[a]
        return None

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.ply % 2

    def color_of(self, seat: int) -> str | None:
        return ("x", "o")[seat]

    def legal_moves(self) -> list[str]:
        if self.is_over:
            return []
        return [self.board.name(i) for i, c in enumerate(self._cells) if c is None]

    def parse(self, text: str) -> str:
        try:
            return self.board.name(self.board.index(text.strip().lower()))
        except ValueError:
            raise InvalidMove(f"{text!r} is not a cell of the 3×3 board (a1 to c3)") from None

    def play(self, move: str) -> TicTacToeState:
        index = self.board.index(self.parse(move))
        if self._cells[index] is not None or self.is_over:
            raise IllegalMove(f"{move} is not free")
        cells = list(self._cells)
        cells[index] = ("x", "o")[self.ply % 2]
        return TicTacToeState(self.game, (*self.history, self.board.name(index)), tuple(cells),
                              Change(placed=(self.board.name(index),)))

    @property
    def outcome(self) -> Outcome | None:
        line = self._line()
        if line is not None:
            return Outcome(("x", "o").index(line), Termination.GOAL,
                           f"{line.upper()} wins: three in a row")
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
    colors = ("x", "o")
    option_specs = (Option("size", int, 3, "always 3", minimum=3, maximum=3),)

    def _initial(self, options: dict[str, Any]) -> TicTacToeState:
        return TicTacToeState(self, (), (None,) * 9, NO_CHANGE)


GAME = TicTacToe()
