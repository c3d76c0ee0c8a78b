"""Where things go in a picture: the pixel geometry of one board at one scale.

A picture is a caption band on top and the board below it, with coordinates
on every side. Board units (neighbouring centres one unit apart, see
``rules.board``) become pixels by one scale and one offset, chosen so the
picture is about 1000 px on its long side at ``scale=1``.

Coordinates follow the notation. Square boards: column letters below and
above, row numbers left and right. Hexhex boards: the row letter at the left
end of every row (its first cell is always number 1) and at the right end the
name of the row's last cell (``g13``: letter, then its number, dimmer), so a
cell can be counted from either end; cell numbers 1 to base under the bottom
row and over the top row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from PIL import ImageFont

from rules.board import Board
from rules.hexhex import CELL_RADIUS, HexBoard

#: Long side of a picture at scale 1, in pixels (width, height limits).
MAX_WIDTH = 960
MAX_HEIGHT = 1000
CAPTION_LINES = 3


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font at ``size`` px (no font file shipped)."""
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


@dataclass(frozen=True)
class Label:
    text: str
    x: float  # centre, pixels
    y: float
    strong: bool  # letters and square-board numbers are strong, numbers on hex boards are not


@dataclass(frozen=True)
class Layout:
    board: Board
    scale: float
    unit: float  # pixels per board unit
    origin: tuple[float, float]  # pixel position of board point (0, 0)
    width: int
    height: int
    caption_height: int
    caption_size: int  # caption font size, px
    label_size: int  # coordinate font size, px
    labels: tuple[Label, ...]

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def stone_radius(self) -> float:
        """Radius of a stone in pixels."""
        return self.unit * (0.47 if self.board.kind == "square" else 0.43)

    def center(self, index: int) -> tuple[float, float]:
        """Pixel position of the centre of cell ``index``."""
        x, y = self.board.centers[index]
        return self.origin[0] + x * self.unit, self.origin[1] + y * self.unit

    def cell_center(self, cell: str) -> tuple[float, float]:
        return self.center(self.board.index(cell))


def _text_width(text: str, size: int) -> float:
    left, _, right, _ = font(size).getbbox(text)
    return float(right - left)


def _label_size(unit: float, scale: float) -> int:
    return round(min(26 * scale, max(15 * scale, 0.6 * unit)))


def _square_labels(n: int, unit: float, size: int) -> list[Label]:
    labels = []
    reach = 0.5 * unit + 0.35 * size  # from the outermost line to a label's near edge
    span = (n - 1) * unit
    for c in range(n):
        letter = chr(ord("a") + c)
        labels.append(Label(letter, c * unit, -reach - 0.5 * size, True))
        labels.append(Label(letter, c * unit, span + reach + 0.5 * size, True))
    for r in range(n):
        text = str(r + 1)
        half = _text_width(str(n), size) / 2
        y = (n - 1 - r) * unit
        labels.append(Label(text, -reach - half, y, True))
        labels.append(Label(text, span + reach + half, y, True))
    return labels


def _hex_labels(board: HexBoard, unit: float, size: int) -> list[Label]:
    labels = []
    top = len(board.rows) - 1
    gap = 0.5 * unit + 0.25 * size  # from a cell centre to the near edge of its label
    corner = CELL_RADIUS * unit + 0.2 * size  # same, over a pointy top
    for r, row in enumerate(board.rows):
        letter = chr(ord("a") + r)
        half = _text_width(letter, size) / 2
        x0, y0 = board.centers[row[0]]
        x1, y1 = board.centers[row[-1]]
        labels.append(Label(letter, x0 * unit - gap - half, y0 * unit, True))
        # right end: the name of the row's last cell, letter then (dimmer) number
        number = str(len(row))
        right = x1 * unit + gap
        labels.append(Label(letter, right + half, y1 * unit, True))
        labels.append(Label(number, right + 2 * half + 0.05 * size
                            + _text_width(number, size) / 2, y1 * unit, False))
        if r in (0, top):  # numbers 1..base over the top row and under the bottom row
            dy = corner + 0.5 * size
            for c, cell in enumerate(row):
                x, y = board.centers[cell]
                labels.append(Label(str(c + 1), x * unit, y * unit + (dy if r == 0 else -dy),
                                    False))
    return labels


def _extent(board: Board, unit: float, size: int, labels: list[Label]) -> tuple[float, ...]:
    """(min x, min y, max x, max y) in pixels relative to board point (0, 0)."""
    over = 0.5 * unit if board.kind == "square" else CELL_RADIUS * unit
    xs = [x * unit for x, _ in board.centers]
    ys = [y * unit for _, y in board.centers]
    lo_x, hi_x, lo_y, hi_y = min(xs) - over, max(xs) + over, min(ys) - over, max(ys) + over
    for label in labels:
        half = _text_width(label.text, size) / 2
        lo_x, hi_x = min(lo_x, label.x - half), max(hi_x, label.x + half)
        lo_y, hi_y = min(lo_y, label.y - size / 2), max(hi_y, label.y + size / 2)
    return lo_x, lo_y, hi_x, hi_y


def _labels(board: Board, unit: float, size: int) -> list[Label]:
    if isinstance(board, HexBoard):
        return _hex_labels(board, unit, size)
    return _square_labels(board.size, unit, size)


@cache
def layout(board: Board, scale: float = 1.0) -> Layout:
    """The layout of ``board`` at ``scale`` (1 for still pictures, less for replays)."""
    pad = round(14 * scale)
    caption_size = round(24 * scale)
    caption_height = 2 * pad + CAPTION_LINES * round(caption_size * 1.4)
    room_w = MAX_WIDTH * scale - 2 * pad
    room_h = MAX_HEIGHT * scale - caption_height - 2 * pad
    unit = 40.0 * scale
    for _ in range(4):  # the label size depends on the unit and the unit on the labels
        size = _label_size(unit, scale)
        lo_x, lo_y, hi_x, hi_y = _extent(board, unit, size, _labels(board, unit, size))
        unit *= min(room_w / (hi_x - lo_x), room_h / (hi_y - lo_y))
    unit = math.floor(unit * 4) / 4 * 0.995  # settle below the limit
    if board.kind == "square":
        unit = float(math.floor(unit))  # grid lines on whole pixels: crisp, no blur
    size = _label_size(unit, scale)
    rel = _labels(board, unit, size)
    lo_x, lo_y, hi_x, hi_y = _extent(board, unit, size, rel)
    width = round(MAX_WIDTH * scale)
    height = math.ceil(caption_height + (hi_y - lo_y) + 2 * pad)
    ox = (width - (hi_x - lo_x)) / 2 - lo_x
    oy = caption_height + pad - lo_y
    if board.kind == "square":  # points on pixel centres
        ox, oy = math.floor(ox) + 0.5, math.floor(oy) + 0.5
    labels = tuple(Label(lb.text, lb.x + ox, lb.y + oy, lb.strong) for lb in rel)
    return Layout(board=board, scale=scale, unit=unit, origin=(ox, oy), width=width,
                  height=height, caption_height=caption_height, caption_size=caption_size,
                  label_size=size, labels=labels)
