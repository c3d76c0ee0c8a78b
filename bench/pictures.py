"""Picture cost: ``board_png`` at each game's largest size, ``replay_gif`` of a
150-move game.

    python -m bench pictures [--quick]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable

import render
import rules
from bench.common import Row, latency_row, print_table, random_history, timed
from rules.testing import SMALL_OPTIONS

LARGEST = [
    ("lifeline", {"size": 12}),
    ("asli", {"size": 25}),
    ("sliglube", {"size": 7}),
    ("astralis", {"size": 8}),
]
QUICK = [(name, sets[0]) for name, sets in SMALL_OPTIONS.items()]


def mid_game(name: str, options: dict, seed: int = 7) -> rules.State:
    history = random_history(name, options, seed)
    return rules.get_game(name).replay(history[: max(1, len(history) * 2 // 3)], **options)


def measure(draw: Callable[[], bytes], repeats: int) -> tuple[list[float], list[int]]:
    """Seconds and bytes of ``repeats`` calls of ``draw``."""
    samples, sizes = [], []
    for _ in range(repeats):
        seconds, data = timed(draw)
        samples.append(seconds)
        sizes.append(len(data))
    return samples, sizes


def png_rows(cases: list[tuple[str, dict]], repeats: int) -> list[Row]:
    rows = []
    for name, options in cases:
        state = mid_game(name, options)
        render.board_png(state)  # warm the caches of static layers and fonts
        samples, sizes = measure(lambda s=state: render.board_png(s), repeats)
        rows.append(
            latency_row(
                f"{name} board_png",
                options["size"],
                samples,
                "≤ 20 ms median, ≤ 100 KB",
                f"{statistics.median(sizes) / 1024:.0f} KB at ply {state.ply}",
            )
        )
    return rows


def gif_rows(cases: list[tuple[str, dict]], plies: int, repeats: int) -> list[Row]:
    rows = []
    for name, options in cases:
        history = []
        seed = 0
        while len(history) < plies and seed < 50:
            history = random_history(name, options, seed)
            seed += 1
        moves = history[:plies]
        samples, sizes = measure(
            lambda m=moves, n=name, o=options: render.replay_gif(rules.get_game(n), o, m), repeats
        )
        rows.append(
            latency_row(
                f"{name} replay_gif",
                options["size"],
                samples,
                "well under 10 MiB",
                f"{len(moves)} moves, {statistics.median(sizes) / 1024:.0f} KB",
            )
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    cases = QUICK if args.quick else LARGEST
    print_table("board_png", png_rows(cases, 3 if args.quick else 50))
    print_table("replay_gif", gif_rows(cases, 10 if args.quick else 150, 1 if args.quick else 3))


if __name__ == "__main__":
    main()
