"""What every board geometry offers: cells by name and index, neighbours,
rows for coordinate labels, and drawing coordinates.

Cells are numbered ``0 .. len(board) - 1`` in board order: row by row from the
bottom row, left to right within a row. Engines work with these indices;
players and records see names (``c3``). Drawing coordinates put neighbouring
cell centres one unit apart, with ``x`` growing to the right and ``y`` growing
*downwards* (image convention), the top-left centre extreme at 0.
"""

from __future__ import annotations

import re

from rules.errors import InvalidMove

_CELL = re.compile(r"([a-z])(\d{1,2})")


class UnknownCell(InvalidMove):
    """A cell name that is malformed or not on this board."""


class Board:
    """Base class of the geometries. Instances are immutable and shared: get
    them through the subclass's ``of(size)``."""

    kind: str = ""

    def __init__(self, size: int, rows: list[list[tuple[int, int]]]) -> None:
        self.size = size
        names: list[str] = []
        row_cells: list[tuple[int, ...]] = []
        row_col: list[tuple[int, int]] = []
        for r, row in enumerate(rows):
            start = len(names)
            for c, _ in enumerate(row):
                names.append(self._format(r, c))
                row_col.append((r, c))
            row_cells.append(tuple(range(start, len(names))))
        self.cells: tuple[str, ...] = tuple(names)
        self.rows: tuple[tuple[int, ...], ...] = tuple(row_cells)
        self._row_col = tuple(row_col)
        self._index = {name: i for i, name in enumerate(names)}

    # -- names -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.cells)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} size={self.size}>"

    def _format(self, row: int, col: int) -> str:
        raise NotImplementedError

    def name(self, index: int) -> str:
        """The name of cell ``index`` (``c3``)."""
        return self.cells[index]

    def index(self, name: str) -> int:
        """The index of the cell called ``name`` (any case, spaces ignored).

        Raises :class:`UnknownCell` (an :class:`~rules.InvalidMove`) for a
        name that is malformed or off this board.
        """
        text = name.strip().lower() if isinstance(name, str) else ""
        found = self._index.get(text)
        if found is not None:
            return found
        if not _CELL.fullmatch(text):
            raise UnknownCell(
                "{name} is not a cell name (cells look like {example})",
                name=repr(name),
                example=self.cells[0],
            )
        raise UnknownCell(
            "{name} is off the board (cells run from {first} to {last})",
            name=text,
            first=self.cells[0],
            last=self.cells[-1],
        )

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.strip().lower() in self._index

    def row_col(self, index: int) -> tuple[int, int]:
        """Row (0 = bottom) and position in the row (0 = left) of a cell."""
        return self._row_col[index]

    # -- geometry (filled in by subclasses) --------------------------------

    neighbours: tuple[tuple[int, ...], ...]
    centers: tuple[tuple[float, float], ...]
    width: float
    height: float

    def center(self, index: int) -> tuple[float, float]:
        """Drawing coordinates of a cell's centre (unit = neighbour distance)."""
        return self.centers[index]

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]
