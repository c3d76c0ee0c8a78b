"""How a game ended: an :class:`Outcome` (winner, :class:`Termination`, sentence).

A finished State has its ``outcome``, decided by the rules of its game. A game
can also end off the board, which the bot decides and records:
:func:`resigned`, :func:`timed_out` and :func:`aborted` make those outcomes.

    >>> import rules
    >>> state = rules.get_game("sliglube").new()
    >>> rules.outcome.resigned(state, 0).text
    'The second player wins: the first player resigned'

The values of :class:`Termination` are short words meant to be stored.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from rules.words import Words, colour_title


class State(Protocol):
    """What the outcomes made off the board read of a position (a ``rules.State``
    is one); a protocol, so that this module and ``rules.game`` need not import
    each other."""

    def color_of(self, seat: int) -> str | None: ...


class Termination(enum.Enum):
    """Why a game ended. Members decided by a game's rules have ``by_rules``."""

    #: The player to move has no legal action, and loses (Asli, Lifeline).
    NO_MOVES = "no-moves"
    #: Lifeline: a turn left a player without stones, and that player loses.
    NO_STONES = "no-stones"
    #: Sliglube: the player to move has no legal placement, and wins.
    STALEMATE = "stalemate"
    #: Astralis: the board is explored (or no pawn can move); the higher score wins.
    SCORE = "score"
    #: Asli: a play recreated an earlier position; a draw.
    REPETITION = "repetition"
    #: Any other end a game's rules define (a connection, a line of three, a full
    #: board): the Outcome's text says which. A further game needs no new member.
    GOAL = "goal"
    #: Off the board: a player resigned.
    RESIGNATION = "resignation"
    #: Off the board: a player ran out of time.
    TIMEOUT = "timeout"
    #: Off the board: the game was called off, with no result.
    ABORT = "abort"

    @property
    def by_rules(self) -> bool:
        """True when the rules of the game decided it, False for the endings off the board."""
        return self not in _OFF_BOARD

    @property
    def description(self) -> Words:
        """How the game ended, in words for a summary: "by resignation", "on time"."""
        return _DESCRIPTIONS[self]


_OFF_BOARD = frozenset({Termination.RESIGNATION, Termination.TIMEOUT, Termination.ABORT})
_DESCRIPTIONS = {
    Termination.NO_MOVES: Words("by leaving the opponent no legal move"),
    Termination.NO_STONES: Words("by leaving the opponent no stones"),
    Termination.STALEMATE: Words("by stalemate (a stalemated player wins)"),
    Termination.SCORE: Words("on score"),
    Termination.REPETITION: Words("by repetition (a draw)"),
    Termination.GOAL: Words("by the rules"),
    Termination.RESIGNATION: Words("by resignation"),
    Termination.TIMEOUT: Words("on time"),
    Termination.ABORT: Words("aborted"),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning seat (None for a draw or an abort), why,
    and the sentence for people ("White wins: Black has no legal move")."""

    winner: int | None
    termination: Termination
    text: str


def _player(state: State, seat: int, *, subject: bool) -> Words:
    """What a sentence calls the player in ``seat``: its colour once decided (as the
    sentence's first word when ``subject``)."""
    colour = state.color_of(seat)
    if colour is not None:
        return colour_title(colour)
    if subject:
        return Words("The first player") if seat == 0 else Words("The second player")
    return Words("the first player") if seat == 0 else Words("the second player")


def _players(state: State, loser: int) -> dict[str, Words]:
    return {
        "winner": _player(state, 1 - loser, subject=True),
        "loser": _player(state, loser, subject=False),
    }


def resigned(state: State, seat: int) -> Outcome:
    """The outcome when ``seat`` resigns in ``state``: "Cyan wins: Yellow resigned"."""
    text = Words("{winner} wins: {loser} resigned", **_players(state, seat))
    return Outcome(1 - seat, Termination.RESIGNATION, text)


def timed_out(state: State, seat: int) -> Outcome:
    """The outcome when ``seat`` runs out of time: "White wins: Black ran out of time"."""
    text = Words("{winner} wins: {loser} ran out of time", **_players(state, seat))
    return Outcome(1 - seat, Termination.TIMEOUT, text)


def aborted(state: State) -> Outcome:
    """The outcome of a game called off, whatever its position: no winner."""
    return Outcome(None, Termination.ABORT, Words("Aborted"))


__all__ = ["Outcome", "Termination", "aborted", "resigned", "timed_out"]
