"""The caption band's text: which game, which move, whose turn, the game's own
facts (prison, komi, scores, loops) and, at the end, the result.

Each line is a list of segments: text (with a colour role) or a swatch (a small
stone of a colour), so the drawing code can put a stone next to a colour name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules import State


@dataclass(frozen=True)
class Text:
    text: str
    dim: bool = False


@dataclass(frozen=True)
class Swatch:
    color: str  # a stone colour of the game: "black", "cyan", ...


Segment = Text | Swatch


def _title(state: State) -> str:
    parts = [state.game.title]
    size = state.options.get("size")
    if size is not None:
        parts.append(f"{size}x{size}" if state.board.kind == "square" else f"base {size}")
    for key, value in state.options.items():
        if key != "size" and isinstance(value, str):
            parts.append(value.replace("-", " "))
    return " · ".join(parts)


def _who(state: State, seat: int, names: Mapping[int, str] | None) -> str:
    name = (names or {}).get(seat)
    return name if name else ("first player" if seat == 0 else "second player")


def _move_line(state: State) -> list[Segment]:
    if not state.history:
        return [Text(_title(state)), Text("  ·  start", dim=True)]
    last = state.last_move or ""
    shown = _hold(state) if last == "hold" else last
    return [Text(_title(state)), Text(f"  ·  move {state.ply}: ", dim=True), Text(shown)]


def _hold(state: State) -> str:
    """Asli's Hold, said as such: who held, and the prisoner it cost."""
    if state.is_over:
        holder = None if state.winner is None else state.color_of(state.winner)
    else:
        holder = next((c for c in state.game.colors if c != state.color_to_move), None)
    enemy = next((c for c in state.game.colors if c != holder), None)
    if holder is None or enemy is None:
        return "Hold"
    return f"Hold ({holder.capitalize()} released one {enemy} prisoner)"


def _status_line(state: State, names: Mapping[int, str] | None) -> list[Segment]:
    if state.is_over:
        line: list[Segment] = [Text(state.result or "Game over")]
        if names and state.winner is not None and names.get(state.winner):
            line.append(Text(f"  ({names[state.winner]} wins)", dim=True))
        return line
    seat = state.to_move
    if seat is None:
        return []
    color = state.color_of(seat)
    prompt = state.prompt
    tail = [Text(f": {prompt}", dim=True)] if prompt else []
    if color is None:
        return [Text(f"{_who(state, seat, names).capitalize()} to move"), *tail]
    name = (names or {}).get(seat)
    who = [Text(f" ({name})", dim=True)] if name else []
    return [Swatch(color), Text(f" {color.capitalize()} to move"), *who, *tail]


def _asli_facts(state: State) -> list[Segment]:
    color = getattr(state, "prison_color", None)
    count = getattr(state, "prison_count", 0) or 0
    if not color or not count:
        return [Text("Prison: empty", dim=True)]
    other = [c for c in state.game.colors if c != color]
    holder = other[0].capitalize() if other else "the other player"
    stones = "stone" if count == 1 else "stones"
    times = "once" if count == 1 else f"{count} times"
    return [Text("Prison: "), Swatch(color), Text(f" {count} {color} {stones}"),
            Text(f"  ({holder} may hold {times})", dim=True)]


def _lifeline_facts(state: State) -> list[Segment]:
    komi_left = getattr(state, "komi_left", None)
    if komi_left is None:
        return []
    return [Text("Komi left: "), Swatch("white"), Text(f" White {komi_left}"),
            Text("  (each point: one pass instead of a placement)" if komi_left else "",
                 dim=True)]


def _sliglube_facts(state: State) -> list[Segment]:
    """How many stones lie on loops (outlined in the picture), of each colour.
    Loops themselves are not counted: a crowded board holds thousands."""
    on_loops = state.loop_stones() if hasattr(state, "loop_stones") else frozenset()
    if not on_loops:
        return [Text("No loops on the board", dim=True)]
    counts = {color: 0 for color in state.game.colors}
    for cell in on_loops:
        color = state.stone_at(cell)
        counts[color] = counts.get(color, 0) + 1
    stones = "stone" if len(on_loops) == 1 else "stones"
    detail = ", ".join(f"{n} {color}" for color, n in counts.items())
    return [Text(f"Loops outlined: {len(on_loops)} {stones} on them"),
            Text(f"  ({detail})", dim=True)]


def _astralis_facts(state: State) -> list[Segment]:
    if not hasattr(state, "score"):
        return []
    line: list[Segment] = []
    komi = getattr(state, "KOMI", 3.5)
    for i, color in enumerate(state.game.colors):
        score = state.score(color)
        if i:
            line.append(Text("   "))
        line += [Swatch(color), Text(f" {color.capitalize()} {score:g}")]
        if i == 1 and komi:
            territory = getattr(state, "territory", None)
            if territory is not None:
                line.append(Text(f" ({territory(color)} + {komi:g} komi)", dim=True))
    deferred = tuple(getattr(state, "deferred_bonuses", ()) or ())
    if deferred:
        cells = ", ".join(f"{cell} ({color})" for cell, color in deferred)
        line.append(Text(f"   deferred bonus: {cells}", dim=True))
    return line


_FACTS = {
    "asli": _asli_facts,
    "lifeline": _lifeline_facts,
    "astralis": _astralis_facts,
    "sliglube": _sliglube_facts,
}


def caption_lines(state: State, names: Mapping[int, str] | None = None) -> list[list[Segment]]:
    """Three lines: the game and the last move; whose turn or the result; the facts."""
    facts = _FACTS.get(state.game.name, lambda s: [])(state)
    if not facts and names:
        facts = _players(state, names)
    return [_move_line(state), _status_line(state, names), facts]


def _players(state: State, names: Mapping[int, str]) -> list[Segment]:
    line: list[Segment] = []
    for seat in (0, 1):
        color = state.color_of(seat)
        if line:
            line.append(Text("   "))
        if color is not None:
            line.append(Swatch(color))
            line.append(Text(f" {color.capitalize()}: "))
        line.append(Text(_who(state, seat, names), dim=True))
    return line
