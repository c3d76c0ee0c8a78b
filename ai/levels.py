"""How much the AI thinks: a :class:`Budget` of playouts and time, and the named levels.

A search stops at whichever limit of its budget comes first. The levels are
defined by work (playouts, per game), so a level is as strong on a busy host as
on an idle one; their time limits are only safety nets, and a search they cut
short is logged (see :mod:`ai.mcts`). The first counts the CPU time the search
had, :data:`CAP_FACTOR` times what the work takes on an idle core, so it cuts
the same searches at any load; the second counts the wall clock,
:data:`WALL_FACTOR` times the first, so that a member waits no longer than that
however busy the host. With a playout budget and no time limit a search is
repeatable: the same seed gives the same move on any machine, which is what
tests use.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar


@dataclass(frozen=True, slots=True)
class Budget:
    """At most ``seconds`` of thinking (CPU time: what the host gave the search), at
    most ``playouts`` simulations and at most ``wall_seconds`` by the wall clock
    (None: no limit)."""

    seconds: float | None = None
    playouts: int | None = None
    wall_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a budget needs a time limit, a playout limit or both")
        for limit in (self.seconds, self.wall_seconds):
            if limit is not None and limit <= 0:
                raise ValueError("a time budget must be positive")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("a playout budget must be at least 1")

    def scaled(self, factor: float) -> Budget:
        """This budget with its time limits ``factor`` times as long, its playouts kept."""
        return dataclasses.replace(
            self,
            seconds=None if self.seconds is None else self.seconds * factor,
            wall_seconds=None if self.wall_seconds is None else self.wall_seconds * factor,
        )


@dataclass(frozen=True, slots=True)
class Stopwatch:
    """When thinking began, by both clocks a :class:`Budget` counts: ``cpu``, the
    CPU time of the thinking thread (its ``seconds``), and ``wall`` (its ``wall_seconds``)."""

    cpu: float
    wall: float
    cpu_clock: Callable[[], float] = time.thread_time
    wall_clock: Callable[[], float] = time.perf_counter

    @classmethod
    def start(
        cls,
        cpu_clock: Callable[[], float] = time.thread_time,
        wall_clock: Callable[[], float] = time.perf_counter,
    ) -> Stopwatch:
        """A stopwatch started now."""
        return cls(cpu_clock(), wall_clock(), cpu_clock, wall_clock)

    def lap(self) -> Stopwatch:
        """A stopwatch on the same clocks, started now."""
        return Stopwatch.start(self.cpu_clock, self.wall_clock)

    def elapsed(self) -> tuple[float, float]:
        """The CPU time and the wall-clock time since the start."""
        return self.cpu_clock() - self.cpu, self.wall_clock() - self.wall

    def spent(self, budget: Budget, share: float = 1.0) -> bool:
        """Whether ``share`` of either of ``budget``'s time limits has passed."""
        return any(
            limit is not None and clock() - began > share * limit
            for limit, clock, began, _ in self._clocks(budget, self)
        )

    def simulations_left(self, budget: Budget, share: float, done: int, since: Stopwatch) -> float:
        """How many more simulations fit in ``share`` of ``budget``'s time limits at
        the pace of the ``done`` made since ``since`` (infinite without a time limit)."""
        left = math.inf
        for limit, clock, began, before in self._clocks(budget, since):
            now = clock()
            if limit is not None and now > before:
                left = min(left, (began + share * limit - now) * done / (now - before))
        return left

    def _clocks(
        self, budget: Budget, since: Stopwatch
    ) -> tuple[tuple[float | None, Callable[[], float], float, float], ...]:
        return (
            (budget.seconds, self.cpu_clock, self.cpu, since.cpu),
            (budget.wall_seconds, self.wall_clock, self.wall, since.wall),
        )


T = TypeVar("T")


def sized(game_name: str, size: int | None) -> str:
    """The key of ``game_name`` at ``size`` in a level's budgets and in :data:`RATES`
    (``"asli 9"``), for a size whose playouts cost otherwise than the default size's."""
    return f"{game_name} {size}"


def for_size(table: Mapping[str, T], game_name: str, size: int | None, default: T) -> T:
    """``table``'s entry for ``game_name`` at ``size`` (``"asli 9"``), else for the game,
    else ``default``: how a level's budgets and :data:`RATES` are read."""
    return table.get(sized(game_name, size), table.get(game_name, default))


def game_of(key: str) -> str:
    """The game a key of :data:`RATES` is for: ``"asli"`` for ``"asli"`` and ``"asli 9"``."""
    return key.partition(" ")[0]


