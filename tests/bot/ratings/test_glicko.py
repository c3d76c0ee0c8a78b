"""Glicko-2 ratings: the paper's worked example, and what a member would check."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ratings.glicko import (
    Rating,
    counts_for_rating,
    rate,
    update,
    update_after_draw,
    update_after_game,
)
from rules import Termination


def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30,
    loses to 1550/100 and 1700/300 in one period, τ = 0.5."""
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
    after = update(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    # the paper prints 0.05999; the root of its f is A = -5.62696, σ' = exp(A / 2).
    # (PyPI's glicko2 gets 0.059993 here: see the module docstring.)
    assert after.volatility == pytest.approx(0.059996, abs=5e-7)


def test_a_newcomer_starts_at_1500_350():
    assert Rating() == Rating(1500, 350, 0.06)
    assert str(Rating(1464.06, 151.52)) == "1464 ± 152"


def test_winner_gains_and_loser_loses():
    winner, loser = update_after_game(Rating(), Rating())
    assert winner.rating > 1500 > loser.rating
    assert winner.deviation < 350 and loser.deviation < 350


def test_symmetry_between_equal_players():
    a, b = rate(Rating(), Rating(), 1.0)
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert a.deviation == pytest.approx(b.deviation)
    # and the order of the two players does not matter
    b2, a2 = rate(Rating(), Rating(), 0.0)
    assert (a2, b2) == (a, b)


ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.1),
)


@given(a=ratings, b=ratings, score=st.sampled_from([0.0, 0.5, 1.0]))
def test_rate_is_the_same_game_seen_from_either_side(a, b, score):
    new_a, new_b = rate(a, b, score)
    other_b, other_a = rate(b, a, 1.0 - score)
    assert new_a == other_a and new_b == other_b
    if score == 1.0:
        assert new_a.rating > a.rating and new_b.rating < b.rating
    if score == 0.0:
        assert new_a.rating < a.rating and new_b.rating > b.rating


def test_a_draw_between_equals_changes_no_rating():
    a, b = update_after_draw(Rating(1620, 80, 0.06), Rating(1620, 80, 0.06))
    assert a.rating == pytest.approx(1620)
    assert b.rating == pytest.approx(1620)
    # the players are better known afterwards, though
    assert a.deviation < 80


def test_an_upset_moves_ratings_more_than_an_expected_win():
    strong, weak = Rating(1900, 60), Rating(1500, 60)
    expected_win, _ = update_after_game(strong, weak)
    _, upset_loss = update_after_game(weak, strong)
    assert strong.rating - upset_loss.rating > expected_win.rating - strong.rating


def test_a_period_without_games_only_widens_the_deviation():
    idle = update(Rating(1700, 100, 0.06), [])
    assert idle.rating == 1700
    assert idle.deviation == pytest.approx(math.hypot(100, 0.06 * 173.7178))


@pytest.mark.parametrize(
    "bad",
    [
        {"rating": math.nan},
        {"deviation": 0},
        {"deviation": -5},
        {"volatility": 0},
    ],
)
def test_impossible_ratings_are_refused(bad):
    with pytest.raises(ValueError):
        Rating(**bad)


def test_a_score_must_be_between_loss_and_win():
    with pytest.raises(ValueError, match="between 0"):
        rate(Rating(), Rating(), 2)


@pytest.mark.parametrize(
    ("rated", "termination", "moves", "counts"),
    [
        (True, Termination.NO_MOVES, 40, True),
        (True, Termination.REPETITION, 40, True),  # a draw by the rules counts too
        (True, Termination.RESIGNATION, 2, True),
        (True, Termination.TIMEOUT, 7, True),
        (False, Termination.SCORE, 40, False),  # casual game
        (True, Termination.ABORT, 40, False),  # aborted games never count
        (True, Termination.RESIGNATION, 1, False),  # fewer than two moves
        (True, Termination.TIMEOUT, 0, False),
        (True, None, 40, False),  # not finished yet
    ],
)
def test_which_games_count(rated, termination, moves, counts):
    assert counts_for_rating(rated=rated, termination=termination, moves=moves) is counts


def test_an_unknown_ending_is_refused():
    with pytest.raises(TypeError, match="Termination"):
        counts_for_rating(rated=True, termination="agreement", moves=30)
