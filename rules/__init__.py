"""Rules engines for Asli, Lifeline, Sliglube and Astralis.

    >>> import rules
    >>> state = rules.get_game("lifeline").new(size=5)
    >>> state = state.play("a1 c3")

See ``shared/design.md`` for the contract and each game module for its rules.
"""

from __future__ import annotations

import importlib

from rules.board import Board, UnknownCell
from rules.errors import IllegalMove, OptionError, RulesError, UnknownGame
from rules.game import NO_CHANGE, Change, Game, State
from rules.hexhex import HexBoard
from rules.options import Option
from rules.square import SquareBoard

GAMES: dict[str, Game] = {}

# TEMPORARY while the four engines are being written in parallel: register the
# ones that exist. Replaced by plain imports once all four have landed.
for _module_name in ("asli", "lifeline", "sliglube", "astralis"):
    try:
        _module = importlib.import_module(f"rules.{_module_name}")
    except ModuleNotFoundError as _error:
        if _error.name != f"rules.{_module_name}":
            raise
        continue
    GAMES[_module_name] = _module.GAME


def get_game(name: str) -> Game:
    """The game called ``name`` (any case); raises UnknownGame otherwise."""
    key = name.strip().lower() if isinstance(name, str) else ""
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"there is no game called {name!r} (games: {known})") from None


__all__ = [
    "GAMES", "NO_CHANGE", "Board", "Change", "Game", "HexBoard", "IllegalMove", "Option",
    "OptionError", "RulesError", "SquareBoard", "State", "UnknownCell", "UnknownGame",
    "get_game",
]
