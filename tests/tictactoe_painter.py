"""Tic-tac-toe's painter, declared by ``tests.tictactoe.TicTacToe.plugins`` as a game's
painter is (render imports no test): red crosses, blue noughts."""

from __future__ import annotations

import render
from rules import Game


class Crosses(render.Painter):
    """Red crosses, blue noughts."""

    def colors(self, game: Game, theme: str) -> render.Colors:
        return render.theme.colors(theme, {"x": (220, 40, 40), "o": (40, 80, 220)})


PAINTER = Crosses()
