"""How strong the AI is and how long it thinks (issues 15 and 24).

For each game at its default size, the pairings of ``--pairs`` (see :data:`PAIRS`):
each level against a uniformly random player, against the level below, against a
one-move-lookahead player and a flat Monte Carlo player of equal CPU time (both in
:mod:`bench.opponents`), the hard level against the hard level of before issue 24;
``ladder`` plays them all and fits an Elo ladder per game (random at 0). Half the
games in each seat; the score (a draw counts half) with its 95% Wilson interval;
then each level's think time per move (median, p99, moves over the time cap) and
how many of its searches the cap cut short (every other one played all its playouts).
``--load N`` runs N CPU-bound processes beside the match: the levels are defined by
playouts, so the scores should not move. ``--pairs variant`` tries a setting against
the code: medium with ``--variant FIELD=VALUE`` changes against medium as it is.
``--uncapped`` drops the levels' time caps (with ``--rate``, any playouts: how a search
scales with its work, apart from the host's load).

    python -m bench ai [--games N] [--game NAME ...] [--pairs all|random|levels|lookahead|
                       flat-mc|old|ladder|variant] [--player NAME ...] [--precision 0.1]
                       [--first-game N] [--load N] [--size N] [--knob FIELD=VALUE]
                       [--rate GAME=PLAYOUTS_PER_S] [--variant FIELD=VALUE]
                       [--uncapped] [--calibrate] [--moves] [--quick]

Full runs take hours (a hard move is 3 s); ``--games 4`` calibrates in one.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import math
import random
import statistics
import sys
import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import ai
import ai.games
import ai.levels
import rules
from ai.levels import SECONDS, Budget, Level
from bench.common import percentile
from bench.ladder import Load, Result, elo
from bench.old_ai import OldAI
from bench.opponents import flat_mc_player, lookahead_player
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


class _CutShort(logging.Handler):
    """Counts the searches :mod:`ai.mcts` logs as cut short by their time cap."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "cut short" in record.getMessage():
            self.count += 1


#: The one counter, on the search's logger (which then passes INFO records on; without a
#: handler of its own the root logger shows warnings only).
_WATCH = _CutShort()
logging.getLogger("ai.mcts").addHandler(_WATCH)
logging.getLogger("ai.mcts").setLevel(logging.INFO)


@dataclass
class Timing:
    """Think times per move, by level and game, and the moves whose search the time
    cap cut short (all others played every playout of their level)."""

    seconds: dict[tuple[str, str], list[float]] = dataclasses.field(
        default_factory=lambda: defaultdict(list)
    )
    cut: dict[tuple[str, str], int] = dataclasses.field(default_factory=lambda: defaultdict(int))
    _watch: _CutShort = dataclasses.field(default_factory=lambda: _WATCH)

    def player(self, level: Level) -> Player:
        def play(state: State, rng: random.Random) -> str:
            started = time.perf_counter()
            before = self._watch.count
            move = ai.choose_move(state, level, seed=rng.getrandbits(32))
            key = level.name, state.game.name
            self.seconds[key].append(time.perf_counter() - started)
            self.cut[key] += self._watch.count - before
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
    global last_game  # read by match() for its line on stderr
    last_game = state
    return 0.5 if state.winner is None else 1.0 - state.winner


#: The last game played, as it ended (for match()'s line on stderr).
last_game: State | None = None


