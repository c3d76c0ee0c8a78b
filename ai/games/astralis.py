"""Astralis: a scored game, so playouts are cut off and judged by the score.

Random play changes the score wildly late in a game, so the score after 30
random plies (``evaluate()``: Yellow's share, Cyan's komi included) through a
steep curve is a steadier signal than the random game's end: 11/16 at 0.5 s a
move against the same search playing out to the end (fast positions).

No playout ply is recorded for RAVE (the tree's own moves still are): listing a
turn's moves (pawn steps times placements) at each of 30 plies made the search
2.5x slower (2,804 playouts per CPU-second against 7,094 recording none), and a
flat Monte Carlo player of equal CPU time, with its 2.5x playouts, drew 7/10 and
11/16 against medium; with none recorded medium won 10/10 of the same seeds
(bench ai, 2026-11-27).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.games import Knowledge


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    return Knowledge(cutoff=30, sharpness=20.0, amaf_plies=0)
