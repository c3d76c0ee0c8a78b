"""The caption band's text: which game and move, whose turn or how the game
ended, the game's own facts (from its painter), and a legend of the marks.

Each line is a list of segments: text (with a colour role), a swatch (a small
stone of a colour, drawn next to a colour's name) or a key (a sample of a mark,
for the legend). :func:`fit` wraps the lines into the caption's fixed number
of rows at a fixed, readable size: a line that cannot fit is cut with "…",
never shrunk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from render import text
from render.marks import words
from render.segments import Badge, Ending, Key, Line, Segment, Swatch, Text
from render.words import N_, _, aside, color_name, lead, spoken
from rules import State

if TYPE_CHECKING:
    from render.games import Painter


def who(seat: int, names: Mapping[int, str] | None, *, start: bool = False) -> str:
    """The player in ``seat``: their name exactly as written (never re-cased: "McGregor",
    "Ωmega"), else "first player" ("First player" to ``start`` a sentence)."""
    name = (names or {}).get(seat)
    if name:
        return name
    if start:
        return _("First player") if seat == 0 else _("Second player")
    return _("first player") if seat == 0 else _("second player")


#: The badge that opens the caption of a move shown before it is played.
PREVIEW = N_("PREVIEW")


def _move_line(state: State, painter: Painter, preview: bool = False) -> Line:
    # the game's name, then its board and options, which give way before the move is cut
    name, dot, details = painter.title(state).partition(" · ")
    title: Line = [Text(name), *([Text(dot + details, spare=TITLE)] if details else [])]
    badge: Line = [Badge(_(PREVIEW)), Text("  ")] if preview else []
    if not state.history:
        return [*badge, *title, Text("  ·  " + _("start"), dim=True)]
    return [
        *badge,
        *title,
        Text("  ·  " + lead(_("move {number}:", number=state.ply)), dim=True),
        Text(painter.move_text(state, state.history[-1])),
        *([Text(aside(_("(not played yet)")), dim=True, spare=EXAMPLE)] if preview else []),
    ]


def _status_line(state: State, names: Mapping[int, str] | None, outcome: Ending | None) -> Line:
    if outcome is not None or state.is_over:
        if outcome is not None:
            said = spoken(outcome.text)
            # rules.Outcome names the winning seat; a bare stand-in may carry only text
            winner = getattr(outcome, "winner", None)
        else:
            said, winner = spoken(state.result) if state.result else _("Game over"), state.winner
        line: Line = [Text(said)]
        name = (names or {}).get(winner) if winner is not None else None
        if name and not said.startswith(f"{name} "):  # named once
            line.append(Text(aside(_("({name} wins)", name=name)), dim=True))
        return line
    seat = state.to_move
    if seat is None:
        return []
    color = state.color_of(seat)
    tail = _prompt(spoken(state.prompt))
    if color is None:
        return [Text(_("{player} to move", player=who(seat, names, start=True))), *tail]
    name = (names or {}).get(seat)
    named = [Text(f" ({name})", dim=True)] if name else []
    return [Swatch(color), Text(" " + _("{color} to move", color=color_name(color))), *named, *tail]


#: The example a prompt ends with: "move your pawn, then … (e.g. d4 e5)".
_EXAMPLE = re.compile(r"(?P<what>.*?)(?P<example> \(e\.g\. [^()]*\))")

#: How early words give way when room is short (see ``Text.spare``): the players
#: after the game's facts (the status names the one to move), an example, details,
#: and last the board and options after the game's name (only if that ends the cut).
PLAYERS, EXAMPLE, DETAIL, TITLE = 1, 2, 3, 4


def _prompt(prompt: str) -> Line:
    """ ": what to do" after whose turn it is; an example there gives way first."""
    if not prompt:
        return []
    found = _EXAMPLE.fullmatch(prompt)
    if found is None:
        return [Text(f": {prompt}", dim=True)]
    return [
        Text(f": {found['what']}", dim=True),
        Text(found["example"], dim=True, spare=EXAMPLE),
    ]


def players(state: State, names: Mapping[int, str], spare: int = 0) -> Line:
    """Each seat's colour and name: "● Black: Ann   ○ White: Bob"."""
    line: Line = []
    for seat in (0, 1):
        color = state.color_of(seat)
        if line:
            line.append(Text("   ", spare=spare))
        if color is not None:
            line += [Swatch(color, spare), Text(f" {color_name(color)}: ", spare=spare)]
        line.append(Text(who(seat, names), dim=True, spare=spare))
    return line


