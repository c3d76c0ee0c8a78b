"""Autocomplete for moves: at most 25 choices of at most 100 characters, each of them
a legal move that plays as it is sent.

Discord shows what we return and submits the chosen value. With a few matches we
list them all; with many, moves of several parts (``c3 e5``) are spread over their
next part (one move for each: ``a1 a3``, ``b1 a2``…) so that what is typed next
narrows the list, and the remaining room is filled with the other matches. Order
follows ``legal_moves()``: special moves (swap, colours, komi, hold) before cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules import InvalidMove
from rules.game import normalize_move

LIMIT = 25
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class MoveChoice:
    name: str  # what the member sees
    value: str  # what gets submitted


def move_choices(
    legal: list[str], typed: str, limit: int = LIMIT, parse: Callable[[str], str] | None = None
) -> list[MoveChoice]:
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
    matches = [
        move
        for move in exact
        + [move for move in legal if move.startswith(prefix) and move not in exact]
        if len(move) <= MAX_LENGTH
    ]
    if len(matches) <= limit:
        return [MoveChoice(move, move) for move in matches]

    # One move for each different next part (the word being typed, or the next one).
    words = len(prefix.split()) if prefix else 0
    if typed and typed[-1] in " ,":
        words += 1
    words = max(words, 1)
    firsts: dict[str, str] = {}
    for move in matches:
        firsts.setdefault(" ".join(move.split()[:words]), move)
    chosen = list(firsts.values())[:limit]
    taken = set(chosen)
    chosen += [move for move in matches if move not in taken][: limit - len(chosen)]
    order = {move: index for index, move in enumerate(matches)}
    return [MoveChoice(move, move) for move in sorted(chosen, key=order.__getitem__)]
