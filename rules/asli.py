"""Asli (Luis Bolaños Mures, 2023): a territory game for Black and White on the
points of a square grid, with an off-board prison. ``shared/rules/asli.md``
decides every detail; in short:

* A *group* is a maximal orthogonally connected set of same-coloured stones. It
  is *alive* if a path of empty points leads from it to another group of its
  colour, or if its colour has never had two groups on the board at the end of
  a turn and has exactly one group now. Otherwise it is *dead*.
* A *territory* is a maximal connected set of empty points; a player owns it if
  it touches at least one stone and only that player's stones.
* Opening: seat 0 puts K black stones in the prison (``komi K``), seat 1 picks a
  colour (``black``/``white``), then Black acts first.
* A turn is a Hold (``hold``: take one enemy stone out of the prison) or a Play
  (``c3``: place a stone, move every dead enemy group to the prison, cancel
  black/white pairs there). A play may not leave a friendly group dead, and a
  *minimal incursion* (a play into enemy territory that kills exactly one enemy
  group) may not answer a minimal incursion.
* The player who cannot act loses. A play that recreates an earlier end-of-turn
  board with the same colour to move ends the game in a draw.

Rulings (the tests in ``tests/rules/test_asli.py`` show them): the "never had two
groups" clause is a flag per colour, set for good the first time the colour has
two groups at the end of a turn (as on AbstractPlay); for repetition the position
is the stones on the board only (not the prison), a Hold is never itself the
repeating move, but the positions after Holds count as earlier positions.
AbstractPlay also allows a negative komi and writes a Hold as ``pass``.

State attributes besides the contract: ``komi`` (int, None before it is
chosen), ``prison_color`` ("black"/"white"/None), ``prison_count``, and
``ever_two_groups`` (the colours whose "has had two groups" flag is set).

How legality is found fast: every group of both colours is alive at the start
of a turn, and a placement at p changes only p's territory R (split by p) and
the friendly groups next to p (merged with p). Each empty point then shares a
territory with p's new group, so the player's only group that can die is the
one containing p, and only enemy groups whose *sole* link runs through R can
die. One labelling pass over groups and territories gives those facts; a
depth-first search of R (articulation points, with bitmasks of the enemy groups
bordering each subtree) tells which of them a placement at each point of R cuts
off. Only a play that would be suicide without its captures needs a walk over
territories and captured groups.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import compress
from typing import Any

from rules.errors import IllegalMove, InvalidMove
from rules.game import NO_CHANGE, Change, Decision, Game, NumberChoice, State, normalize_move
from rules.options import Option
from rules.outcome import Outcome, Termination
from rules.plugins import Plugins
from rules.square import SquareBoard
from rules.words import Plural, Words, colour_title

EMPTY, BLACK, WHITE = 0, 1, 2
_NAME = {BLACK: "black", WHITE: "white"}
_CODE = {"black": BLACK, "white": WHITE}
_KOMI = re.compile(r"komi (-?[0-9]+)", re.ASCII)
_WORDS = ("black", "white", "hold")

# Outcome of a placement, per empty point.
_LEGAL, _SUICIDE, _REPLY = 0, 1, 2


def _bits(mask: int):
    """The indices of the set bits of ``mask``."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _Analysis:
    """Groups, territories and the outcome of a placement on every empty point,
    for the colour ``me`` about to play. Built once per State, on demand.

    ``status[p]`` is _LEGAL, _SUICIDE or _REPLY (a minimal incursion answering
    one), -1 on stones; ``dead[p]`` the mask of enemy groups a stone on p kills;
    ``minimal[p]`` whether that play is a minimal incursion.
    """

    __slots__ = (
        "bit",
        "dead",
        "group_color",
        "group_of",
        "group_regions",
        "group_stones",
        "me",
        "mine",
        "minimal",
        "my_border",
        "neighbours",
        "region_of",
        "regions",
        "status",
        "stones",
        "their_border",
        "touch_cache",
    )

    def __init__(
        self,
        stones: bytes,
        neighbours: tuple[tuple[int, ...], ...],
        me: int,
        my_flag: bool,
        after_minimal: bool,
        only: int | None = None,
    ) -> None:
        """``only``: judge that empty point alone (``status``, ``dead`` and
        ``minimal`` hold nothing for the others), for playing one move."""
        self.stones = stones
        self.neighbours = neighbours
        self.me = me
        self.touch_cache: dict[int, int] = {}
        self._label()
        self._find_kills(only)
        self._judge(my_flag, after_minimal, only)

    def _label(self) -> None:
        """Number the groups, then the territories (one flood fill each); note for
        each territory the masks of my groups and enemy groups touching it, and
        for each group the territories it touches."""
        stones, neighbours = self.stones, self.neighbours
        n = len(stones)
        group_of = [-1] * n
        group_stones: list[list[int]] = []
        group_color: list[int] = []
        for i, colour in enumerate(stones):
            if not colour or group_of[i] >= 0:
                continue
            label = len(group_stones)
            group_of[i] = label
            members = [i]
            for u in members:
                for v in neighbours[u]:
                    if stones[v] == colour and group_of[v] < 0:
                        group_of[v] = label
                        members.append(v)
            group_stones.append(members)
            group_color.append(colour)
        self.bit = bit = [1 << g for g in range(len(group_stones))]
        me = self.me
        self.mine = mine = sum(bit[g] for g, c in enumerate(group_color) if c == me)
        region_of = [-1] * n
        regions: list[list[int]] = []
        my_border: list[int] = []
        their_border: list[int] = []
        group_regions: list[list[int]] = [[] for _ in group_stones]
        self.my_border, self.their_border = my_border, their_border
        self.group_regions = group_regions
        for i, colour in enumerate(stones):
            if colour or region_of[i] >= 0:
                continue
            label = len(regions)
            region_of[i] = label
            members = [i]
            mask = 0
            for u in members:
                for v in neighbours[u]:
                    if stones[v]:
                        mask |= bit[group_of[v]]
                    elif region_of[v] < 0:
                        region_of[v] = label
                        members.append(v)
            regions.append(members)
            my_border.append(mask & mine)
            their_border.append(mask & ~mine)
            for g in _bits(mask):
                group_regions[g].append(label)
        self.group_of, self.group_stones, self.group_color = group_of, group_stones, group_color
        self.region_of, self.regions = region_of, regions

    def _find_kills(self, only: int | None) -> None:
        """Which enemy groups a stone on each point (or on ``only``) kills. Only
        an enemy group that lives through one territory alone can die, and only
        by a stone in that territory. (An enemy with a single group cannot lose
        it: that group is alive by clause (b) and stays so, or it would not be on
        the board.)"""
        their_border = self.their_border
        at_risk: dict[int, int] = {}
        for g, colour in enumerate(self.group_color):
            if colour == self.me:
                continue
            linking = [r for r in self.group_regions[g] if their_border[r] & (their_border[r] - 1)]
            if len(linking) == 1:
                at_risk[linking[0]] = at_risk.get(linking[0], 0) | self.bit[g]
        self.dead = dead = [0] * len(self.stones)
        if only is not None:
            r = self.region_of[only]
            if r in at_risk:
                dead[only] = _cut_at(only, r, at_risk[r], their_border[r], self)
        elif at_risk:
            scratch = _Search(len(self.stones))
            for r, risk in at_risk.items():
                _cut_off(
                    self.regions[r],
                    risk,
                    self.stones,
                    self.neighbours,
                    self.group_of,
                    self.bit,
                    self.me,
                    dead,
                    scratch,
                )

    def _judge(self, my_flag: bool, after_minimal: bool, only: int | None) -> None:
        """The outcome of a stone on each empty point p of territory R.

        Every empty point left in R touches p's new group, so my groups other
        than that one keep a path to it or keep the path they had: the play is
        legal iff the new group (p with the groups it joins) is alive, through
        clause (b), through R, through a territory of a joined group, or once
        the enemy groups it kills are gone.
        """
        stones, neighbours, group_of, bit = self.stones, self.neighbours, self.group_of, self.bit
        my_border, their_border, group_regions = (
            self.my_border,
            self.their_border,
            self.group_regions,
        )
        me, dead = self.me, self.dead
        my_count = self.mine.bit_count()
        single = not my_flag
        n = len(stones)
        self.status = status = [-1] * n
        self.minimal = minimal = [False] * n
        regions: Iterable[tuple[int, list[int]]] = (
            enumerate(self.regions) if only is None else [(self.region_of[only], [only])]
        )
        for r, points in regions:
            mb = my_border[r]
            mb_count = mb.bit_count()
            incursion = not mb and their_border[r]
            for p in points:
                joined = 0
                for v in neighbours[p]:
                    if stones[v] == me:
                        joined |= bit[group_of[v]]
                joined_count = joined.bit_count() if joined else 0
                killed = dead[p]
                # still a single group (clause b), or R touches another group of mine
                alive = (single and joined_count == my_count) or mb_count > joined_count
                if not alive:
                    alive = any(
                        s != r and my_border[s] & ~joined
                        for g in _bits(joined)
                        for s in group_regions[g]
                    )
                    if not alive and killed:
                        alive = self._rescued(p, joined, killed)
                if not alive:
                    status[p] = _SUICIDE
                elif incursion and killed and killed & (killed - 1) == 0:
                    minimal[p] = True
                    status[p] = _REPLY if after_minimal else _LEGAL
                else:
                    status[p] = _LEGAL

    def _touching(self, g: int) -> int:
        """Mask of the groups whose stones touch group g."""
        found = self.touch_cache.get(g)
        if found is None:
            found = 0
            for u in self.group_stones[g]:
                for v in self.neighbours[u]:
                    if self.stones[v] and self.group_of[v] != g:
                        found |= self.bit[self.group_of[v]]
            self.touch_cache[g] = found
        return found

    def _rescued(self, p: int, joined: int, killed: int) -> bool:
        """Whether, once the ``killed`` groups are gone, the group made by a stone
        on p (with the ``joined`` groups) has a path to another friendly group:
        a walk over the territories and killed groups it reaches."""
        seen_regions = {self.region_of[p]}
        for g in _bits(joined):
            seen_regions.update(self.group_regions[g])
        seen_dead = 0
        for g in _bits(killed):
            if self._touching(g) & joined or any(self.group_of[v] == g for v in self.neighbours[p]):
                seen_dead |= self.bit[g]
        todo_regions = list(seen_regions)
        todo_dead = list(_bits(seen_dead))
        others = self.mine & ~joined
        while todo_regions or todo_dead:
            while todo_regions:
                r = todo_regions.pop()
                if self.my_border[r] & others:
                    return True
                for g in _bits(self.their_border[r] & killed & ~seen_dead):
                    seen_dead |= self.bit[g]
                    todo_dead.append(g)
            while todo_dead:
                g = todo_dead.pop()
                if self._touching(g) & others:
                    return True
                for r in self.group_regions[g]:
                    if r not in seen_regions:
                        seen_regions.add(r)
                        todo_regions.append(r)
        return False


