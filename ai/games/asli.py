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

A node tries every move for a win or a loss at once (``decisive_after``) from its
fourth visit, not its first: a win at once is rare before the board fills, and
trying 50-80 moves at every node's second visit took a third of a search's time
(hard, 9x9, middle game) for the same moves chosen (12 of 12 positions at equal
playouts): 35-39% more playouts per CPU-second on 13x13 (hard 1,262 -> 1,708/s,
``bench ai --calibrate``, 2026-11-27), and the tactics suite still solved. A shorter
cutoff for 9x9 (20 plies) scored 7/19 against 40 at equal playouts. With equal
playouts, the search of before issue 24 drew level with today's (10/20, medium's 580,
9x9): in Asli the gain is in the playouts a level can afford.

Asli's games are often decided in the first dozen plies, by a side left without an
action: a colour whose groups all die at once, or whose every placement would be a
dead lone stone. The tree does not see such a trap four plies deep (a hard search
chose a12 after ``c11 b13 a11`` on 13x13, the one move of 166 that lets Black win by
force), so Asli has the look three plies ahead (``threat_plays``, :mod:`ai.threats`):
4 plays per playout, which cost hard 2.7% more CPU on 13x13 (``bench ai --calibrate``,
5.98 -> 6.14 s a move on a host 2.2 times slower than the rates' one).
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
        decisive_after=4,
        threat_plays=4.0,
        candidates=partial(generic_candidates, numbers_range=range(size + 1)),
    )
