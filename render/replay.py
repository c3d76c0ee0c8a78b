"""An animated GIF of a whole game: the start, then one frame per move.

Frames are drawn at a reduced scale and share one palette (the game's
colours), and each frame stores only what changed since the one before
(unchanged pixels are transparent), so even a game of several hundred moves
stays a few megabytes at most.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any

import rules
from render.picture import board_image, to_palette
from render.theme import TRANSPARENT
from rules import Game

#: Frame scale (a still picture is 1) and timing, in milliseconds.
SCALE = 0.6
FIRST_MS = 1200
MOVE_MS = 800
LAST_MS = 4000


def replay_gif(game: Game | str, options: Mapping[str, Any] | None, moves: Iterable[str], *,
               names: Mapping[int, str] | None = None, theme: str = "dark") -> bytes:
    """A GIF of the game ``moves`` (from ``game.new(**options)``): one frame for the
    start and one per move, the last one held longer. Raises rules.IllegalMove
    (naming the move) if the record does not replay."""
    if isinstance(game, str):
        game = rules.get_game(game)
    moves = list(moves)
    states = [game.new(**dict(options or {}))]
    for ply, move in enumerate(moves, 1):
        try:
            states.append(states[-1].play(move))
        except rules.IllegalMove as error:
            raise rules.IllegalMove(f"move {ply} ({move}): {error}", ply=ply) from error
    frames = [to_palette(board_image(s, names=names, theme=theme, scale=SCALE), game.name, theme)
              for s in states]
    durations = [FIRST_MS] + [MOVE_MS] * (len(frames) - 2) + [LAST_MS]
    if len(frames) == 1:
        durations = [LAST_MS]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, disposal=1, optimize=True, transparency=TRANSPARENT)
    return out.getvalue()



