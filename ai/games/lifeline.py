"""Lifeline: the two-stone first turns and the komi.

A strong-pie first turn offers every pair of cells (7,659 on base 7): the
search considers ``swap`` and a seeded sample of pairs. The komi pie's komi is
a number of spare turns for White, so the search considers 0 to the base.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from ai.games import Knowledge, generic_candidates


def knowledge(options: Mapping[str, Any]) -> Knowledge:
    size = int(options.get("size", 7))
    return Knowledge(candidates=partial(generic_candidates, numbers_range=range(size + 1),
                                        widest=60))