class _Search:
    """Scratch arrays for depth-first searches of territories, shared by all
    the territories of one position (they are disjoint)."""

    __slots__ = ("above", "below", "disc", "kids", "low", "own", "parent")

    def __init__(self, n: int) -> None:
        self.disc = [-1] * n
        self.low = [0] * n
        self.parent = [-1] * n
        self.own = [0] * n
        self.below = [0] * n
        self.above = [0] * n
        self.kids: list[list[int] | None] = [None] * n


def _cut_off(
    points: list[int],
    risk: int,
    stones: bytes,
    neighbours: tuple[tuple[int, ...], ...],
    group_of: list[int],
    bit: list[int],
    me: int,
    dead: list[int],
    scratch: _Search,
) -> None:
    """For each point p of the territory ``points``, store in ``dead[p]`` which of
    the ``risk`` enemy groups (alive through this territory only) a stone on p
    leaves without a path to another enemy group.

    The parts of the territory without p are the subtrees of a depth-first
    search hanging below p that have no back edge above p, plus everything else;
    each part is summarised by the mask of enemy groups it touches.
    """
    disc, low, parent, kids = scratch.disc, scratch.low, scratch.parent, scratch.kids
    own, below, above = scratch.own, scratch.below, scratch.above
    for u in points:
        mask = 0
        for v in neighbours[u]:
            if stones[v] and stones[v] != me:
                mask |= bit[group_of[v]]
        own[u] = below[u] = mask
    root = points[0]
    disc[root] = low[root] = 0
    parent[root] = -1
    order = [root]
    stack = [(root, iter(neighbours[root]))]
    while stack:
        u, it = stack[-1]
        for v in it:
            if stones[v]:
                continue
            if disc[v] < 0:
                disc[v] = low[v] = len(order)
                parent[v] = u
                order.append(v)
                stack.append((v, iter(neighbours[v])))
                break
            if disc[v] < low[u] and v != parent[u]:
                low[u] = disc[v]
        else:
            stack.pop()
            up = parent[u]
            if up >= 0:
                family = kids[up]
                if family is None:
                    kids[up] = [u]
                else:
                    family.append(u)
                below[up] |= below[u]
                if low[u] < low[up]:
                    low[up] = low[u]
    above[root] = 0
    for u in order:
        family = kids[u]
        if family is None:
            continue
        base = above[u] | own[u]
        if len(family) == 1:
            above[family[0]] = base
            continue
        for k in family:
            mask = base
            for s in family:
                if s != k:
                    mask |= below[s]
            above[k] = mask
    for p in order:
        alive = 0
        rest = above[p]
        family = kids[p]
        if family is not None:
            depth = disc[p]
            for k in family:
                if low[k] >= depth:
                    part = below[k]
                    if part & (part - 1):
                        alive |= part
                else:
                    rest |= below[k]
        if rest & (rest - 1):
            alive |= rest
        dead[p] = risk & ~alive


