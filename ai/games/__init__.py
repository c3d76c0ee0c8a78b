"""Per-game knowledge for the search, one small module per game.

A game declares its ``knowledge(options) -> Knowledge`` as its ``ai`` plug-in
(:class:`rules.Plugins`), by custom in ``ai/games/<game name>.py``; a game that
declares none gets :func:`default`, which plays every game to the end with
uniformly random playouts and needs nothing but the search protocol, so a new
game works as soon as the rules engine has it.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

import rules
from rules import Game
from rules.plugins import load

#: Chooses the moves a node of the tree considers among all its legal ones, given
#: their ids, a function giving a move's text and the search's random numbers.
Candidates = Callable[[list[int], Callable[[int], str], random.Random], list[int]]

_NUMBERED = re.compile(r"([a-z]+) (-?[0-9]+)")


@cache
def numbered(text: str) -> tuple[str, int] | None:
    """``("komi", 7)`` for ``"komi 7"``: a move choosing a number; None for other moves."""
    match = _NUMBERED.fullmatch(text)
    return (match.group(1), int(match.group(2))) if match else None


T = TypeVar("T")


def spread(values: Sequence[T], count: int) -> list[T]:
    """About ``count`` of ``values`` (sorted), dense at the small end and thinning
    out geometrically: 0, 1, 2, 3, 4, 6, 8, 11… of a range of numbers."""
    if len(values) <= count:
        return list(values)
    last = len(values) - 1
    ratio = last ** (1 / (count - 1))
    indexes = {0, last}
    step = 1.0
    while len(indexes) < count and step < last:
        indexes.add(min(last, round(step)))
        step = max(step + 1, step * ratio)
    return [values[i] for i in sorted(indexes)]


def generic_candidates(
    moves: list[int],
    text: Callable[[int], str],
    rng: random.Random,
    *,
    numbers: int = 12,
    numbers_range: range | None = None,
    widest: int = 400,
) -> list[int]:
    """The moves worth searching, for any game.

    A choice of a number (``komi 7``) offered over a long range keeps
    ``numbers_range`` if given, else about ``numbers`` values spread from the
    smallest up; a node with more than ``widest`` moves keeps every one-word
    move (``swap``, ``hold``, ``pass``…) and a seeded sample of the rest.
    """
    if len(moves) <= numbers:
        return moves
    choices: dict[str, list[tuple[int, int]]] = {}
    others: list[int] = []
    for move in moves:
        number = numbered(text(move))
        if number is None:
            others.append(move)
        else:
            choices.setdefault(number[0], []).append((number[1], move))
    kept: list[int] = []
    for offered in choices.values():
        offered.sort()
        inside = [move for value, move in offered if numbers_range and value in numbers_range]
        kept += inside or [move for _, move in spread(offered, numbers)]
    if len(others) > widest:
        words = [m for m in others if " " not in text(m)]
        rest = [m for m in others if " " in text(m)]
        others = words + rng.sample(rest, max(0, widest - len(words)))
    return kept + others


@dataclass(frozen=True)
class Knowledge:
    """What the search knows about one game (at one size).

    ``cutoff``: plies of random playout after which the position is judged by
    ``SearchPosition.evaluate()`` instead of played to the end (None: to the end;
    ignored for positions whose class has no evaluation of its own);
    ``sharpness``: the slope of the logistic curve that turns that evaluation
    (seat 0's share, 0.5 = level) into a chance of winning;
    ``rave``: weight of all-moves-as-first statistics (the equivalence parameter:
    about how many visits of a move its AMAF statistics are worth; 0 turns RAVE off);
    ``amaf_plies``: how many plies of each playout the search plays itself (a
    uniform choice among ``legal_moves()``) to record them for RAVE, before the
    position's own ``playout`` plays the rest unrecorded (None: every ply; a
    game whose fast ``playout`` is much quicker than listing moves wants few);
    ``candidates``: which legal moves a node considers;
    ``decisive_after``: the visits after which a node of the tree tries every move
    it considers for a win or a loss at once (decisive and anti-decisive moves;
    ``math.inf``: never);
    ``bias``: the weight of progressive bias: when a node tries its moves so, each
    move also gets the game's evaluation after it (``evaluate()`` through
    :meth:`judge`, for the mover) as a prior, added to its selection score at
    ``bias / (visits + 1)``: it orders the first visits and fades (0: none);
    ``last_good_reply``: in the playout plies the search plays itself, answer the
    opponent's last move with the reply that last won a playout after it, where
    legal, else at random (LGR-1 with forgetting: a reply in a lost playout is
    dropped; 0: off);
    ``threat_plays``: the plays of the look three plies ahead (:mod:`ai.threats`) per
    playout of a level's budget, spent once before the search on a forced win and
    once on checking the move the search leads with as it goes and the move it
    chooses (0: no look);
    ``mirror_swap``: ``swap`` leaves the board as it is with the same colour to move,
    now played by the other seat, so its value is 1 - that of the best other move:
    the search leaves it out, and the player swaps when the best other move's chance
    is under ½ (a root choosing by value alone never revisits a ``swap`` that lost
    its first playout, and no other playout lifts it by RAVE);
    ``frugal``: random moves keep each side's reserve for last, and a playout stops
    once only reserves are left (:meth:`rules.position.SearchPosition.play_frugally`;
    nothing changes in a game without reserves).
    """

    cutoff: int | None = None
    sharpness: float = 10.0
    rave: float = 300.0
    amaf_plies: int | None = None
    exploration: float = 0.4
    candidates: Candidates = field(default=generic_candidates)
    decisive_after: float = 1
    bias: float = 0.0
    last_good_reply: float = 0.0
    threat_plays: float = 0.0
    mirror_swap: bool = False
    frugal: bool = False

    def judge(self, share: float) -> float:
        """Seat 0's chance of winning from ``evaluate()``'s share for seat 0."""
        return 1.0 / (1.0 + math.exp(-self.sharpness * (share - 0.5)))


def default(options: Mapping[str, Any]) -> Knowledge:
    """What the search assumes of a game it has no module for."""
    return Knowledge()


def knowledge(game: Game | str, options: Mapping[str, Any]) -> Knowledge:
    """The knowledge of ``game`` (a Game or a registered game's name) for these
    options, or the default; a misdeclared plug-in raises :class:`rules.PluginError`."""
    found = rules.get_game(game) if isinstance(game, str) else game
    declared: Callable[[Mapping[str, Any]], Knowledge] | None = load(found, "ai")
    return declared(options) if declared is not None else default(options)