def game_line(state: State, moves: bool = False) -> str:
    """A finished game's length and a checksum of its moves (the same seed and the same
    playouts give the same game, at any load, unless a cap cut a search), and with
    ``moves`` its moves as a JSON list, to replay it (the old hard thinks by the clock)."""
    line = f"{state.ply} plies, moves {zlib.crc32(' '.join(state.history).encode()):08x}"
    return f"{line}: {json.dumps(list(state.history))}" if moves else line


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
    moves: bool = False,
) -> tuple[float, int]:
    """``first``'s total score and the games played: ``games``, alternating seats, or
    fewer when ``precision`` is given and the 95% interval is already that narrow on
    each side (after an even number of games, at least :data:`MIN_GAMES`).

    Games are numbered from ``first_game`` (their seeds and seats follow the number), so
    a later run can add games to an earlier one's without repeating any. Each game's
    result goes to stderr as it ends (with ``moves``, its moves): a long run stopped
    half-way still tells its score."""
    score = 0.0
    for played, game in enumerate(range(first_game, first_game + games), start=1):
        if game % 2 == 0:
            score += play_game(name, options, (first, second), seed + game, max_plies)
        else:
            score += 1.0 - play_game(name, options, (second, first), seed + game, max_plies)
        print(
            f"{name} game {game} (seat {game % 2}): {score:g}/{played} "
            f"({game_line(last_game, moves) if last_game is not None else ''})",
            file=sys.stderr,
            flush=True,
        )
        if precision is not None and played % 2 == 0 and played >= MIN_GAMES:
            low, high = wilson(score, played)
            if (high - low) / 2 <= precision:
                return score, played
    return score, games


#: Every pairing a kind of run plays: (player, opponent, target score for the player).
#: ``flat-mc`` thinks as much CPU time as the level it meets is calibrated to;
#: ``old-hard`` is the hard level as it was before issue 24, that commit's own code (3 s
#: of wall-clock time or 20,000 playouts: :mod:`bench.old_ai`).
PAIRS: dict[str, list[tuple[str, str, float]]] = {
    "random": [("easy", "random", 0.9), ("medium", "random", 0.9), ("hard", "random", 0.9)],
    "levels": [("medium", "easy", 0.7), ("hard", "medium", 0.7)],
    "lookahead": [
        ("easy", "lookahead", 0.0),
        ("medium", "lookahead", 0.8),
        ("hard", "lookahead", 0.9),
    ],
    "flat-mc": [("medium", "flat-mc", 0.8), ("hard", "flat-mc", 0.9)],
    "old": [("hard", "old-hard", 0.75)],
    "ladder": [("lookahead", "random", 0.0), ("flat-mc", "random", 0.0)],
    "variant": [("variant", "medium", 0.0)],
}
PAIRS["all"] = [pair for key in ("random", "levels") for pair in PAIRS[key]]
PAIRS["ladder"] = [
    pair for key in ("random", "levels", "lookahead", "flat-mc", "ladder") for pair in PAIRS[key]
]


def with_knowledge(inner: Player, changes: dict[str, Any]) -> Player:
    """``inner`` thinking with these fields of every game's knowledge changed (during its
    own moves only, so its opponent keeps the code's knowledge)."""

    def play(state: State, rng: random.Random) -> str:
        import ai.player

        known = ai.player.knowledge
        ai.player.knowledge = lambda name, options: dataclasses.replace(  # type: ignore[assignment]
            known(name, options), **changes
        )
        try:
            return inner(state, rng)
        finally:
            ai.player.knowledge = known

    return play


def old_hard(timing: Timing, seconds: float = 3.0) -> Player:
    """The hard level of before issue 24, played by that commit's own code
    (:mod:`bench.old_ai`) with ``seconds`` of wall clock a move (3 then), its think
    times kept as a level's are."""
    try:
        old = OldAI()
    except RuntimeError as error:  # no such commit here (a shallow clone, a tarball)
        raise SystemExit(f"--pairs old: {error}") from None

    def play(state: State, rng: random.Random) -> str:
        started = time.perf_counter()
        move = old.choose_move(state, "hard", rng.getrandbits(32), seconds)
        timing.seconds["old-hard", state.game.name].append(time.perf_counter() - started)
        return move

    return play