def legend(keys: Sequence[Key]) -> Line:
    line: Line = []
    for key in keys:
        line += [key, Text(f" {key.label or words(key.mark, key.color)}   ")]
    return line


def caption_lines(
    state: State,
    names: Mapping[int, str] | None = None,
    *,
    painter: Painter | None = None,
    outcome: Ending | None = None,
    keys: Sequence[Key] = (),
    preview: bool = False,
) -> list[Line]:
    """Four lines: the game and the last move; whose turn or how the game ended
    (``outcome``, when the bot ended it: resignation, time, abort); the game's
    facts (or the players); the legend of the marks ``keys``. A ``preview`` (the
    last move is not played yet) opens with a badge and says the turn as what
    would follow: "Then: ● White to move"."""
    if painter is None:
        from render.games import painter_for

        painter = painter_for(state.game)
    facts = painter.facts(state)
    if not facts and names:
        facts = players(state, names)
    elif names:  # both players named, where there is room (Lifeline's komi left…)
        facts = [*facts, Text("   ", spare=PLAYERS), *players(state, names, PLAYERS)]
    status = _status_line(state, names, outcome)
    if preview and status:
        status = [Text(lead(_("Then:")), dim=True), *status]
    return [_move_line(state, painter, preview), status, facts, legend(keys)]


# -- fitting the lines into the caption's rows ----------------------------------------


def swatch_width(size: int) -> float:
    return size * 1.05


def key_width(size: int) -> float:
    return size * 1.3


def badge_width(label: str, size: int) -> float:
    return text.length(label, size) + size * 0.7


def width(segment: Segment, size: int) -> float:
    if isinstance(segment, Text):
        return text.length(segment.text, size)
    if isinstance(segment, Badge):
        return badge_width(segment.text, size)
    return key_width(size) if isinstance(segment, Key) else swatch_width(size)


def _atoms(line: Line) -> list[Line]:
    """Unbreakable pieces: words (with their trailing spaces), a swatch or key
    glued to the word after it."""
    atoms: list[Line] = []
    glue = False
    for segment in line:
        if isinstance(segment, Text):
            for token in text.pieces(segment.text):
                piece = Text(token, segment.dim)
                if glue:
                    atoms[-1].append(piece)
                    glue = False
                else:
                    atoms.append([piece])
        else:
            atoms.append([segment])
            glue = True
    return atoms


def _trim(row: Line) -> Line:
    """``row`` without spaces at its ends."""
    if row and isinstance(row[0], Text):
        row = [Text(row[0].text.lstrip(), row[0].dim), *row[1:]]
    if row and isinstance(row[-1], Text):
        row = [*row[:-1], Text(row[-1].text.rstrip(), row[-1].dim)]
    return [s for s in row if not isinstance(s, Text) or s.text]


def wrap(line: Line, size: int, room: float, rows: int | None = None) -> list[Line]:
    """``line`` in rows no wider than ``room``; at most ``rows`` of them, the
    last cut with "…" if the line does not fit."""
    out: list[Line] = []
    row: Line = []
    used = 0.0
    atoms = _atoms(line)
    for k, atom in enumerate(atoms):
        wide = sum(width(s, size) for s in atom)
        if row and used + wide - _trailing(atom, size) > room:
            out.append(_trim(row))
            row, used = [], 0.0
            if rows is not None and len(out) == rows:
                out[-1] = _ellipsis(out[-1], atoms[k:], size, room)
                return out
        if not row and isinstance(atom[0], Text):
            atom = [Text(atom[0].text.lstrip(), atom[0].dim), *atom[1:]]
            wide = sum(width(s, size) for s in atom)
        if wide > room:  # one word wider than the row: cut it
            atom = [
                Text(
                    text.fit(
                        "".join(s.text for s in atom if isinstance(s, Text)), size, room - used
                    )
                )
            ]
            wide = room
        row += atom
        used += wide
    if row:
        out.append(_trim(row))
    return out if rows is None else out[:rows]


