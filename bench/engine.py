"""Engine throughput: uniformly random games per second, and moves per second.

python -m bench engine [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.common import Row, print_table, random_history
from rules.testing import SMALL_OPTIONS

#: (game, options) measured: the default size and the largest size of each game.
CASES = [
    ("lifeline", {"size": 7}),
    ("lifeline", {"size": 12}),
    ("asli", {"size": 13}),
    ("asli", {"size": 25}),
    ("sliglube", {"size": 6}),
    ("sliglube", {"size": 7}),
    ("astralis", {"size": 8}),
]
QUICK = [(name, sets[0]) for name, sets in SMALL_OPTIONS.items()]


def measure(name: str, options: dict, budget: float, max_games: int) -> Row:
    per_game: list[float] = []
    plies = 0
    seed = 0
    start = time.perf_counter()
    while (time.perf_counter() - start < budget or not per_game) and len(per_game) < max_games:
        t0 = time.perf_counter()
        history = random_history(name, options, seed)
        per_game.append(time.perf_counter() - t0)
        plies += len(history)
        seed += 1
    total = sum(per_game)
    return Row(
        what=f"{name} random games",
        size=str(options["size"]),
        median=f"{statistics.median(per_game) * 1000:.0f} ms/game",
        p99=f"{len(per_game) / total:.2f} games/s",
        target="as high as the algorithms allow",
        note=f"{plies / total:.0f} moves/s over {len(per_game)} games, {plies / len(per_game):.0f}"
        " moves/game",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny boards, one game each")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per case")
    args = parser.parse_args(argv)
    cases = QUICK if args.quick else CASES
    rows = [
        measure(name, options, 0 if args.quick else args.budget, 1 if args.quick else 10_000)
        for name, options in cases
    ]
    print_table("Engine throughput (median column: time per game; p99 column: games/s)", rows)


if __name__ == "__main__":
    main()
