"""The engine contract: :class:`Game` (a rule set with its options) and
:class:`State` (an immutable position of one game).

Every game module subclasses both. A State knows its game, its options, its
board geometry and the moves that led to it; ``play`` returns a new State and
never changes the old one (assigning to a State raises AttributeError). Moves
are text in and text out: parsing is case-insensitive and forgiving about
spaces and commas, ``legal_moves`` and ``history`` hold canonical text only.
Text that is no move of the game raises :class:`~rules.InvalidMove`; a move
that cannot be played now raises :class:`~rules.IllegalMove`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.board import Board
from rules.errors import IllegalMove, InvalidMove, UnknownGame
from rules.options import Option, resolve_options
from rules.outcome import Outcome, Termination
from rules.plugins import Plugins


@dataclass(frozen=True, slots=True)
class Change:
    """What the last move did to the board, by cell name, for drawing it.

    ``placed``: cells where the move put a stone or pawn (in move order);
    ``removed``: ``(cell, colour)`` of stones that left the board;
    ``flipped``: cells whose stone changed colour;
    ``added``: cells that got a stone without being played (Astralis bonus).
    """

    placed: tuple[str, ...] = ()
    removed: tuple[tuple[str, str], ...] = ()
    flipped: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


NO_CHANGE = Change()


@dataclass(frozen=True, slots=True)
class NumberChoice:
    """A decision that asks for one whole number, as a form: ``template`` is the
    move with ``{}`` for the number, legal for every number from ``minimum`` to
    ``maximum``. ``question`` (at most 45 characters) titles the form."""

    question: str
    template: str
    minimum: int
    maximum: int

    def move(self, number: int) -> str:
        """The move that answers ``number``."""
        return self.template.format(number)


@dataclass(frozen=True, slots=True)
class Decision:
    """A move the player to move would rather click than type, as a button
    labelled ``label`` (at most 40 characters): either one legal ``move``, or a
    ``number`` to ask for."""

    label: str
    move: str | None = None
    number: NumberChoice | None = None


def normalize_move(text: str) -> str:
    """Lower-case a move and reduce commas and runs of spaces to single spaces."""
    if not isinstance(text, str):
        raise InvalidMove("a move is text, not {kind}", kind=type(text).__name__)
    return " ".join(text.replace(",", " ").lower().split())


def _replayed(game: Game, options: Mapping[str, Any], history: tuple[str, ...]) -> State:
    return game.replay(history, **options)


class State(ABC):
    """A position. Subclasses add their game's own facts as attributes.

    Attributes every State has: ``game``, ``options`` (a dict, read-only by
    convention), ``board`` (the geometry), ``history`` (canonical moves).

    A State is immutable: subclasses list their attributes in ``__slots__`` and
    set them with ``object.__setattr__`` (in ``__init__``, and for facts they
    compute once and keep); every other assignment raises AttributeError.
    Copies are the State itself; pickling stores the game, options and moves.
    """

    __slots__ = ()

    game: Game
    options: Mapping[str, Any]
    board: Board
    history: tuple[str, ...]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable: play a move to get a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its record: the game, its options and the moves."""
        return _replayed, (self.game, dict(self.options), self.history)

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """Seat (0 or 1) whose turn it is; None once the game is over."""

    @abstractmethod
    def color_of(self, seat: int) -> str | None:
        """The colour seat ``seat`` plays, or None while a pie leaves it undecided."""

    def seat_of(self, color: str) -> int | None:
        """The seat playing ``color``, or None while undecided."""
        for seat in (0, 1):
            if self.color_of(seat) == color:
                return seat
        return None

    @abstractmethod
    def legal_moves(self) -> list[str]:
        """Every legal move in canonical text, in a fixed order (special moves
        such as ``swap`` or ``hold`` first, then cells in board order). Empty
        once the game is over."""

    @abstractmethod
    def parse(self, text: str) -> str:
        """The canonical text of the move ``text``, whether or not it is legal now.

        Raises :class:`~rules.InvalidMove` for text that is no move of this game
        on this board (malformed, an unknown cell, a missing number). Looks at
        the board's geometry and the game's notation only, never the position."""

    @abstractmethod
    def play(self, move: str) -> State:
        """The State after ``move``; raises InvalidMove for text that is no move
        (see :meth:`parse`), IllegalMove for a move not allowed now, each with a
        player-readable reason."""

    def _read(self, move: str) -> str:
        """:meth:`parse`, for :meth:`play`: the refusal of text that is no move also
        says what the player has to do now."""
        try:
            return self.parse(move)
        except InvalidMove as error:
            prompt = self.prompt
            if not prompt:
                raise
            raise InvalidMove("{error}: {prompt}", error=error.words, prompt=prompt) from None

    def is_legal(self, move: str) -> bool:
        try:
            self.play(move)
        except IllegalMove:
            return False
        return True

    def decisions(self) -> tuple[Decision, ...]:
        """The moves the player to move may make by button rather than by typing
        (a swap, a colour, a komi), in the order of :meth:`legal_moves`. Empty
        when nothing but placements is on offer, and once the game is over."""
        return ()

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended by its rules; None while it goes on."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        """Winning seat; None while playing or after a draw."""
        outcome = self.outcome
        return None if outcome is None else outcome.winner

    @property
    def result(self) -> str | None:
        """None while playing, else a sentence such as "White wins: Black has no legal move"."""
        outcome = self.outcome
        return None if outcome is None else outcome.text

    @abstractmethod
    def stone_at(self, cell: str) -> str | None:
        """The colour of the stone on ``cell``, or None; unknown cell -> ValueError."""

    @property
    @abstractmethod
    def last_change(self) -> Change:
        """What the last move did (NO_CHANGE at the start)."""

    @property
    @abstractmethod
    def prompt(self) -> str:
        """What the player to move has to do, for the bot's ping: "choose the komi
        (komi N, 0–169)", "place two stones", "place a stone or swap". Empty once over."""

    @property
    def ply(self) -> int:
        """Number of moves played (setup and pie choices included)."""
        return len(self.history)

    @property
    def last_move(self) -> str | None:
        return self.history[-1] if self.history else None

    @property
    def color_to_move(self) -> str | None:
        seat = self.to_move
        return None if seat is None else self.color_of(seat)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} {dict(self.options)} ply={self.ply}>"


