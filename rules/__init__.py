"""Rules engines for Asli, Lifeline, Sliglube and Astralis.

    >>> import rules
    >>> state = rules.get_game("lifeline").new(size=5)
    >>> state = state.play("a1 c3")

See ``shared/design.md`` for the contract and each game module for its rules.
A further game is a module with a :class:`Game` and its :class:`State`, added
with :func:`register`; its plug-ins in the other layers (a painter, a guide…) are
declared on the Game as :class:`Plugins` (see :mod:`rules.plugins`).
"""

from __future__ import annotations

from rules import asli, astralis, lifeline, outcome, sliglube
from rules.board import Board, UnknownCell
from rules.errors import (
    IllegalMove,
    InvalidMove,
    OptionError,
    PluginError,
    RulesError,
    UnknownGame,
)
from rules.game import GAMES as _registry
from rules.game import NO_CHANGE, Change, Decision, Game, NumberChoice, State
from rules.hexhex import HexBoard
from rules.options import Option
from rules.outcome import Outcome, Termination
from rules.plugins import Plugins
from rules.square import SquareBoard

#: Every registered game by name (the same dict as ``rules.game.GAMES``).
GAMES: dict[str, Game] = _registry


def register(game: Game) -> Game:
    """Make ``game`` known as ``game.name`` (lower case): :func:`get_game`, records
    and the bot find it from then on. Registering the same game again changes
    nothing; another game under a name already taken raises ValueError."""
    name = game.name
    if not name or name != name.strip().lower():
        raise ValueError(f"a game's name is lower-case text without spaces around, not {name!r}")
    known = GAMES.get(name)
    if known is not None and known is not game:
        raise ValueError(f"another game is already registered as {name!r}")
    GAMES[name] = game
    return game


register(asli.GAME)
register(lifeline.GAME)
register(sliglube.GAME)
register(astralis.GAME)


def get_game(name: str) -> Game:
    """The game called ``name`` (any case); raises UnknownGame otherwise."""
    key = name.strip().lower() if isinstance(name, str) else ""
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(
            "there is no game called {name} (games: {known})", name=repr(name), known=known
        ) from None


__all__ = [
    "GAMES",
    "NO_CHANGE",
    "Board",
    "Change",
    "Decision",
    "Game",
    "HexBoard",
    "IllegalMove",
    "InvalidMove",
    "NumberChoice",
    "Option",
    "OptionError",
    "Outcome",
    "PluginError",
    "Plugins",
    "RulesError",
    "SquareBoard",
    "State",
    "Termination",
    "UnknownCell",
    "UnknownGame",
    "get_game",
    "outcome",
    "register",
]
