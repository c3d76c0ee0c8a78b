"""How long the AI thinks: a :class:`Budget` of time and playouts, and the named levels.

A search stops at whichever limit of its budget comes first. With a playout
budget and no time limit a search is repeatable: the same seed gives the same
move on any machine, which is what tests use.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budget:
    """At most ``seconds`` of thinking and at most ``playouts`` simulations (None: no limit)."""

    seconds: float | None = None
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a budget needs a time limit, a playout limit or both")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("a time budget must be positive")
        if self.playouts is not None and self.playouts < 1:
            raise ValueError("a playout budget must be at least 1")


@dataclass(frozen=True, slots=True)
class Level:
    """A named strength: its budget, and ``temperature`` > 0 to pick the move at
    random among the well-searched ones (a quarter of the best one's visits or
    more), weighted by visits ** (1 / temperature), instead of always the most
    visited (a softer opponent)."""

    name: str
    budget: Budget
    temperature: float = 0.0


#: Each level searches about six times as long as the one below: a search's strength
#: grows with the logarithm of its playouts, and at 1 s against 3 s hard and medium
#: were even (6/12 in Asli and Lifeline, bench ai, 2026-11-23).
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", Budget(seconds=0.1, playouts=50), temperature=1.0),
        Level("medium", Budget(seconds=0.5, playouts=1_000)),
        Level("hard", Budget(seconds=3.0, playouts=20_000)),
    )
}


def get_level(level: str | Level) -> Level:
    """The level called ``level`` (or ``level`` itself); ValueError for an unknown name."""
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"there is no AI level {level!r} (levels: {', '.join(LEVELS)})") from None
