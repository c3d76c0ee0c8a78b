"""Pictures of game positions (Pillow). Imports ``rules`` only.

    >>> png = render.board_png(state, names={0: "Ann", 1: "Bob"}, theme="dark")
    >>> gif = render.replay_gif("lifeline", {"size": 7}, ["c3 e5", "swap"])
    >>> x, y = render.cell_center(state, "c3")   # where c3 is drawn, in pixels

Geometry and colours are public so tests (and the bot) can find what is drawn
where: :func:`cell_center`, :func:`image_size`, :func:`colors`.
"""

from __future__ import annotations

from render.layout import Layout, layout
from render.picture import board_image, board_png
from render.replay import SCALE as REPLAY_SCALE
from render.replay import replay_gif
from render.theme import THEMES, Colors, colors
from rules import State
from rules.board import Board


def _board(state_or_board: State | Board) -> Board:
    return state_or_board if isinstance(state_or_board, Board) else state_or_board.board


def board_layout(state_or_board: State | Board, scale: float = 1.0) -> Layout:
    """The pixel geometry of pictures of this board (``scale`` 1: still pictures)."""
    return layout(_board(state_or_board), scale)


def cell_center(state_or_board: State | Board, cell: str, *,
                scale: float = 1.0) -> tuple[float, float]:
    """Pixel (x, y) of the centre of ``cell`` in a picture of this board."""
    return layout(_board(state_or_board), scale).cell_center(cell)


def image_size(state_or_board: State | Board, *, scale: float = 1.0) -> tuple[int, int]:
    """(width, height) in pixels of a picture of this board."""
    return layout(_board(state_or_board), scale).size


__all__ = [
    "REPLAY_SCALE", "THEMES", "Colors", "Layout", "board_image", "board_layout", "board_png",
    "cell_center", "colors", "image_size", "replay_gif",
]
