"""Draw the example pictures of ``docs/images``: for each game, one position of
a random game with a fixed seed, as posted in the dark and the light theme,
and with the hints of ``/board marks``.

    python -m render docs [--out docs/images]

Each game's painter says which position (``Painter.example``): by default the
first, past half of the game, whose last move did something worth marking
(captured, removed, flipped or added stones). Names are in several scripts.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import rules
from render.games import painter_for
from render.picture import board_png

#: Display names in several scripts, as members have them.
NAMES = {0: "Zoë", 1: "山田 🎲"}


def example(game: rules.Game) -> rules.State:
    """The example position of ``game`` (its painter's ``example``)."""
    spec = painter_for(game).example
    for seed in range(spec.seed, spec.seed + 50):
        rng = random.Random(seed)
        states = [game.new(**spec.options)]
        while not states[-1].is_over:
            states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
        found = next(
            (s for s in states[round(len(states) * spec.share) : -1] if spec.wanted(s)), None
        )
        if found is not None:
            return found
    raise LookupError(f"no example position for {game.name}")


def write_examples(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for game in rules.GAMES.values():
        state = example(game)
        for suffix, kwargs in (
            ("", {"theme": "dark"}),
            ("-light", {"theme": "light"}),
            ("-marks", {"theme": "dark", "marks": True}),
        ):
            path = directory / f"{game.name}{suffix}.png"
            path.write_bytes(board_png(state, names=NAMES, **kwargs))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m render",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=["docs"], help="what to draw")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("docs/images"),
        help="where to write the pictures (default: docs/images)",
    )
    args = parser.parse_args(argv)
    for path in write_examples(args.out):
        print(path)


if __name__ == "__main__":
    main()
