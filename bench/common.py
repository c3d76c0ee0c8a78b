"""Shared bits of the benchmarks: random games, timing, the printed table."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import rules
from rules import State


def random_history(name: str, options: dict, seed: int, max_plies: int = 5000) -> list[str]:
    """The moves of one uniformly random game (each legal move equally likely)."""
    rng = random.Random(seed)
    state = rules.get_game(name).new(**options)
    while not state.is_over and state.ply < max_plies:
        state = state.play(rng.choice(state.legal_moves()))
    return list(state.history)


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    """Seconds one call of ``fn`` took, and what it returned."""
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    rank = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[rank]


@dataclass
class Row:
    what: str
    size: str
    median: str
    p99: str
    target: str = ""
    note: str = ""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def latency_row(
    what: str, size: object, samples: list[float], target: str = "", note: str = ""
) -> Row:
    return Row(
        what, str(size), ms(statistics.median(samples)), ms(percentile(samples, 0.99)), target, note
    )


def print_table(title: str, rows: Iterable[Row]) -> None:
    rows = list(rows)
    head = Row("what", "size", "median", "p99", "target", "note")
    table = [head, *rows]
    widths = [
        max(len(getattr(r, f)) for r in table)
        for f in ("what", "size", "median", "p99", "target", "note")
    ]
    print(f"\n## {title}\n")
    for i, row in enumerate(table):
        cells = [row.what, row.size, row.median, row.p99, row.target, row.note]
        print("| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def states_along(name: str, options: dict, history: list[str]) -> list[State]:
    """Every state of a recorded game, each built fresh by ``play`` (no cached move lists)."""
    state = rules.get_game(name).new(**options)
    states = [state]
    for move in history:
        state = state.play(move)
        states.append(state)
    return states
