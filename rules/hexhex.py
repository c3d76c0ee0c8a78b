"""The hexhex board of Lifeline, Sliglube and Astralis.

A hexagon of hexagonal cells with ``base`` cells on each side, drawn with a
flat row of cells at the top and the bottom (pointy-topped cells, horizontal
rows). There are ``2·base − 1`` rows lettered from the bottom (``a``); cells in
a row are numbered from 1 at the left. The middle row is the widest.

Internally a cell has *doubled* coordinates ``(row, X)`` where ``X`` counts
half cell widths from the left of the widest row; the six neighbours of
``(r, X)`` are ``(r, X±2)`` and ``(r±1, X±1)``, and those six steps are the six
straight directions used by Astralis' pawns.
"""

from __future__ import annotations

import math
import string
from functools import cache

from rules.board import Board

#: The six directions as (row step, doubled-X step): E, NE, NW, W, SW, SE.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))

_ROW_HEIGHT = math.sqrt(3) / 2
#: Distance from a cell's centre to its corners, neighbour distance being 1.
CELL_RADIUS = 1 / math.sqrt(3)


class HexBoard(Board):
    kind = "hexhex"

    def __init__(self, base: int) -> None:
        if not 2 <= base <= 13:
            raise ValueError(f"hexhex boards have a base of 2 to 13, not {base}")
        self.base = base
        middle = base - 1
        rows = [
            [(r, c) for c in range(base + middle - abs(r - middle))] for r in range(2 * base - 1)
        ]
        super().__init__(base, rows)
        doubled = {}
        coords = []
        for i in range(len(self.cells)):
            r, c = self.row_col(i)
            x2 = 2 * c + abs(r - middle)
            doubled[(r, x2)] = i
            coords.append((r, x2))
        self._doubled = doubled
        self._coords = tuple(coords)
        steps = []
        for r, x2 in coords:
            steps.append(tuple(doubled.get((r + dr, x2 + dx)) for dr, dx in DIRECTIONS))
        self._steps: tuple[tuple[int | None, ...], ...] = tuple(steps)
        self.neighbours = tuple(tuple(n for n in s if n is not None) for s in steps)
        top = 2 * base - 2
        self.centers = tuple((x2 / 2, (top - r) * _ROW_HEIGHT) for r, x2 in coords)
        self.width = float(2 * base - 2)
        self.height = top * _ROW_HEIGHT

    def _format(self, row: int, col: int) -> str:
        return f"{string.ascii_lowercase[row]}{col + 1}"

    @property
    def row_labels(self) -> tuple[str, ...]:
        return tuple(string.ascii_lowercase[: len(self.rows)])

    def step(self, index: int, direction: int) -> int | None:
        """The neighbour of ``index`` in ``direction`` (0–5, see DIRECTIONS), or None
        at the edge."""
        return self._steps[index][direction]

    def ray(self, index: int, direction: int) -> list[int]:
        """The cells met walking from ``index`` (excluded) in one direction to the edge."""
        out = []
        nxt = self._steps[index][direction]
        while nxt is not None:
            out.append(nxt)
            nxt = self._steps[nxt][direction]
        return out

    def corners(self, index: int, radius: float = CELL_RADIUS) -> list[tuple[float, float]]:
        """The six corners of a cell's hexagon in drawing coordinates, pointy top first."""
        x, y = self.centers[index]
        return [
            (x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]

    @classmethod
    @cache
    def of(cls, base: int) -> HexBoard:
        """The shared board of that base."""
        return cls(base)
