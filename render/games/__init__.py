"""One painter per game: its colours, its caption's facts, its extra layers and
its marks. The rest of ``render`` knows no game by name.

A game declares its painter as its ``painter`` plug-in (:class:`rules.Plugins`),
by custom ``PAINTER`` in ``render/games/<game name>.py``; :func:`register` puts
another in its place (a test's own look). A game that declares none gets the plain
:class:`Painter`: a wooden board, its first colour dark and its second light.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import rules
from render import sprites
from render.boards import style_for
from render.canvas import Canvas
from render.marks import Mark, Marked
from render.segments import Line
from render.theme import BLACK, WHITE, Colors, check_theme, colors
from rules import Game, State
from rules.board import Board
from rules.plugins import load


def _did_something(state: State) -> bool:
    change = state.last_change
    return bool(change.removed or change.flipped or change.added)


@dataclass(frozen=True)
class Example:
    """The position ``python -m render docs`` draws: the first state, past
    ``share`` of a random game (seeds from ``seed`` on), for which ``wanted`` holds."""

    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 1
    share: float = 0.5
    wanted: Callable[[State], bool] = _did_something


class Painter:
    """How a game's pictures look and what their captions say. Every method has
    the plain behaviour; a game's painter overrides what its game needs."""

    #: the example position of ``docs/images``
    example = Example()

    def colors(self, game: Game, theme: str) -> Colors:
        """The game's colours in ``theme`` ("dark" or "light")."""
        first, second = game.colors
        return colors(theme, {first: BLACK, second: WHITE})

    # -- the static picture: drawn once per board, theme and scale ---------------------

    def decorate(
        self,
        draw: ImageDraw.ImageDraw,
        board: Board,
        unit: float,
        origin: tuple[float, float],
        col: Colors,
    ) -> None:
        """Extra board drawing, on the supersampled board (Astralis' home edges)."""

    # -- the caption ---------------------------------------------------------------------

    def title(self, state: State) -> str:
        """ "Asli · 13×13", "Lifeline · base 7 · komi pie"."""
        parts = [state.game.title]
        if "size" in state.options:
            parts.append(style_for(state.board).describe(state.board))
        parts += [
            self.option_words(key, value)
            for key, value in state.options.items()
            if key != "size" and isinstance(value, str)
        ]
        return " · ".join(parts)

    def option_words(self, key: str, value: str) -> str:
        """An option's value as the caption says it (``strong-pie`` → "strong pie")."""
        return value.replace("-", " ")

    def move_text(self, state: State, move: str) -> str:
        """How the caption shows the last move (as played, by default)."""
        return move

    def facts(self, state: State) -> Line:
        """The caption's line of the game's own facts (none by default: the
        caption then names the players)."""
        return []

    # -- layers ----------------------------------------------------------------------------

    def stone(self, radius: float, col: Colors, color: str) -> Image.Image:
        """A stone of ``color`` (also the caption's swatch of that colour)."""
        return sprites.disc(radius, col.stones.get(color, col.mark), col.outline)

    def under(self, canvas: Canvas) -> None:
        """Layers under the stones (cell tints, loop outlines)."""

    def over(self, canvas: Canvas) -> None:
        """Layers over the stones (pieces such as pawns)."""

    # -- marks -------------------------------------------------------------------------------

    def changes(self, state: State) -> list[Marked]:
        """What the last move did: the stones it placed, removed, flipped, added."""
        change = state.last_change
        marked = [Marked(cell, Mark.LAST) for cell in change.placed]
        marked += [Marked(cell, Mark.REMOVED, color) for cell, color in change.removed]
        for cell in change.flipped:
            now = state.stone_at(cell)
            before = next((c for c in state.game.colors if c != now), None)
            marked.append(Marked(cell, Mark.FLIPPED, before))
        marked += [Marked(cell, Mark.BONUS, state.stone_at(cell)) for cell in change.added]
        return marked

    def standing(self, state: State) -> list[Marked]:
        """Marks every picture shows while the game is on (none by default)."""
        return []

    def hints(self, state: State) -> list[Marked]:
        """Where the player to move may play, from ``legal_moves()``: the cells
        named in any legal move."""
        board = state.board
        empty = sum(1 for cell in board.cells if state.stone_at(cell) is None)
        cells: set[str] = set()
        for move in state.legal_moves():
            cells.update(word for word in move.split() if word in board)
            if len(cells) >= empty:
                break
        mover = state.color_to_move
        return [Marked(cell, Mark.PLACE, mover) for cell in board.cells if cell in cells]


PLAIN = Painter()
_PAINTERS: dict[str, Painter] = {}


def register(name: str, painter: Painter) -> None:
    """Draw the game called ``name`` with ``painter`` rather than the one it declares."""
    _PAINTERS[name] = painter
    painter_colors.cache_clear()


def painter_for(game: Game | str) -> Painter:
    """The painter of ``game`` (a Game or a registered game's name): registered, or
    the one it declares, or the plain one. A declared painter that cannot be found
    raises :class:`rules.PluginError`."""
    name = game if isinstance(game, str) else game.name
    found = _PAINTERS.get(name)
    if found is None:
        declared = load(rules.get_game(game) if isinstance(game, str) else game, "painter", Painter)
        found = declared if declared is not None else PLAIN
    return found


@lru_cache(maxsize=64)
def painter_colors(game: Game | str, theme: str = "dark") -> Colors:
    """The colours of ``game`` (a Game or its name) in ``theme``: one object per
    game and theme, so caches can key on it."""
    check_theme(theme)
    found = rules.get_game(game) if isinstance(game, str) else game
    return painter_for(found).colors(found, theme)
