"""What the last move did, in words for the post beside the picture."""

from __future__ import annotations

from render.games import painter_for
from render.marks import Mark
from rules import State


def _stones(count: int, color: str | None) -> str:
    what = f"{color} stone" if color else "stone"
    return f"{count} {what}{'' if count == 1 else 's'}"


#: What a move's effects are called, in the order the rules make them happen: captures
#: (Asli; Astralis, whose captures turn stones over), flips (Sliglube's loops), removals
#: (Sliglube's stones next to a loop after its flips; Lifeline's dead groups, enemy
#: first), bonus stones (Astralis, after its captures).
ORDER = (Mark.CAPTURED, Mark.FLIPPED, Mark.REMOVED)


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
            parts.append(f"{mark.value} " + " and ".join(_stones(n, c) for c, n in colors.items()))
    bonus = [marked.cell for marked in found if marked.mark is Mark.BONUS]
    if bonus:
        parts.append(f"bonus stone{'' if len(bonus) == 1 else 's'} at {', '.join(bonus)}")
    return ", then ".join(parts)
