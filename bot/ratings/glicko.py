"""Glicko-2 ratings, one per member per game (and per server): pure arithmetic.

The rules, from Mark Glickman's "Example of the Glicko-2 system" (2013):

* A rating is three numbers: the rating itself (new players start at 1500),
  its deviation RD (how unsure we are: 350 for a newcomer, shrinking as games
  are played) and the volatility σ (how erratic the player's results are,
  starting at 0.06).
* Results are scored 1 for a win, ½ for a draw and 0 for a loss. A result
  moves a rating by more when the result was unexpected, when the player's own
  RD is large and when the opponent's RD is small.
* The system constant τ limits how fast volatility changes; we use 0.5, the
  value of the paper's example.

Correspondence games finish one at a time, days apart, so **each finished game
is its own rating period**: both players are updated at once, each against the
other's rating from before the game. A consequence worth knowing is that RD
does not grow while a member is idle (the paper's step for players who sat out
a period is never applied); it only shrinks as games are played.

Why not the ``glicko2`` package from PyPI (Ryan Kirkman's): its volatility
iteration uses the *rating* where the paper uses the *deviation* (φ² in the
function f of step 5). Even on the paper's own example its root is
A = −5.62704 where the paper's f has −5.62696 (σ' 0.059993 instead of
0.059996), and the error grows with the distance from 1500. This module
implements the paper directly and is tested against its worked example.

Which games count (:func:`counts_for_rating`): only rated games (casual is a
challenge option) that ended by the rules, by resignation or on time, after
at least two moves. Aborted games never count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from rules import Termination

#: The system constant τ (the paper suggests 0.3 to 1.2; its example uses 0.5).
TAU = 0.5
#: Glicko-2 works on a scale of the Glicko scale divided by this constant.
SCALE = 173.7178
#: Convergence tolerance of the volatility iteration (the paper's ε).
EPSILON = 0.000001

WIN, DRAW, LOSS = 1.0, 0.5, 0.0

#: A game needs at least this many moves (setup and pie choices included) to count.
MIN_RATED_MOVES = 2


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating: ``rating`` ± ``deviation``, and ``volatility``.

    The default is a newcomer's: 1500, RD 350, σ 0.06.
    """

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating must be a finite number, not {self.rating!r}")
        if not (self.deviation > 0 and math.isfinite(self.deviation)):
            raise ValueError(f"a rating deviation must be positive, not {self.deviation!r}")
        if not (self.volatility > 0 and math.isfinite(self.volatility)):
            raise ValueError(f"a volatility must be positive, not {self.volatility!r}")

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {self.deviation:.0f}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: solve f(x) = 0 by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``results``: pairs of
    (opponent's rating before the period, score 1 / ½ / 0). With no results the
    player only becomes less certain (RD grows by the volatility)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    games = [
        ((opp.rating - 1500.0) / SCALE, opp.deviation / SCALE, score) for opp, score in results
    ]
    for _, _, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 (loss) and 1 (win), not {score!r}")
    if not games:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)

    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in games:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement

    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)


def rate(a: Rating, b: Rating, score: float, *, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game between them. ``score`` is
    ``a``'s result: 1 (a won), 0.5 (draw) or 0 (b won). The game is its own
    rating period: each is rated against the other's rating before the game."""
    return update(a, [(b, score)], tau=tau), update(b, [(a, 1.0 - score)], tau=tau)


def update_after_game(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """(winner's new rating, loser's new rating) after a decisive game."""
    return rate(winner, loser, WIN)


def update_after_draw(a: Rating, b: Rating) -> tuple[Rating, Rating]:
    """Both players' new ratings after a drawn game."""
    return rate(a, b, DRAW)


def counts_for_rating(*, rated: bool, termination: Termination | None, moves: int) -> bool:
    """Whether a game changes ratings.

    ``rated``: False for casual games (a challenge option). ``termination``:
    how the game ended, None while it is still being played. ``moves``: number
    of moves in the record, setup and pie choices included. A game counts when
    it is rated, finished (by the rules, by resignation or on time), and has at
    least :data:`MIN_RATED_MOVES` moves. Aborted games never count.
    """
    if termination is not None and not isinstance(termination, Termination):
        raise TypeError(f"a game ends with a rules.Termination, not {termination!r}")
    return (
        rated
        and termination is not None
        and termination is not Termination.ABORT
        and moves >= MIN_RATED_MOVES
    )


__all__ = [
    "DRAW",
    "LOSS",
    "MIN_RATED_MOVES",
    "TAU",
    "WIN",
    "Rating",
    "counts_for_rating",
    "rate",
    "update",
    "update_after_draw",
    "update_after_game",
]
