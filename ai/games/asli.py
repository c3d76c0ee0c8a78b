"""Asli: komi choices and how to judge a cut-off playout.

The komi is a number of Holds handed to White, each a spare tempo in a
last-player-to-move game, so the sensible ones are small: the search
considers 0 to the board's side (every one, not a sample), and the opponent's
colour choice that follows is what tells a fair komi from a poor one.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ai.games import Knowledge, generic_candidates


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    size = int(options.get("size", 13))
    return Knowledge(candidates=partial(generic_candidates, numbers_range=range(size + 1)))
