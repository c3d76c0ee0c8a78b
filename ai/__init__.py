"""The computer player: Monte Carlo tree search over the rules engine, for every game.

    >>> import ai, rules
    >>> state = rules.get_game("astralis").new(size=7)
    >>> ai.choose_move(state, level="easy", seed=1)          # canonical move text
    >>> ai.analyse(state, ai.Budget(playouts=2000)).win_chance_for_seat0

:mod:`ai.mcts` is the search (one for all games), :mod:`ai.games` the
per-game knowledge, :mod:`ai.levels` the budgets (playouts, with CPU and wall-clock caps),
:mod:`ai.pie` the komi offers, :mod:`ai.pool` the worker processes (each one
:mod:`ai.worker`) that keep it off the bot's event loop. Imports ``rules`` only.
"""

from __future__ import annotations

from ai.levels import ANALYSIS, LEVELS, Budget, Level, get_level
from ai.player import Analysis, Candidate, analyse, analyse_game, choose_move

__all__ = [
    "ANALYSIS",
    "LEVELS",
    "Analysis",
    "Budget",
    "Candidate",
    "Level",
    "analyse",
    "analyse_game",
    "choose_move",
    "get_level",
]
