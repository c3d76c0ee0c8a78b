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


def first_state(name: str, want: Callable[[State], bool], seeds: range = range(20),
                **options) -> State | None:
    """The first state of a random game (trying seeds in turn) for which ``want`` holds."""
    for seed in seeds:
        for state in random_states(name, seed, **options):
            if want(state):
                return state
    return None


def stones(state: State) -> dict[str, str]:
    return {cell: color for cell in state.board.cells
            if (color := state.stone_at(cell)) is not None}


def decode(data: bytes, kind: str = "PNG") -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == kind
    return image


def pixel(image: Image.Image, state: State, cell: str, dx: float = 0.0, dy: float = 0.0,
          scale: float = 1.0) -> RGB:
    """The colour drawn at ``cell``'s centre, or ``dx``, ``dy`` pixels away from it."""
    x, y = render.cell_center(state, cell, scale=scale)
    return image.getpixel((int(x + dx), int(y + dy)))[:3]


def near(actual: RGB, expected: RGB) -> bool:
    return all(abs(a - e) <= TOLERANCE for a, e in zip(actual, expected, strict=True))
