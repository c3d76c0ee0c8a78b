"""What the last move did, in words for the post beside the picture."""

from __future__ import annotations

from render.games import painter_for
from render.marks import Mark
from rules import State


def _stones(count: int, color: str | None) -> str:
    what = f"{color} stone" if color else "stone"
    return f"{count} {what}{'' if count == 1 else 's'}"


def change_summary(state: State) -> str:
    """What the last move did besides placing, as the picture marks it:
    "captured 3 white stones", "removed 19 white stones, flipped 3",
    "bonus stone at c10"; empty when it only placed (or at the start)."""
    found = painter_for(state.game).changes(state)
    parts = []
    for mark in (Mark.CAPTURED, Mark.REMOVED):
        colors: dict[str | None, int] = {}
        for marked in found:
            if marked.mark is mark:
                colors[marked.color] = colors.get(marked.color, 0) + 1
        if colors:
            parts.append(f"{mark.value} " + " and ".join(_stones(n, c) for c, n in colors.items()))
    flipped = sum(1 for marked in found if marked.mark is Mark.FLIPPED)
    if flipped:
        parts.append(f"flipped {flipped}")
    bonus = [marked.cell for marked in found if marked.mark is Mark.BONUS]
    if bonus:
        parts.append(f"bonus stone{'' if len(bonus) == 1 else 's'} at {', '.join(bonus)}")
    return ", ".join(parts)