@dataclass(frozen=True, slots=True)
class Level:
    """A named strength: its budget (``games``: a budget per game name, where the
    playouts of one game cost more than another's, or per game and size, ``"asli 9"``,
    where one size's playouts cost otherwise than the default size's), and ``temperature`` > 0 to
    pick the move at random among the well-searched ones (a quarter of the best
    one's visits or more), weighted by visits ** (1 / temperature), instead of
    always the most visited (a softer opponent). ``tuning``: what this level's
    search does otherwise than the game's knowledge says, as ``(game, field,
    value)`` for fields of :class:`ai.games.Knowledge` (a level whose playouts
    are longer, say: its rate in :data:`RATES` is measured with them)."""

    name: str
    budget: Budget
    temperature: float = 0.0
    games: tuple[tuple[str, Budget], ...] = ()
    tuning: tuple[tuple[str, str, float], ...] = ()

    def budget_for(self, game_name: str, size: int | None = None) -> Budget:
        """The budget this level thinks with in ``game_name`` (at ``size``: a size
        with a budget of its own, ``"asli 9"``, has it; others the game's)."""
        return for_size(dict(self.games), game_name, size, self.budget)

    def tuning_for(self, game_name: str) -> dict[str, float]:
        """The fields of ``game_name``'s knowledge this level changes, with their values."""
        return {field: value for name, field, value in self.tuning if name == game_name}

    def uncapped(self, playouts: int | None = None) -> Level:
        """This level without its time cap, its tuning and temperature kept: its own
        playouts in each game, or ``playouts`` in every game. Repeatable (the same seed,
        the same move, at any load), so what tests and fixed-work benchmarks play; a search
        without a time limit keeps no tree between moves."""

        def bare(budget: Budget) -> Budget:
            count = playouts or budget.playouts
            return Budget(playouts=count) if count else budget

        return dataclasses.replace(
            self, budget=bare(self.budget), games=tuple((g, bare(b)) for g, b in self.games)
        )


#: The CPU-time cap of a level is this many times its calibrated time (a safety net only),
#: and never below :data:`CAP_FLOOR`: at load 8 on two cores a 0.3 s cap cut 187 of 259
#: easy moves short and easy fell from 4/8 to 1/8 against the lookahead player in
#: Astralis (bench ai, 2026-11-27); a 2 s floor still cut 92 of 429 medium searches
#: in Sliglube at host load 3.5-9 (late positions cost several times the calibrated
#: average), so five seconds, which still hold no game up (the member sees typing).
#: The factor is six: at load 8 on two cores a search gets 2/9 of a core, 4.5 times its
#: idle time, and 3 (hard's 9 s) would cut every hard search there short; six leaves a
#: third more for positions dearer than the calibration's average (hard: 18 s at most).
#: That cap counted the wall clock. Since it counts the search's CPU time (2026-11-28),
#: load no longer shortens it, and the same six leave what it cuts on an idle core as it was.
CAP_FACTOR = 6.0
CAP_FLOOR = 5.0
#: The wall-clock cap of a level is this many times its CPU-time cap: it cuts a search
#: before that cap only where the search had less than a third of a core. A wall-clock
#: cap of six times the calibrated time cut 23 of hard's 43 searches in Asli 9 at load 8
#: on two cores (2026-11-28): a search there ran 5.9 times as long as on an idle core,
#: and hard's dearest positions take 2.2 times the calibrated time, so 13 times; this
#: leaves 18 (54 s for hard, 15 s for medium and easy).
WALL_FACTOR = 3.0
#: The think time each level is calibrated to, on one idle core.
SECONDS = {"easy": 0.1, "medium": 0.5, "hard": 3.0}
#: Playouts per second of CPU of one search (tree, tactics and playouts), by level and
#: game at its default size, over positions of random games (``python -m bench ai
#: --calibrate``, CPU time so that other processes do not count). Each level may have its
#: own: a bigger tree can cost more per playout. The rates were measured at 500 playouts
#: over positions of random games (2026-11-26; Asli's and Astralis's 2026-11-27); at each
#: level's own playouts, over positions of the easy level's games against itself, hard
#: took 2.3 / 2.6 / 2.95 / 2.3 s of CPU a move (Lifeline / Asli / Astralis / Sliglube),
#: at or under its 3 s, so the tables are still equal (in the bench's own games, which
#: reach dearer positions, Astralis's hard took more: see bench/README.md). Hard's
#: Sliglube rate is that of its 30-ply playouts (:data:`TUNING`): 600 playouts took 3.03 s
#: of CPU a move, 198/s (2026-11-27). Asli's went from 1,150 to 1,550 when its nodes
#: began to try their moves for a win at once from the fourth visit, not the first (hard
#: 1,262 -> 1,708/s at its playouts, 2026-11-27; see :mod:`ai.games.asli`).
#: A key ``"asli 9"`` is a game at a size whose playouts cost otherwise than at its
#: default size: Asli 9's are 1.3-1.5 times as fast as 13's, so hard's 4,650 took
#: 2.0 s of its 3 s (median, in games against the old hard, 2026-11-27). Lifeline's hard
#: went from 1,100 to 1,340 when its nodes, too, began to try their moves for a win at
#: once from the fourth visit (the same moves, 18% less CPU: see :mod:`ai.games.lifeline`);
#: at 4,020 playouts its median in the bench's games was 2.46-2.53 s (3,300: 2.4-2.9 s).
#: Lifeline's went up 1.5 times (1,100 / 1,100 / 1,340 before) when its playout plies
#: began to be drawn from the empty cells instead of listing every legal move (the
#: same positions, each level's playouts: 1.55 / 1.51 / 1.51 times as many a second,
#: 2026-11-28; see :mod:`ai.games.lifeline`).
#: Asli's went down when its playouts became frugal and played to their end (13x13 by
#: 2.2 times, 9x9 by 1.35: medium's search took 657 -> 298 and 903 -> 668 playouts per
#: CPU-second, the same host; 1,550 -> 700, 9x9's each times 0.74, 2026-11-28): fewer,
#: and far more telling, playouts (see :mod:`ai.games.asli`).
RATES: Mapping[str, Mapping[str, float]] = {
    "easy": {"lifeline": 1700, "asli": 700, "asli 9": 1280, "astralis": 7000, "sliglube": 380},
    "medium": {"lifeline": 1660, "asli": 700, "asli 9": 1580, "astralis": 7000, "sliglube": 380},
    "hard": {"lifeline": 2020, "asli": 700, "asli 9": 1640, "astralis": 7000, "sliglube": 200},
}
#: For a game without a rate of its own.
DEFAULT_RATE = 600.0
#: What a level's search does otherwise than a game's knowledge says (see
#: :attr:`Level.tuning`); its rate in :data:`RATES` is measured with it. Hard plays
#: Sliglube with fewer, longer playouts (see :mod:`ai.games.sliglube`).
TUNING: Mapping[str, tuple[tuple[str, str, float], ...]] = {
    "hard": (("sliglube", "cutoff", 30),),
}


