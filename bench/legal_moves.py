"""Legal-move latency, which autocomplete pays on every keystroke.

``legal_moves()`` is timed on its first call on positions sampled at every
move number of random games on the largest boards (states built fresh by
``play``, so nothing is cached yet).

    python -m bench legal [--quick]
"""

from __future__ import annotations

import argparse

from bench.common import latency_row, print_table, random_history, states_along, timed
from rules.testing import SMALL_OPTIONS

CASES = [
    ("lifeline", {"size": 12}, "≤ 5 ms p99"),
    ("asli", {"size": 25}, "≤ 5 ms p99"),
    ("astralis", {"size": 8}, "≤ 5 ms p99"),
    ("sliglube", {"size": 7}, "≤ 50 ms p99"),
]
QUICK = [(name, sets[0], "") for name, sets in SMALL_OPTIONS.items()]


def samples_for(name: str, options: dict, games: int) -> tuple[list[float], float]:
    samples: list[float] = []
    for seed in range(games):
        history = random_history(name, options, seed=1000 + seed)
        for state in states_along(name, options, history):
            # Time the very first question asked of the state: asking is_over first
            # would fill the cache (Sliglube's end is "no legal placement").
            seconds, moves = timed(state.legal_moves)
            if moves:
                samples.append(seconds)
    return samples, max(samples)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=5, help="random games sampled per case")
    args = parser.parse_args(argv)
    rows = []
    for name, options, target in QUICK if args.quick else CASES:
        samples, worst = samples_for(name, options, 1 if args.quick else args.games)
        rows.append(
            latency_row(
                f"{name} legal_moves()",
                options["size"],
                samples,
                target,
                f"{len(samples)} positions, worst {worst * 1000:.1f} ms",
            )
        )
    print_table("Legal-move latency (first call on a fresh state)", rows)


if __name__ == "__main__":
    main()