def knob_changes(knobs: list[str], option: str = "--knob") -> dict[str, Any]:
    """``["bias=2", "cutoff=none"]`` as changes of :class:`ai.games.Knowledge` fields."""
    changes: dict[str, Any] = {}
    for knob in knobs:
        field, _, value = knob.partition("=")
        if field not in {f.name for f in dataclasses.fields(ai.games.Knowledge)}:
            raise SystemExit(f"{option}: no such knowledge field {field!r}")
        try:
            changes[field] = None if value == "none" else float(value)
        except ValueError:
            raise SystemExit(f"{option}: {field} wants a number or none, not {value!r}") from None
        if field in ("cutoff", "amaf_plies") and changes[field] is not None:
            changes[field] = int(changes[field])
    return changes


def set_knobs(knobs: list[str]) -> dict[str, Any]:
    """Override fields of every game's :class:`ai.games.Knowledge` for the AI's levels
    (``bias=2``, ``cutoff=20``...), to try a setting without changing the code; the
    changes made (a level's own tuning of those fields is to be dropped: see
    :func:`untuned`)."""
    import ai.player

    changes = knob_changes(knobs)
    if not changes:
        return changes
    known = ai.player.knowledge
    ai.player.knowledge = lambda name, options: dataclasses.replace(  # type: ignore[assignment]
        known(name, options), **changes
    )
    return changes


def slower(level: Level, factor: float) -> Level:
    """``level`` on a host ``factor`` times slower than the one its rates were measured
    on: its time caps ``factor`` times as long, so that a cap cuts short only what it
    would cut there (its playouts, the work, are the same everywhere)."""
    return dataclasses.replace(
        level,
        budget=level.budget.scaled(factor),
        games=tuple((game, budget.scaled(factor)) for game, budget in level.games),
    )


def untuned(level: Level, fields: Iterable[str]) -> Level:
    """``level`` without its own tuning of ``fields`` (which ``--knob`` sets for all)."""
    return dataclasses.replace(
        level, tuning=tuple(tune for tune in level.tuning if tune[1] not in fields)
    )


def calibrate(
    cases: list[tuple[str, dict]], levels: list[Level], games: int, max_plies: int
) -> None:
    """Playouts per CPU-second of a whole choice of move (tactics, tree, playouts) at each
    level's own playouts (a bigger tree costs more per playout), over positions every 10
    plies of ``games`` games the easy level plays against itself (positions like those a
    member's game reaches: random games fill a board in ways no player does, and their
    late positions are cheap): the rates of :data:`ai.levels.RATES`."""
    print("\n## AI search rate per level (CPU time)\n")
    print(
        "| game | size | level | playouts | positions | CPU s a move | playouts/s | in ai.levels |"
    )
    print("|---|---|---|---|---|---|---|---|")
    easy = ai.LEVELS["easy"]
    for name, options in cases:
        for level in levels:
            playouts = level.budget_for(name, options["size"]).playouts or 0
            search = Level("calibrate", Budget(playouts=playouts), tuning=level.tuning)
            cpu = 0.0
            count = 0
            for game in range(games):
                state = rules.get_game(name).new(**options)
                while not state.is_over and state.ply < max_plies:
                    if state.ply % 10 == 5:
                        started = time.process_time()
                        ai.choose_move(state, search, seed=count)
                        cpu += time.process_time() - started
                        count += 1
                    state = state.play(ai.choose_move(state, easy, seed=game * 1000 + state.ply))
            rate = playouts * count / cpu if cpu else 0.0
            rates = ai.levels.RATES.get(level.name, {})
            known = ai.levels.for_size(rates, name, options["size"], None)
            print(
                f"| {name} | {options['size']} | {level.name} | {playouts} | {count} | "
                f"{cpu / max(count, 1):.2f} | {rate:,.0f} | {known or ''} |",
                flush=True,
            )


