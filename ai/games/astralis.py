"""Astralis: a scored game, so playouts are cut off and judged by the score.

Random play changes the score wildly late in a game, so the score after 30
random plies (``evaluate()``: Yellow's share, Cyan's komi included) through a
steep curve is a steadier signal than the random game's end: 11/16 at 0.5 s a
move against the same search playing out to the end (fast positions).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ai.games import Knowledge


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    return Knowledge(cutoff=30, sharpness=20.0)
