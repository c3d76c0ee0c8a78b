"""What tree search needs from the engine: a mutable position with moves as small integers.

A :class:`State` is immutable and speaks text, which is what the bot, records
and tests want. Search wants the opposite: millions of cheap copies and moves,
so :func:`position` gives a :class:`SearchPosition` of any State. A game may
have a fast implementation of its own, declared as its ``fast`` plug-in
(:class:`rules.Plugins`): a function ``position(state) -> SearchPosition``, by
custom in ``rules/fast/<game name>.py``; every other game gets
:class:`StatePosition`, which wraps the contract and is correct but slow.
Either way the moves and the outcome are exactly those of the rules engine:
a fast position is a faster way of computing the same game, checked against
the States in the tests.

Move ids are stable for a given game and options (the same id means the same
move text in every position of that game), which is what move statistics
shared across positions (RAVE, AMAF, history heuristics) rely on.

    >>> import random, rules
    >>> from rules.position import position
    >>> pos = position(rules.get_game("astralis").new(size=8))
    >>> pos.playout(random.Random(1))          # plies played
    >>> pos.is_over, pos.winner
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from rules.game import State
from rules.plugins import load


class SearchPosition(ABC):
    """A mutable position for search. ``play`` changes it in place; ``copy`` is cheap.

    ``to_move`` is the seat to move (None once over), ``winner`` the winning
    seat (None while playing or after a draw), as in :class:`State`.
    """

    __slots__ = ()

    @abstractmethod
    def copy(self) -> SearchPosition:
        """An independent copy: playing on it leaves this one unchanged."""

    @property
    @abstractmethod
    def to_move(self) -> int | None: ...

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def winner(self) -> int | None: ...

    @abstractmethod
    def legal_moves(self) -> list[int]:
        """The ids of every legal move, in a fixed order; empty once over."""

    @abstractmethod
    def play(self, move: int) -> None:
        """Play the legal move ``move`` in place (an illegal id is undefined behaviour)."""

    @abstractmethod
    def move_text(self, move: int) -> str:
        """The canonical text of move ``move``, as :meth:`State.play` takes it."""

    @abstractmethod
    def move_id(self, text: str) -> int:
        """The id of a canonical move text; ValueError for a text this game never plays."""

    def playout(self, rng: random.Random, max_plies: int | None = None) -> int:
        """Play uniformly random legal moves in place until the game ends (or
        ``max_plies`` are played); returns the number of plies played."""
        plies = 0
        while not self.is_over and (max_plies is None or plies < max_plies):
            self.play(rng.choice(self.legal_moves()))
            plies += 1
        return plies

    def play_random(self, rng: random.Random) -> tuple[int, int] | None:
        """Play one uniformly random legal move in place and return the seat that
        played it and its id (None, and nothing played, once the game is over, or once
        a frugal position has only reserves left: :meth:`play_frugally`). A position
        may sample its move more cheaply than by listing every legal one, as its
        :meth:`playout` does."""
        seat = self.to_move
        moves = self.legal_moves()
        if seat is None or not moves:
            return None
        move = moves[int(rng.random() * len(moves))]
        self.play(move)
        return seat, move

    def play_frugally(self) -> bool:
        """Make this position's random moves (``playout`` and ``play_random``, its
        copies' too) keep each side's reserve for last, where the game has one: moves
        only the mover can ever make (in a territory game, the points of its own
        territory), which random play wastes while a point both sides could still take
        is left. A frugal playout stops, the game unfinished, once only reserves are
        left, for ``evaluate()`` to judge. Returns whether this game plays so; by
        default it does not, and nothing changes."""
        return False

    def tactical_moves(self) -> list[int]:
        """The legal moves that may end the game at once with a win or a loss (and so
        make the threat of one): every legal move, unless the game knows most cannot.
        The AI tries only these for a result at once, and plays whatever it counts on."""
        return self.legal_moves()

    def evaluate(self) -> float:
        """Seat 0's share of the game's own measure of who is ahead, in [0, 1]
        (the score, territory or material, as the game counts it); 0.5 when the
        game has none. A search judges a cut-off playout by it."""
        return 0.5


class MoveTable:
    """Move text <-> id for one game and options, grown as new texts appear."""

    __slots__ = ("ids", "texts")

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.texts: list[str] = []

    def id_of(self, text: str) -> int:
        found = self.ids.get(text)
        if found is None:
            found = self.ids[text] = len(self.texts)
            self.texts.append(text)
        return found


class StatePosition(SearchPosition):
    """Any game through the engine contract: correct for every game, as fast as ``State.play``."""

    __slots__ = ("state", "table")

    def __init__(self, state: State, table: MoveTable | None = None) -> None:
        self.state = state
        self.table = table if table is not None else MoveTable()

    def copy(self) -> StatePosition:
        return StatePosition(self.state, self.table)

    @property
    def to_move(self) -> int | None:
        return self.state.to_move

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def winner(self) -> int | None:
        return self.state.winner

    def legal_moves(self) -> list[int]:
        id_of = self.table.id_of
        return [id_of(text) for text in self.state.legal_moves()]

    def play(self, move: int) -> None:
        self.state = self.state.play(self.table.texts[move])

    def move_text(self, move: int) -> str:
        return self.table.texts[move]

    def move_id(self, text: str) -> int:
        return self.table.id_of(text)


def position(state: State) -> SearchPosition:
    """A search position equal to ``state``: the game's fast one if it declares one."""
    fast: Callable[[State], SearchPosition] | None = load(state.game, "fast")
    return fast(state) if fast is not None else StatePosition(state)
