"""Lifeline: black and white stones on a hexhex board. Dead groups are removed
(their ghosts show where they stood); the komi pie's unspent komi is a fact
of the caption."""

from __future__ import annotations

from render.games import Example, Painter
from render.segments import Line, Swatch, Text
from render.words import N_, _, aside, color_name, lead
from rules import State
from rules.lifeline import LifelineState

#: The openings as a caption names them, in the reader's words.
OPENINGS = {"strong-pie": N_("strong pie"), "weak-pie": N_("weak pie"), "komi-pie": N_("komi pie")}


class LifelinePainter(Painter):
    example = Example({"size": 7}, seed=7, share=0.5)

    def option_words(self, key: str, value: str) -> str:
        return _(OPENINGS[value]) if value in OPENINGS else super().option_words(key, value)

    def facts(self, state: State) -> Line:
        assert isinstance(state, LifelineState)
        left = state.komi_left
        if left is None:
            return []
        line: Line = [
            Text(lead(_("Komi left:"))),
            Swatch("white"),
            Text(f" {color_name('white')} {left}"),
        ]
        if left:
            line.append(Text(aside(_("(each point: one pass instead of a placement)")), dim=True))
        return line


PAINTER = LifelinePainter()