class _Positions:
    """The end-of-turn positions of a game so far (the stones plus the colour to
    move), for the repetition rule: an immutable set that one more position
    extends cheaply. The newest positions wait in a short tuple that is folded
    into the frozenset once it holds ``_CHUNK`` of them, so a move copies a few
    dozen references instead of the whole record."""

    __slots__ = ("old", "recent")
    _CHUNK = 32

    def __init__(self, old: frozenset[bytes] = frozenset(), recent: tuple[bytes, ...] = ()) -> None:
        self.old = old
        self.recent = recent

    def __contains__(self, key: bytes) -> bool:
        return key in self.recent or key in self.old

    def plus(self, key: bytes) -> _Positions:
        if len(self.recent) < self._CHUNK:
            return _Positions(self.old, (*self.recent, key))
        return _Positions(self.old.union(self.recent, (key,)))


_NO_POSITIONS = _Positions()


def _cut_at(p: int, r: int, risk: int, their_mask: int, analysis: _Analysis) -> int:
    """Which of the ``risk`` enemy groups (alive through territory r only) a
    stone on p, in r, leaves without a path to another enemy group: the
    one-point form of :func:`_cut_off`, for playing a single move.

    Every part of the territory without p holds an empty neighbour of p. The
    parts are explored from those neighbours at once, one point each in turn,
    and the search stops as soon as they have all met: then the territory
    stays in one piece, touching every enemy group it touched except those
    that touched it at p alone. Otherwise every part is explored to its end.
    """
    stones, neighbours, group_of = analysis.stones, analysis.neighbours, analysis.group_of
    bit, me, region_of = analysis.bit, analysis.me, analysis.region_of
    seeds = [v for v in neighbours[p] if not stones[v]]
    if not seeds:
        return risk
    owner = {p: -1}
    for k, v in enumerate(seeds):
        owner[v] = k
    root = list(range(len(seeds)))
    queues = [[v] for v in seeds]
    heads = [0] * len(seeds)
    masks = [0] * len(seeds)
    parts = len(seeds)
    moving = True
    while parts > 1 and moving:
        moving = False
        for k in range(len(seeds)):
            if root[k] != k or heads[k] == len(queues[k]):
                continue
            moving = True
            queue = queues[k]
            u = queue[heads[k]]
            heads[k] += 1
            for v in neighbours[u]:
                colour = stones[v]
                if colour:
                    if colour != me:
                        masks[k] |= bit[group_of[v]]
                    continue
                other = owner.get(v)
                if other is None:
                    owner[v] = k
                    queue.append(v)
                elif other >= 0:
                    while root[other] != other:
                        other = root[other]
                    if other != k:
                        root[other] = k
                        masks[k] |= masks[other]
                        queue.extend(queues[other][heads[other] :])
                        parts -= 1
            if parts == 1:
                break
    if parts > 1:
        alive = 0
        for k, mask in enumerate(masks):
            if root[k] == k and mask & (mask - 1):
                alive |= mask
        return risk & ~alive
    lost = 0
    for v in neighbours[p]:
        colour = stones[v]
        if colour and colour != me:
            g = group_of[v]
            if not any(
                w != p and region_of[w] == r
                for s in analysis.group_stones[g]
                for w in neighbours[s]
            ):
                lost |= bit[g]
    rest = their_mask & ~lost
    return risk & ~rest if rest & (rest - 1) else risk


