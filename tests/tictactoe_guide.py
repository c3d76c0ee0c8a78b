"""Tic-tac-toe's guide for ``/rules``: one page, declared by
``tests.tictactoe.TicTacToe.plugins`` as a game's guide is (bot imports no test)."""

from __future__ import annotations

from bot.learning.guide import Diagram, Guide, Page

GUIDE = Guide(
    "tictactoe",
    (
        Page(
            "goal",
            "Three in a row",
            "**X** and **O** take turns placing their mark on a free cell of the 3×3 "
            "board, X first. Three of your marks in a row, a column or a diagonal win; "
            "a full board with no such line is a draw.",
            Diagram({}, ("a1", "b1", "b2", "c1", "c3"), "X's a1, b2 and c3: X wins."),
        ),
    ),
    credit="traditional",
)
