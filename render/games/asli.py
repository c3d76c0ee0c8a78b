"""Asli: black and white stones on the points of a square grid, and a prison
off the board. Captured groups go to the prison, so the stones a move took
are marked "captured"; a Hold is said in words, with the prisoner it cost."""

from __future__ import annotations

from render.caption import DETAIL
from render.games import Example, Painter
from render.marks import Mark, Marked
from render.segments import Line, Swatch, Text
from render.words import _, _n, aside, color_name, color_word, lead
from rules import State
from rules.asli import AsliState


class AsliPainter(Painter):
    example = Example({"size": 13}, seed=3, share=0.45)

    def move_text(self, state: State, move: str) -> str:
        if move != "hold":
            return move
        # the holder is the player who just moved: the one not to move, or the winner
        if state.is_over:
            holder = None if state.winner is None else state.color_of(state.winner)
        else:
            holder = next((c for c in state.game.colors if c != state.color_to_move), None)
        enemy = next((c for c in state.game.colors if c != holder), None)
        if holder is None or enemy is None:
            return _("Hold")
        return _(
            "Hold ({holder} released one {enemy} prisoner)",
            holder=color_name(holder),
            enemy=color_word(enemy),
        )

    def facts(self, state: State) -> Line:
        assert isinstance(state, AsliState)
        color, count = state.prison_color, state.prison_count
        if not color or not count:
            return [Text(_("Prison: empty"), dim=True)]
        holder = color_name(next(c for c in state.game.colors if c != color))
        return [
            Text(lead(_("Prison:"))),
            Swatch(color),
            Text(
                " "
                + _n(
                    "{count} {color} stone",
                    "{count} {color} stones",
                    count,
                    color=color_word(color),
                )
            ),
            Text(
                aside(
                    _n(
                        "({holder} may hold once)",
                        "({holder} may hold {count} times)",
                        count,
                        holder=holder,
                    )
                ),
                dim=True,
                spare=DETAIL,
            ),
        ]

    def changes(self, state: State) -> list[Marked]:
        return [
            Marked(m.cell, Mark.CAPTURED, m.color) if m.mark is Mark.REMOVED else m
            for m in super().changes(state)
        ]


PAINTER = AsliPainter()
