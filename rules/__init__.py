"""Rules engines for Asli, Lifeline, Sliglube and Astralis.

    >>> import rules
    >>> state = rules.get_game("lifeline").new(size=5)
    >>> state = state.play("a1 c3")

See ``shared/design.md`` for the contract and each game module for its rules.
"""

from __future__ import annotations

from rules import asli, astralis, lifeline, sliglube
from rules.board import Board, UnknownCell
from rules.errors import IllegalMove, OptionError, RulesError, UnknownGame
from rules.game import NO_CHANGE, Change, Game, State
from rules.hexhex import HexBoard
from rules.options import Option
from rules.square import SquareBoard

GAMES: dict[str, Game] = {game.name: game for game in (asli.GAME, lifeline.GAME, sliglube.GAME,
                                                        astralis.GAME)}


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
