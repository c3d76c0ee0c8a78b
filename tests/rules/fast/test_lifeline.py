"""The fast Lifeline position plays exactly the game of the rules engine.

Every check compares it with :class:`rules.lifeline.LifelineState` along
random games: the legal moves, whose turn it is, the end and the winner.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import rules
from rules.fast.lifeline import LifelinePosition
from rules.position import position

GAME = rules.get_game("lifeline")
OPENINGS = ("strong-pie", "weak-pie", "komi-pie")


def assert_same(pos: LifelinePosition, state) -> None:
    where = f"after {' | '.join(state.history)}"
    assert pos.to_move == state.to_move, where
    assert pos.is_over == state.is_over, where
    assert pos.winner == state.winner, where
    ids = pos.legal_moves()
    assert {pos.move_text(m) for m in ids} == set(state.legal_moves()), where
    assert len(set(ids)) == len(ids), where


def board(pos: LifelinePosition) -> list[int]:
    return pos.cells[:-1]


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("opening", OPENINGS)
def test_random_games_agree_with_the_engine(size: int, opening: str) -> None:
    for seed in range(3):
        play_alongside(
            random.Random(size * 10 + OPENINGS.index(opening) + 100 * seed),
            GAME.new(size=size, opening=opening),
        )


def play_alongside(rng: random.Random, state) -> None:
    """A random game played on the State and the fast position, compared at every ply."""
    pos = position(state)
    assert isinstance(pos, LifelinePosition)
    while True:
        assert_same(pos, state)
        if state.is_over:
            break
        legal = pos.legal_moves()
        for move in legal:
            assert pos.move_id(pos.move_text(move)) == move
        text = rng.choice(state.legal_moves())
        if rng.random() < 0.2:
            # a copy goes its own way; the original stays as it was
            before = board(pos)
            other = pos.copy()
            other.play(rng.choice(legal))
            assert board(pos) == before
            assert_same(pos, state)
        pos.play(pos.move_id(text))
        state = state.play(text)
    # a position made from a finished State is the same
    assert_same(position(state), state)


def test_a_whole_game_on_the_largest_board() -> None:
    rng = random.Random(12)
    state = GAME.new(size=12)
    pos = position(state)
    while not state.is_over:
        if len(state.history) % 7 == 0 or len(state.history) < 3:
            assert_same(pos, state)
        text = rng.choice(state.legal_moves())
        pos.play(pos.move_id(text))
        state = state.play(text)
    assert_same(pos, state)


def _played(pos: LifelinePosition, after: LifelinePosition) -> int:
    """The legal move of ``pos`` that leads to ``after`` (one of them, if several do)."""
    for move in pos.legal_moves():
        trial = pos.copy()
        trial.play(move)
        if (trial.cells, trial.komi_left, trial.white_seat, trial.to_move) == (
            after.cells,
            after.komi_left,
            after.white_seat,
            after.to_move,
        ):
            return move
    raise AssertionError("the playout made a move that is not legal")


@pytest.mark.parametrize("opening", OPENINGS)
def test_playouts_make_legal_moves_to_the_engine_s_end(opening: str) -> None:
    for size, seed in ((3, 1), (4, 2), (5, 3)):
        rng = random.Random(seed)
        state = GAME.new(size=size, opening=opening)
        pos = position(state)
        while not pos.is_over:
            after = pos.copy()
            assert after.playout(rng, max_plies=1) == 1
            text = pos.move_text(_played(pos, after))
            pos = after
            state = state.play(text)
            assert_same(pos, state)
        assert state.is_over


def test_a_playout_plays_to_the_end_and_counts_its_plies() -> None:
    state = GAME.new(size=5)
    pos = position(state)
    plies = pos.playout(random.Random(5))
    assert pos.is_over and pos.winner in (0, 1)
    assert pos.nmoves == plies
    assert position(state).playout(random.Random(5), max_plies=10) == 10


def _frequencies(pos: LifelinePosition, samples: int) -> Counter[int]:
    rng = random.Random(0)
    seen: Counter[int] = Counter()
    outcomes = {}
    for move in pos.legal_moves():
        trial = pos.copy()
        trial.play(move)
        outcomes.setdefault((tuple(trial.cells), trial.komi_left, trial.white_seat), move)
    for _ in range(samples):
        trial = pos.copy()
        trial.playout(rng, max_plies=1)
        seen[outcomes[(tuple(trial.cells), trial.komi_left, trial.white_seat)]] += 1
    return seen


def _white_with_komi_and_an_illegal_cell() -> LifelinePosition:
    """A komi-pie position on base 3: White to move, komi left, an empty cell illegal."""
    for seed in itertools.count():
        rng = random.Random(seed)
        pos = position(GAME.new(size=3, opening="komi-pie"))
        pos.play(pos.move_id("komi 9"))
        pos.play(pos.move_id("white"))
        while not pos.is_over:
            legal = pos.legal_moves()
            if pos.move_id("pass") in legal and len(legal) < len(pos.empties) + 1:
                return pos
            pos.play(rng.choice([m for m in legal if pos.move_text(m) != "pass"]))
    raise AssertionError("unreachable")


def test_playouts_choose_uniformly_among_the_legal_moves() -> None:
    pos = _white_with_komi_and_an_illegal_cell()
    legal = pos.legal_moves()
    seen = _frequencies(pos, 200 * len(legal))
    assert set(seen) == set(legal)
    assert all(140 <= count <= 260 for count in seen.values()), seen


@pytest.mark.parametrize("opening", OPENINGS)
def test_a_random_move_is_legal_and_says_who_played_it(opening: str) -> None:
    """What the search records for RAVE: the move a playout ply made, and its mover."""
    for size, seed in ((3, 4), (4, 5), (5, 6)):
        rng = random.Random(seed)
        state = GAME.new(size=size, opening=opening)
        pos = position(state)
        while True:
            step = pos.copy()
            played = step.play_random(rng)
            if state.is_over:
                assert played is None and board(step) == board(pos)
                break
            assert played is not None
            seat, move = played
            assert seat == state.to_move
            assert pos.move_text(move) in state.legal_moves()
            state = state.play(pos.move_text(move))
            pos = step
            assert_same(pos, state)


def test_a_random_move_is_uniform_among_the_legal_moves() -> None:
    pos = _white_with_komi_and_an_illegal_cell()
    legal = pos.legal_moves()
    rng = random.Random(9)
    seen: Counter[int] = Counter()
    for _ in range(200 * len(legal)):
        played = pos.copy().play_random(rng)
        assert played is not None
        seen[played[1]] += 1
    assert set(seen) == set(legal)
    assert all(140 <= count <= 260 for count in seen.values()), seen


def test_evaluate_is_seat_0_s_share_of_the_stones() -> None:
    pos = position(GAME.new(size=4))
    assert pos.evaluate() == 0.5
    pos.play(pos.move_id("c3 e5"))
    assert pos.evaluate() == 1.0  # Black (seat 0) has both stones
    pos.play(pos.move_id("swap"))
    assert pos.evaluate() == 0.0  # seat 0 now holds White
    pos.play(pos.move_id("a1 g4"))
    assert pos.evaluate() == 0.5
    pos.playout(random.Random(1))
    assert pos.evaluate() == float(pos.winner == 0)


def test_move_ids_are_the_same_for_every_opening_of_a_size() -> None:
    positions = [position(GAME.new(size=5, opening=o)) for o in OPENINGS]
    for text in ("c3", "swap", "pass", "black", "white", "komi 0", "komi 61", "a1 c3"):
        assert len({p.move_id(text) for p in positions}) == 1
    pos = positions[0]
    assert pos.move_id("C3,  A1") == pos.move_id("a1 c3")
    for text in ("a1 a2", "c3 c3", "z9", "komi 62", "komi", "resign", ""):
        with pytest.raises(ValueError):
            pos.move_id(text)
