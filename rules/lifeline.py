"""Lifeline (Michael Amundsen & Luis Bolaños Mures, 2022), on a hexhex board.

The rules (``shared/rules/lifeline.md`` decides every detail):

- A *group* is a maximal set of connected stones of one colour. A group is
  *alive* when one of the empty regions it touches (a region being a maximal
  set of connected empty cells) also touches another group of its colour;
  otherwise it is *dead*. A colour with a single group has it dead.
- A turn: place a stone on any empty cell, remove every dead enemy group, then
  judge again and remove every dead friendly group. The board at the end of a
  turn must differ from the board at its start: a placement whose only effect
  is that its own stone dies is illegal (one that kills an enemy group is
  legal even if the placed stone dies too).
- The player to move who has no legal action loses. Once both players have
  completed their first turn, the game ends as soon as a turn leaves a player
  with no stones on the board, and that player loses (the one who made the
  turn wins if it leaves neither a stone).
- Openings: *strong pie* (each player's first turn places two stones, White
  may ``swap`` instead of its first turn), *weak pie* (one stone a turn, no
  removal during the first three placements, the swap offered after Black's
  first stone), *komi pie* (the first player chooses a komi, the second a
  colour; the first four stones as in the weak pie, no swap; then White may
  ``pass`` to spend one point of komi instead of placing).

Rulings (see ``tests/rules/test_lifeline.py``): a stone may go
on any empty cell, as the seed says (AbstractPlay and Ludii also forbid an empty
region touching none of your groups; such a placement is legal here when it
changes the board, which it can only do by killing); the komi always belongs to
whoever holds White; a ``swap`` is not a first turn for the no-stones ending.

State attributes beyond the contract: ``opening`` (the option), ``komi``
(the chosen komi, komi pie only, else None) and ``komi_left`` (White's
unspent komi, None unless komi pie).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from rules.errors import IllegalMove, InvalidMove
from rules.game import NO_CHANGE, Change, Decision, Game, NumberChoice, State, normalize_move
from rules.hexhex import HexBoard
from rules.options import Option
from rules.outcome import Outcome, Termination
from rules.plugins import Plugins
from rules.words import Words, colour_title

EMPTY, BLACK, WHITE = 0, 1, 2
NAMES = {BLACK: "black", WHITE: "white"}
STRONG, WEAK, KOMI = "strong-pie", "weak-pie", "komi-pie"
_CELLISH = re.compile(r"[a-z]\d+")
_NUMBER = re.compile(r"[+-]?\d+", re.ASCII)
_WORDS = ("black", "white", "swap", "pass")
Neighbours = Sequence[Sequence[int]]


# -- liveness ---------------------------------------------------------------


def _flood_region(
    cells: Sequence[int], neighbours: Neighbours, label: list[int], start: int, ident: int, old: int
) -> tuple[list[int], set[int]]:
    """Label the empty region around ``start`` (cells labelled ``old``) with ``ident``;
    returns its cells and the ids of the groups next to it."""
    label[start] = ident
    comp = [start]
    near: set[int] = set()
    for cell in comp:
        for other in neighbours[cell]:
            if cells[other]:
                near.add(label[other])
            elif label[other] == old:
                label[other] = ident
                comp.append(other)
    return comp, near


class _Analysis:
    """Groups and empty regions of one board, found in a single flood-fill pass.

    Every maximal connected set of equal cells gets an id: ``kind[id]`` is its
    content (EMPTY for a region, else the group's colour), ``members[id]`` its
    cells, ``label[cell]`` its id. ``touch[region]`` holds the groups next to
    the region; ``partners[group]`` the regions that link it to another group
    of its colour: a group is alive exactly when that list is not empty.

    :meth:`placed` derives the analysis after one more stone from this one;
    the ids of what it destroys then stay unused (``kind`` -1, no members).
    """

    __slots__ = ("dead_groups", "kind", "label", "members", "partners", "touch")

    def __init__(self, cells: Sequence[int], neighbours: Neighbours) -> None:
        label = [-1] * len(cells)
        kind: list[int] = []
        members: list[list[int]] = []
        for start, content in enumerate(cells):
            if not content or label[start] >= 0:
                continue
            ident = len(kind)
            label[start] = ident
            comp = [start]
            for cell in comp:
                for other in neighbours[cell]:
                    if label[other] < 0 and cells[other] == content:
                        label[other] = ident
                        comp.append(other)
            kind.append(content)
            members.append(comp)
        # The regions, noting the groups around each while flooding it.
        touch: dict[int, set[int]] = {}
        partners: list[list[int]] = [[] for _ in kind]
        for start, content in enumerate(cells):
            if content or label[start] >= 0:
                continue
            region = len(kind)
            comp, near = _flood_region(cells, neighbours, label, start, region, -1)
            kind.append(EMPTY)
            members.append(comp)
            partners.append([])
            touch[region] = near
            if len(near) > 1:
                for colour in (BLACK, WHITE):
                    same = [g for g in near if kind[g] == colour]
                    if len(same) > 1:
                        for group in same:
                            partners[group].append(region)
        self.kind, self.label, self.members = kind, label, members
        self.touch, self.partners = touch, partners
        #: the dead groups, in board order of their first cell
        self.dead_groups = [g for g, k in enumerate(kind) if k != EMPTY and not partners[g]]

    def dead(self, colour: int) -> list[int]:
        """The dead groups of ``colour``, in board order of their first cell."""
        return [g for g in self.dead_groups if self.kind[g] == colour]

    def all_alive(self) -> bool:
        return not self.dead_groups

    def placed(self, cells: Sequence[int], spot: int, neighbours: Neighbours) -> _Analysis:
        """The analysis of ``cells``: this board with one more stone, on ``spot``.

        Only the stone's region and the groups it joins change: the region
        splits into new regions (flooded again), the joined groups become one
        new group, and the regions next to that group now touch it instead.
        The partners of the groups next to any of those regions are judged
        again; everything else is shared with this analysis.
        """
        colour = cells[spot]
        old_label, old_touch, old_partners = self.label, self.touch, self.partners
        label, kind, members = old_label[:], self.kind[:], self.members[:]
        touch, partners = dict(old_touch), old_partners[:]
        region = old_label[spot]
        joined = {old_label[v] for v in neighbours[spot] if cells[v] == colour}
        # the new group
        group = len(kind)
        stones = [spot]
        for old in joined:
            stones.extend(members[old])
            kind[old] = -1
            members[old] = []
            partners[old] = []
        for cell in stones:
            label[cell] = group
        kind.append(colour)
        members.append(stones)
        partners.append([])
        # the stone's region, split
        kind[region] = -1
        del touch[region]
        new_regions = []
        for start in self.members[region]:
            if label[start] != region:
                continue
            ident = len(kind)
            comp, near = _flood_region(cells, neighbours, label, start, ident, region)
            kind.append(EMPTY)
            members.append(comp)
            partners.append([])
            touch[ident] = near
            new_regions.append(ident)
        members[region] = []
        # the regions around the new group now touch it instead of the joined groups
        changed = set(new_regions)
        for cell in stones:
            for other in neighbours[cell]:
                if not cells[other]:
                    changed.add(label[other])
        for r in changed:
            if r not in new_regions and not touch[r].isdisjoint(joined):
                touch[r] = {group, *(g for g in touch[r] if g not in joined)}
        # partners, for every group next to a region that changed
        changed.add(region)
        judged = set(old_touch[region])
        for r in changed:
            if r != region:
                judged.update(touch[r])
        judged -= joined
        judged.add(group)
        linked: dict[int, list[int]] = {}
        for r in changed:
            if r == region or len(touch[r]) < 2:
                continue
            for own in (BLACK, WHITE):
                same = [g for g in touch[r] if kind[g] == own]
                if len(same) > 1:
                    for g in same:
                        linked.setdefault(g, []).append(r)
        for g in judged:
            keep = [r for r in old_partners[g] if r not in changed] if g != group else []
            partners[g] = keep + linked.get(g, [])
        dead = [g for g in self.dead_groups if kind[g] > EMPTY and g not in judged]
        dead += [g for g in judged if not partners[g]]
        result = object.__new__(_Analysis)
        result.kind, result.label, result.members = kind, label, members
        result.touch, result.partners = touch, partners
        result.dead_groups = sorted(dead, key=lambda g: min(members[g]))
        return result


def _settle(
    cells: bytearray,
    mover: int,
    neighbours: Neighbours,
    before: _Analysis | None = None,
    spot: int = -1,
) -> tuple[list[tuple[int, int]], _Analysis]:
    """Steps 2 and 3 of a turn, in place: remove dead enemy groups, then judge
    again and remove dead friendly groups. Returns the removed (cell, colour)
    and the analysis of the board that results. ``before``: the analysis of
    the board before a single stone was placed on ``spot``, if known."""
    removed: list[tuple[int, int]] = []
    if before is not None and len(before.kind) <= len(cells):
        analysis = before.placed(cells, spot, neighbours)
    else:  # (also once ids used up by earlier placements outnumber the cells)
        analysis = _Analysis(cells, neighbours)
    for colour in (3 - mover, mover):
        dead = analysis.dead(colour)
        if dead:
            for group in dead:
                for cell in sorted(analysis.members[group]):
                    cells[cell] = EMPTY
                    removed.append((cell, colour))
            analysis = _Analysis(cells, neighbours)
    return removed, analysis


def _legal_cells(cells: bytes, analysis: _Analysis, mover: int) -> list[int]:
    """The empty cells where ``mover`` may place one stone (removal active).

    Found by reasoning, not by simulating each cell. If a group is dead now,
    every placement removes something: a dead group stays dead when a stone of
    the other colour lands, and a dead friendly group is revived only by a
    placed stone that itself survives. (That happens only at the fourth
    placement of the weak and komi pies: every other turn leaves all groups
    alive.) Otherwise a placement is legal exactly in the regions that touch a
    friendly group: there the new stone is alive, or joins friendly stones
    that die with it. In a region touching enemies only it changes nothing:
    going round the placed cell, each run of enemy stones between two
    stretches of the region is one group reaching both stretches, so if one
    enemy group were cut off from all others in the region, every group would
    be, and the region could not have linked any two of them before.
    """
    if not analysis.all_alive():
        return [i for i, c in enumerate(cells) if c == EMPTY]
    kind = analysis.kind
    legal: list[int] = []
    for region, near in analysis.touch.items():
        if any(kind[g] == mover for g in near):
            legal.extend(analysis.members[region])
    legal.sort()
    return legal


# -- two-stone first turns (strong pie) ---------------------------------------


@cache
def _pair_table(size: int) -> tuple[list[list[int]], list[list[str]]]:
    """For each cell x, the cells y > x not adjacent to it, and the move texts."""
    board = HexBoard.of(size)
    ys: list[list[int]] = []
    texts: list[list[str]] = []
    for x, name in enumerate(board.cells):
        near = set(board.neighbours[x])
        row = [y for y in range(x + 1, len(board)) if y not in near]
        ys.append(row)
        texts.append([f"{name} {board.cells[y]}" for y in row])
    return ys, texts


@cache
def _open_pairs(size: int) -> tuple[str, ...]:
    """Black's legal first moves on the empty board: any two non-adjacent cells.

    The board stays connected without any two cells, so two apart stones share
    the empty region (both alive); adjacent ones form a lone, dead group."""
    return tuple(text for row in _pair_table(size)[1] for text in row)


def _white_first_pairs(size: int, cells: bytes) -> list[str]:
    """White's legal two-stone first moves, beside Black's two apart stones:
    again any two apart cells. Two white stones cannot cut the black pair off
    from each other, nor two apart white stones off from each other: four
    stones can only cut a piece of one to three cells out of a corner or edge,
    and no such cut does it (checked for every opening on bases 3 to 5, whose
    corners and edges look like those of every larger board)."""
    blacks = [i for i, c in enumerate(cells) if c == BLACK]
    ys, texts = _pair_table(size)
    out: list[str] = []
    for x, (row, text) in enumerate(zip(ys, texts, strict=True)):
        if x in blacks:
            continue
        start = 0
        for black in blacks:
            if black > x:
                at = bisect_left(row, black)
                if at < len(row) and row[at] == black:
                    out.extend(text[start:at])
                    start = at + 1
        out.extend(text[start:])
    return out


# -- the game ---------------------------------------------------------------


class LifelineState(State):
    """A Lifeline position. See the module docstring for the rules."""

    __slots__ = (
        "_analysis",
        "_cell_moves",
        "_cells",
        "_change",
        "_ending",
        "_komi",
        "_komi_left",
        "_legal",
        "_mover",
        "_phase",
        "_placements",
        "_started",
        "_white_seat",
        "board",
        "game",
        "history",
        "options",
    )

    board: HexBoard
    _cells: bytes
    _phase: str
    _mover: int
    _white_seat: int | None
    _placements: int
    _started: frozenset[int]
    _komi: int | None
    _komi_left: int | None
    _change: Change
    _analysis: _Analysis | None
    _cell_moves: list[int] | None
    _legal: list[str] | None
    #: the outcome once judged, in a 1-tuple (None: not judged yet)
    _ending: tuple[Outcome | None] | None

    def __init__(
        self,
        game: Game,
        options: Mapping[str, Any],
        history: tuple[str, ...],
        cells: bytes,
        *,
        phase: str,
        mover: int,
        white_seat: int | None,
        placements: int,
        started: frozenset[int],
        komi: int | None,
        komi_left: int | None,
        change: Change,
        analysis: _Analysis | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "game", game)
        put(self, "options", options)
        put(self, "board", HexBoard.of(options["size"]))
        put(self, "history", history)
        put(self, "_cells", cells)
        put(self, "_phase", phase)  # "komi", "colour" or "play"
        put(self, "_mover", mover)  # colour to place (phase "play")
        put(self, "_white_seat", white_seat)
        put(self, "_placements", placements)  # placement turns so far
        put(self, "_started", started)  # colours that have completed a placement turn
        put(self, "_komi", komi)
        put(self, "_komi_left", komi_left)
        put(self, "_change", change)
        put(self, "_analysis", analysis)  # of this board, when play() already made it
        put(self, "_cell_moves", None)
        put(self, "_legal", None)
        put(self, "_ending", None)

    def _replace(self, move: str, **changes: Any) -> LifelineState:
        fields: dict[str, Any] = {
            "cells": self._cells,
            "phase": self._phase,
            "mover": self._mover,
            "white_seat": self._white_seat,
            "placements": self._placements,
            "started": self._started,
            "komi": self._komi,
            "komi_left": self._komi_left,
            "change": NO_CHANGE,
        }
        fields.update(changes)
        return LifelineState(self.game, self.options, (*self.history, move), **fields)

    # -- facts -------------------------------------------------------------

    @property
    def opening(self) -> str:
        return self.options["opening"]

    @property
    def komi(self) -> int | None:
        return self._komi

    @property
    def komi_left(self) -> int | None:
        return self._komi_left

    def color_of(self, seat: int) -> str | None:
        if self._white_seat is None:
            return None
        return "white" if seat == self._white_seat else "black"

    def stone_at(self, cell: str) -> str | None:
        return NAMES.get(self._cells[self.board.index(cell)])

    @property
    def last_change(self) -> Change:
        return self._change

    def _seat_of_colour(self, colour: int) -> int:
        assert self._white_seat is not None
        return self._white_seat if colour == WHITE else 1 - self._white_seat

    @property
    def _two_stones(self) -> bool:
        """Whether this turn is a first turn of the strong pie (two stones)."""
        return self.opening == STRONG and self._mover not in self._started

    @property
    def _swap_open(self) -> bool:
        return self.opening != KOMI and len(self.history) == 1

    @property
    def _pass_open(self) -> bool:
        return (
            self.opening == KOMI
            and self._mover == WHITE
            and self._placements >= 4
            and bool(self._komi_left)
        )

    @property
    def _removal_active(self) -> bool:
        return self.opening == STRONG or self._placements >= 3

    # -- turn order and the end --------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        if self._ending is None:
            object.__setattr__(self, "_ending", (self._judge(),))
            assert self._ending is not None
        return self._ending[0]

    def _judge(self) -> Outcome | None:
        if self._phase != "play":
            return None
        mover, other = colour_title(NAMES[self._mover]), colour_title(NAMES[3 - self._mover])
        winner = 1 - self._seat_of_colour(self._mover)
        if len(self._started) == 2 and self._mover not in self._cells:
            return Outcome(
                winner,
                Termination.NO_STONES,
                Words("{winner} wins: {loser} has no stones left", winner=other, loser=mover),
            )
        if len(self._started) == 2 and 3 - self._mover not in self._cells:
            # The turn just played left its own player without stones.
            return Outcome(
                1 - winner,
                Termination.NO_STONES,
                Words("{winner} wins: {loser} has no stones left", winner=mover, loser=other),
            )
        # With removal on, every turn leaves all groups alive, so a player with
        # stones always has a placement (as the seed notes): in practice games
        # end by the ruling above. This is the rule as stated, kept for safety.
        if not self._two_stones and not self._pass_open and not self._cells_legal():
            text = Words("{winner} wins: {loser} has no legal move", winner=other, loser=mover)
            return Outcome(winner, Termination.NO_MOVES, text)
        return None

    @property
    def to_move(self) -> int | None:
        if self.is_over:
            return None
        if self._phase == "komi":
            return 0
        if self._phase == "colour":
            return 1
        return self._seat_of_colour(self._mover)

    @property
    def prompt(self) -> str:
        if self.is_over:
            return ""
        if self._phase == "komi":
            return Words("choose the komi (komi N, 0–{most})", most=len(self.board))
        if self._phase == "colour":
            return Words(
                "choose your colour: black or white (White gets {komi} komi)", komi=self._komi
            )
        if self._swap_open:
            return (
                Words("place two stones, or swap")
                if self._two_stones
                else Words("place a stone, or swap")
            )
        what = (
            Words("place two stones (e.g. c3 e5)") if self._two_stones else Words("place a stone")
        )
        if self._pass_open:
            return Words("{what}, or pass ({komi} komi left)", what=what, komi=self._komi_left)
        return what

    # -- legal moves -------------------------------------------------------

    def _get_analysis(self) -> _Analysis:
        found = self._analysis
        if found is None:
            found = _Analysis(self._cells, self.board.neighbours)
            object.__setattr__(self, "_analysis", found)
        return found

    def _cells_legal(self) -> list[int]:
        """Legal single placements (not for a two-stone turn)."""
        found = self._cell_moves
        if found is None:
            if self._removal_active:
                found = _legal_cells(self._cells, self._get_analysis(), self._mover)
            else:
                found = [i for i, c in enumerate(self._cells) if c == EMPTY]
            object.__setattr__(self, "_cell_moves", found)
        return found

    def legal_moves(self) -> list[str]:
        found = self._legal
        if found is None:
            found = self._list_moves()
            object.__setattr__(self, "_legal", found)
        return list(found)

    def decisions(self) -> tuple[Decision, ...]:
        if self.is_over:
            return ()
        if self._phase == "komi":
            top = len(self.board)
            return (
                Decision(
                    Words("Choose the komi"),
                    number=NumberChoice(Words("Komi (0–{most})", most=top), "komi {}", 0, top),
                ),
            )
        if self._phase == "colour":
            return Decision(Words("Play black"), "black"), Decision(Words("Play white"), "white")
        if self._swap_open:
            return (Decision(Words("Swap"), "swap"),)
        if self._pass_open:
            label = Words("Pass (spend 1 of {komi} komi)", komi=self._komi_left)
            return (Decision(label, "pass"),)
        return ()

    def _list_moves(self) -> list[str]:
        if self.is_over:
            return []
        if self._phase == "komi":
            return [f"komi {k}" for k in range(len(self.board) + 1)]
        if self._phase == "colour":
            return ["black", "white"]
        special = ["swap"] if self._swap_open else ["pass"] if self._pass_open else []
        if self._two_stones:
            if self._mover == BLACK:
                return special + list(_open_pairs(self.board.size))
            return special + _white_first_pairs(self.board.size, self._cells)
        names = self.board.cells
        return special + [names[i] for i in self._cells_legal()]

    # -- playing -----------------------------------------------------------

    def parse(self, text: str) -> str:
        words = normalize_move(text).split()
        if not words:
            raise InvalidMove("the move is empty")
        head = words[0]
        if head == "komi":
            if len(words) != 2 or not _NUMBER.fullmatch(words[1]):
                shown = " ".join(words[1:]) or "nothing"
                raise InvalidMove(
                    "the komi must be a whole number from 0 to {most}, not {shown} (e.g. komi 5)",
                    most=len(self.board),
                    shown=shown,
                )
            return f"komi {int(words[1])}"
        if head in _WORDS:
            if len(words) > 1:
                raise InvalidMove("{word} takes nothing after it", word=repr(head))
            return head
        if len(words) > 2:
            raise InvalidMove("{text} is not a move here", text=repr(" ".join(words)))
        for word in words:
            if not _CELLISH.fullmatch(word):
                raise InvalidMove("{text} is not a move here", text=repr(word))
        spots = sorted(self.board.index(word) for word in words)  # two in board order
        return " ".join(self.board.cells[spot] for spot in spots)

    def play(self, move: str) -> LifelineState:
        text = self._read(move)
        if self.is_over:
            raise IllegalMove("the game is over: {result}", result=self.result)
        words = text.split()
        head = words[0]
        if head == "komi":
            return self._play_komi(int(words[1]))
        if head == "swap":
            return self._play_swap()
        if head == "pass":
            return self._play_pass()
        if head in ("black", "white"):
            return self._play_colour(head)
        return self._play_cells(words)

    def _not_now(self) -> IllegalMove:
        """The refusal of a placement or choice made in the wrong phase."""
        if self._phase == "komi":
            return IllegalMove("first the komi is chosen: {prompt}", prompt=self.prompt)
        return IllegalMove("the second player now chooses a colour: {prompt}", prompt=self.prompt)

    def _play_komi(self, komi: int) -> LifelineState:
        top = len(self.board)
        if self.opening != KOMI:
            raise IllegalMove(
                "there is no komi in the {opening}: {prompt}",
                opening=self.opening,
                prompt=self.prompt,
            )
        if self._phase != "komi":
            raise IllegalMove("the komi has already been chosen ({komi})", komi=self._komi)
        if not 0 <= komi <= top:
            raise IllegalMove(
                "the komi must be a whole number from 0 to {most}, not {shown} (e.g. komi 5)",
                most=top,
                shown=komi,
            )
        return self._replace(f"komi {komi}", phase="colour", komi=komi, komi_left=komi)

    def _play_colour(self, colour: str) -> LifelineState:
        if self._phase != "colour":
            if self._phase == "komi":
                raise self._not_now()
            if self.opening == KOMI:
                raise IllegalMove("the colours are already decided")
            raise IllegalMove(
                "there is no choice of colour in the {opening} (White may "
                "swap instead of its first turn): {prompt}",
                opening=self.opening,
                prompt=self.prompt,
            )
        white_seat = 1 if colour == "white" else 0
        return self._replace(colour, phase="play", mover=BLACK, white_seat=white_seat)

    def _play_swap(self) -> LifelineState:
        if self._phase != "play":
            raise self._not_now()
        if self.opening == KOMI:
            raise IllegalMove("there is no swap in the komi pie: {prompt}", prompt=self.prompt)
        if not self._swap_open:
            if not self.history:
                raise IllegalMove(
                    "only White can swap, instead of White's first turn: {prompt}",
                    prompt=self.prompt,
                )
            if self.history[-1] == "swap":
                raise IllegalMove(
                    "the colours have just been swapped: {prompt}", prompt=self.prompt
                )
            raise IllegalMove("it is not your first turn: swap is no longer possible")
        return self._replace("swap", white_seat=0, analysis=self._analysis)

    def _play_pass(self) -> LifelineState:
        if self._phase != "play":
            raise self._not_now()
        if self.opening != KOMI:
            raise IllegalMove(
                "there is no passing in the {opening}: {prompt}",
                opening=self.opening,
                prompt=self.prompt,
            )
        if self._mover != WHITE:
            raise IllegalMove("only White can pass, by spending komi: {prompt}", prompt=self.prompt)
        if self._placements < 4:
            raise IllegalMove(
                "komi can be spent only after the first four stones: {prompt}", prompt=self.prompt
            )
        if not self._komi_left:
            raise IllegalMove("you have no komi left to spend: {prompt}", prompt=self.prompt)
        return self._replace(
            "pass", mover=BLACK, komi_left=self._komi_left - 1, analysis=self._analysis
        )

    def _empty_cell(self, name: str) -> int:
        index = self.board.index(name)
        if self._cells[index] != EMPTY:
            raise IllegalMove("{cell} is occupied", cell=name)
        return index

    def _play_cells(self, words: list[str]) -> LifelineState:
        """Place the stones on the cells ``words`` (one or two, in board order)."""
        if self._phase != "play":
            raise self._not_now()
        two = self._two_stones
        if len(words) == 2 and not two:
            raise IllegalMove(
                "place one stone per turn (e.g. c3): only the first turn "
                "of the strong pie takes two"
            )
        spots = [self._empty_cell(word) for word in words]
        if two and len(spots) == 1:
            raise IllegalMove("place two stones on your first turn (e.g. c3 e5)")
        if len(spots) == 2 and spots[0] == spots[1]:
            raise IllegalMove("place your two stones on two different cells")
        spots.sort()
        cells = bytearray(self._cells)
        for spot in spots:
            cells[spot] = self._mover
        removed: list[tuple[int, int]] = []
        analysis = None
        if self._removal_active:
            before = self._analysis if len(spots) == 1 else None
            removed, analysis = _settle(cells, self._mover, self.board.neighbours, before, spots[0])
        after = bytes(cells)
        if after == self._cells:
            reason = (
                Words("that placement changes nothing: your stones would only be removed again")
                if two
                else Words("that placement changes nothing: your stone would only be removed again")
            )
            if two and spots[1] in self.board.neighbours[spots[0]]:
                reason = Words(
                    "that placement changes nothing: your stones would only be removed again "
                    "(two adjacent stones make a single group, which is dead)"
                )
            raise IllegalMove(reason)
        names = self.board.cells
        change = Change(
            placed=tuple(names[s] for s in spots),
            removed=tuple((names[c], NAMES[colour]) for c, colour in removed),
        )
        return self._replace(
            " ".join(names[s] for s in spots),
            cells=after,
            mover=3 - self._mover,
            placements=self._placements + 1,
            started=self._started | {self._mover},
            change=change,
            analysis=analysis,
        )


class Lifeline(Game):
    name: ClassVar[str] = "lifeline"
    title: ClassVar[str] = "Lifeline"
    colors: ClassVar[tuple[str, str]] = ("black", "white")
    #: Its fast search position, AI knowledge, painter and guide (see rules.plugins).
    plugins: ClassVar[Plugins] = Plugins(
        fast="rules.fast.lifeline:position",
        ai="ai.games.lifeline:knowledge",
        painter="render.games.lifeline:PAINTER",
        guide="bot.learning.guides.lifeline:GUIDE",
    )
    terminations: ClassVar[tuple[Termination, ...]] = (Termination.NO_STONES, Termination.NO_MOVES)
    option_specs: ClassVar[tuple[Option, ...]] = (
        Option("size", int, 7, "cells on each side of the hexhex board", minimum=3, maximum=12),
        Option(
            "opening",
            str,
            STRONG,
            "how the first-move advantage is balanced",
            choices=(STRONG, WEAK, KOMI),
        ),
    )
    summary: ClassVar[str] = (
        "**Lifeline** (Michael Amundsen & Luis Bolaños Mures, 2022). Black and White place "
        "stones on the cells of a hexhex board.\n"
        "A *group* is a set of connected stones of one colour. It is *alive* if a path of "
        "empty cells leads from it to another group of its colour; otherwise it is dead.\n"
        "On your turn place a stone on any empty cell, then remove all dead enemy groups, "
        "then all dead friendly groups. The board must change: a stone that would only be "
        "removed again cannot be placed. The last player to place wins: if you cannot move, "
        "or a turn leaves you without stones after the first turns, you lose.\n"
        "**Openings.** Strong pie (standard): each player's first turn places two stones "
        "(`c3 e5`); White may `swap` instead of its first turn, taking over Black's stones. "
        "Weak pie: one stone a turn, nothing is removed before the fourth stone, White may "
        "`swap` after Black's first stone. Komi pie: the first player sets a komi "
        "(`komi 5`), the second picks `black` or `white`; White may later `pass` to spend "
        "one point of komi.\n"
        "**Notation.** Rows are letters from the bottom (`a`), cells numbered from the left: "
        "`c3`. Moves: `c3`, `c3 e5`, `swap`, `komi 5`, `black`, `white`, `pass`."
    )

    def _initial(self, options: dict[str, Any]) -> LifelineState:
        size = options["size"]
        komi = options["opening"] == KOMI
        return LifelineState(
            self,
            options,
            (),
            bytes(len(HexBoard.of(size))),
            phase="komi" if komi else "play",
            mover=BLACK,
            white_seat=None if komi else 1,
            placements=0,
            started=frozenset(),
            komi=None,
            komi_left=None,
            change=NO_CHANGE,
        )


GAME = Lifeline()
