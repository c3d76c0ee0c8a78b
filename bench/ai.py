"""How strong the AI is and how long it thinks (issue 15's targets).

For each game at its default size: each level against a uniformly random
player, and each level against the level below, half the games in each seat;
the score (a draw counts half) with its 95% Wilson interval; then each level's
think time per move (median, p99) against its budget.

    python -m bench ai [--games N] [--game NAME ...] [--pairs random|levels]
                       [--player LEVEL ...] [--precision 0.1] [--first-game N] [--quick]

Full runs take hours (a hard move is 3 s); ``--games 4`` calibrates in one.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import ai
import rules
from ai.levels import Budget, Level
from bench.common import percentile
from rules import State

#: The default size of each game (issue 15 measures there).
CASES = [
    ("lifeline", {"size": 7}),
    ("asli", {"size": 13}),
    ("astralis", {"size": 8}),
    ("sliglube", {"size": 6}),
]
QUICK_CASES = [
    ("lifeline", {"size": 4}),
    ("asli", {"size": 5}),
    ("astralis", {"size": 7}),
    ("sliglube", {"size": 5}),
]
#: Longer games are stopped and count as draws (Astralis has no bound of its own).
MAX_PLIES = 1000
#: ``--quick`` only checks that everything runs: its games stop early.
QUICK_PLIES = 12
#: The fewest games a pairing stopped by ``--precision`` plays.
MIN_GAMES = 10

Player = Callable[[State, random.Random], str]


def random_player(state: State, rng: random.Random) -> str:
    return rng.choice(state.legal_moves())


@dataclass
class Timing:
    """Think times per move, by level and game."""

    seconds: dict[tuple[str, str], list[float]] = dataclasses.field(
        default_factory=lambda: defaultdict(list)
    )

    def player(self, level: Level) -> Player:
        def play(state: State, rng: random.Random) -> str:
            started = time.perf_counter()
            move = ai.choose_move(state, level, seed=rng.getrandbits(32))
            self.seconds[level.name, state.game.name].append(time.perf_counter() - started)
            return move

        return play


def play_game(
    name: str, options: dict, players: tuple[Player, Player], seed: int, max_plies: int = MAX_PLIES
) -> float:
    """Seat 0's score (1, ½, 0) in one game between ``players`` (by seat)."""
    rng = random.Random(seed)
    state = rules.get_game(name).new(**options)
    while not state.is_over and state.ply < max_plies:
        state = state.play(players[state.to_move](state, rng))
    return 0.5 if state.winner is None else 1.0 - state.winner


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate of ``score / games``."""
    if not games:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def match(
    name: str,
    options: dict,
    first: Player,
    second: Player,
    games: int,
    seed: int,
    max_plies: int = MAX_PLIES,
    precision: float | None = None,
    first_game: int = 0,
) -> tuple[float, int]:
    """``first``'s total score and the games played: ``games``, alternating seats, or
    fewer when ``precision`` is given and the 95% interval is already that narrow on
    each side (after an even number of games, at least :data:`MIN_GAMES`).

    Games are numbered from ``first_game`` (their seeds and seats follow the number), so
    a later run can add games to an earlier one's without repeating any. Each game's
    result goes to stderr as it ends: a long run stopped half-way still tells its score."""
    score = 0.0
    for played, game in enumerate(range(first_game, first_game + games), start=1):
        if game % 2 == 0:
            score += play_game(name, options, (first, second), seed + game, max_plies)
        else:
            score += 1.0 - play_game(name, options, (second, first), seed + game, max_plies)
        print(
            f"{name} game {game} (seat {game % 2}): {score:g}/{played}", file=sys.stderr, flush=True
        )
        if precision is not None and played % 2 == 0 and played >= MIN_GAMES:
            low, high = wilson(score, played)
            if (high - low) / 2 <= precision:
                return score, played
    return score, games


def pairings(levels: list[Level], which: str) -> list[tuple[Level, Level | None, float]]:
    """(player, opponent or None for random, target score) in the order they are played."""
    pairs: list[tuple[Level, Level | None, float]] = []
    if which in ("all", "random"):
        pairs += [
            (level, None, 0.95 if level is levels[-1] else 0.65 if level is levels[0] else 0.0)
            for level in levels
        ]
    if which in ("all", "levels"):
        pairs += [(upper, lower, 0.65) for lower, upper in itertools.pairwise(levels)]
    return pairs


def quick_levels() -> list[Level]:
    return [
        dataclasses.replace(level, budget=Budget(playouts=2**i))
        for i, level in enumerate(ai.LEVELS.values())
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="tiny boards and budgets, 2 games of at most 12 plies per pairing",
    )
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument(
        "--precision",
        type=float,
        default=None,
        help="stop a pairing once its 95%% interval is within this much on "
        "each side (e.g. 0.1; --games is then the most played)",
    )
    parser.add_argument(
        "--game", action="append", choices=[n for n, _ in CASES], help="only this game (repeatable)"
    )
    parser.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="number the games from this one (to add games to a run)",
    )
    parser.add_argument("--pairs", choices=["all", "random", "levels"], default="all")
    parser.add_argument(
        "--player",
        action="append",
        choices=list(ai.LEVELS),
        help="only the pairings this level plays first (repeatable)",
    )
    args = parser.parse_args(argv)
    cases = QUICK_CASES if args.quick else CASES
    cases = [(n, o) for n, o in cases if not args.game or n in args.game]
    levels = quick_levels() if args.quick else list(ai.LEVELS.values())
    games = 2 if args.quick else args.games
    timing = Timing()
    budgets = {level.name: level.budget for level in levels}
    print("\n## AI strength (score of the first player named; a draw counts half)\n")
    print("| game | size | pairing | games | score | 95% interval | target |")
    print("|---|---|---|---|---|---|---|")
    for name, options in cases:
        for index, (level, opponent, target) in enumerate(pairings(levels, args.pairs)):
            if args.player and level.name not in args.player:
                continue
            other = random_player if opponent is None else timing.player(opponent)
            score, played = match(
                name,
                options,
                timing.player(level),
                other,
                games,
                1000 * index,
                QUICK_PLIES if args.quick else MAX_PLIES,
                args.precision,
                args.first_game,
            )
            low, high = wilson(score, played)
            against = "random" if opponent is None else opponent.name
            goal = f">= {target:.0%}" if target else ""
            print(
                f"| {name} | {options['size']} | {level.name} vs {against} | {played} | "
                f"{score / played:.0%} | {low:.0%}–{high:.0%} | {goal} |",
                flush=True,
            )
    print("\n## AI think time per move (all games above)\n")
    print("| level | game | budget | moves | median | p99 | target |")
    print("|---|---|---|---|---|---|---|")
    for (level_name, name), samples in timing.seconds.items():
        budget = budgets[level_name]
        limit = "" if budget.seconds is None else f"{budget.seconds:g} s"
        shown = ", ".join(filter(None, [limit, budget.playouts and f"{budget.playouts} playouts"]))
        target = (
            f"median <= {budget.seconds:g} s, p99 <= {budget.seconds + 0.5:g} s"
            if budget.seconds
            else ""
        )
        print(
            f"| {level_name} | {name} | {shown} | {len(samples)} | "
            f"{statistics.median(samples):.3f} s | {percentile(samples, 0.99):.3f} s | "
            f"{target} |"
        )


if __name__ == "__main__":
    main()
