"""Random playouts per second from the empty board, one core, through
:func:`rules.position.position` (each game's fast position where it has one).

    python -m bench playouts [--budget SECONDS] [--quick]
"""

from __future__ import annotations

import argparse
import random
import time

import rules
from bench.common import Row, print_table
from rules.position import StatePosition, position
from rules.testing import SMALL_OPTIONS

#: (game, options, target playouts/s) from the AI issue: the default sizes.
CASES = [
    ("lifeline", {"size": 7}, 500),
    ("asli", {"size": 13}, 100),
    ("astralis", {"size": 8}, 1000),
    ("sliglube", {"size": 6}, 50),
]
QUICK = [(name, sets[0], 0) for name, sets in SMALL_OPTIONS.items()]


def rate(start_position, budget: float, max_playouts: int) -> tuple[float, float]:
    """(playouts/s, plies per playout) over ``budget`` seconds of playouts."""
    playouts = plies = 0
    began = time.perf_counter()
    while (time.perf_counter() - began < budget or not playouts) and playouts < max_playouts:
        pos = start_position()
        plies += pos.playout(random.Random(playouts))
        playouts += 1
    elapsed = time.perf_counter() - began
    return playouts / elapsed, plies / playouts


def measure(name: str, options: dict, target: int, budget: float, max_playouts: int) -> Row:
    start = rules.get_game(name).new(**options)
    fast, plies = rate(lambda: position(start), budget, max_playouts)
    slow, _ = rate(lambda: StatePosition(start), budget / 2, max_playouts)
    return Row(
        what=f"{name} random playouts",
        size=str(options["size"]),
        median=f"{fast:.1f}/s",
        p99=f"{plies:.0f} plies",
        target=f">= {target}/s" if target else "",
        note=f"{slow:.1f}/s through the State contract ({fast / slow:.1f}x)",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny boards, one playout each")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per game")
    args = parser.parse_args(argv)
    cases = QUICK if args.quick else CASES
    rows = [
        measure(
            name, options, target, 0 if args.quick else args.budget, 1 if args.quick else 1_000_000
        )
        for name, options, target in cases
    ]
    print_table(
        "Random playouts from the empty board (median column: playouts/s; "
        "p99 column: plies per playout)",
        rows,
    )


if __name__ == "__main__":
    main()
