"""Sliglube: the position's own playouts, cut off and judged by blocked cells.

Listing Sliglube's legal moves means judging every empty cell for loops; the
fast position's playout samples a move by trying cells instead, ~5x quicker.
So no playout ply is recorded for RAVE (the tree's own moves still are):
recording the first 10 scored 4/12 against this at 0.5 s a move. Playouts
stop after 20 plies, judged by ``evaluate()`` (the share of empty cells each
side may not play, which is what brings its stalemate near): 7/12 against
playing out to the end, and cheaper.

The hard level cuts its playouts off after 30 plies instead (``ai.levels.TUNING``),
600 of them in its 3 s where 20-ply ones would be 1,140: the 20-ply hard was no
stronger than medium (6/10), and at equal CPU the 30-ply one beat medium 6/6 where
the 20-ply one scored 3/6 on the same seeds (fixed playouts, bench ai, 2026-11-27;
with the levels' caps and kept trees, 7/10 where it scored 6/10). Past 30 plies a
playout's dense boards cost too much: 40 plies cost three times 20.

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
