"""Frugal playouts (Asli's knowledge): the search's playouts keep each side's reserve
for last and stop when only reserves are left, on a copy of the position it was given."""

from __future__ import annotations

import dataclasses
import random

import rules
from ai.games import knowledge
from ai.levels import Budget
from ai.mcts import Search
from rules.position import position

#: Black walls off the a-b columns with the c column, White the e-f ones with the d one.
OPENING = ["komi 1", "black", *(f"{column}{row}" for row in range(1, 7) for column in "cd")]


def test_asli_searches_with_frugal_playouts_on_a_copy_of_the_position() -> None:
    state = rules.get_game("asli").replay(OPENING, size=6)
    known = knowledge("asli", state.options)
    assert known.frugal
    given = position(state)
    search = Search(given, known, random.Random(5))
    search.run(Budget(playouts=50))
    assert search.playouts == 50
    frugal, plain = search.root_position.copy(), given.copy()
    frugal.playout(random.Random(1))
    plain.playout(random.Random(1))
    assert not frugal.is_over  # stopped with the reserves left, for evaluate() to count
    assert plain.is_over  # the position the player gave plays random games to the end


def test_a_game_without_reserves_plays_its_playouts_to_the_end_when_frugal() -> None:
    state = rules.get_game("lifeline").new(size=5)
    known = dataclasses.replace(knowledge("lifeline", state.options), frugal=True, cutoff=None)
    search = Search(position(state), known, random.Random(5))
    pos = search.root_position.copy()
    assert not pos.play_frugally()
    pos.playout(random.Random(1))
    assert pos.is_over
