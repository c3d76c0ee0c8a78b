"""Sliglube: black and white stones on a hexhex board, and loops. The stones of
every loop are strung together by a thin strand in the colour of whoever controls
it (both colours, side by side, where both do): thin, so that late in a game, when
nearly every stone is on some loop, the stones still read apart. The cells where
the player to move may not place are tinted in every picture of a game in
progress, and the caption counts the cells where they may: loops soon number in
the thousands, a count nobody can use."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType

from render import sprites
from render.canvas import Canvas
from render.games import Example, Painter
from render.marks import Mark, Marked
from render.segments import Line, Swatch, Text
from render.theme import OUTLINE, Colors, mix
from render.words import _n, color_name
from rules import Game, State
from rules.sliglube import SliglubeState


@lru_cache(maxsize=8)
def owners(state: SliglubeState) -> tuple[frozenset[str], ...]:
    """The colours controlling each of ``state.loops()`` (at least half of its
    stones theirs), counted here: a crowded board has thousands of loops."""
    color = {cell: state.stone_at(cell) for cell in state.loop_stones()}
    out = []
    for loop in state.loops():
        black = sum(1 for cell in loop if color[cell] == "black")
        out.append(
            frozenset(
                c for c, n in (("black", black), ("white", len(loop) - black)) if 2 * n >= len(loop)
            )
        )
    return tuple(out)


@lru_cache(maxsize=8)
def controllers(state: SliglubeState) -> dict[tuple[int, int], frozenset[str]]:
    """For each link of a loop (two touching stones consecutive on it, as cell
    indices in order), the colours controlling some loop through it."""
    index = {cell: i for i, cell in enumerate(state.board.cells)}
    links: dict[tuple[int, int], set[str]] = {}
    for loop, held in zip(state.loops(), owners(state), strict=True):
        ring = [index[cell] for cell in loop]
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            links.setdefault((min(a, b), max(a, b)), set()).update(held)
    return {link: frozenset(held) for link, held in links.items()}


def _worth_showing(state: State) -> bool:
    """A move that flipped stones, before a turn with forbidden cells, with a loop
    that both players control."""
    assert isinstance(state, SliglubeState)
    return (
        bool(state.last_change.flipped)
        and bool(PAINTER.standing(state))
        and any(len(held) == 2 for held in owners(state))
    )


class SliglubePainter(Painter):
    example = Example({"size": 6}, seed=1, share=0.6, wanted=_worth_showing)

    def colors(self, game: Game, theme: str) -> Colors:
        col = super().colors(game, theme)
        return replace(col, tint=MappingProxyType({"forbidden": mix(col.board, OUTLINE, 0.3)}))

    def facts(self, state: State) -> Line:
        """Where the player to move may place: the count that decides the game (none
        left at the start of your turn, and you win)."""
        assert isinstance(state, SliglubeState)
        mover = state.color_to_move
        if mover is None or state.is_over:
            return []
        cells = len({move.split()[0] for move in state.legal_moves()})
        empty = sum(1 for cell in state.board.cells if state.stone_at(cell) is None)
        said = _n(
            "{color} may place on {cells} of {count} empty cell",
            "{color} may place on {cells} of {count} empty cells",
            empty,
            color=color_name(mover),
            cells=cells,
        )
        return [Swatch(mover), Text(f" {said}")]

    def under(self, canvas: Canvas) -> None:
        """A strand between the stones of each link of a loop, in its controllers' colours."""
        state, lay, col = canvas.state, canvas.lay, canvas.col
        assert isinstance(state, SliglubeState)
        if not state.loop_links():
            return
        width = 0.2 * lay.unit
        order = state.game.colors
        for (a, b), owners in sorted(controllers(state).items()):
            (xa, ya), (xb, yb) = lay.center(a), lay.center(b)
            angle = math.atan2(yb - ya, xb - xa)
            degrees = round(math.degrees(angle)) % 180
            middle = ((xa + xb) / 2, (ya + yb) / 2)
            edge = sprites.capsule(lay.unit, width, degrees, col.outline)
            sprites.paste(canvas.image, edge, middle)
            colours = [col.stones[c] for c in order if c in owners] or [col.line]
            inner = (width - 2 * max(1.0, 0.04 * lay.unit)) / len(colours)
            for k, colour in enumerate(colours):
                shift = (k - (len(colours) - 1) / 2) * inner
                at = (middle[0] - math.sin(angle) * shift, middle[1] + math.cos(angle) * shift)
                sprites.paste(canvas.image, sprites.capsule(lay.unit, inner, degrees, colour), at)

    def standing(self, state: State) -> list[Marked]:
        """The empty cells where the player to move may not place (next to a loop
        they control, or where the stone would end in a loop of the opponent's)."""
        if state.ply < 2:
            return []
        allowed = {move.split()[0] for move in state.legal_moves()}
        mover = state.color_to_move
        return [
            Marked(cell, Mark.NO_PLACE, mover)
            for cell in state.board.cells
            if cell not in allowed and state.stone_at(cell) is None
        ]


PAINTER = SliglubePainter()
