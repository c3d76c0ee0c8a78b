"""Decisions: the moves a player makes by button (a swap, a colour, a komi, a
pass, a hold), each reached by playing to it and then taken, to see that it
does what its label says."""

from __future__ import annotations

import random

import pytest

import rules
from rules import Decision, NumberChoice, State
from rules.testing import SMALL_OPTIONS
from tests.rules.test_astralis import BLOCKED

LIFELINE = rules.get_game("lifeline")
ASLI = rules.get_game("asli")
SLIGLUBE = rules.get_game("sliglube")
ASTRALIS = rules.get_game("astralis")


def take(state: State, label: str) -> State:
    """The position after clicking the button ``label``."""
    (decision,) = [d for d in state.decisions() if d.label == label]
    assert decision.move in state.legal_moves()
    return state.play(decision.move)


def komi_form(state: State) -> NumberChoice:
    (decision,) = state.decisions()
    assert decision.label == "Choose the komi" and decision.move is None
    return decision.number


def labels(state: State) -> list[str]:
    return [d.label for d in state.decisions()]


# -- Lifeline -------------------------------------------------------------------------


@pytest.mark.parametrize(("opening", "first"), [("strong-pie", "a1 c3"), ("weak-pie", "c3")])
def test_lifeline_swap_after_blacks_first_turn(opening, first):
    start = LIFELINE.new(size=4, opening=opening)
    assert start.decisions() == ()
    state = start.play(first)
    assert state.decisions() == (Decision("Swap", "swap"),)
    swapped = take(state, "Swap")
    assert (swapped.color_of(0), swapped.color_of(1)) == ("white", "black")
    assert swapped.decisions() == ()


def test_lifeline_komi_pie_asks_a_number_then_a_colour():
    start = LIFELINE.new(size=4, opening="komi-pie")
    form = komi_form(start)
    assert form == NumberChoice("Komi (0–37)", "komi {}", 0, 37) and len(start.board) == 37
    for komi in range(form.minimum, form.maximum + 1):
        assert start.play(form.move(komi)).komi == komi
    state = start.play(form.move(5))
    assert labels(state) == ["Play black", "Play white"]
    assert take(state, "Play black").color_of(state.to_move) == "black"
    assert take(state, "Play white").color_of(state.to_move) == "white"


def test_lifeline_white_may_pass_to_spend_komi():
    state = LIFELINE.replay(
        ["komi 5", "white", "a1", "g4", "a4", "g1", "d4"], size=4, opening="komi-pie"
    )
    assert state.color_to_move == "white"
    assert labels(state) == ["Pass (spend 1 of 5 komi)"]
    passed = take(state, "Pass (spend 1 of 5 komi)")
    assert passed.komi_left == 4 and passed.color_to_move == "black"
    assert passed.decisions() == ()
    assert labels(passed.play(passed.legal_moves()[0])) == ["Pass (spend 1 of 4 komi)"]


# -- Asli -------------------------------------------------------------------------------


def test_asli_komi_then_colour_then_hold():
    start = ASLI.new(size=5)
    form = komi_form(start)
    assert (form.minimum, form.maximum, form.question) == (0, 25, "Komi (0–25)")
    assert all(start.play(form.move(k)).prison_count == k for k in range(26))
    state = start.play(form.move(2))
    assert labels(state) == ["Play black", "Play white"]
    assert take(state, "Play white").color_of(state.to_move) == "white"
    black = take(state, "Play black")
    assert black.color_of(1) == "black" and black.decisions() == ()
    # Black places; White holds one of the two black prisoners, by button
    after = black.play("c3")
    assert labels(after) == ["Hold"]
    held = take(after, "Hold")
    assert held.prison_count == 1 and held.history[-1] == "hold"
    assert held.decisions() == ()  # Black has no white prisoner to hold


# -- Sliglube ----------------------------------------------------------------------------


def test_sliglube_colour_choice_after_the_first_stone():
    start = SLIGLUBE.new(size=5)
    assert start.decisions() == ()
    state = start.play("d4")
    assert labels(state) == ["Play black", "Play white"]
    white = take(state, "Play white")
    assert white.color_of(1) == "white" and white.color_to_move == "white"
    black = take(state, "Play black")
    assert black.color_of(1) == "black" and black.color_to_move == "white"
    assert white.decisions() == () and black.decisions() == ()


# -- Astralis ------------------------------------------------------------------------------


def test_astralis_offers_pass_only_to_a_blocked_pawn():
    state = ASTRALIS.replay(BLOCKED, size=7)
    assert state.decisions() == (Decision("Pass", "pass"),)
    passed = take(state, "Pass")
    assert passed.history[-1] == "pass" and passed.color_to_move == "cyan"
    assert passed.decisions() == ()


# -- the end ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_nothing_is_offered_once_the_game_is_over(name):
    rng = random.Random(3)
    state = rules.get_game(name).new(**SMALL_OPTIONS[name][0])
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assert state.decisions() == ()
