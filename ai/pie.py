"""Pie decisions judged by the search: which komi to offer.

Where the first player offers a komi and the second then chooses a colour (Asli,
Lifeline's komi pie), the value of offering ``K`` is what the opponent's best
colour choice leaves: ``min(P, 1 - P)`` for ``P`` Black's chance after ``komi K``
(the board is the same whichever seat takes Black). So the offer is the komi whose
``P`` is nearest ½, never one the opponent can take the better side of cheaply.

Each candidate komi gets a search of its own, an equal share of the budget. Its estimate
of ``P`` is the search's average (:attr:`ai.player.Analysis.searched_chance`), its
moves' chances weighted by their visits, not the chance of the move it would play: that
one is the best of many noisy estimates, lifted by being chosen. Asli's frugal playouts
vary enough for the lift to drown the komi: on 9×9 with 490 playouts a komi, Black's
best move stood at 0.50–0.56 for every komi from 0 to 9 (so an offer of 9 was as likely
as any), where the weighted average fell from 0.50 at komi 0 to 0.43–0.48 (random frugal
games alone: 0.50 at 0, 0.37 at 9; 2026-11-28). The estimates are then made
non-increasing in ``K`` (a komi is White's, so more of it never helps Black:
pool-adjacent-violators), which irons out the noise of small searches before the nearest
to ½ is picked. The candidates are 0 to :data:`WIDEST` (offers beyond the board's side
are never near fair).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Protocol

from ai.games import numbered
from ai.levels import Budget
from rules import State


class Searched(Protocol):
    """What the offer reads of a search (:class:`ai.player.Analysis`)."""

    @property
    def searched_chance(self) -> float: ...


#: How a position is estimated: ``analyse(state, budget, seed)`` of :mod:`ai.player`.
Analyse = Callable[[State, Budget, int], Searched]

#: The largest komi considered (a komi is spare moves for White; a handful is a lot).
WIDEST = 12
#: The fewest playouts each candidate's search gets.
FEWEST = 16


def non_increasing(values: list[float], weights: list[float] | None = None) -> list[float]:
    """The non-increasing sequence nearest ``values`` in least squares (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for value, weight in zip(values, weights or [1.0] * len(values), strict=True):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            mean2, weight2, length2 = blocks.pop()
            mean1, weight1, length1 = blocks.pop()
            weight = weight1 + weight2
            blocks.append([(mean1 * weight1 + mean2 * weight2) / weight, weight, length1 + length2])
    return [mean for mean, _, length in blocks for _ in range(int(length))]


def komi_offer(state: State, budget: Budget, rng: random.Random, analyse: Analyse) -> str | None:
    """The komi to offer, when every legal move of ``state`` is a komi offer; else None."""
    legal = state.legal_moves()
    offers = sorted(
        (parsed[1], move)
        for move in legal
        if (parsed := numbered(move)) is not None and parsed[0] == "komi"
    )
    if not offers or len(offers) != len(legal):
        return None
    size = int(state.options.get("size", WIDEST))
    candidates = [(k, move) for k, move in offers if k <= min(WIDEST, size)] or offers[:1]
    share = dataclasses.replace(
        budget.scaled(1 / len(candidates)),
        playouts=max(FEWEST, (budget.playouts or FEWEST * len(candidates)) // len(candidates)),
    )
    black_chances = []
    for _, move in candidates:
        after = state.play(move)
        colours = after.legal_moves()
        if "black" not in colours:
            return None  # not the komi-then-colour pie
        board = after.play("black")
        # Black moves first, so the chance of the seat to move is Black's
        black_chances.append(analyse(board, share, rng.getrandbits(32)).searched_chance)
    smooth = non_increasing(black_chances)
    best = min(range(len(candidates)), key=lambda i: (abs(smooth[i] - 0.5), i))
    return candidates[best][1]
