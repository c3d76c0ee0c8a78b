"""The tactics suite: positions of every game with one winning or saving move (or two),
each reached by playing moves; the hard level's playouts, without its time cap and with a
fixed seed (repeatable on any machine), must find the move.

Each test first checks its premise on the engine (which moves win, which allow a
winning reply), so a change of rules that moves a position shows as a failed premise.
"""

from __future__ import annotations

import pytest

import ai
from rules.position import SearchPosition, position
from tests.ai import positions
from tests.ai.positions import Position


def wins_at_once(pos: SearchPosition, move: int) -> bool:
    after = pos.copy()
    after.play(move)
    return after.is_over and after.winner == pos.to_move


def allows_a_win_at_once(pos: SearchPosition, move: int) -> bool:
    me = pos.to_move
    after = pos.copy()
    after.play(move)
    if after.is_over:
        return after.winner != me
    for reply in after.legal_moves():
        answer = after.copy()
        answer.play(reply)
        if answer.is_over and answer.winner not in (None, me):
            return True
    return False


def wins_by_force_in_two(pos: SearchPosition, move: int) -> bool:
    """After ``move`` the game is not over and every reply ends it with the mover winning."""
    me = pos.to_move
    after = pos.copy()
    after.play(move)
    if after.is_over:
        return False
    for reply in after.legal_moves():
        answer = after.copy()
        answer.play(reply)
        if not (answer.is_over and answer.winner == me):
            return False
    return True


#: (position, the moves that solve it, how they do): "wins" at once, "saves" (every other
#: move allows a reply that wins at once), "forces" (a win whatever the reply).
SUITE = [
    (positions.LIFELINE_WIPE, {"b4"}, "wins"),  # a capture that wins: the last group taken
    (positions.LIFELINE_SAVE, {"c1"}, "saves"),  # the last group saved
    (positions.ASLI_CAPTURE_WINS, {"d5"}, "wins"),
    (positions.ASLI_PRISON_TURNS, {"c1"}, "wins"),
    (positions.ASLI_NO_ACTION, {"a2"}, "wins"),
    (positions.ASLI_CUT_LEAVES_NO_ACTION, {"k1"}, "wins"),  # at a member's size
    (positions.ASLI_HOLD_SAVES, {"hold", "a4"}, "saves"),
    (positions.ASLI_ONE_SAVE, {"d1"}, "saves"),
    (positions.ASLI_ONE_SAFE_MOVE, {"c5"}, "saves"),
    (positions.ASTRALIS_CAPTURE_WINS, {"b6 a5"}, "wins"),
    (positions.ASTRALIS_LAST_PLACEMENT, {"h12 g13"}, "wins"),
    (positions.ASTRALIS_ONE_SAVE, {"a6"}, "saves"),
    (positions.SLIGLUBE_LOOP_WINS, {"c2"}, "forces"),
    (positions.SLIGLUBE_SELF_STALEMATE, {"d1"}, "forces"),
]
IDS = [f"{p.game}-{kind}-{'-'.join(sorted(m)).replace(' ', '')}" for p, m, kind in SUITE]


@pytest.mark.parametrize(("spot", "solutions", "kind"), SUITE, ids=IDS)
def test_the_hard_level_solves_the_tactic(spot: Position, solutions: set[str], kind: str) -> None:
    state = spot.state()
    pos = position(state)
    text = pos.move_text
    legal = pos.legal_moves()
    if kind == "wins":
        found = {text(m) for m in legal if wins_at_once(pos, m)}
    elif kind == "saves":
        found = {text(m) for m in legal if not allows_a_win_at_once(pos, m)}
    else:
        found = {text(m) for m in legal if wins_by_force_in_two(pos, m)}
    assert found == solutions and len(legal) > len(solutions)  # the premise
    level = ai.LEVELS["hard"].uncapped()  # its playouts and tuning, no time limit
    assert ai.choose_move(state, level, seed=1) in solutions
    analysis = ai.analyse(
        state,
        level.budget_for(spot.game, state.options.get("size")),
        seed=2,
        tuning=level.tuning_for(spot.game),
    )
    assert analysis.best_move in solutions


def test_the_suite_covers_every_game() -> None:
    assert {p.game for p, _, _ in SUITE} == {"lifeline", "asli", "astralis", "sliglube"}
    assert {kind for _, _, kind in SUITE} == {"wins", "saves", "forces"}
