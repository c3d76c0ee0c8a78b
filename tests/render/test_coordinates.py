"""Coordinates around the board follow the notation, and the geometry agrees
with it: a1 bottom-left, rows upwards, cells rightwards."""

from __future__ import annotations

import string
from collections import Counter

import pytest

import render
import rules
from rules.hexhex import HexBoard
from rules.square import SquareBoard
from tests.render.helpers import decode, near, pixel

SQUARE = [SquareBoard.of(n) for n in (5, 13, 25)]
HEXES = [HexBoard.of(b) for b in (3, 7, 12)]


def inside(layout, label) -> bool:
    return 0 <= label.x < layout.width and layout.caption_height <= label.y < layout.height


@pytest.mark.parametrize("board", SQUARE, ids=lambda b: f"square-{b.size}")
def test_square_boards_have_letters_above_and_below_and_numbers_on_both_sides(board):
    layout = render.board_layout(board)
    labels = Counter(label.text for label in layout.labels)
    n = board.size
    assert labels == Counter({**{c: 2 for c in string.ascii_lowercase[:n]},
                              **{str(r): 2 for r in range(1, n + 1)}})
    for label in layout.labels:
        assert inside(layout, label)
        if label.text.isalpha():  # a column letter sits exactly above/below its column
            x, _ = render.cell_center(board, f"{label.text}1")
            assert label.x == pytest.approx(x)
        else:
            _, y = render.cell_center(board, f"a{label.text}")
            assert label.y == pytest.approx(y)


@pytest.mark.parametrize("board", HEXES, ids=lambda b: f"hexhex-{b.base}")
def test_hex_rows_are_lettered_at_both_ends_and_numbered_along_the_edges(board):
    layout = render.board_layout(board)
    for r, row in enumerate(board.rows):
        letter = string.ascii_lowercase[r]
        first, last = board.cells[row[0]], board.cells[row[-1]]
        _, y = render.cell_center(board, first)
        at_row = sorted((lb for lb in layout.labels if lb.y == pytest.approx(y)),
                        key=lambda lb: lb.x)
        # left: the letter; right: the name of the last cell, letter then number
        assert [lb.text for lb in at_row] == [letter, letter, last[1:]]
        assert at_row[0].x < render.cell_center(board, first)[0]
        assert at_row[1].x > render.cell_center(board, last)[0]
    for row, side in ((board.rows[0], 1), (board.rows[-1], -1)):  # under a, over the top
        for c, cell in enumerate(row):
            x, y = render.cell_center(board, board.cells[cell])
            assert any(lb.text == str(c + 1) and lb.x == pytest.approx(x) and
                       0 < (lb.y - y) * side < 1.5 * layout.unit for lb in layout.labels)
    assert all(inside(layout, label) for label in layout.labels)


@pytest.mark.parametrize("board", SQUARE + HEXES, ids=lambda b: f"{b.kind}-{b.size}")
def test_a1_is_bottom_left_rows_go_up_and_numbers_go_right(board):
    a1 = render.cell_center(board, "a1")
    if board.kind == "square":  # letters are columns, numbers rows
        assert render.cell_center(board, "b1")[0] > a1[0]
        assert render.cell_center(board, "a2")[1] < a1[1]
    else:  # letters are rows, numbers cells within a row
        assert render.cell_center(board, "a2")[0] > a1[0]
        assert render.cell_center(board, "b1")[1] < a1[1]
    ys = [render.cell_center(board, cell)[1] for cell in board.cells]
    assert max(ys) == pytest.approx(a1[1])  # nothing is drawn below the first row


def test_a_hold_marks_no_cell():
    state = rules.get_game("asli").replay(["komi 3", "white", "c3", "hold"], size=5)
    image = decode(render.board_png(state)).convert("RGB")
    mark = render.colors("asli").mark
    assert not any(near(pixel(image, state, cell), mark) for cell in state.board.cells)
