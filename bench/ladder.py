"""An Elo ladder from a match table, and CPU-bound load beside a benchmark.

:func:`elo` fits one rating per player to every pairing's score at once (the
Bradley–Terry model on Elo's scale: the maximum-likelihood ratings, by
minorisation–maximisation), with a given player (the random one) at 0. A player
who won or lost every game has no finite rating: its scores are shrunk by one
virtual draw against each opponent it met, which keeps the ladder's order.

:class:`Load` runs ``N`` processes that spin on the CPU for as long as it is open.
"""

from __future__ import annotations

import math
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterable

#: (player, opponent, player's score, games)
Result = tuple[str, str, float, int]


def elo(results: Iterable[Result], anchor: str = "random", rounds: int = 2000) -> dict[str, float]:
    """Each player's rating (``anchor`` at 0; if absent, the lowest at 0)."""
    wins: dict[str, float] = defaultdict(float)
    games: dict[tuple[str, str], float] = defaultdict(float)
    players: set[str] = set()
    for a, b, score, n in results:
        if not n:
            continue
        players |= {a, b}
        # One virtual draw per pairing: no infinite ratings.
        wins[a] += score + 0.5
        wins[b] += n - score + 0.5
        games[a, b] += n + 1
        games[b, a] += n + 1
    strength = dict.fromkeys(players, 1.0)
    for _ in range(rounds):
        new = {}
        for p in players:
            denominator = sum(
                games[p, q] / (strength[p] + strength[q]) for q in players if q != p and games[p, q]
            )
            new[p] = wins[p] / denominator if denominator else strength[p]
        total = math.prod(new.values()) ** (1 / len(new)) if new else 1.0
        strength = {p: s / total for p, s in new.items()}
    if not strength:
        return {}
    base = strength.get(anchor, min(strength.values()))
    return {p: 400 * math.log10(s / base) for p, s in strength.items()}


#: Spins on the CPU until killed.
SPIN = "while True: pass"


class Load:
    """``count`` CPU-bound processes, running while the ``with`` block is."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.processes: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> Load:
        self.processes = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(self.count)]
        return self

    def __exit__(self, *exc_info: object) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()
