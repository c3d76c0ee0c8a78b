"""One drawer per board style: how a kind of board looks and where its
coordinates go. The drawer of a board is found by the board's class
(:func:`style_for`), so a new geometry brings its own with :func:`register`.

Coordinates follow the notation. Square boards: column letters above and
below, row numbers on both sides. Hexhex boards: every row is named at both
ends by its first and its last cell (``d1`` … ``d11``), so a player reads
where the row's numbering starts and ends beside the row itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import sprites, text
from render.theme import Colors
from render.words import _
from rules.board import Board
from rules.hexhex import CELL_RADIUS, HexBoard
from rules.square import SquareBoard


@dataclass(frozen=True)
class Label:
    text: str
    x: float  # centre, pixels
    y: float
    strong: bool  # drawn in the text colour (else dimmer)


class BoardStyle:
    """How one kind of board is drawn. Pixel positions are relative to board
    point (0, 0); ``unit`` is the pixel distance between neighbouring centres."""

    #: stone radius, in units
    stone_scale: float = 0.45
    #: how far the drawn board reaches past the outermost centres, in units
    overhang: float = 0.5
    #: whole-pixel unit and centres on pixel centres (crisp grid lines)
    snap: bool = False

    def line_width(self, unit: float) -> float:
        return max(1.0, 0.035 * unit)

    def describe(self, board: Board) -> str:
        """The board's size as a caption says it."""
        return _("size {size}", size=board.size)

    def labels(self, board: Board, unit: float, size: int) -> list[Label]:
        return []

    def draw(
        self,
        draw: ImageDraw.ImageDraw,
        board: Board,
        unit: float,
        origin: tuple[float, float],
        col: Colors,
    ) -> None:
        """The board's shapes, on a supersampled canvas (``unit`` and ``origin`` scaled):
        by default a round spot per cell."""
        r, width = 0.5 * unit, round(self.line_width(unit))
        for x, y in board.centers:
            cx, cy = origin[0] + x * unit, origin[1] + y * unit
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r), fill=col.board, outline=col.line, width=width
            )

    def draw_crisp(
        self,
        image: Image.Image,
        board: Board,
        unit: float,
        origin: tuple[float, float],
        col: Colors,
    ) -> None:
        """What must land on whole pixels, drawn at the final size."""

    def cell(self, unit: float, fill: tuple[int, int, int]) -> Image.Image:
        """A sprite filling one cell with ``fill`` (tinted cells)."""
        return sprites.disc(0.5 * unit, fill)


class SquareStyle(BoardStyle):
    """Play on the points of a grid (Asli): lines on whole pixels."""

    stone_scale = 0.47
    overhang = 0.5
    snap = True

    def line_width(self, unit: float) -> float:
        return max(1.0, 0.045 * unit)

    def describe(self, board: Board) -> str:
        return f"{board.size}×{board.size}"

    def labels(self, board: Board, unit: float, size: int) -> list[Label]:
        n = board.size
        labels = []
        reach = 0.5 * unit + 0.35 * size  # from the outermost line to a label's near edge
        span = (n - 1) * unit
        for c in range(n):
            letter = chr(ord("a") + c)
            labels.append(Label(letter, c * unit, -reach - 0.5 * size, True))
            labels.append(Label(letter, c * unit, span + reach + 0.5 * size, True))
        half = text.length(str(n), size) / 2
        for r in range(n):
            y = (n - 1 - r) * unit
            labels.append(Label(str(r + 1), -reach - half, y, True))
            labels.append(Label(str(r + 1), span + reach + half, y, True))
        return labels

    def draw_crisp(
        self,
        image: Image.Image,
        board: Board,
        unit: float,
        origin: tuple[float, float],
        col: Colors,
    ) -> None:
        n, u = board.size, round(unit)
        x0, y0 = math.floor(origin[0]), math.floor(origin[1])
        half = (2 * round((self.line_width(unit) - 1) / 2) + 1) // 2
        span = (n - 1) * u
        rim = round(0.5 * u)
        draw = ImageDraw.Draw(image)
        draw.rectangle((x0 - rim, y0 - rim, x0 + span + rim, y0 + span + rim), fill=col.board)
        for k in range(n):
            draw.rectangle(
                (x0 + k * u - half, y0 - half, x0 + k * u + half, y0 + span + half), fill=col.line
            )
            draw.rectangle(
                (x0 - half, y0 + k * u - half, x0 + span + half, y0 + k * u + half), fill=col.line
            )

    def cell(self, unit: float, fill: tuple[int, int, int]) -> Image.Image:
        return sprites.square(0.3 * unit, fill)


class HexStyle(BoardStyle):
    """Hexagonal cells in horizontal rows (Lifeline, Sliglube, Astralis)."""

    stone_scale = 0.43
    overhang = CELL_RADIUS

    def line_width(self, unit: float) -> float:
        return max(1.0, 0.032 * unit)

    def describe(self, board: Board) -> str:
        return _("base {size}", size=board.size)

    def labels(self, board: Board, unit: float, size: int) -> list[Label]:
        gap = 0.5 * unit + 0.3 * size  # from a cell centre to the near edge of its label
        labels = []
        for row in board.rows:
            first, last = board.cells[row[0]], board.cells[row[-1]]
            x0, y0 = board.centers[row[0]]
            x1, y1 = board.centers[row[-1]]
            labels.append(
                Label(first, x0 * unit - gap - text.length(first, size) / 2, y0 * unit, True)
            )
            labels.append(
                Label(last, x1 * unit + gap + text.length(last, size) / 2, y1 * unit, True)
            )
        return labels

    def draw(
        self,
        draw: ImageDraw.ImageDraw,
        board: Board,
        unit: float,
        origin: tuple[float, float],
        col: Colors,
    ) -> None:
        assert isinstance(board, HexBoard)
        width = round(self.line_width(unit))
        ox, oy = origin
        for i in range(len(board)):
            points = [(ox + x * unit, oy + y * unit) for x, y in board.corners(i)]
            draw.polygon(points, fill=col.board, outline=col.line, width=width)

    def cell(self, unit: float, fill: tuple[int, int, int]) -> Image.Image:
        return sprites.hexagon(CELL_RADIUS * unit - self.line_width(unit) * 0.9, fill)


_STYLES: dict[type[Board], BoardStyle] = {SquareBoard: SquareStyle(), HexBoard: HexStyle()}


def register(board_type: type[Board], style: BoardStyle) -> None:
    """Draw boards of ``board_type`` (and its subclasses) with ``style``."""
    _STYLES[board_type] = style


def style_for(board: Board) -> BoardStyle:
    """The drawer of ``board``: the one registered for its class or the nearest base class."""
    for kind in type(board).__mro__:
        style = _STYLES.get(kind)
        if style is not None:
            return style
    return BoardStyle()