class AsliState(State):
    """A position of Asli. Immutable; ``play`` returns a new State.

    Besides the contract: ``komi`` (None until chosen), ``prison_color``,
    ``prison_count``, ``ever_two_groups``. Internally the board is a ``bytes``
    of 0/1/2 per point, and ``_seen`` (a :class:`_Positions`) holds every
    end-of-turn position of the game so far, for the repetition rule.
    """

    __slots__ = (
        "_after_minimal",
        "_analysis",
        "_black_seat",
        "_change",
        "_draw",
        "_flags",
        "_legal",
        "_prison",
        "_seen",
        "_stones",
        "_to_color",
        "board",
        "game",
        "history",
        "komi",
        "options",
    )

    game: AsliGame
    board: SquareBoard
    komi: int | None
    _stones: bytes
    _black_seat: int | None
    _to_color: int
    #: black prisoners minus white prisoners: pairs cancel by themselves
    _prison: int
    _flags: frozenset[int]
    _after_minimal: bool
    _seen: _Positions
    _change: Change
    _draw: bool
    _analysis: _Analysis | None
    _legal: list[str] | None

    def __init__(
        self,
        game: AsliGame,
        options: Mapping[str, Any],
        *,
        history: tuple[str, ...] = (),
        stones: bytes | None = None,
        komi: int | None = None,
        black_seat: int | None = None,
        to_color: int = BLACK,
        prison: int = 0,
        flags: frozenset[int] = frozenset(),
        after_minimal: bool = False,
        seen: _Positions = _NO_POSITIONS,
        change: Change = NO_CHANGE,
        draw: bool = False,
    ) -> None:
        put = object.__setattr__
        put(self, "game", game)
        put(self, "options", options)
        put(self, "board", SquareBoard.of(options["size"]))
        put(self, "history", history)
        put(self, "_stones", stones if stones is not None else bytes(len(self.board)))
        put(self, "komi", komi)
        put(self, "_black_seat", black_seat)
        put(self, "_to_color", to_color)
        put(self, "_prison", prison)
        put(self, "_flags", flags)
        put(self, "_after_minimal", after_minimal)
        put(self, "_seen", seen)
        put(self, "_change", change)
        put(self, "_draw", draw)
        put(self, "_analysis", None)
        put(self, "_legal", None)

    # -- facts ---------------------------------------------------------------

    @property
    def prison_color(self) -> str | None:
        """The colour of the stones in the prison (it never holds both)."""
        if self._prison > 0:
            return "black"
        return "white" if self._prison < 0 else None

    @property
    def prison_count(self) -> int:
        return abs(self._prison)

    @property
    def ever_two_groups(self) -> frozenset[str]:
        """Colours that have had two or more groups at the end of a turn: from
        then on a lone group of that colour is dead."""
        return frozenset(_NAME[c] for c in self._flags)

    def color_of(self, seat: int) -> str | None:
        if self._black_seat is None:
            return None
        return "black" if seat == self._black_seat else "white"

    @property
    def _playing(self) -> bool:
        return self._black_seat is not None

    def _holds(self) -> int:
        """How many Holds the player to move could make."""
        return self._prison if self._to_color == WHITE else -self._prison

    def _analyse(self) -> _Analysis:
        found = self._analysis
        if found is None:
            found = _Analysis(
                self._stones,
                self.board.neighbours,
                self._to_color,
                self._to_color in self._flags,
                self._after_minimal,
            )
            object.__setattr__(self, "_analysis", found)
        return found

    @property
    def is_over(self) -> bool:
        if self._draw:
            return True
        if not self._playing or self._holds() > 0:
            return False
        return _LEGAL not in self._analyse().status

    @property
    def to_move(self) -> int | None:
        if self.komi is None:
            return 0
        if self._black_seat is None:
            return 1
        if self.is_over:
            return None
        return self._black_seat if self._to_color == BLACK else 1 - self._black_seat

    @property
    def outcome(self) -> Outcome | None:
        if self._draw:
            return Outcome(None, Termination.REPETITION, Words("Draw by repetition"))
        if not self.is_over:
            return None
        assert self._black_seat is not None
        seat = self._black_seat if self._to_color == WHITE else 1 - self._black_seat
        loser = colour_title(_NAME[self._to_color])
        winner = colour_title(_NAME[3 - self._to_color])
        text = Words("{winner} wins: {loser} has no legal action", winner=winner, loser=loser)
        return Outcome(seat, Termination.NO_MOVES, text)

    def stone_at(self, cell: str) -> str | None:
        return _NAME.get(self._stones[self.board.index(cell)])

    @property
    def last_change(self) -> Change:
        return self._change

    @property
    def prompt(self) -> str:
        if self.komi is None:
            return Words("choose the komi (komi N, 0–{most})", most=len(self.board))
        if self._black_seat is None:
            return Words("choose your colour: black or white")
        if self.is_over:
            return ""
        holds = self._holds()
        if holds <= 0:
            return Words("place a stone")
        prisoners = (
            Plural("{count} black prisoner", "{count} black prisoners", holds)
            if self._to_color == WHITE
            else Plural("{count} white prisoner", "{count} white prisoners", holds)
        )
        if _LEGAL not in self._analyse().status:
            return Words("hold ({prisoners}; no placement is legal)", prisoners=prisoners)
        return Words("place a stone, or hold ({prisoners})", prisoners=prisoners)

    # -- moves -----------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        moves = self._legal
        if moves is None:
            if self.komi is None:
                moves = [f"komi {k}" for k in range(len(self.board) + 1)]
            elif self._black_seat is None:
                moves = ["black", "white"]
            elif self.is_over:
                moves = []
            else:
                names = self.board.cells
                status = self._analyse().status
                moves = ["hold"] if self._holds() > 0 else []
                moves += compress(names, map(_LEGAL.__eq__, status))
            object.__setattr__(self, "_legal", moves)
        return list(moves)

    def is_legal(self, move: str) -> bool:
        try:
            text = self.parse(move)
        except IllegalMove:
            return False
        return text in (self._legal if self._legal is not None else self.legal_moves())

    def decisions(self) -> tuple[Decision, ...]:
        if self.komi is None:
            top = len(self.board)
            return (
                Decision(
                    Words("Choose the komi"),
                    number=NumberChoice(Words("Komi (0–{most})", most=top), "komi {}", 0, top),
                ),
            )
        if self._black_seat is None:
            return Decision(Words("Play black"), "black"), Decision(Words("Play white"), "white")
        if self.is_over or self._holds() <= 0:
            return ()
        return (Decision(Words("Hold"), "hold"),)

    def parse(self, text: str) -> str:
        move = normalize_move(text)
        if not move:
            raise InvalidMove("that move is empty")
        if move in _WORDS:
            return move
        if move.split()[0] == "komi":
            match = _KOMI.fullmatch(move)
            if match is None:
                raise InvalidMove(
                    "write the komi as komi N, with N from 0 to {most}", most=len(self.board)
                )
            return f"komi {int(match.group(1))}"
        if move == "pass":
            raise InvalidMove("Asli has no pass: hold instead, if the prison holds an enemy stone")
        return self.board.name(self.board.index(move))  # else UnknownCell says why not

    def play(self, move: str) -> AsliState:
        text = self._read(move)
        if self.komi is None:
            return self._choose_komi(text)
        if self._black_seat is None:
            return self._choose_colour(text)
        if self._analysis is None and not self._draw and text in self.board:
            # Judging this one point is much cheaper than judging them all; if it is
            # legal, the game is not over. Any refusal takes the full path below.
            p = self.board.index(text)
            if not self._stones[p]:
                analysis = _Analysis(
                    self._stones,
                    self.board.neighbours,
                    self._to_color,
                    self._to_color in self._flags,
                    self._after_minimal,
                    p,
                )
                if analysis.status[p] == _LEGAL:
                    return self._place(p, analysis)
        if self.is_over:
            raise IllegalMove("the game is over ({result})", result=self.result)
        if text.startswith("komi"):
            raise IllegalMove("the komi has already been chosen")
        if text in _CODE:
            raise IllegalMove("the colours have already been chosen")
        if text == "hold":
            return self._hold()
        return self._place(self.board.index(text))

    def _next(self, text: str, **changes: Any) -> AsliState:
        fields: dict[str, Any] = {
            "history": (*self.history, text),
            "stones": self._stones,
            "komi": self.komi,
            "black_seat": self._black_seat,
            "to_color": self._to_color,
            "prison": self._prison,
            "flags": self._flags,
            "after_minimal": False,
            "seen": self._seen,
        }
        fields.update(changes)
        return AsliState(self.game, self.options, **fields)

    def _choose_komi(self, text: str) -> AsliState:
        most = len(self.board)
        match = _KOMI.fullmatch(text)
        if match is None:
            raise IllegalMove(
                "the first player must choose the komi first (komi N, 0–{most})", most=most
            )
        komi = int(match.group(1))
        if not 0 <= komi <= most:
            raise IllegalMove("komi must be between 0 and {most}", most=most)
        return self._next(f"komi {komi}", komi=komi, prison=komi)

    def _choose_colour(self, text: str) -> AsliState:
        if text not in _CODE:
            raise IllegalMove("it is the second player's choice of colour now: black or white")
        empty_board = self._stones + bytes([BLACK])
        return self._next(
            text, black_seat=1 if text == "black" else 0, seen=_NO_POSITIONS.plus(empty_board)
        )

    def _hold(self) -> AsliState:
        if self._holds() <= 0:
            raise IllegalMove("there is no enemy stone in the prison to hold")
        enemy = 3 - self._to_color
        # Pairs cancel, so taking out an enemy stone moves the count towards zero.
        prison = self._prison - 1 if enemy == BLACK else self._prison + 1
        return self._next(
            "hold",
            to_color=enemy,
            prison=prison,
            seen=self._seen.plus(self._stones + bytes([enemy])),
        )

    def _place(self, p: int, analysis: _Analysis | None = None) -> AsliState:
        name = self.board.name(p)
        if self._stones[p]:
            raise IllegalMove("{cell} is occupied", cell=name)
        if analysis is None:
            analysis = self._analyse()
        outcome = analysis.status[p]
        if outcome == _SUICIDE:
            raise IllegalMove("that play would leave your group at {cell} dead", cell=name)
        if outcome == _REPLY:
            raise IllegalMove("a minimal incursion cannot answer a minimal incursion")
        me, enemy = self._to_color, 3 - self._to_color
        board = bytearray(self._stones)
        board[p] = me
        removed = sorted(u for g in _bits(analysis.dead[p]) for u in analysis.group_stones[g])
        for u in removed:
            board[u] = EMPTY
        stones = bytes(board)
        captured = len(removed)
        prison = self._prison + (captured if enemy == BLACK else -captured)
        flags = self._flags
        for colour in (me, enemy):
            if colour not in flags and _group_count(stones, self.board.neighbours, colour) >= 2:
                flags = flags | {colour}
        key = stones + bytes([enemy])
        return self._next(
            name,
            stones=stones,
            to_color=enemy,
            prison=prison,
            flags=flags,
            after_minimal=analysis.minimal[p],
            seen=self._seen.plus(key),
            draw=key in self._seen,
            change=Change(
                placed=(name,), removed=tuple((self.board.name(u), _NAME[enemy]) for u in removed)
            ),
        )


