"""What the last move did, in words for the post beside the picture."""

from __future__ import annotations

from render.games import painter_for
from render.marks import Mark
from render.words import N_, _, _n, color_word
from rules import State


def _stones(count: int, color: str | None) -> str:
    if color is None:
        return _n("{count} stone", "{count} stones", count)
    return _n("{count} {color} stone", "{count} {color} stones", count, color=color_word(color))


#: What a move's effects are called, in the order the rules make them happen: captures
#: (Asli; Astralis, whose captures turn stones over), flips (Sliglube's loops), removals
#: (Sliglube's stones next to a loop after its flips; Lifeline's dead groups, enemy
#: first), bonus stones (Astralis, after its captures).
ORDER = (Mark.CAPTURED, Mark.FLIPPED, Mark.REMOVED)
#: How each effect is said, with its stones (``{stones}``: "3 white stones").
DONE = {
    Mark.CAPTURED: N_("captured {stones}"),
    Mark.FLIPPED: N_("flipped {stones}"),
    Mark.REMOVED: N_("removed {stones}"),
}


def change_summary(state: State) -> str:
    """What the last move did besides placing, as the picture marks it, in the order
    of the rules: "captured 3 white stones", "flipped 2 black stones, then removed 1
    white stone", "captured 1 cyan stone, then bonus stone at c10"; empty when it only
    placed (or at the start). A flipped stone is named by its colour before the flip."""
    found = painter_for(state.game).changes(state)
    parts = []
    for mark in ORDER:
        colors: dict[str | None, int] = {}
        for marked in found:
            if marked.mark is mark:
                colors[marked.color] = colors.get(marked.color, 0) + 1
        if colors:
            said = [_stones(n, c) for c, n in colors.items()]
            stones = (
                said[0] if len(said) == 1 else _("{one} and {other}", one=said[0], other=said[1])
            )
            parts.append(_(DONE[mark], stones=stones))
    bonus = [marked.cell for marked in found if marked.mark is Mark.BONUS]
    if bonus:
        parts.append(
            _n(
                "bonus stone at {cells}",
                "bonus stones at {cells}",
                len(bonus),
                cells=", ".join(bonus),
            )
        )
    done = parts[0] if parts else ""
    for part in parts[1:]:
        done = _("{done}, then {then}", done=done, then=part)
    return done
