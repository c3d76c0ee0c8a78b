"""The MCTS-solver of :mod:`ai.mcts`: wins and losses proven several moves deep (not only
at once), checked against a full minimax of tic-tac-toe, and a proven root ends the search."""

from __future__ import annotations

import functools
import random

import pytest

import ai
from ai.games import knowledge
from ai.levels import Budget
from ai.mcts import Search
from rules.position import position
from tests.tictactoe import GAME as TICTACTOE


@functools.cache
def solved(history: tuple[str, ...]) -> int | None:
    """The seat that wins ``history`` with best play (None: a draw), by minimax."""
    state = TICTACTOE.replay(list(history))
    if state.is_over:
        return state.winner
    results = [solved((*history, move)) for move in state.legal_moves()]
    if state.to_move in results:
        return state.to_move
    return None if None in results else 1 - state.to_move  # type: ignore[operator]


def search(history: tuple[str, ...], playouts: int = 20_000) -> Search:
    state = TICTACTOE.replay(list(history))
    found = Search(position(state), knowledge(TICTACTOE, {}), random.Random(0))
    found.run(Budget(playouts=playouts))
    return found


#: Decided positions none of whose moves ends the game at once: X (seat 0) or O to move,
#: won three to five plies deep, or lost.
DEEP = [("a3", "c2"), ("b2", "c2"), ("a3", "b3"), ("a2", "b3", "b2"), ("a1", "c3", "c1")]


@pytest.mark.parametrize("history", DEEP, ids=" ".join)
def test_a_win_or_loss_several_moves_deep_is_proven_and_ends_the_search(
    history: tuple[str, ...],
) -> None:
    state = TICTACTOE.replay(list(history))
    assert not any(state.play(m).is_over for m in state.legal_moves())  # not at once
    winner = solved(history)
    assert winner is not None
    found = search(history)
    assert found.root.proven == winner
    assert found.playouts < 2_000  # stopped once proven, long before its budget
    best = found.root_stats()[0]
    if winner == state.to_move:  # the move it ranks first is one that wins
        assert best.proven == winner
        assert solved((*history, found.root_position.move_text(best.move))) == winner


def test_every_proof_agrees_with_minimax_and_a_draw_is_never_proven() -> None:
    rng = random.Random(4)
    proofs = 0
    for _ in range(40):
        state = TICTACTOE.new()
        for _ in range(rng.randint(1, 5)):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                break
        if state.is_over:
            continue
        history = tuple(state.history)
        found = search(history, playouts=300)
        if found.root.proven is not None:
            proofs += 1
            assert found.root.proven == solved(history), history
        for move, child in found.root.children.items():
            if child.proven is not None:
                text = found.root_position.move_text(move)
                assert child.proven == solved((*history, text)), (history, text)
    assert proofs >= 5


def test_the_analysis_of_a_proven_position_is_certain() -> None:
    lost = ai.analyse(TICTACTOE.replay(["a2", "b3", "b2"]), Budget(playouts=5_000), seed=0)
    assert lost.proven and lost.win_chance_for_seat0 == 1.0  # O to move, lost
    won = ai.analyse(TICTACTOE.replay(["a3", "c2"]), Budget(playouts=5_000), seed=0)
    assert won.proven and won.win_chance_for_seat0 == 1.0
    assert solved(("a3", "c2", won.best_move)) == 0  # type: ignore[arg-type]
