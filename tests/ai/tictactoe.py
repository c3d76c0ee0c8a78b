"""Tic-tac-toe through the engine contract: a game the AI has no module for.

It has neither a fast search position nor knowledge in ``ai/games``, so it is
played through the generic paths only, which is what a fifth game would get.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules import NO_CHANGE, Change, Game, IllegalMove, SquareBoard, State
from rules.game import normalize_move

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class TicTacToeState(State):
    __slots__ = ("board", "cells", "game", "history", "options")

    def __init__(self, game: Game, history: tuple[str, ...]) -> None:
        self.game = game
        self.options: dict[str, Any] = {}
        self.board = SquareBoard.of(3)
        self.history = history
        self.cells = [None] * 9
        for ply, move in enumerate(history):
            self.cells[self.board.index(move)] = ply % 2

    def _line(self) -> int | None:
        for a, b, c in LINES:
            if self.cells[a] is not None and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else len(self.history) % 2

    def color_of(self, seat: int) -> str:
        return self.game.colors[seat]

    def legal_moves(self) -> list[str]:
        if self.is_over:
            return []
        return [name for i, name in enumerate(self.board.cells) if self.cells[i] is None]

    def play(self, move: str) -> TicTacToeState:
        text = normalize_move(move)
        if text not in self.legal_moves():
            raise IllegalMove(f"{text} is not free")
        return TicTacToeState(self.game, (*self.history, text))

    @property
    def is_over(self) -> bool:
        return self._line() is not None or None not in self.cells

    @property
    def winner(self) -> int | None:
        return self._line()

    @property
    def result(self) -> str | None:
        if not self.is_over:
            return None
        return "Draw" if self.winner is None else f"{self.game.colors[self.winner]} wins"

    def stone_at(self, cell: str) -> str | None:
        seat = self.cells[self.board.index(cell)]
        return None if seat is None else self.game.colors[seat]

    @property
    def last_change(self) -> Change:
        return Change(placed=self.history[-1:]) if self.history else NO_CHANGE

    @property
    def prompt(self) -> str:
        return "" if self.is_over else "place a mark"


class TicTacToe(Game):
    name = "tictactoe"
    title = "Tic-tac-toe"
    colors: ClassVar[tuple[str, str]] = ("cross", "nought")
    option_specs = ()

    def _initial(self, options: dict[str, Any]) -> TicTacToeState:
        return TicTacToeState(self, ())


GAME = TicTacToe()
