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

Taking Black's edge off White's estimates there (Black won 35 of 54 games between the
hard levels on base 7), so that the second player swaps after any first turn its search
cannot tell apart (White's visit-weighted chance 0.478-0.514 after ten of them, corners
to centre), was tried against the old hard: it swapped every time and won 3 of 7, where
the mirror alone had won 8 of 12 in that seat, losing after first turns the old hard had
chosen by a search as blind to them (three of the four by the edge: ``c1 f1``, ``e1
k9``, ``b8 g1``). So Black's edge is not one number for every first turn, as the
thirteenth measurement found, and it is not taken (bench/README.md, fifteenth
measurement).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ai.games import Knowledge, generic_candidates


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    size = int(options.get("size", 7))
    return Knowledge(
        decisive_after=4,
        mirror_swap=True,
        candidates=partial(generic_candidates, numbers_range=range(size + 1), widest=60),
    )
