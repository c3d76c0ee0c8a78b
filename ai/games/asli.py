"""Asli: komi choices, and frugal playouts judged by the actions left.

The komi is a number of Holds handed to White, each a spare tempo in a
last-player-to-move game, so the sensible ones are small: the search
considers 0 to the board's side (every one, not a sample), and the opponent's
colour choice that follows is what tells a fair komi from a poor one.

Playouts are frugal (:meth:`rules.fast.asli.AsliPosition.play_frugally`): random
moves leave Hold and the mover's own territory for last, and a playout stops when
only those reserves are left, judged by ``evaluate()`` (each side's share of the
actions it has left: owned territory and Holds). Uniformly random playouts fill
their own territory as readily as they contest a shared point, so their result
says little: 40 plies into one from the 30th ply of a 13×13 game, the judged share
varies by 0.017 (standard deviation, 500 playouts); a frugal playout stops after
~130 plies with a share that varies by 0.26. At equal playouts, medium's 1,070 on
9x9, frugal playouts to the end scored **17/20** against 40-ply uniform ones (frugal
40-ply ones 10/20); they cost 1.35 times the CPU there, and at equal CPU (790
playouts against 1,070) they scored 11/16; on 13×13 they cost 2.2 times as much
(5/8 at equal CPU: 355 playouts against 780). Measured with ``bench ai --pairs
variant --size 9 --uncapped`` and, for equal CPU, a script beside it (2026-11-28).

Before them: random playouts last ~220 plies on 13×13. Measured with the fast
position at 0.5 s a move: recording only the first 10 plies of a playout for RAVE
and leaving the rest to the position's own playout scored 7/12 against recording
none; cutting playouts off after 40 plies scored 7/8 against playing them out. The
points no one owns yet count half to each side: counted for nobody, they made two
Holds of komi look like a 94% win for White at the start, when random games from
there are even at any komi from 0 to 8 (300 each); with them, 52%. In play the two
were level (8 of 16 games at 0.5 s a move).

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
        cutoff=None,
        frugal=True,
        sharpness=10.0,
        amaf_plies=10,
        decisive_after=4,
        threat_plays=4.0,
        candidates=partial(generic_candidates, numbers_range=range(size + 1)),
    )
