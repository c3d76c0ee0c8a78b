"""The square grid of Asli: N×N points, play on the intersections.

Columns are letters from the left, ``a`` onwards with none skipped; rows are
numbers from 1 at the bottom. ``a1`` is the bottom-left point.
"""

from __future__ import annotations

import string
from functools import cache

from rules.board import Board


class SquareBoard(Board):
    kind = "square"

    def __init__(self, size: int) -> None:
        if not 1 <= size <= 26:
            raise ValueError(f"square boards have 1 to 26 points per side, not {size}")
        super().__init__(size, [[(r, c) for c in range(size)] for r in range(size)])
        n = size
        neighbours = []
        centers = []
        for i in range(n * n):
            r, c = divmod(i, n)
            near = []
            if r > 0:
                near.append(i - n)
            if c > 0:
                near.append(i - 1)
            if c < n - 1:
                near.append(i + 1)
            if r < n - 1:
                near.append(i + n)
            neighbours.append(tuple(near))
            centers.append((float(c), float(n - 1 - r)))
        self.neighbours = tuple(neighbours)
        self.centers = tuple(centers)
        self.width = self.height = float(n - 1)

    def _format(self, row: int, col: int) -> str:
        return f"{string.ascii_lowercase[col]}{row + 1}"

    @classmethod
    @cache
    def of(cls, size: int) -> SquareBoard:
        """The shared board of ``size`` × ``size`` points."""
        return cls(size)
