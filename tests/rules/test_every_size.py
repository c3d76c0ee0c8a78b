"""A random game of every game, at every size its options allow, plays to its end."""

from __future__ import annotations

import random

import pytest

import rules


def sizes(game: rules.Game) -> range:
    size = next(option for option in game.options() if option.name == "size")
    return range(size.minimum, size.maximum + 1)


CASES = [
    pytest.param(name, size, id=f"{name}-{size}")
    for name, game in rules.GAMES.items()
    for size in sizes(game)
]


@pytest.mark.parametrize(("name", "size"), CASES)
def test_a_random_game_finishes(name: str, size: int) -> None:
    rng = random.Random(f"{name}-{size}")
    game = rules.get_game(name)
    state = game.new(size=size)
    while not state.is_over:
        assert state.ply < 50 * len(state.board), "the game does not end"
        state = state.play(rng.choice(state.legal_moves()))
    assert state.result
    assert state.winner in (0, 1) or (name == "asli" and state.winner is None)
    assert game.replay(state.history, size=size).result == state.result