def _trailing(atom: Line, size: int) -> float:
    last = atom[-1]
    if isinstance(last, Text):
        return width(last, size) - text.length(last.text.rstrip(), size)
    return 0.0


def _ellipsis(row: Line, rest: list[Line], size: int, room: float) -> Line:
    """``row`` followed by as much of ``rest`` as fits before a closing "…"."""
    dots = text.length("…", size)
    row = list(row)
    for atom in rest:
        candidate = _trim(row + atom)
        if sum(width(s, size) for s in candidate) + dots > room:
            break
        row = row + atom
    row = _trim(row)
    while row and sum(width(s, size) for s in row) + dots > room:
        row = _trim(row[:-1])
    dim = isinstance(row[-1], Text) and row[-1].dim if row else False
    return [*row, Text("…", dim)]


def fit(lines: list[Line], size: int, room: float, rows: int) -> list[Line]:
    """The caption's ``lines`` (move, status, facts, legend) in ``rows`` rows:
    one for the move, at least one for each other line that has something to
    say, and the rows left over to the status, then the legend, then the facts.
    A legend that fits after the move shares its row (the move, then what it
    did), else one that fits after the facts shares theirs. When the lines need
    more rows than there are, words that can be spared give way (see
    ``Text.spare``: an example first) before anything is cut with "…"."""
    levels = sorted({getattr(s, "spare", 0) for line in lines for s in line} | {0})
    out: list[Line] = []
    before: list[Line] | None = None
    for level in levels:
        kept = [[s for s in line if not 0 < getattr(s, "spare", 0) <= level] for line in lines]
        out, cut = _plan(kept, size, room, rows)
        if not cut and not _players_take_a_row(kept[2], size, room):
            break
        if level == TITLE and before is not None:
            return before  # dropping the board and options would not end the cut
        before = out
    return out


def _players_take_a_row(facts: Line, size: int, room: float) -> bool:
    """Whether the players after the facts need a row of their own (or split a name
    across two): they only go where the facts leave room."""
    alone = [s for s in facts if getattr(s, "spare", 0) != PLAYERS]
    return len(alone) < len(facts) and len(wrap(facts, size, room)) > len(wrap(alone, size, room))


def _plan(lines: list[Line], size: int, room: float, rows: int) -> tuple[list[Line], bool]:
    """:func:`fit`'s rows for ``lines`` as they are, and whether any line was cut."""
    move, status, facts, keys = lines
    if keys:
        lines = _share_legend(move, status, facts, keys, size, room)
    wrapped = [wrap(line, size, room) for line in lines]
    need = [len(w) for w in wrapped]
    give = [min(1, n) for n in need]
    give[0] = 1
    spare = rows - sum(give)
    for k in (1, 3, 2):
        extra = max(0, min(need[k] - give[k], spare))
        give[k] += extra
        spare -= extra
    out: list[Line] = []
    cut = False
    for line, wrapped_line, count in zip(lines, wrapped, give, strict=True):
        if len(wrapped_line) > count:
            cut = True
        if count:
            out += wrapped_line if len(wrapped_line) <= count else wrap(line, size, room, count)
    return out[:rows], cut or len(out) > rows


def _share_legend(
    move: Line, status: Line, facts: Line, keys: Line, size: int, room: float
) -> list[Line]:
    """The legend after the move if it fits there, else in the room left after the
    move and after the facts (the first keys after the move, the others after the
    facts), else on rows of its own."""
    gap = Text("     ")
    pairs = [keys[k : k + 2] for k in range(0, len(keys), 2)]  # a key and its words
    for split in range(len(pairs), -1, -1):
        first = [s for pair in pairs[:split] for s in pair]
        rest = [s for pair in pairs[split:] for s in pair]
        if first and _width(_trim([*move, gap, *first]), size) > room:
            continue
        if rest and (not facts or _width(_trim([*facts, gap, *rest]), size) > room):
            continue
        return [
            [*move, gap, *first] if first else move,
            status,
            [*facts, gap, *rest] if rest else facts,
            [],
        ]
    return [move, status, facts, keys]


def _width(line: Line, size: int) -> float:
    return sum(width(s, size) for s in line)
