"""Asli for search: one mutable position, brought up to date move by move.

The rules are those of :mod:`rules.asli` (``shared/rules/asli.md`` decides);
this module computes the same game with data that a placement changes only
locally, so that judging and playing a move costs a few dozen steps instead of
a pass over the board:

* groups, each with its list of stones (a stone's group is one lookup; a
  placement relabels the stones of the smaller groups it joins);
* territories (maximal sets of connected empty points), each with its points;
* for every group and territory that touch, their *contacts*: how many
  (stone, empty point) pairs of that group and territory are neighbours. A
  territory's groups, and how many of each colour, follow from these counts,
  and so do, when a territory splits, the groups touching the one part that
  was never explored.

Every group is alive at the start of a turn, so a placement at p in territory
R can kill only enemy groups whose one *linking* territory (one touching two
enemy groups or more) is R, and only if R without p leaves them without an
enemy neighbour there; p's new group is the only friendly group that can die.
Whether R without p stays in one piece is read from p's eight surrounding
points when it can be, and otherwise found by exploring the pieces from p's
empty neighbours at once until all but one are exhausted or all have met.

Random playouts pick uniformly among the legal moves without listing them:
candidates (the empty points, and Hold when the prison holds an enemy stone)
are drawn without replacement until one is legal, which is a uniform choice
among the legal moves. The repetition rule keeps the exact end-of-turn boards
(bytes) of the game in a set. A frugal position (:meth:`AsliPosition.play_frugally`)
draws the same way but sets aside Hold and the points of the mover's own
territories (its reserve: actions no one else can take), and its playout stops
when nothing else is legal.

:meth:`AsliPosition.evaluate` is seat 0's share of the actions each side has in
hand: the empty points of the territories it owns plus the Holds the prison
gives it (the player who runs out of actions loses).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from rules.game import State
from rules.position import SearchPosition
from rules.square import SquareBoard

EMPTY, BLACK, WHITE = 0, 1, 2
#: the eight points around a point, in order around it (orthogonal ones at even places)
_RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def _run_heads() -> tuple[tuple[int, ...], ...]:
    """For each 8-bit mask of empty points around p (bit k: ring place k), one
    orthogonal place per run of consecutive empty places holding one: empty
    neighbours of p in the same run are joined around p, so a single head
    means that the territory stays in one piece without p."""
    table: list[tuple[int, ...]] = []
    for mask in range(256):
        if mask == 255:
            table.append((0,))
            continue
        start = next(k for k in range(8) if not mask >> k & 1)
        heads: list[int] = []
        headed = False
        for step in range(1, 9):
            k = (start + step) % 8
            if not mask >> k & 1:
                headed = False
            elif k % 2 == 0 and not headed:
                heads.append(k)
                headed = True
        table.append(tuple(heads))
    return tuple(table)


_HEADS = _run_heads()


#: the enemy groups a placement kills, and the pieces its territory splits into if found
_Kills = tuple[list[int], "list[list[int]] | None"]
_NO_KILLS: _Kills = ([], None)
#: a legal placement: the groups it joins, the enemy groups next to it, its empty
#: neighbours, its kills if found
_Verdict = tuple[list[int], list[int], int, "_Kills | None"]


class _Tables:
    """What depends on the board size only: neighbours, rings, move texts."""

    __slots__ = (
        "colour",
        "hold",
        "ids",
        "komi",
        "neighbours",
        "points",
        "ring",
        "ring_at",
        "texts",
    )

    def __init__(self, size: int) -> None:
        board = SquareBoard.of(size)
        n = self.points = len(board)
        self.neighbours = board.neighbours
        ring, ring_at = [], []
        for i in range(n):
            r, c = divmod(i, size)
            at = [-1] * 8
            cells = []
            for k, (dr, dc) in enumerate(_RING):
                if 0 <= r + dr < size and 0 <= c + dc < size:
                    at[k] = (r + dr) * size + c + dc
                    cells.append((1 << k, at[k]))
            ring.append(tuple(cells))
            ring_at.append(tuple(at))
        self.ring = tuple(ring)
        self.ring_at = tuple(ring_at)
        self.hold = n
        self.colour = n + 1  # n + 1: black, n + 2: white
        self.komi = n + 3  # n + 3 + k: komi k, 0 <= k <= n
        self.texts = (*board.cells, "hold", "black", "white", *(f"komi {k}" for k in range(n + 1)))
        self.ids = {text: i for i, text in enumerate(self.texts)}


@cache
def _tables(size: int) -> _Tables:
    return _Tables(size)


def position(state: State) -> AsliPosition:
    """The search position of an Asli State: its moves replayed on a fresh one."""
    pos = AsliPosition(state.options["size"])
    for text in state.history:
        pos.play(pos.move_id(text))
    return pos


class AsliPosition(SearchPosition):
    """A position of Asli for search; see the module docstring.

    Point-indexed lists: ``_col`` (colour, plus the colour to move in its last
    byte: the board key of the repetition rule), ``_gid`` (group of a stone),
    ``_reg`` (territory of an empty point). Groups are named by one of their
    stones: ``_gst`` (stones), ``_greg`` (territory -> contacts). Territories
    by a recycled number: ``_rpts`` (points), ``_rgrp`` (group -> contacts),
    ``_rcol`` (how many groups of each colour touch it).
    """

    __slots__ = (
        "_after_minimal",
        "_black_seat",
        "_col",
        "_draw",
        "_empties",
        "_flags",
        "_frugal",
        "_gid",
        "_greg",
        "_groups",
        "_gst",
        "_komi",
        "_over",
        "_prison",
        "_rcol",
        "_reg",
        "_rfree",
        "_rgrp",
        "_rpts",
        "_seen",
        "_t",
        "_to",
        "_where",
    )

    def __init__(self, size: int) -> None:
        t = self._t = _tables(size)
        n = t.points
        self._col = bytearray(n + 1)
        self._col[n] = BLACK
        self._gid = [-1] * n
        self._gst: list[list[int] | None] = [None] * n
        self._greg: list[dict[int, int] | None] = [None] * n
        self._reg = [0] * n
        self._rpts: list[set[int] | None] = [None] * n
        self._rgrp: list[dict[int, int] | None] = [None] * n
        self._rcol: list[list[int] | None] = [None] * n
        self._rpts[0], self._rgrp[0], self._rcol[0] = set(range(n)), {}, [0, 0, 0]
        self._rfree = list(range(n - 1, 0, -1))
        self._empties = list(range(n))
        self._where = list(range(n))
        self._groups = [0, 0, 0]
        self._flags = [False, False, False]
        self._to = BLACK
        self._prison = 0  # black prisoners minus white ones
        self._komi: int | None = None
        self._black_seat: int | None = None
        self._after_minimal = False
        self._seen: set[bytes] = set()
        self._draw = False
        self._over: bool | None = False
        self._frugal = False

    def copy(self) -> AsliPosition:
        new = object.__new__(AsliPosition)
        new._t = self._t
        new._col = self._col[:]
        new._gid = self._gid[:]
        new._gst = [s if s is None else s[:] for s in self._gst]
        new._greg = [d if d is None else d.copy() for d in self._greg]
        new._reg = self._reg[:]
        new._rpts = [s if s is None else s.copy() for s in self._rpts]
        new._rgrp = [d if d is None else d.copy() for d in self._rgrp]
        new._rcol = [c if c is None else c[:] for c in self._rcol]
        new._rfree = self._rfree[:]
        new._empties = self._empties[:]
        new._where = self._where[:]
        new._groups = self._groups[:]
        new._flags = self._flags[:]
        new._to = self._to
        new._prison = self._prison
        new._komi = self._komi
        new._black_seat = self._black_seat
        new._after_minimal = self._after_minimal
        new._seen = self._seen.copy()
        new._draw = self._draw
        new._over = self._over
        new._frugal = self._frugal
        return new

    # -- the contract ------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self._komi is None:
            return 0
        if self._black_seat is None:
            return 1
        if self.is_over:
            return None
        return self._black_seat if self._to == BLACK else 1 - self._black_seat

    @property
    def is_over(self) -> bool:
        if self._over is None:
            self._over = self._holds() <= 0 and not any(
                self._judge(p) is not None for p in self._empties
            )
        return self._over

    @property
    def winner(self) -> int | None:
        if self._draw or not self.is_over:
            return None
        assert self._black_seat is not None
        return self._black_seat if self._to == WHITE else 1 - self._black_seat

    def legal_moves(self) -> list[int]:
        t = self._t
        if self._komi is None:
            return list(range(t.komi, t.komi + t.points + 1))
        if self._black_seat is None:
            return [t.colour, t.colour + 1]
        if self._draw:
            return []
        moves = [t.hold] if self._holds() > 0 else []
        moves += [p for p in sorted(self._empties) if self._judge(p) is not None]
        self._over = not moves
        return moves

    def tactical_moves(self) -> list[int]:
        """Hold and the legal stones next to a stone, diagonals included: a stone with
        no stone around it captures nothing and cuts no territory in two, so it wins at
        once only by taking the opponent's last legal point, and such stones are
        included when the opponent has one at most. None before the colours are
        chosen (no komi or colour wins at once). No move loses at once: only the player
        to move can run out of actions. The stones with most stones around them, the
        likeliest to capture or cut, come first."""
        if self._black_seat is None or self._draw:
            return []
        t, col = self._t, self._col
        ring = t.ring
        short = self._opponent_short()
        crowded = []
        for p in self._empties:
            around = sum(1 for _, q in ring[p] if col[q])
            if (around or short) and self._judge(p) is not None:
                crowded.append((-around, p))
        crowded.sort()
        return ([t.hold] if self._holds() > 0 else []) + [p for _, p in crowded]

    def _opponent_short(self) -> bool:
        """Whether the opponent, were it their turn after a move that captures
        nothing, would have no Hold and one legal placement at most."""
        if self._holds() < 0:
            return False
        to, after_minimal = self._to, self._after_minimal
        self._to, self._after_minimal = 3 - to, False
        try:
            legal = 0
            for p in self._empties:
                if self._judge(p) is not None:
                    legal += 1
                    if legal > 1:
                        return False
            return True
        finally:
            self._to, self._after_minimal = to, after_minimal

    def play(self, move: int) -> None:
        t = self._t
        if move < t.points:
            verdict = self._judge(move)
            assert verdict is not None, f"{t.texts[move]} is not legal here"
            self._place(move, *verdict)
        elif move == t.hold:
            self._hold()
        elif move < t.komi:
            self._black_seat = 1 if move == t.colour else 0
            self._seen.add(bytes(self._col))
            self._over = None
        else:
            self._komi = self._prison = move - t.komi

    def move_text(self, move: int) -> str:
        return self._t.texts[move]

    def move_id(self, text: str) -> int:
        found = self._t.ids.get(text)
        if found is None:
            raise ValueError(f"{text!r} is not an Asli move on this board")
        return found

    def playout(self, rng: random.Random, max_plies: int | None = None) -> int:
        t = self._t
        getrandbits = rng.getrandbits
        plies = 0
        limit = -1 if max_plies is None else max_plies
        if self._komi is None and plies != limit:
            self.play(t.komi + rng.randrange(t.points + 1))
            plies += 1
        if self._black_seat is None and plies != limit:
            self.play(t.colour + rng.randrange(2))
            plies += 1
        if self._black_seat is None:
            return plies
        step = self._random_step
        while plies != limit and not self._draw and self._over is not True:
            if step(getrandbits) is None:
                return plies
            plies += 1
        return plies

    def play_random(self, rng: random.Random) -> tuple[int, int] | None:
        if self._black_seat is None or self._draw or self._over is True:
            return super().play_random(rng)
        seat = self._black_seat if self._to == BLACK else 1 - self._black_seat
        move = self._random_step(rng.getrandbits)
        return None if move is None else (seat, move)

    def play_frugally(self) -> bool:
        """Random moves leave Hold and the mover's own territories for last: a side
        that fills its own territory, or holds, while a shared point is left gives
        that point to the opponent, which random play does all the time and no player
        would. So a playout plays out the shared points and stops with the reserves,
        which ``evaluate()`` counts."""
        self._frugal = True
        return True

    def _random_step(self, getrandbits: Callable[[int], int]) -> int | None:
        """Play a uniformly random legal move (a Hold or a stone) of a game under way
        and return its id; None, marking the game over, when there is none. Points are
        tried in a random order until one is legal, so few are judged. A frugal
        position draws among the moves outside the mover's reserve only (None when
        there is none, the game not marked over)."""
        empties, where = self._empties, self._where
        frugal = self._frugal
        hold = 1 if not frugal and self._holds() > 0 else 0
        left = len(empties)
        tried = 0
        reg, rcol = self._reg, self._rcol
        me = self._to
        enemy = 3 - me
        while True:
            # a uniform pick among the candidates not tried yet (Hold is the last)
            count = left - tried + hold
            if not count:
                if not frugal:
                    self._over = True
                return None
            bits = count.bit_length()
            pick = getrandbits(bits)
            while pick >= count:
                pick = getrandbits(bits)
            if pick == left - tried:
                self._hold()
                return self._t.hold
            i = tried + pick
            p = empties[i]
            if frugal:
                counts = rcol[reg[p]]
                reserve = counts[me] and not counts[enemy]
                verdict = None if reserve else self._judge(p)
            else:
                verdict = self._judge(p)
            if verdict is not None:
                self._place(p, *verdict)
                return p
            # set p aside: swap it into the tried prefix
            q = empties[tried]
            empties[tried], empties[i] = p, q
            where[p], where[q] = tried, i
            tried += 1

    def evaluate(self) -> float:
        if self._black_seat is None or self._draw:
            return 0.5
        if self.is_over:
            return 1.0 if self.winner == 0 else 0.0
        # Actions each colour is sure of: black stones in the prison are White's
        # Holds, white ones Black's, and the points of a territory are its owner's.
        # A point no one owns yet is counted half to each: early on, when nearly all
        # are, two Holds are a small lead, not the whole game.
        actions = [0, max(-self._prison, 0), max(self._prison, 0)]
        for r, pts in enumerate(self._rpts):
            if pts is not None:
                counts = self._rcol[r]
                if counts[BLACK] and not counts[WHITE]:
                    actions[BLACK] += len(pts)
                elif counts[WHITE] and not counts[BLACK]:
                    actions[WHITE] += len(pts)
                else:
                    actions[EMPTY] += len(pts)
        total = sum(actions)
        if not total:
            return 0.5
        seat0 = BLACK if self._black_seat == 0 else WHITE
        return (actions[seat0] + actions[EMPTY] / 2) / total

    # -- rules -------------------------------------------------------------------

    def _holds(self) -> int:
        """How many Holds the player to move could make."""
        return self._prison if self._to == WHITE else -self._prison

    def _hold(self) -> None:
        enemy = 3 - self._to
        self._prison += -1 if enemy == BLACK else 1
        self._to = self._col[-1] = enemy
        self._after_minimal = False
        self._seen.add(bytes(self._col))
        self._over = None

    def _judge(self, p: int) -> _Verdict | None:
        """Whether a stone of the player to move on the empty point p is legal:
        None if not, else (the groups it joins, the enemy groups next to it, once
        per contact, how many empty neighbours it has, and its kills if they had
        to be found to decide)."""
        col, gid = self._col, self._gid
        me = self._to
        enemy = 3 - me
        r = self._reg[p]
        counts = self._rcol[r]
        joined: list[int] = []
        touched: list[int] = []
        free = 0
        for v in self._t.neighbours[p]:
            c = col[v]
            if not c:
                free += 1
            elif c == me:
                g = gid[v]
                if g not in joined:
                    joined.append(g)
            else:
                touched.append(gid[v])
        mine = counts[me]
        nj = len(joined)
        kills = None
        if not (
            (nj == self._groups[me] and not self._flags[me])
            or mine > nj
            or self._linked(joined, r, me)
        ):
            # alive only if its captures open a path
            if counts[enemy] < 2:
                return None
            kills = self._kills(p, r, touched, free, enemy)
            if not kills[0] or not self._rescued(p, r, joined, kills[0], me):
                return None
        if not mine and self._after_minimal:
            # a minimal incursion may not answer one
            if kills is None:
                kills = self._kills(p, r, touched, free, enemy) if counts[enemy] >= 2 else _NO_KILLS
            if len(kills[0]) == 1:
                return None
        return joined, touched, free, kills

    def _linked(self, joined: list[int], r: int, me: int) -> bool:
        """Whether a territory other than r joins a group in ``joined`` to a group
        of mine outside ``joined``."""
        rcol, rgrp = self._rcol, self._rgrp
        for g in joined:
            for s in self._greg[g]:
                if s != r:
                    mine = rcol[s][me]
                    if mine > 1 and (len(joined) == 1 or mine > sum(h in rgrp[s] for h in joined)):
                        return True
        return False

    def _kills(self, p: int, r: int, touched: list[int], free: int, enemy: int) -> _Kills:
        """The enemy groups a stone on p (in territory r, which links two enemy
        groups or more) kills, and the pieces of r without p if they were found."""
        rgrp, col = self._rgrp, self._col
        contacts = rgrp[r]
        parts = None
        heads = self._heads(p) if free > 1 else ()
        if len(heads) > 1:
            # r may split: worth exploring only if some group lives through r alone
            if not self._at_risk(r, enemy):
                return _NO_KILLS
            parts = self._split(p, heads)
        if not touched and not parts:
            return [], parts  # r stays whole and keeps every enemy group
        if parts:
            rest = dict(contacts)
            for g in touched:
                rest[g] -= 1
            linked: set[int] = set()
            for part in parts:
                seen: set[int] = set()
                for u in part:
                    for v in self._t.neighbours[u]:
                        if col[v] == enemy:
                            g = self._gid[v]
                            seen.add(g)
                            rest[g] -= 1
                if len(seen) >= 2:
                    linked |= seen
            left = [g for g, k in rest.items() if k and col[g] == enemy]
            if len(left) >= 2:
                linked.update(left)
            candidates = [g for g in contacts if col[g] == enemy and g not in linked]
        else:
            lost = [g for g in set(touched) if contacts[g] == touched.count(g)]
            if self._rcol[r][enemy] - len(lost) >= 2:
                candidates = lost
            else:
                candidates = [g for g in contacts if col[g] == enemy]
        rcol = self._rcol
        dead = []
        for g in candidates:
            if not any(s != r and rcol[s][enemy] >= 2 for s in self._greg[g]):
                dead.append(g)
        return dead, parts

    def _at_risk(self, r: int, enemy: int) -> bool:
        """Whether an enemy group touching r has no other territory linking it
        to another enemy group."""
        col, greg, rcol = self._col, self._greg, self._rcol
        for g in self._rgrp[r]:
            if col[g] == enemy and not any(s != r and rcol[s][enemy] >= 2 for s in greg[g]):
                return True
        return False

    def _heads(self, p: int) -> tuple[int, ...]:
        col = self._col
        mask = 0
        for bit, q in self._t.ring[p]:
            if not col[q]:
                mask |= bit
        return _HEADS[mask]

    def _split(self, p: int, heads: tuple[int, ...] | None = None) -> list[list[int]]:
        """The pieces of p's territory without p, but one (the largest explored, or
        the one left unexplored): empty if it stays in one piece. The pieces are
        explored from p's empty neighbours at once, one point each in turn."""
        col, neighbours = self._col, self._t.neighbours
        at = self._t.ring_at[p]
        seeds = [at[k] for k in (self._heads(p) if heads is None else heads)]
        if len(seeds) <= 1:
            return []
        count = len(seeds)
        owner = {p: -1}
        queues = []
        for k, v in enumerate(seeds):
            owner[v] = k
            queues.append([v])
        done = [0] * count
        root = list(range(count))
        fronts = range(count)
        while True:
            changed = False
            for k in fronts:
                queue = queues[k]
                head = done[k]
                if head == len(queue):
                    continue
                done[k] = head + 1
                for v in neighbours[queue[head]]:
                    if col[v]:
                        continue
                    other = owner.get(v)
                    if other is None:
                        owner[v] = k
                        queue.append(v)
                    elif other >= 0 and root[other] != root[k]:
                        old, new = root[other], root[k]
                        root = [new if x == old else x for x in root]
                        changed = True
                if done[k] == len(queue):
                    changed = True
            if changed:
                if root.count(root[0]) == count:
                    return []
                active = {root[k] for k in fronts if done[k] < len(queues[k])}
                if len(active) <= 1:
                    break
        pieces: dict[int, list[int]] = {}
        for k, queue in enumerate(queues):
            pieces.setdefault(root[k], []).extend(queue)
        if active:
            (keep,) = active
        else:
            keep = max(pieces, key=lambda k: len(pieces[k]))
        return [piece for k, piece in pieces.items() if k != keep]

    def _rescued(self, p: int, r: int, joined: list[int], dead: list[int], me: int) -> bool:
        """Whether, once the ``dead`` groups are gone, a stone on p (joining the
        ``joined`` groups) has a path to another group of mine: a walk over the
        territories and dead groups it reaches."""
        col, gid, neighbours = self._col, self._gid, self._t.neighbours
        gst, greg, rgrp = self._gst, self._greg, self._rgrp
        ours = set(joined)
        dying = set(dead)
        seen_r = {r}
        for g in joined:
            seen_r.update(greg[g])
        seen_d = {gid[v] for v in neighbours[p] if gid[v] in dying}
        for g in dying - seen_d:
            if any(gid[v] in ours for s in gst[g] for v in neighbours[s]):
                seen_d.add(g)
        todo_r, todo_d = list(seen_r), list(seen_d)
        while todo_r or todo_d:
            while todo_r:
                for h in rgrp[todo_r.pop()]:
                    if col[h] == me:
                        if h not in ours:
                            return True
                    elif h in dying and h not in seen_d:
                        seen_d.add(h)
                        todo_d.append(h)
            while todo_d:
                g = todo_d.pop()
                if any(col[v] == me and gid[v] not in ours for s in gst[g] for v in neighbours[s]):
                    return True
                for s in greg[g]:
                    if s not in seen_r:
                        seen_r.add(s)
                        todo_r.append(s)
        return False

    # -- bookkeeping ---------------------------------------------------------------

    def _touch(self, g: int, r: int, k: int) -> None:
        """Add k contacts between group g and territory r (k < 0 removes)."""
        gr = self._greg[g]
        rg = self._rgrp[r]
        old = gr.get(r)
        if old is None:
            gr[r] = rg[g] = k
            self._rcol[r][self._col[g]] += 1
        elif old + k:
            gr[r] = rg[g] = old + k
        else:
            del gr[r], rg[g]
            self._rcol[r][self._col[g]] -= 1

    def _new_territory(self, points: list[int]) -> int:
        r = self._rfree.pop()
        self._rpts[r] = set(points)
        self._rgrp[r] = {}
        self._rcol[r] = [0, 0, 0]
        reg = self._reg
        for u in points:
            reg[u] = r
        return r

    def _free_territory(self, r: int) -> None:
        self._rpts[r] = self._rgrp[r] = self._rcol[r] = None
        self._rfree.append(r)

    def _place(
        self, p: int, joined: list[int], touched: list[int], free: int, kills: _Kills | None
    ) -> None:
        col, gid, reg, neighbours = self._col, self._gid, self._reg, self._t.neighbours
        touch = self._touch
        me = self._to
        enemy = 3 - me
        r = reg[p]
        counts = self._rcol[r]
        if kills is None:
            kills = self._kills(p, r, touched, free, enemy) if counts[enemy] >= 2 else _NO_KILLS
        dead, parts = kills
        minimal = len(dead) == 1 and not counts[me]
        col[p] = me
        self._take(p)
        points = self._rpts[r]
        points.discard(p)
        for v in neighbours[p]:
            if col[v]:
                touch(gid[v], r, -1)
        # p's group
        if joined:
            g = max(joined, key=lambda h: len(self._gst[h]))
            for h in joined:
                if h != g:
                    self._merge_groups(g, h)
            self._groups[me] -= len(joined) - 1
            self._gst[g].append(p)
        else:
            g = p
            self._gst[p] = [p]
            self._greg[p] = {}
            self._groups[me] += 1
        gid[p] = g
        if free:
            touch(g, r, free)
        # r without p
        if not points:
            self._free_territory(r)
        elif free > 1:
            if parts is None:
                parts = self._split(p)
            for part in parts:
                piece = self._new_territory(part)
                points.difference_update(part)
                for u in part:
                    for v in neighbours[u]:
                        if col[v]:
                            h = gid[v]
                            touch(h, r, -1)
                            touch(h, piece, 1)
        # captures
        captured = 0
        if dead:
            rgrp, rcol = self._rgrp, self._rcol
            freed = []
            for h in dead:
                for s in self._greg[h]:
                    del rgrp[s][h]
                    rcol[s][enemy] -= 1
                stones = self._gst[h]
                self._gst[h] = self._greg[h] = None
                for s in stones:
                    col[s] = EMPTY
                    gid[s] = -1
                    self._give(s)
                captured += len(stones)
                freed.append(stones)
            self._groups[enemy] -= len(dead)
            for stones in freed:
                self._refill(stones)
        self._prison += captured if enemy == BLACK else -captured
        groups, flags = self._groups, self._flags
        if groups[me] >= 2:
            flags[me] = True
        if groups[enemy] >= 2:
            flags[enemy] = True
        self._to = col[-1] = enemy
        self._after_minimal = minimal
        key = bytes(col)
        if key in self._seen:
            self._draw = self._over = True
        else:
            self._seen.add(key)
            self._over = None

    def _merge_groups(self, g: int, h: int) -> None:
        """Fold group h into group g."""
        gid = self._gid
        stones = self._gst[h]
        for s in stones:
            gid[s] = g
        self._gst[g].extend(stones)
        colour = self._col[g]
        mine = self._greg[g]
        for r, k in self._greg[h].items():
            rg = self._rgrp[r]
            del rg[h]
            if r in mine:
                mine[r] += k
                rg[g] += k
                self._rcol[r][colour] -= 1
            else:
                mine[r] = rg[g] = k
        self._gst[h] = self._greg[h] = None

    def _refill(self, stones: list[int]) -> None:
        """Make the points of a removed group a territory, merged with the
        territories around it."""
        col, gid, reg, neighbours = self._col, self._gid, self._reg, self._t.neighbours
        r = self._new_territory(stones)
        around = {r}
        for s in stones:
            for v in neighbours[s]:
                if col[v]:
                    self._touch(gid[v], r, 1)
                else:
                    around.add(reg[v])
        if len(around) == 1:
            return
        rpts, rgrp, greg, rcol = self._rpts, self._rgrp, self._greg, self._rcol
        keep = max(around, key=lambda s: len(rpts[s]))
        for s in around:
            if s == keep:
                continue
            points = rpts[s]
            for u in points:
                reg[u] = keep
            rpts[keep] |= points
            into, counts = rgrp[keep], rcol[keep]
            for h, k in rgrp[s].items():
                gr = greg[h]
                del gr[s]
                if keep in gr:
                    gr[keep] += k
                    into[h] += k
                else:
                    gr[keep] = into[h] = k
                    counts[col[h]] += 1
            self._free_territory(s)

    def _take(self, p: int) -> None:
        """Strike p from the list of empty points."""
        empties, where = self._empties, self._where
        last = empties.pop()
        if last != p:
            i = where[p]
            empties[i] = last
            where[last] = i

    def _give(self, p: int) -> None:
        self._where[p] = len(self._empties)
        self._empties.append(p)
