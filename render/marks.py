"""Marks drawn on cells: what the last move did, and hints for the player to move.

Each kind has its own shape, so they read apart at Discord's preview size
and without colour vision:

========== =================================================================
last move  a red dot with a dark rim, on the stone just placed
captured   a red × with a dark edge (over a small pale ghost if the stone left)
removed    a small pale ghost: half a stone's size, far from its colour
flipped    a dot of the stone's former colour in its middle
bonus      a red ring with dark edges inside the stone's rim
may place  a small diamond of the mover's colour
may not    the cell tinted darker
pawn reach a hollow triangle of the mover's colour, pointing like the pawn
highlight  a red ring around the cell (a guide's diagram points at it; no legend)
AI's move  a see-through stone of the mover's colour, ringed red, where the AI would play
proposed   an amber ring on a stone of a move shown before it is played (a preview)
========== =================================================================
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PIL import Image

from render import sprites
from render.boards import BoardStyle
from render.theme import Colors
from render.words import N_, _


class Mark(enum.Enum):
    LAST = "last move"
    CAPTURED = "captured"
    REMOVED = "removed"
    FLIPPED = "flipped"
    BONUS = "bonus stone"
    PLACE = "may place"
    NO_PLACE = "may not place"
    REACH = "pawn can go"
    HIGHLIGHT = "highlighted"
    SUGGESTED = "AI's move"
    PROPOSED = "not played yet"


#: What the legend explains (the last move's dot explains itself, and a preview's
#: caption says its move is not played yet).
EXPLAINED = tuple(mark for mark in Mark if mark not in (Mark.LAST, Mark.HIGHLIGHT, Mark.PROPOSED))


@dataclass(frozen=True)
class Marked:
    """A mark on a cell. ``color``: the stone colour it is about: the captured
    or removed stone's, a flipped stone's former colour, the mover's for hints."""

    cell: str
    mark: Mark
    color: str | None = None
    #: What the mark means on this picture, for the legend: a guide says what its
    #: rings point at ("contested"); a highlight without a label has no legend.
    label: str | None = None


def words(mark: Mark, color: str | None) -> str:
    """The legend's words for a mark: short, as the caption's first row often
    holds the move and the legend together (hints are the mover's, whom the
    caption names, and a flipped stone shows its former colour)."""
    return _(WORDS[mark])


#: The legend's words of each mark, as message ids (the enum's values are English).
WORDS = {
    Mark.LAST: N_("last move"),
    Mark.CAPTURED: N_("captured"),
    Mark.REMOVED: N_("removed"),
    Mark.FLIPPED: N_("flipped"),
    Mark.BONUS: N_("bonus stone"),
    Mark.PLACE: N_("may place"),
    Mark.NO_PLACE: N_("may not place"),
    Mark.REACH: N_("pawn can go"),
    Mark.HIGHLIGHT: N_("highlighted"),
    Mark.SUGGESTED: N_("AI's move"),
    Mark.PROPOSED: N_("not played yet"),
}


#: Drawing phases: under everything, under the stones, over the stones.
CELL, GHOST, TOP = 0, 1, 2


def layers(
    mark: Mark,
    color: str | None,
    stone: str | None,
    radius: float,
    unit: float,
    style: BoardStyle,
    col: Colors,
    up: bool = True,
) -> list[tuple[int, Image.Image]]:
    """The sprites of ``mark`` on a cell holding a ``stone`` (a colour, or None),
    with their phase, for stones of ``radius`` px on a board of ``unit`` px."""
    fill = col.stones.get(color or "", col.dim)
    # hints stand on empty cells: edged light on a dark board or with a dark fill
    # (a black diamond on a line crossing), dark otherwise
    edge = col.outline if min(lightness(col.board), lightness(fill)) > 110 else col.halo
    ghost = sprites.disc(0.55 * radius, col.ghost.get(color or "", col.board))
    if mark is Mark.LAST:
        return [(TOP, sprites.dot(max(2.5, 0.36 * radius), col.mark, col.outline))]
    if mark is Mark.REMOVED:
        return [] if stone else [(GHOST, ghost)]
    if mark is Mark.CAPTURED:
        cross = sprites.cross(0.62 * radius, 0.2 * radius, col.mark, col.outline)
        return [(TOP, cross)] if stone else [(GHOST, ghost), (TOP, cross)]
    if mark is Mark.FLIPPED:
        return [(TOP, sprites.disc(0.4 * radius, fill, col.outline))]
    if mark is Mark.BONUS:
        return [(TOP, sprites.ring(0.8 * radius, 0.26 * radius, col.mark, col.outline))]
    if mark is Mark.PLACE:
        # large enough to read on the smallest cells (Astralis base 8), not heavier elsewhere
        return [(TOP, sprites.diamond(max(0.42 * radius, min(0.7 * radius, 16.0)), fill, edge))]
    if mark is Mark.NO_PLACE:
        return [(CELL, style.cell(unit, col.tint.get("forbidden", col.line)))]
    if mark is Mark.HIGHLIGHT:
        outer = min(1.1 * radius, 0.52 * unit)
        return [(TOP, sprites.ring(outer, max(2.0, 0.24 * radius), col.mark, col.outline))]
    if mark is Mark.PROPOSED:
        return [(TOP, sprites.ring(0.8 * radius, 0.24 * radius, col.badge, col.outline))]
    if mark is Mark.SUGGESTED:  # a see-through stone, with a dot of the mark's colour
        return [
            (TOP, sprites.disc(0.92 * radius, fill, col.outline, alpha=150)),
            (TOP, sprites.ring(0.42 * radius, max(2.0, 0.16 * radius), col.mark, col.outline)),
        ]
    return [(TOP, sprites.triangle(0.95 * radius, 0.3 * radius, fill, edge, up))]


def lightness(rgb: tuple[int, int, int]) -> float:
    """Relative luminance on a 0–255 scale (Rec. 709 weights)."""
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
