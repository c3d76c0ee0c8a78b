"""Lifeline: the two-stone first turns and the komi; full RAVE playouts.

A strong-pie first turn offers every pair of cells (7,659 on base 7): the
search considers ``swap`` and a seeded sample of pairs. The komi pie's komi is
a number of spare turns for White, so the search considers 0 to the base.
Every playout ply is recorded for RAVE: 8/12 at 0.5 s a move against leaving
playouts to the fast position's own, then ~2.5x quicker; since 2026-11-28 a
recorded ply draws its move as that playout does (a cell at random, again
while illegal) instead of listing the legal moves, so recording costs little:
a hard search's playouts per CPU-second went up 1.5 times (2.35 times in a
position of the middle game).

A node tries every move for a win or a loss at once (``decisive_after``) from its
fourth visit, as in Asli: at hard's 3,300 playouts the search chose the same moves
(24 of 24: 12 positions of the easy level's games, plies 10-50, two seeds) in 18%
less CPU time (4.46 -> 3.67 s a search there, 2026-11-27).

No progressive bias: by the stone share after each move (``evaluate()``), at medium's
playouts, bias 1 scored 12/20 and bias 3 11/20 against none, for 14-18% more CPU a
move: no evidence at equal playouts, a loss at equal time (2026-11-28).

``swap`` (strong and weak pie) leaves the board and the colour to move as they are,
so it is valued by the mirror (``mirror_swap``): as the second player the hard level
never swapped in 14 games against the old hard, 3/8 in that seat, and searched
again after ``g8 k5`` it gave ``swap`` one visit, lost, while White's best first
turn stood at 0.486: ``swap`` was worth 0.514 (bench/README.md, twelfth measurement).
With it the hard level swapped in 1 of 12 such games (the thirteenth): the search rates
nearly every first turn near even, corners and centre alike, and the move it would
play instead is its most visited, whose estimate its own choice tends to lift to ½ or
above, so the player keeps it.

So the mirror takes Black's measured edge off White's estimates (``first_turn_edge``,
:data:`FIRST_TURN_EDGE`): the search cannot tell first turns apart (after ten of them,
from corners to the centre, the hard search's visit-weighted chance for White stood at
0.478-0.514, two seeds each, with ``a1 a3``, which the easy level lost as Black 5 times
in 6, inside that range), while in play between the hard levels Black won 35 of 54
games on base 7 (65%, 52%-76%; each player Black in about half of them, swaps rare).
With the edge the second player swaps unless its search finds a first turn clearly
worse for Black than any it has seen. Sizes and openings not measured get no edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ai.games import Knowledge, generic_candidates

#: Black's chance less ½ after its first turn when White does not swap, measured in
#: play between the hard levels, by opening and base (bench/README.md, fifteenth
#: measurement).
FIRST_TURN_EDGE: dict[tuple[str, int], float] = {("strong-pie", 7): 0.15}


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    size = int(options.get("size", 7))
    opening = str(options.get("opening", "strong-pie"))
    return Knowledge(
        decisive_after=4,
        mirror_swap=True,
        first_turn_edge=FIRST_TURN_EDGE.get((opening, size), 0.0),
        candidates=partial(generic_candidates, numbers_range=range(size + 1), widest=60),
    )
