"""Typed errors of the rules engine. All are ``ValueError``s, so callers that
only care about "bad input" can catch that; their messages are written for
players and can be shown as they are."""


class RulesError(ValueError):
    """Base class of every error the engine raises on bad input."""


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

    def __init__(self, message: str, *, ply: int | None = None) -> None:
        super().__init__(message)
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