def make_player(
    name: str,
    other: str,
    levels: dict[str, Level],
    timing: Timing,
    variant: dict[str, Any] | None = None,
    slowdown: float = 1.0,
) -> Player:
    """The player called ``name`` (``other``: its opponent, whose time flat-mc takes;
    ``variant``: the knowledge changes of the player called "variant"; ``slowdown``: how
    many times slower this machine is than the one :data:`ai.levels.RATES` were
    measured on, the factor on the time of the players who think by the clock)."""
    if name == "variant":
        return with_knowledge(timing.player(levels["variant"]), variant or {})
    if name == "random":
        return random_player
    if name == "lookahead":
        return lookahead_player
    if name == "flat-mc":
        return flat_mc_player(slowdown * SECONDS.get(other, SECONDS["medium"]))
    if name == "old-hard":
        return old_hard(timing, slowdown * SECONDS["hard"])
    return timing.player(levels[name])


def positive(text: str, what: str) -> float:
    """``text`` as a positive finite number; else an argument error saying it is ``what``."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{what} is a positive number, not {text!r}")
    return value


def slowdown_factor(text: str) -> float:
    """``--slowdown``'s factor: a positive number (``"2.5"``)."""
    return positive(text, "the factor")


def rate_change(text: str) -> tuple[str, float]:
    """``"astralis=3600"`` as ``("astralis", 3600.0)``: a game's playouts per second."""
    game, _, rate = text.partition("=")
    if game not in {name for name, _ in CASES}:
        raise argparse.ArgumentTypeError(f"no game {game!r} (GAME=PLAYOUTS_PER_S)")
    return game, positive(rate, f"{game}: the rate")


