"""Board geometry: names, neighbours and directions as players read them."""

import pytest

from rules import HexBoard, SquareBoard, UnknownCell


@pytest.mark.parametrize("base", range(2, 14))
def test_hexhex_cell_count_and_rows(base):
    board = HexBoard.of(base)
    assert len(board) == 3 * base * (base - 1) + 1
    assert len(board.rows) == 2 * base - 1
    assert len(board.rows[0]) == len(board.rows[-1]) == base
    assert len(board.rows[base - 1]) == 2 * base - 1


def test_hexhex_names_follow_the_notation():
    board = HexBoard.of(7)
    assert board.cells[:7] == ("a1", "a2", "a3", "a4", "a5", "a6", "a7")
    assert board.name(board.rows[6][-1]) == "g13"
    assert board.cells[-1] == "m7"
    assert board.index("G13") == board.index(" g13 ")


def test_hexhex_neighbours():
    board = HexBoard.of(7)
    near = lambda name: sorted(board.name(n) for n in board.neighbours[board.index(name)])  # noqa: E731
    assert near("a1") == ["a2", "b1", "b2"]  # a corner has three
    assert near("g1") == ["f1", "g2", "h1"]
    assert near("d4") == ["c3", "c4", "d3", "d5", "e4", "e5"]
    assert near("h4") == ["g4", "g5", "h3", "h5", "i3", "i4"]  # above the middle row
    assert near("a4") == ["a3", "a5", "b4", "b5"]  # an edge has four
    for i, ns in enumerate(board.neighbours):
        for n in ns:
            assert i in board.neighbours[n]


def test_hexhex_rays_are_straight_lines():
    board = HexBoard.of(7)
    ray = [board.name(i) for i in board.ray(board.index("a1"), 1)]
    assert ray == ["b2", "c3", "d4", "e5", "f6", "g7", "h7", "i7", "j7", "k7", "l7", "m7"]
    x0, y0 = board.center(board.index("a1"))
    x1, y1 = board.center(board.index("m7"))
    for i in board.ray(board.index("a1"), 1):
        x, y = board.center(i)
        assert abs((x - x0) * (y1 - y0) - (y - y0) * (x1 - x0)) < 1e-9


def test_neighbour_centres_are_one_apart():
    for board in (HexBoard.of(5), SquareBoard.of(5)):
        for i, ns in enumerate(board.neighbours):
            x, y = board.center(i)
            for n in ns:
                nx, ny = board.center(n)
                assert abs(((nx - x) ** 2 + (ny - y) ** 2) ** 0.5 - 1) < 1e-9


def test_square_names_and_neighbours():
    board = SquareBoard.of(13)
    assert board.cells[0] == "a1" and board.cells[-1] == "m13"
    assert "i5" in board  # unlike Go, i is used
    assert sorted(board.name(n) for n in board.neighbours[board.index("a1")]) == ["a2", "b1"]
    assert len(board.neighbours[board.index("g7")]) == 4
    # a1 is drawn bottom-left
    assert board.center(board.index("a1")) == (0.0, 12.0)


@pytest.mark.parametrize("bad", ["", "z1", "a0", "a14", "11", "aa", "a-1", "n1"])
def test_unknown_cells_are_refused_with_a_reason(bad):
    with pytest.raises(UnknownCell) as caught:
        SquareBoard.of(13).index(bad)
    assert str(caught.value)
