"""Positions built by playing moves, and pixel checks, for the picture tests."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from functools import cache

from PIL import Image

import render
import rules
from rules import State

RGB = tuple[int, int, int]

#: A pixel "has" a colour if no channel is further off than this (palette
#: images keep flat colours exact; this only absorbs rounding).
TOLERANCE = 12


def sizes(name: str) -> list[int]:
    """Smallest, default and largest board of a game."""
    size = next(o for o in rules.get_game(name).options() if o.name == "size")
    return sorted({size.minimum, size.default, size.maximum})


def random_states(name: str, seed: int, **options) -> tuple[State, ...]:
    """Every state of one random game (each legal move equally likely)."""
    return _random_states(name, seed, tuple(sorted(options.items())))


@cache
def _random_states(name: str, seed: int, options: tuple) -> tuple[State, ...]:
    rng = random.Random(seed)
    state = rules.get_game(name).new(**dict(options))
    states = [state]
    while not state.is_over and state.ply < 3000:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return tuple(states)


def first_state(
    name: str, want: Callable[[State], bool], seeds: range = range(20), **options
) -> State | None:
    """The first state of a random game (trying seeds in turn) for which ``want`` holds."""
    for seed in seeds:
        for state in random_states(name, seed, **options):
            if want(state):
                return state
    return None


def stones(state: State) -> dict[str, str]:
    return {
        cell: color for cell in state.board.cells if (color := state.stone_at(cell)) is not None
    }


def decode(data: bytes, kind: str = "PNG") -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == kind
    return image


def pixel(
    image: Image.Image,
    state: State,
    cell: str,
    dx: float = 0.0,
    dy: float = 0.0,
    scale: float = 1.0,
) -> RGB:
    """The colour drawn at ``cell``'s centre, or ``dx``, ``dy`` pixels away from it."""
    x, y = render.cell_center(state, cell, scale=scale)
    return image.getpixel((int(x + dx), int(y + dy)))[:3]


def near(actual: RGB, expected: RGB) -> bool:
    return all(abs(a - e) <= TOLERANCE for a, e in zip(actual, expected, strict=True))


def marked_cells(state: State, mark, hints: bool = False) -> dict[str, str | None]:
    """The cells the picture of ``state`` marks with ``mark`` (a render.Mark),
    and the colour each mark is about, as the game's painter reports them."""
    painter = render.painter_for(state.game)
    found = painter.changes(state)
    if not state.is_over:
        found += painter.standing(state) + (painter.hints(state) if hints else [])
    return {m.cell: m.color for m in found if m.mark is mark}


def scaled(image: Image.Image, width: int = 440) -> Image.Image:
    """``image`` as Discord's preview shows it: shrunk to ``width`` pixels wide."""
    height = round(image.height * width / image.width)
    return image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)


def lightness(rgb: RGB) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def ink_rows(
    image: Image.Image, box: tuple[int, int, int, int], background: RGB, contrast: float = 40.0
) -> list[int]:
    """The rows of ``box`` holding a pixel whose lightness differs from the
    background's by more than ``contrast``: where text is drawn."""
    left, top, right, bottom = box
    ground = lightness(background)
    return [
        y
        for y in range(top, bottom)
        if any(
            abs(lightness(image.getpixel((x, y))[:3]) - ground) > contrast
            for x in range(left, right)
        )
    ]


def distance(a: RGB, b: RGB) -> int:
    """The largest difference of one channel between two colours."""
    return max(abs(p - q) for p, q in zip(a, b, strict=True))
