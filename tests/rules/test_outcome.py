"""How games end: the Termination words, and the outcomes made off the board.
(Each game's own endings are checked in its test file, by playing to them.)"""

from __future__ import annotations

import re

import pytest

import rules
from rules import Outcome, Termination
from rules.outcome import aborted, resigned, timed_out

OFF_THE_BOARD = {Termination.RESIGNATION, Termination.TIMEOUT, Termination.ABORT}


def test_termination_values_are_short_stored_words():
    values = [t.value for t in Termination]
    assert len(set(values)) == len(values)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", value) for value in values)
    assert Termination("no-moves") is Termination.NO_MOVES


def test_only_the_endings_off_the_board_are_not_by_the_rules():
    assert {t for t in Termination if not t.by_rules} == OFF_THE_BOARD
    for game in rules.GAMES.values():
        assert game.terminations and all(t.by_rules for t in game.terminations)
    used = {t for game in rules.GAMES.values() for t in game.terminations}
    # GOAL is kept for games to come (their Outcome text says which goal).
    assert used | {Termination.GOAL} == {t for t in Termination if t.by_rules}, (
        "no member without a game"
    )


def test_every_termination_has_its_own_words():
    descriptions = [t.description for t in Termination]
    assert len(set(descriptions)) == len(descriptions)
    assert Termination.RESIGNATION.description == "by resignation"
    assert Termination.TIMEOUT.description == "on time"
    assert Termination.ABORT.description == "aborted"
    assert "stalemate" in Termination.STALEMATE.description


def test_a_resignation_names_the_colours_once_they_are_known():
    state = rules.get_game("astralis").new(size=7)
    assert resigned(state, 0) == Outcome(1, Termination.RESIGNATION, "Cyan wins: Yellow resigned")
    lifeline = rules.get_game("lifeline").replay(["a1 c3"], size=4)
    assert resigned(lifeline, 1).text == "Black wins: White resigned"
    assert resigned(lifeline, 1).winner == 0


def test_before_a_pie_decides_the_colours_the_seats_are_named():
    state = rules.get_game("lifeline").new(size=4, opening="komi-pie")
    assert state.color_of(0) is None
    assert resigned(state, 0).text == "The second player wins: the first player resigned"
    assert timed_out(state, 1) == Outcome(
        0, Termination.TIMEOUT, "The first player wins: the second player ran out of time"
    )


def test_running_out_of_time_and_aborting():
    state = rules.get_game("asli").replay(["komi 2", "white", "c3"], size=5)
    assert timed_out(state, state.to_move) == Outcome(
        0, Termination.TIMEOUT, "Black wins: White ran out of time"
    )
    assert aborted(state) == Outcome(None, Termination.ABORT, "Aborted")


def test_outcomes_are_values():
    outcome = Outcome(0, Termination.SCORE, "Yellow wins 57 to 53.5")
    assert outcome == Outcome(0, Termination.SCORE, "Yellow wins 57 to 53.5")
    with pytest.raises(AttributeError):
        outcome.winner = 1  # type: ignore[misc]
