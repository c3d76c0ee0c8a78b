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
    """A move is malformed or not allowed in this position.

    ``ply`` is set by :meth:`rules.Game.replay` to the 1-based number of the
    move that failed, so a record importer can say where a record goes wrong.
    """

    def __init__(self, message: str, *, ply: int | None = None) -> None:
        super().__init__(message)
        self.ply = ply
