"""Where things go in a picture: the pixel geometry of one board at one scale.

A picture is a caption band on top and the board below it, with coordinates
around the board (see :mod:`render.boards`). Board units (neighbouring
centres one unit apart, see ``rules.board``) become pixels by one scale and
one offset, chosen so the picture is 960 px wide at ``scale=1``.

Sizes are chosen for Discord's preview, which shows a picture 440 to 550 px
wide: there the caption's letters stay at least 13 px tall.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from render import text
from render.boards import BoardStyle, Label, style_for
from rules.board import Board

#: Width of a picture at scale 1, and the most its board part may take in height.
WIDTH = 960
MAX_BOARD_HEIGHT = 900
#: Lines of caption: the move, whose turn or the result, the game's facts, a legend.
CAPTION_LINES = 4
#: Caption font size at scale 1 (14.7 px once Discord shrinks the picture to 440 px).
CAPTION_SIZE = 32


@dataclass(frozen=True)
class Layout:
    board: Board
    style: BoardStyle
    scale: float
    unit: float  # pixels per board unit
    origin: tuple[float, float]  # pixel position of board point (0, 0)
    width: int
    height: int
    pad: int  # margin around the caption's text and around the board
    caption_height: int
    caption_size: int  # caption font size, px
    line_step: int  # caption baseline to baseline, px
    label_size: int  # coordinate font size, px
    labels: tuple[Label, ...]

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def stone_radius(self) -> float:
        """Radius of a stone in pixels."""
        return self.unit * self.style.stone_scale

    @property
    def line_width(self) -> float:
        return self.style.line_width(self.unit)

    def center(self, index: int) -> tuple[float, float]:
        """Pixel position of the centre of cell ``index``."""
        x, y = self.board.centers[index]
        return self.origin[0] + x * self.unit, self.origin[1] + y * self.unit

    def cell_center(self, cell: str) -> tuple[float, float]:
        return self.center(self.board.index(cell))

    def line_middle(self, line: int) -> float:
        """The y of the middle of caption line ``line`` (0 first)."""
        return self.pad + line * self.line_step + self.line_step / 2


def _label_size(unit: float, scale: float) -> int:
    return round(min(30 * scale, max(22 * scale, 0.55 * unit)))


def _extent(
    board: Board, style: BoardStyle, unit: float, size: int, labels: list[Label]
) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) in pixels relative to board point (0, 0)."""
    over = style.overhang * unit
    xs = [x * unit for x, _ in board.centers]
    ys = [y * unit for _, y in board.centers]
    lo_x, hi_x, lo_y, hi_y = min(xs) - over, max(xs) + over, min(ys) - over, max(ys) + over
    for label in labels:
        half = text.length(label.text, size) / 2
        lo_x, hi_x = min(lo_x, label.x - half), max(hi_x, label.x + half)
        lo_y, hi_y = min(lo_y, label.y - size / 2), max(hi_y, label.y + size / 2)
    return lo_x, lo_y, hi_x, hi_y


@cache
def layout(board: Board, scale: float = 1.0) -> Layout:
    """The layout of ``board`` at ``scale`` (1 for still pictures, less for replays)."""
    style = style_for(board)
    pad = round(16 * scale)
    caption_size = round(CAPTION_SIZE * scale)
    line_step = round(caption_size * 1.28)
    caption_height = 2 * pad + CAPTION_LINES * line_step
    room_w = WIDTH * scale - 2 * pad
    room_h = MAX_BOARD_HEIGHT * scale - 2 * pad
    unit = 40.0 * scale
    for _ in range(4):  # the label size depends on the unit and the unit on the labels
        size = _label_size(unit, scale)
        lo_x, lo_y, hi_x, hi_y = _extent(board, style, unit, size, style.labels(board, unit, size))
        unit *= min(room_w / (hi_x - lo_x), room_h / (hi_y - lo_y))
    unit = math.floor(unit * 4) / 4 * 0.995  # settle below the limit
    if style.snap:
        unit = float(math.floor(unit))  # grid lines on whole pixels: crisp, no blur
    size = _label_size(unit, scale)
    rel = style.labels(board, unit, size)
    lo_x, lo_y, hi_x, hi_y = _extent(board, style, unit, size, rel)
    width = round(WIDTH * scale)
    height = math.ceil(caption_height + (hi_y - lo_y) + 2 * pad)
    ox = (width - (hi_x - lo_x)) / 2 - lo_x
    oy = caption_height + pad - lo_y
    if style.snap:  # points on pixel centres
        ox, oy = math.floor(ox) + 0.5, math.floor(oy) + 0.5
    labels = tuple(Label(lb.text, lb.x + ox, lb.y + oy, lb.strong) for lb in rel)
    return Layout(
        board=board,
        style=style,
        scale=scale,
        unit=unit,
        origin=(ox, oy),
        width=width,
        height=height,
        pad=pad,
        caption_height=caption_height,
        caption_size=caption_size,
        line_step=line_step,
        label_size=size,
        labels=labels,
    )
