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
    assert labels == Counter(
        {**{c: 2 for c in string.ascii_lowercase[:n]}, **{str(r): 2 for r in range(1, n + 1)}}
    )
    for label in layout.labels:
        assert inside(layout, label)
        if label.text.isalpha():  # a column letter sits exactly above/below its column
            x, _ = render.cell_center(board, f"{label.text}1")
            assert label.x == pytest.approx(x)
        else:
            _, y = render.cell_center(board, f"a{label.text}")
            assert label.y == pytest.approx(y)


@pytest.mark.parametrize("board", HEXES, ids=lambda b: f"hexhex-{b.base}")
def test_every_hex_row_is_named_by_its_first_and_last_cell_beside_them(board):
    layout = render.board_layout(board)
    for row in board.rows:
        first, last = board.cells[row[0]], board.cells[row[-1]]
        (x0, y0), (x1, y1) = (render.cell_center(board, cell) for cell in (first, last))
        assert y1 == pytest.approx(y0)
        beside = sorted(
            (lb for lb in layout.labels if lb.y == pytest.approx(y0)), key=lambda lb: lb.x
        )
        assert [lb.text for lb in beside] == [first, last]
        # each next to its cell: outside the row, less than a cell and a label away
        assert 0.5 * layout.unit < x0 - beside[0].x < 1.5 * layout.unit + layout.label_size
        assert 0.5 * layout.unit < beside[1].x - x1 < 1.5 * layout.unit + layout.label_size
    # no other label: numbers over the top row misled players about the middle rows
    assert len(layout.labels) == 2 * len(board.rows)
    assert all(inside(layout, label) for label in layout.labels)


@pytest.mark.parametrize("base", [3, 7, 12])
def test_hex_row_names_are_drawn_where_the_layout_puts_them(base):
    state = rules.get_game("lifeline").new(size=base)
    image = decode(render.board_png(state)).convert("RGB")
    layout = render.board_layout(state)
    ink = render.colors("lifeline").text
    for label in layout.labels:
        half_w = render.text.length(label.text, layout.label_size) / 2
        box = (
            int(label.x - half_w),
            int(label.y - layout.label_size / 2),
            int(label.x + half_w) + 1,
            int(label.y + layout.label_size / 2) + 1,
        )
        assert any(
            near(image.getpixel((x, y)), ink)
            for x in range(box[0], box[2])
            for y in range(box[1], box[3])
        ), label


@pytest.mark.parametrize("board", SQUARE + HEXES, ids=lambda b: f"{b.kind}-{b.size}")
def test_a1_is_bottom_left_rows_go_up_and_numbers_go_right(board):
    a1 = render.cell_center(board, "a1")
    if isinstance(board, SquareBoard):  # letters are columns, numbers rows
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
