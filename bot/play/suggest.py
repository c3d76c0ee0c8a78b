"""Autocomplete for moves: at most 25 choices of at most 100 characters.

Discord shows what we return and submits the chosen value. With a few
matches we list them all; with many, moves of several parts (``c3 e5``) are
collapsed to their next part (``c3 …``) so that typing narrows the list, and
the remaining room is filled with complete moves. Order follows
``legal_moves()``: special moves (swap, colours, komi, hold) before cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules import InvalidMove
from rules.game import normalize_move

LIMIT = 25
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class Suggestion:
    name: str   # what the member sees
    value: str  # what gets submitted


def suggest_moves(legal: list[str], typed: str, limit: int = LIMIT,
                  parse: Callable[[str], str] | None = None) -> list[Suggestion]:
    """``parse`` (the game's ``state.parse``): a move typed out in any form the game
    reads (``E5,c3``) is found as its canonical text, first."""
    try:
        prefix = normalize_move(typed)
    except ValueError:
        prefix = ""
    exact: list[str] = []
    if parse is not None and prefix:
        try:
            canonical = parse(typed)
        except (InvalidMove, ValueError):
            canonical = None
        if canonical is not None and canonical in legal:
            exact = [canonical]
    matches = exact + [move for move in legal if move.startswith(prefix) and move not in exact]
    if len(matches) <= limit:
        return [Suggestion(move, move) for move in matches]

    # Collapse to the word being typed (or the next one after a space).
    words = len(prefix.split()) if prefix else 0
    if typed and typed[-1] in " ,":
        words += 1
    words = max(words, 1)
    complete = set(matches)
    keys: dict[str, None] = {}
    for move in matches:
        keys.setdefault(" ".join(move.split()[:words]), None)
    suggestions = [Suggestion(key if key in complete else f"{key} …", key)
                   for key in list(keys)[:limit]]
    shown = {s.value for s in suggestions}
    for move in matches:
        if len(suggestions) >= limit:
            break
        if move not in shown:
            suggestions.append(Suggestion(move, move))
            shown.add(move)
    return [Suggestion(s.name[:MAX_LENGTH], s.value[:MAX_LENGTH]) for s in suggestions]
