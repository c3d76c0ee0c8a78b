"""The fast Sliglube search position plays exactly the engine's game.

Random games are played side by side on a :class:`SliglubeState` and on the
fast position, and at every ply they must agree. Sizes 3 and 4 are not offered
to players (the option starts at 5) but the engine plays them, and their short
games reach the stalemate that ends every game many times per second.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from rules.fast.sliglube import SliglubePosition
from rules.position import position
from rules.sliglube import SliglubeState

GAME = rules.get_game("sliglube")

#: A size-5 game after which the mover (Black) may play c6 noflip (and c6).
NOFLIP_OFFERED = [
    "c4",
    "black",
    "d5",
    "e4",
    "d4",
    "i4",
    "h4",
    "h2",
    "h1",
    "b1",
    "h6",
    "f4",
    "a1",
    "e8",
    "g5",
    "f5",
    "d1",
    "a5",
    "b6",
    "b4",
    "c5",
    "e5",
    "f7",
    "b2",
    "h5",
    "e6",
    "c7",
    "a4",
    "c1",
]


def new_state(size: int) -> SliglubeState:
    state = GAME._initial({"size": size}) if size < 5 else GAME.new(size=size)
    assert isinstance(state, SliglubeState)
    return state


def fast(state: SliglubeState) -> SliglubePosition:
    pos = position(state)
    assert isinstance(pos, SliglubePosition)
    return pos


def texts(pos: SliglubePosition) -> set[str]:
    return {pos.move_text(move) for move in pos.legal_moves()}


def assert_same_game(pos: SliglubePosition, state: SliglubeState) -> None:
    assert texts(pos) == set(state.legal_moves())
    assert (pos.to_move, pos.is_over, pos.winner) == (state.to_move, state.is_over, state.winner)


def assert_same_board(pos: SliglubePosition, state: SliglubeState) -> None:
    for i, cell in enumerate(state.board.cells):
        bit = 1 << pos.t.bit[i]
        stone = "black" if pos.black & bit else "white" if pos.white & bit else None
        assert stone == state.stone_at(cell), cell


@pytest.mark.parametrize(("size", "games"), [(3, 40), (4, 16), (5, 8), (6, 4)])
def test_every_ply_of_random_games_agrees_with_the_engine(size: int, games: int) -> None:
    for seed in range(games):
        rng = random.Random(f"list-{size}-{seed}")
        state = new_state(size)
        pos = fast(state)
        while True:
            assert_same_game(pos, state)
            for move in pos.legal_moves():
                assert pos.move_id(pos.move_text(move)) == move
            if state.is_over:
                break
            if rng.random() < 0.1:  # a copy goes its own way; the original does not move
                other = pos.copy()
                other.play(other.move_id(rng.choice(state.legal_moves())))
                assert_same_game(pos, state)
            if rng.random() < 0.1:  # a position made mid-game knows the same
                assert_same_game(fast(state), state)
            text = rng.choice(state.legal_moves())
            state = state.play(text)
            pos.play(pos.move_id(text))
        assert pos.winner is not None


@pytest.mark.parametrize(("size", "games"), [(3, 40), (4, 16), (5, 10), (6, 6)])
def test_random_moves_of_a_playout_are_legal_and_play_as_the_engine(size: int, games: int) -> None:
    for seed in range(games):
        rng = random.Random(f"sample-{size}-{seed}")
        state = new_state(size)
        pos = fast(state)
        while (move := pos.random_move(rng)) is not None:
            text = pos.move_text(move)
            assert text in state.legal_moves()
            state = state.play(text)
            pos.play(move)
            assert_same_board(pos, state)
        assert state.is_over
        assert (pos.is_over, pos.to_move, pos.winner) == (True, None, state.winner)


def test_playout_plays_to_the_end_or_to_the_ply_limit() -> None:
    start = fast(GAME.new(size=5))
    pos = start.copy()
    assert pos.playout(random.Random(1), max_plies=10) == 10
    assert pos.ply == 10 and not pos.is_over
    plies = pos.playout(random.Random(2))
    assert pos.is_over and pos.winner is not None and pos.legal_moves() == []
    assert pos.ply == 10 + plies
    assert start.ply == 0 and len(start.legal_moves()) == 61


def test_a_random_move_picks_every_legal_move_alike_noflip_included() -> None:
    state = GAME.replay(NOFLIP_OFFERED, size=5)
    assert "c6 noflip" in state.legal_moves()
    pos = fast(state)
    rng = random.Random(7)
    draws = 100 * len(state.legal_moves())
    seen = Counter(pos.move_text(pos.random_move(rng)) for _ in range(draws))
    assert set(seen) == set(state.legal_moves())
    # 100 expected each: a move drawn at half or double the rate is far outside
    assert all(55 <= count <= 150 for count in seen.values()), seen


def test_move_ids_are_the_same_in_every_position_of_a_size() -> None:
    start = fast(GAME.new(size=5))
    later = fast(GAME.replay(NOFLIP_OFFERED, size=5))
    cells = GAME.new(size=5).board.cells
    n = len(cells)
    for pos in (start, later):
        assert [pos.move_id(cell) for cell in cells] == list(range(n))
        assert pos.move_id("c6 noflip") == n + cells.index("c6")
        assert (pos.move_id("black"), pos.move_id("white")) == (2 * n, 2 * n + 1)
        with pytest.raises(ValueError):
            pos.move_id("z9")
    assert start.legal_moves() == list(range(n))
    assert later.move_id("c6 noflip") in later.legal_moves()


def test_evaluate_is_even_before_any_loop_and_certain_once_over() -> None:
    pos = fast(GAME.replay(["c4", "white", "d5"], size=5))
    assert pos.evaluate() == 0.5
    pos.playout(random.Random(3))
    assert pos.evaluate() == (1.0 if pos.winner == 0 else 0.0)
    middle = fast(GAME.replay(NOFLIP_OFFERED, size=5))
    assert 0.0 < middle.evaluate() < 1.0
