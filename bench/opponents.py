"""Opponents for ``python -m bench ai`` besides the AI's levels: a one-move-lookahead
player and a flat Monte Carlo player, both the project's own.

**One-move lookahead** (``lookahead``): plays a move that wins at once; never one that
loses at once while another does not; otherwise the move after which its heuristic
is best for it, ties broken at random. The heuristic is the fast position's
``evaluate()``, seat 0's share of the game's own measure, turned to the mover's side:

* Lifeline: the mover's share of the stones on the board;
* Asli: the mover's share of the actions each side is sure of (the points of the
  territories it owns and the Holds the prison gives it; unowned points half each);
* Astralis: the mover's share of the score (cells controlled, Cyan's komi included);
* Sliglube: the mover's share of the empty cells the opponent may not play.

A pie decision (a komi offer, a colour choice, a swap) changes no stone, so there
the lookahead looks one move further: the opponent then answers with the choice
best for the opponent by the same heuristic (a komi is offered by what the
colour choice after it leaves).

**Flat Monte Carlo** (``flat-mc``): plays a move that wins at once, else spreads its
playouts evenly over the legal moves (round-robin), each playout the AI's own
(random moves, cut off and judged where the AI's knowledge of the game says so),
and plays the move with the best mean; it thinks for a given CPU time (the
process's, so other processes do not shorten it), the same as the level it meets.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ai.games import knowledge
from rules import State
from rules.position import SearchPosition, position

Player = Callable[[State, random.Random], str]

#: A value above any heuristic's: a win at once.
WIN = 2.0


def _for(seat: int, pos: SearchPosition) -> float:
    """``pos`` judged for ``seat``: 1 won, 0 lost, ½ a draw, else the heuristic."""
    if pos.is_over:
        winner = pos.winner
        return 0.5 if winner is None else (WIN if winner == seat else -1.0)
    share = pos.evaluate()
    return share if seat == 0 else 1.0 - share


def _is_choice(text: str) -> bool:
    return text in ("black", "white", "swap") or text.startswith("komi ")


def lookahead_value(pos: SearchPosition, move: int, seat: int) -> float:
    """The mover's value of ``move`` in ``pos`` (one move deep; two after a pie choice)."""
    after = pos.copy()
    after.play(move)
    if after.is_over or not _is_choice(pos.move_text(move)):
        return _for(seat, after)
    other = after.to_move
    if other is None or other == seat:
        return _for(seat, after)
    worst = None
    for reply in after.legal_moves():
        if not _is_choice(after.move_text(reply)):
            continue
        answer = after.copy()
        answer.play(reply)
        value = _for(seat, answer)
        worst = value if worst is None else min(worst, value)
    return _for(seat, after) if worst is None else worst


def lookahead_player(state: State, rng: random.Random) -> str:
    pos = position(state)
    seat = pos.to_move
    assert seat is not None
    scored = [(lookahead_value(pos, move, seat), move) for move in pos.legal_moves()]
    best = max(value for value, _ in scored)
    return pos.move_text(rng.choice([move for value, move in scored if value >= best - 1e-9]))


def flat_mc_player(seconds: float) -> Player:
    """A flat Monte Carlo player thinking ``seconds`` of CPU time a move."""

    def play(state: State, rng: random.Random) -> str:
        started = time.process_time()
        pos = position(state)
        seat = pos.to_move
        assert seat is not None
        known = knowledge(state.game.name, state.options)
        evaluates = type(pos).evaluate is not SearchPosition.evaluate
        cutoff = known.cutoff if evaluates else None
        if known.frugal:  # the playouts of the game's knowledge, as the search's
            pos.play_frugally()
        moves = pos.legal_moves()
        if len(moves) == 1:
            return pos.move_text(moves[0])
        children = []
        for move in moves:
            after = pos.copy()
            after.play(move)
            if after.is_over and after.winner == seat:
                return pos.move_text(move)
            children.append(after)
        wins = [0.0] * len(moves)
        tries = [0] * len(moves)
        i = 0
        while True:
            after = children[i].copy()
            if not after.is_over:
                after.playout(rng, cutoff)
            if after.is_over:
                winner = after.winner
                value = 0.5 if winner is None else float(winner == seat)
            else:
                chance = known.judge(after.evaluate())
                value = chance if seat == 0 else 1.0 - chance
            wins[i] += value
            tries[i] += 1
            i = (i + 1) % len(moves)
            if i == 0 and time.process_time() - started >= seconds:
                break
        best = max(range(len(moves)), key=lambda k: wins[k] / tries[k])
        return pos.move_text(moves[best])

    return play
