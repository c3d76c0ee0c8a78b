"""Asli: komi choices, and playouts cut off and judged by their actions left.

The komi is a number of Holds handed to White, each a spare tempo in a
last-player-to-move game, so the sensible ones are small: the search
considers 0 to the board's side (every one, not a sample), and the opponent's
colour choice that follows is what tells a fair komi from a poor one.

Random playouts last ~220 plies on 13×13. Measured with the fast position at
0.5 s a move: recording only the first 10 plies of a playout for RAVE and
leaving the rest to the position's own playout scored 7/12 against recording
none; cutting playouts off after 40 plies, judged by ``evaluate()`` (each
side's share of the actions it has left: owned territory and Holds), scored
7/8 against playing them out. The points no one owns yet count half to each
side: counted for nobody, they made two Holds of komi look like a 94% win
for White at the start, when random games from there are even at any komi
from 0 to 8 (300 each); with them, 52%. In play the two were level (8 of 16 games
at 0.5 s a move).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ai.games import Knowledge, generic_candidates


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    size = int(options.get("size", 13))
    return Knowledge(
        cutoff=40,
        sharpness=10.0,
        amaf_plies=10,
        candidates=partial(generic_candidates, numbers_range=range(size + 1)),
    )
