"""Sliglube: the position's own playouts, cut off and judged by blocked cells.

Listing Sliglube's legal moves means judging every empty cell for loops; the
fast position's playout samples a move by trying cells instead, ~5x quicker.
So no playout ply is recorded for RAVE (the tree's own moves still are):
recording the first 10 scored 4/12 against this at 0.5 s a move. Playouts
stop after 20 plies, judged by ``evaluate()`` (the share of empty cells each
side may not play, which is what brings its stalemate near): 7/12 against
playing out to the end, and cheaper.

Progressive bias from the same evaluation after each move (weight 1, 27% fewer
playouts per second, so 140 playouts for medium instead of 190 at equal time) was
tried and taken out again (bench ai, 2026-11-27, host load 2-9, same seeds): medium
against random 8/10 with it, 10/10 without; easy against random 18/20 and 19/20;
medium against easy 15/20 and 9/12.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.games import Knowledge


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    return Knowledge(cutoff=20, sharpness=10.0, amaf_plies=0)
