"""Typed errors of the rules engine. All are ``ValueError``s, so callers that
only care about "bad input" can catch that; their messages are written for
players and can be shown as they are (``str(error)``: English).

Each is made from a template and its values, python-chess style:
``IllegalMove("{cell} is occupied", cell="c3")``; ``error.words`` keeps both (a
:class:`rules.words.Words`), so a caller can show it in another language."""

from __future__ import annotations

from typing import Any

from rules.words import Words, words_of


class RulesError(ValueError):
    """Base class of every error the engine raises on bad input."""

    def __init__(self, message: str = "", /, **params: Any) -> None:
        self.words: Words = Words(message, **params) if params else words_of(message)
        super().__init__(str(self.words))

    @property
    def template(self) -> str:
        return self.words.template

    @property
    def params(self) -> dict[str, Any]:
        return self.words.params

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its words (errors cross to the AI's worker processes)."""
        return _rebuild, (type(self), self.words, self.__dict__)


def _rebuild(kind: type[RulesError], words: Words, state: dict[str, Any]) -> RulesError:
    error = kind.__new__(kind)
    ValueError.__init__(error, str(words))
    error.__dict__.update(state)
    return error


class UnknownGame(RulesError):
    """No game has that name."""


class OptionError(RulesError):
    """A game option is unknown or out of range."""


class IllegalMove(RulesError):
    """A move of the game that cannot be played in this position ("e5 is
    occupied"), or, as its subclass :class:`InvalidMove`, text that is no move
    of the game at all.

    ``ply`` is set by :meth:`rules.Game.replay` to the 1-based number of the
    move that failed, so a record importer can say where a record goes wrong.
    """

    def __init__(self, message: str = "", /, *, ply: int | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.ply = ply


class InvalidMove(IllegalMove):
    """Text that is not a move of this game in any position: malformed, naming a
    cell that is not on the board, or missing a number ("komi needs a number").

    Raised by ``State.parse`` without looking at the position, and by
    ``State.play`` for the same text. A subclass of :class:`IllegalMove`, so
    ``except IllegalMove`` catches both kinds.
    """


class PluginError(Exception):
    """A game declares a plug-in (``rules.Plugins``) that cannot be found: its module
    or attribute is misspelled or missing. A mistake in the code, not bad input, so
    not a :class:`RulesError`: nothing that catches ``ValueError`` hides it."""
