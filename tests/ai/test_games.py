"""Per-game knowledge: which of many moves a node of the search considers."""

from __future__ import annotations

import itertools
import random

from ai.games import generic_candidates, knowledge, spread
from tests.tictactoe import GAME as TICTACTOE


def test_a_long_range_of_numbers_is_sampled_densely_at_the_small_end() -> None:
    kept = spread(list(range(170)), 12)
    assert kept == [0, 1, 2, 3, 5, 8, 13, 21, 33, 52, 83, 169]
    gaps = [b - a for a, b in itertools.pairwise(kept)]
    assert gaps == sorted(gaps)
    assert spread(list(range(5)), 12) == [0, 1, 2, 3, 4]


def test_a_game_without_a_module_samples_number_choices_and_keeps_one_word_moves() -> None:
    texts = ["swap", *(f"bid {n}" for n in range(300)), *(f"a{n} b{n}" for n in range(900))]
    chosen = [
        texts[m]
        for m in generic_candidates(list(range(len(texts))), texts.__getitem__, random.Random(1))
    ]
    bids = [int(t.split()[1]) for t in chosen if t.startswith("bid")]
    assert bids[:4] == [0, 1, 2, 3] and bids[-1] == 299 and len(bids) <= 12
    assert "swap" in chosen
    assert len([t for t in chosen if t.startswith("a")]) == 399


def test_every_game_has_knowledge_even_one_the_ai_never_heard_of() -> None:
    assert knowledge(TICTACTOE, {}).cutoff is None
    assert knowledge("lifeline", {"size": 7}).judge(0.5) == 0.5
