"""Sliglube: the position's own playouts, cut off and judged by blocked cells.

Listing Sliglube's legal moves means judging every empty cell for loops; the
fast position's playout samples a move by trying cells instead, ~5x quicker.
So no playout ply is recorded for RAVE (the tree's own moves still are):
recording the first 10 scored 4/12 against this at 0.5 s a move. Playouts
stop after 20 plies, judged by ``evaluate()`` (the share of empty cells each
side may not play, which is what brings its stalemate near): 7/12 against
playing out to the end, and cheaper.

A level's few playouts (40 for easy, 190 for medium at 380/s) barely visit each
of ~70 moves once, so each node's moves are ordered by progressive bias from the
same evaluation after each move (weight 1): it costs ~27% of the playouts per
second (289 -> 211 per CPU-second, so the levels were re-calibrated to 280/s, and
medium now plays 140 playouts, easy 30). Measured (bench ai, 2026-11-27, host load
2-9): medium against easy 15/20 with it, 9/12 without (7/10 on the first ten seeds,
where it scored 8/10); easy against random 18/20 with it, 19/20 without. No
measurable gain at these numbers of games, and no loss: kept, as everything measured
since was measured with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.games import Knowledge


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    return Knowledge(cutoff=20, sharpness=10.0, amaf_plies=0, bias=1.0)
