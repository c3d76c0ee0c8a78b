"""Loop search on a hexhex board, for Sliglube.

A *loop* is an induced cycle of six or more stones in the board's adjacency
graph: a closed ring one stone wide, every stone of it touching exactly two
others of it. (On a hex grid the only shorter induced cycle is a triangle of
three mutually touching stones, which encloses nothing; there are no induced
cycles of four or five.)

Sets of cells are Python ints used as bit sets, with a *padded* layout: the
cell at axial coordinates (row, q) has bit ``(row + 1) · W + q + 1`` where
``W = 2·base + 1``. The padding column and rows hold no cell, so the six
neighbours of a whole set are six shifts (``±1``, ``±W``, ``±(W − 1)``) and a
flood fill is a handful of big-int operations per step. Bit order is board
order, so "smallest bit" and "first cell in board order" agree.

The search is a depth-first walk over *induced paths* starting at one stone
``v``: a path ``v, p1, …, pk`` may only grow by a stone that touches none of
``p1 … p(k−1)``; it closes into a loop when the new stone touches ``v``. Two
prunings keep it small on crowded boards:

- the only stones that can ever close the ring are ``v``'s neighbours that
  touch none of the path's interior (the *targets*); once none is left, or
  none can be reached from the path's tip through stones the path may still
  use (a flood fill), the branch is dropped;
- each ring is walked in one direction only: the closing stone must come
  after ``p1`` in board order.

Whole-position searches start from every stone of the *loop core* (stones
left after repeatedly discarding those without two non-touching stone
neighbours, which no loop can pass through) and only look at stones after the
start, so each loop is found once, from its first stone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache

from rules.hexhex import HexBoard


def bits(mask: int) -> Iterator[int]:
    """The bit positions set in ``mask``, smallest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class HexGrid:
    """The padded bit layout of one hexhex board (see the module docstring)."""

    __slots__ = ("board", "cells", "index_of", "nb", "pos", "width")

    def __init__(self, board: HexBoard) -> None:
        base = board.base
        middle = base - 1
        self.board = board
        self.width = width = 2 * base + 1
        pos = []
        for i in range(len(board)):
            row, col = board.row_col(i)
            x2 = 2 * col + abs(row - middle)
            q = (x2 - row + middle) // 2
            pos.append((row + 1) * width + q + 1)
        #: board index -> bit position, and back
        self.pos: tuple[int, ...] = tuple(pos)
        self.index_of: dict[int, int] = {p: i for i, p in enumerate(pos)}
        #: the mask of every cell of the board
        self.cells: int = sum(1 << p for p in pos)
        nb = [0] * (width * width)
        for p in pos:
            nb[p] = self.grow(1 << p) & ~(1 << p)
        #: bit position -> mask of its neighbours on the board
        self.nb: list[int] = nb

    @classmethod
    @cache
    def of(cls, base: int) -> HexGrid:
        return cls(HexBoard.of(base))

    def grow(self, mask: int) -> int:
        """``mask`` and every cell next to it."""
        w = self.width
        return (mask | mask << 1 | mask >> 1 | mask << w | mask >> w | mask << (w - 1)
                | mask >> (w - 1)) & self.cells

    def mask(self, indices: Iterable[int]) -> int:
        """The set of board cells ``indices`` as a mask."""
        pos = self.pos
        out = 0
        for i in indices:
            out |= 1 << pos[i]
        return out

    def indices(self, mask: int) -> list[int]:
        """The board indices of the cells in ``mask``, in board order."""
        index_of = self.index_of
        return [index_of[p] for p in bits(mask)]

    def ring_order(self, loop: int) -> list[int]:
        """The board indices of a loop's stones in ring order: from its first
        cell in board order towards the earlier of that cell's two ring
        neighbours."""
        start = (loop & -loop).bit_length() - 1
        first, _ = bits(self.nb[start] & loop)
        order = [start, first]
        previous, current = start, first
        while True:
            following = next(bits(self.nb[current] & loop & ~(1 << previous)))
            if following == start:
                break
            order.append(following)
            previous, current = current, following
        return [self.index_of[p] for p in order]


def loop_core(grid: HexGrid, stones: int) -> int:
    """The stones that might lie on a loop: repeatedly discard every stone
    whose stone neighbours (among those left) are all pairwise touching, since
    a stone on a loop touches two ring stones that do not touch each other."""
    nb = grid.nb
    core = stones
    changed = True
    while changed:
        changed = False
        for p in bits(core):
            near = nb[p] & core
            if not _has_apart_pair(nb, near):
                core &= ~(1 << p)
                changed = True
    return core


def _has_apart_pair(nb: list[int], near: int) -> bool:
    for p in bits(near):
        if near & ~nb[p] & ~(1 << p):
            return True
    return False


#: Called with each loop found; returning True stops the search.
Visitor = Callable[[int], bool]


def search_through(grid: HexGrid, v: int, stones: int, visit: Visitor) -> bool:
    """Call ``visit`` with every loop (as a mask) through the stone at bit
    position ``v`` that uses only ``stones``; stop as soon as ``visit``
    returns True, and return whether it did. Each loop is visited once."""
    nb = grid.nb
    grow = grid.grow
    vbit = 1 << v
    vn = nb[v] & stones

    def extend(tip: int, path: int, length: int, ban: int, targets: int) -> bool:
        # ``path`` (``length`` stones) runs from v to ``tip``; ``ban`` holds the
        # path and every neighbour of its interior; ``targets`` the stones that
        # may still close it.
        new_targets = targets & ~nb[tip]
        candidates = nb[tip] & stones & ~ban
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            if low & vn:
                if low & targets and length >= 5 and visit(path | low):
                    return True
                continue
            if not new_targets:
                continue
            new_ban = ban | nb[tip] | low
            allowed = stones & ~new_ban & (~vn | new_targets)
            w = low.bit_length() - 1
            front = region = nb[w] & allowed
            while front and not region & new_targets:
                front = grow(front) & allowed & ~region
                region |= front
            if region & new_targets and extend(w, path | low, length + 1, new_ban, new_targets):
                return True
        return False

    later = vn
    for p1 in bits(vn):
        b1 = 1 << p1
        later &= ~b1
        if later and extend(p1, vbit | b1, 2, vbit | b1, later):
            return True
    return False


def loops_through(grid: HexGrid, v: int, stones: int) -> list[int]:
    """Every loop through the stone at bit ``v`` within ``stones``, as masks."""
    found: list[int] = []
    search_through(grid, v, loop_core(grid, stones), _collector(found))
    return found


def all_loops(grid: HexGrid, stones: int) -> list[int]:
    """Every loop within ``stones``, as masks, ordered by first stone."""
    found: list[int] = []
    visit = _collector(found)
    core = loop_core(grid, stones)
    remaining = core
    for v in bits(core):
        search_through(grid, v, remaining, visit)
        remaining &= ~(1 << v)
    return found


def _collector(found: list[int]) -> Visitor:
    def visit(loop: int) -> bool:
        found.append(loop)
        return False
    return visit
