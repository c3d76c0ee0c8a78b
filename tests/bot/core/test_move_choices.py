"""Autocomplete of moves: 25 choices at most, the most useful first, typing narrows."""

from __future__ import annotations

import random

import pytest

import rules
from bot.core.move_choices import move_choices

CELLS = [f"{row}{col}" for row in "abcdefg" for col in range(1, 8)]


def values(legal: list[str], typed: str, **kwargs) -> list[str]:
    return [s.value for s in move_choices(legal, typed, **kwargs)]


def test_few_moves_are_listed_in_order() -> None:
    assert values(["swap", "a1", "a2", "b1"], "") == ["swap", "a1", "a2", "b1"]
    assert values(["swap", "a1", "a2", "b1"], "A") == ["a1", "a2"]


def test_special_moves_come_first_and_the_list_is_cut_at_25() -> None:
    legal = ["swap", *CELLS]
    shown = values(legal, "")
    assert len(shown) == 25
    assert shown[0] == "swap"


def test_typing_narrows() -> None:
    assert values(["swap", *CELLS], "c") == [f"c{n}" for n in range(1, 8)]


def test_two_part_moves_are_spread_over_their_first_part_every_one_whole() -> None:
    pairs = [f"{a} {b}" for i, a in enumerate(CELLS) for b in CELLS[i + 1 :]]
    first = values(pairs, "")
    assert len(first) == 25 and set(first) <= set(pairs)  # each one plays as it is
    assert len({move.split()[0] for move in first}) == 25  # one for each first stone
    after_space = values(pairs, "c3 ")
    assert len(after_space) == 25
    assert all(value.startswith("c3 ") for value in after_space)
    assert values(pairs, "c3, D") == ["c3 d1", "c3 d2", "c3 d3", "c3 d4", "c3 d5", "c3 d6", "c3 d7"]


def test_the_komi_is_offered_as_numbers_that_play() -> None:
    legal = [f"komi {k}" for k in range(170)]
    assert values(legal, "") == [f"komi {k}" for k in range(25)]
    assert values(legal, "ko") == [f"komi {k}" for k in range(25)]


def test_choices_fit_discords_limits() -> None:
    legal = [f"komi {k}" for k in range(170)]
    for typed in ("", "komi", "komi 1", "x" * 300):
        suggestions = move_choices(legal, typed)
        assert len(suggestions) <= 25
        assert all(1 <= len(s.name) <= 100 and len(s.value) <= 100 for s in suggestions)
    assert values(legal, "komi 16") == ["komi 16", *(f"komi {k}" for k in range(160, 170))]


def test_a_move_typed_in_another_form_is_found_through_the_games_parser() -> None:
    pairs = [f"{a} {b}" for i, a in enumerate(CELLS) for b in CELLS[i + 1 :]]
    lifeline = rules.get_game("lifeline").new(size=4)
    assert lifeline.parse("D1,c3") == "c3 d1"
    shown = values(pairs, "D1,c3", parse=lifeline.parse)
    assert shown == ["c3 d1"]
    assert values(pairs, "zz9", parse=lifeline.parse) == []  # no move at all: nothing to offer


@pytest.mark.parametrize("game", ["asli", "lifeline", "sliglube", "astralis"])
def test_every_choice_offered_plays_as_it_is_sent(game: str) -> None:
    """Through whole games: whatever the member has typed, each suggestion is a move the
    engine plays as it is (no collapsed ``a1 …`` or ``komi …`` that it refuses)."""
    options = {
        "asli": {"size": 5},
        "lifeline": {"size": 4, "opening": "komi-pie"},
        "sliglube": {"size": 5},
        "astralis": {"size": 7},
    }[game]
    rng = random.Random(5)
    state = rules.get_game(game).new(**options)
    while not state.is_over:
        legal = state.legal_moves()
        some = rng.choice(legal)
        for typed in ("", some[:1], some.split()[0] + " ", some[:-1], some.upper()):
            for suggestion in move_choices(legal, typed, parse=state.parse):
                assert suggestion.name == suggestion.value
                state.play(suggestion.value)  # raises if it would be refused
        state = state.play(some)