class Game(ABC):
    """A rule set. One instance per game lives in ``rules.GAMES``."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: The two colours, first-moving colour first: ("black", "white").
    colors: ClassVar[tuple[str, str]]
    option_specs: ClassVar[tuple[Option, ...]]
    #: A few paragraphs of rules and notation for the bot's help command.
    summary: ClassVar[str] = ""
    #: The ways the rules can end a game (``State.outcome.termination``), the
    #: usual one first.
    terminations: ClassVar[tuple[Termination, ...]] = (Termination.NO_MOVES,)
    #: Where its plug-ins in the other layers are (fast position, AI knowledge,
    #: painter, guide): none by default, so each layer uses its own default.
    plugins: ClassVar[Plugins] = Plugins()

    def options(self) -> tuple[Option, ...]:
        return self.option_specs

    def resolve_options(self, **options: Any) -> dict[str, Any]:
        """Validated options with defaults filled in; raises OptionError."""
        return resolve_options(self.option_specs, options)

    def new(self, **options: Any) -> State:
        """The starting position; bad options raise :class:`rules.OptionError`."""
        return self._initial(self.resolve_options(**options))

    @abstractmethod
    def _initial(self, options: dict[str, Any]) -> State: ...

    def replay(self, moves: Iterable[str], **options: Any) -> State:
        """``new(**options)`` then ``play`` each move. An illegal move raises
        IllegalMove naming its 1-based number, with ``ply`` set."""
        state = self.new(**options)
        for ply, move in enumerate(moves, 1):
            try:
                state = state.play(move)
            except IllegalMove as error:
                raise IllegalMove(
                    "move {number} ({move}): {error}",
                    number=ply,
                    move=move,
                    error=error.words,
                    ply=ply,
                ) from error
        return state

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by name: unpickling gives the registered instance."""
        return _registered, (self.name,)

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


#: Every registered game by name: ``rules.GAMES`` (filled by ``rules.register``).
GAMES: dict[str, Game] = {}


def _registered(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame("there is no game called {name}", name=repr(name)) from None
