"""Draw the README's example pictures: one mid-game position of each game,
from a random game with a fixed seed.

    python -m render docs/images
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import rules
from render.picture import board_png

#: game -> (options, seed, share of the game played, theme)
EXAMPLES: dict[str, tuple[dict, int, float, str]] = {
    "asli": ({"size": 13}, 3, 0.45, "dark"),
    "lifeline": ({"size": 7}, 7, 0.6, "light"),
    "sliglube": ({"size": 6}, 1, 0.75, "dark"),
    "astralis": ({"size": 8}, 2, 0.6, "dark"),
}
NAMES = {0: "Ann", 1: "Bob"}


def example(name: str) -> rules.State:
    options, seed, share, _ = EXAMPLES[name]
    rng = random.Random(seed)
    state = rules.get_game(name).new(**options)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return rules.get_game(name).replay(state.history[: round(state.ply * share)], **options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    args.directory.mkdir(parents=True, exist_ok=True)
    for name in EXAMPLES:
        if name in rules.GAMES:
            path = args.directory / f"{name}.png"
            path.write_bytes(board_png(example(name), names=NAMES, theme=EXAMPLES[name][3]))
            print(path)


if __name__ == "__main__":
    main()
