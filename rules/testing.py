"""Small boards for tests and benchmarks: one table of option sets on which
whole random games are quick, so that every test and quick benchmark plays the
same small games.

    >>> from rules.testing import SMALL_OPTIONS
    >>> [rules.get_game(name).new(**sets[0]) for name, sets in SMALL_OPTIONS.items()]

The first set of each game is *the* small game, for a check that needs one
game per rule set (the bot's tests, ``bench --quick``); property tests that
should meet every kind of opening play them all (each Lifeline opening has its
own pie moves, and its smallest board its own corners). Treat the dicts as
read-only: they are shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import rules

#: Option sets by game name, the usual small game first.
SMALL_OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "asli": ({"size": 5},),
    "lifeline": (
        {"size": 4},
        {"size": 3, "opening": "strong-pie"},
        {"size": 4, "opening": "weak-pie"},
        {"size": 4, "opening": "komi-pie"},
    ),
    "sliglube": ({"size": 5},),
    "astralis": ({"size": 7},),
}

__all__ = ["SMALL_OPTIONS"]


@contextmanager
def registry_restored() -> Iterator[None]:
    """Within the block, games may be registered (a test's own game); afterwards the
    registry holds exactly the games it held before."""
    saved = dict(rules.GAMES)
    try:
        yield
    finally:
        rules.GAMES.clear()
        rules.GAMES.update(saved)