def calibrated(seconds: float, rate: float) -> Budget:
    """The playouts that take ``seconds`` at ``rate``, capped in CPU time at
    :data:`CAP_FACTOR` times that (or :data:`CAP_FLOOR`), and by the wall clock at
    :data:`WALL_FACTOR` times the CPU cap."""
    cap = max(CAP_FLOOR, CAP_FACTOR * seconds)
    return Budget(
        seconds=cap,
        playouts=max(1, int(round(seconds * rate, -1))),
        wall_seconds=WALL_FACTOR * cap,
    )


def calibrated_level(
    name: str,
    seconds: float,
    temperature: float = 0.0,
    rates: Mapping[str, float] | None = None,
) -> Level:
    """A level that takes ``seconds`` on one idle core in every game (by ``rates``, by
    default the level's own in :data:`RATES`, and with its own :data:`TUNING`), capped in
    time as :func:`calibrated` says."""
    rates = RATES.get(name, RATES["medium"]) if rates is None else rates
    return Level(
        name,
        calibrated(seconds, DEFAULT_RATE),
        temperature,
        tuple((game, calibrated(seconds, rate)) for game, rate in rates.items()),
        TUNING.get(name, ()),
    )


#: Each level searches about six times as much as the one below: a search's strength
#: grows with the logarithm of its playouts.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        calibrated_level("easy", SECONDS["easy"], 1.0),
        calibrated_level("medium", SECONDS["medium"]),
        calibrated_level("hard", SECONDS["hard"]),
    )
}

#: What the analysis of one position of a finished game costs a worker: the work of
#: half a second on an idle core, in playouts per game, capped in time as the levels are
#: (it was 0.5 s of wall clock, so a busy host analysed worse).
ANALYSIS = calibrated_level("analysis", 0.5, rates=RATES["medium"])


def get_level(level: str | Level) -> Level:
    """The level called ``level`` (or ``level`` itself); ValueError for an unknown name."""
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"there is no AI level {level!r} (levels: {', '.join(LEVELS)})") from None