def quick_levels() -> list[Level]:
    return [
        dataclasses.replace(level, budget=Budget(playouts=2**i), games=())
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
    parser.add_argument("--pairs", choices=list(PAIRS), default="all")
    parser.add_argument(
        "--player",
        action="append",
        help="only the pairings this player plays first (repeatable)",
    )
    parser.add_argument(
        "--load", type=int, default=0, help="run N CPU-bound processes beside the match"
    )
    parser.add_argument("--size", type=int, default=None, help="board size (default: each game's)")
    parser.add_argument(
        "--rate",
        action="append",
        default=[],
        type=rate_change,
        help="levels calibrated to this many playouts/s in a game at every size, "
        "e.g. astralis=3600",
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="only measure each level's playouts per CPU-second per game (ai.levels.RATES; "
        "--player: only these levels; --games: games of the easy level against itself whose "
        "positions are searched, at most 3)",
    )
    parser.add_argument(
        "--moves",
        action="store_true",
        help="write each game's moves after its line on stderr (to replay a game)",
    )
    parser.add_argument(
        "--knob",
        action="append",
        default=[],
        help="override a Knowledge field of the AI's levels in every game, e.g. bias=2",
    )
    parser.add_argument(
        "--uncapped",
        action="store_true",
        help="the levels think with their playouts only, with no time cap (and so keep no "
        "tree between moves): the same seeds give the same games at any load",
    )
    parser.add_argument(
        "--slowdown",
        type=slowdown_factor,
        default=1.0,
        help="how many times slower this machine is than the one the levels' rates were "
        "measured on (a rate of ai.levels.RATES over --calibrate's here): the players who "
        "think by the clock (old-hard, flat-mc) get as many times their time, for the work "
        "they did there, and the levels' time caps are as many times as long",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="the player 'variant' (--pairs variant: against medium) is medium with this "
        "Knowledge field changed, e.g. last_good_reply=1 (repeatable)",
    )
    args = parser.parse_args(argv)
    knobs = set_knobs(args.knob)
    variant = knob_changes(args.variant, "--variant")
    cases = QUICK_CASES if args.quick else CASES
    cases = [(n, o) for n, o in cases if not args.game or n in args.game]
    if args.size:
        cases = [(n, {**o, "size": args.size}) for n, o in cases]
    levels = {level.name: level for level in (quick_levels() if args.quick else ai.LEVELS.values())}
    if args.rate:
        # A game's new rate holds at every size: its sized rates ("asli 9") go.
        changed = dict(args.rate)
        levels = {
            name: ai.levels.calibrated_level(
                name,
                ai.levels.SECONDS[name],
                level.temperature,
                {
                    **{
                        key: rate
                        for key, rate in ai.levels.RATES[name].items()
                        if ai.levels.game_of(key) not in changed
                    },
                    **changed,
                },
            )
            for name, level in levels.items()
        }
    if args.slowdown != 1:
        levels = {name: slower(level, args.slowdown) for name, level in levels.items()}
    if args.uncapped:
        levels = {name: level.uncapped() for name, level in levels.items()}
    levels = {name: untuned(level, knobs) for name, level in levels.items()}
    levels["variant"] = dataclasses.replace(levels["medium"], name="variant")
    if args.calibrate:
        chosen = [
            level
            for name, level in levels.items()
            if name != "variant" and (not args.player or name in args.player)
        ]
        calibrate(
            cases,
            chosen,
            1 if args.quick else min(args.games, 3),
            QUICK_PLIES if args.quick else MAX_PLIES,
        )
        return
    games = 2 if args.quick else args.games
    timing = Timing()
    results: dict[str, list[Result]] = defaultdict(list)
    print(
        f"\n## AI strength at load {args.load} "
        "(score of the first player named; a draw counts half)\n"
    )
    print("| game | size | pairing | games | score | 95% interval | target |")
    print("|---|---|---|---|---|---|---|")
    with Load(args.load):
        for name, options in cases:
            for index, (player, opponent, target) in enumerate(PAIRS[args.pairs]):
                if args.player and player not in args.player:
                    continue
                score, played = match(
                    name,
                    options,
                    make_player(player, opponent, levels, timing, variant, args.slowdown),
                    make_player(opponent, player, levels, timing, variant, args.slowdown),
                    games,
                    1000 * index,
                    QUICK_PLIES if args.quick else MAX_PLIES,
                    args.precision,
                    args.first_game,
                    args.moves,
                )
                results[name].append((player, opponent, score, played))
                low, high = wilson(score, played)
                goal = f">= {target:.0%}" if target else ""
                print(
                    f"| {name} | {options['size']} | {player} vs {opponent} | {played} | "
                    f"{score / played:.0%} | {low:.0%}–{high:.0%} | {goal} |",
                    flush=True,
                )
    if len({p for rows in results.values() for r in rows for p in r[:2]}) > 2:
        print("\n## Elo ladder per game (random at 0; all the pairings above)\n")
        print("| game | " + " | ".join(["player", "Elo"]) + " |")
        print("|---|---|---|")
        for name, rows in results.items():
            for player, rating in sorted(elo(rows).items(), key=lambda kv: -kv[1]):
                print(f"| {name} | {player} | {rating:.0f} |")
    print(f"\n## AI think time per move at load {args.load} (all games above)\n")
    print("| level | game | budget | moves | cut short | median | p99 | over cap | target |")
    print("|---|---|---|---|---|---|---|---|---|")
    sizes = {name: options["size"] for name, options in cases}
    for (level_name, name), samples in timing.seconds.items():
        level = levels.get(level_name)
        budget = (
            level.budget_for(name, sizes.get(name))
            if level
            else Budget(playouts=20_000, wall_seconds=3.0)
        )
        # What a member waits at most: the wall-clock cap, else the time cap.
        cap = budget.wall_seconds or budget.seconds
        limits = [
            budget.playouts and f"{budget.playouts} playouts",
            budget.seconds and f"{budget.seconds:g} s CPU cap",
            budget.wall_seconds and f"{budget.wall_seconds:g} s wall cap",
        ]
        shown = ", ".join(filter(None, limits))
        over = sum(1 for s in samples if cap and s > cap)
        target = f"p99 <= {cap:g} s" if cap else ""
        print(
            f"| {level_name} | {name} | {shown} | {len(samples)} | "
            f"{timing.cut[level_name, name] if level else 'n/a'} | "
            f"{statistics.median(samples):.3f} s | "
            f"{percentile(samples, 0.99):.3f} s | "
            f"{over} | {target} |"
        )


if __name__ == "__main__":
    main()
