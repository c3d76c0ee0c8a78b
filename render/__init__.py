"""Pictures of game positions (Pillow). Imports ``rules`` only.

    >>> png = render.board_png(state, names={0: "Ann", 1: "Bob"}, theme="dark")
    >>> png = render.board_png(state, outcome=outcome)   # the bot ended it: resigned, time, abort
    >>> png = render.board_png(state, marks=True)        # hints for the player to move
    >>> png = render.board_png(state, extra=[Marked("c3", Mark.HIGHLIGHT)])   # point at c3
    >>> png = render.win_chart_png([0.5, 0.62, 0.3], theme="light")   # chances over a game
    >>> gif = render.replay_gif("lifeline", {"size": 7}, ["c3 e5", "swap"], outcome=outcome)
    >>> x, y = render.cell_center(state, "c3")   # where c3 is drawn, in pixels
    >>> with render.speaking(words):   # the pictures' words in the reader's language
    ...     png = render.board_png(state)

Each game's look is its painter's (``render/games/<name>.py``); a game defined
elsewhere brings one with :func:`register`. Geometry and colours are public
so tests (and the bot) can find what is drawn where: :func:`cell_center`,
:func:`image_size`, :func:`colors`.
"""

from __future__ import annotations

from render import crosstable
from render.card import card_png
from render.chart import biggest_swings, win_chart_image, win_chart_png
from render.games import Painter, painter_for, register
from render.games import painter_colors as colors
from render.layout import Layout, layout
from render.marks import Mark, Marked
from render.picture import board_image, board_png, caption_text
from render.replay import SCALE as REPLAY_SCALE
from render.replay import replay_gif
from render.segments import Ending
from render.summary import change_summary
from render.theme import THEMES, Colors
from render.words import ENGLISH, Words, speaking
from rules import State
from rules.board import Board


def _board(state_or_board: State | Board) -> Board:
    return state_or_board if isinstance(state_or_board, Board) else state_or_board.board


def board_layout(state_or_board: State | Board, scale: float = 1.0) -> Layout:
    """The pixel geometry of pictures of this board (``scale`` 1: still pictures)."""
    return layout(_board(state_or_board), scale)


def cell_center(
    state_or_board: State | Board, cell: str, *, scale: float = 1.0
) -> tuple[float, float]:
    """Pixel (x, y) of the centre of ``cell`` in a picture of this board."""
    return layout(_board(state_or_board), scale).cell_center(cell)


def image_size(state_or_board: State | Board, *, scale: float = 1.0) -> tuple[int, int]:
    """(width, height) in pixels of a picture of this board."""
    return layout(_board(state_or_board), scale).size


__all__ = [
    "ENGLISH",
    "REPLAY_SCALE",
    "THEMES",
    "Colors",
    "Ending",
    "Layout",
    "Mark",
    "Marked",
    "Painter",
    "Words",
    "biggest_swings",
    "board_image",
    "board_layout",
    "board_png",
    "caption_text",
    "card_png",
    "cell_center",
    "change_summary",
    "colors",
    "crosstable",
    "image_size",
    "painter_for",
    "register",
    "replay_gif",
    "speaking",
    "win_chart_image",
    "win_chart_png",
]