def _group_count(stones: bytes, neighbours: tuple[tuple[int, ...], ...], colour: int) -> int:
    """How many groups ``colour`` has on the board."""
    seen = [False] * len(stones)
    count = 0
    for i, c in enumerate(stones):
        if c != colour or seen[i]:
            continue
        count += 1
        seen[i] = True
        members = [i]
        for u in members:
            for v in neighbours[u]:
                if stones[v] == colour and not seen[v]:
                    seen[v] = True
                    members.append(v)
    return count


class AsliGame(Game):
    name = "asli"
    title = "Asli"
    colors = ("black", "white")
    terminations = (Termination.NO_MOVES, Termination.REPETITION)
    #: Its fast search position, AI knowledge, painter and guide (see rules.plugins).
    plugins = Plugins(
        fast="rules.fast.asli:position",
        ai="ai.games.asli:knowledge",
        painter="render.games.asli:PAINTER",
        guide="bot.learning.guides.asli:GUIDE",
    )
    option_specs = (
        Option("size", int, 13, "points per side of the square board", minimum=5, maximum=25),
    )
    summary = (
        "Asli (Luis Bolaños Mures, 2023) is a territory game on the points of a square grid, "
        "with an off-board prison.\n"
        "**Opening:** the first player chooses a komi (`komi 3`): that many black stones go "
        "into the prison. The second player then chooses a colour (`black` or `white`). "
        "Black acts first.\n"
        "**Groups:** stones of one colour joined along the lines. A group is alive if a path "
        "of empty points joins it to another group of its colour, or while its colour has "
        "never had two groups at the end of a turn and has just this one. Otherwise it is "
        "dead.\n"
        "**A turn:** either place a stone (`c3`): then every dead enemy group goes to the "
        "prison, where black and white stones cancel in pairs; or `hold`: take one enemy "
        "stone out of the prison. No group of yours may be dead after your play. A minimal "
        "incursion (a play in a territory only your opponent touches, killing exactly one "
        "enemy group) cannot answer a minimal incursion.\n"
        "**End:** the player who cannot act loses. A play that recreates an earlier position "
        "with the same colour to move ends the game in a draw.\n"
        "**Notation:** columns a, b, c… from the left, rows 1, 2, 3… from the bottom."
    )

    def _initial(self, options: dict[str, Any]) -> AsliState:
        return AsliState(self, options)


GAME = AsliGame()
