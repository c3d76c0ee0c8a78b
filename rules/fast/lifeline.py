"""A fast Lifeline position for search: the same game as :mod:`rules.lifeline`,
with moves as small integers and liveness kept up to date move by move.

Liveness, seen per colour. For a colour ``x`` take the cells that are empty or
hold an ``x`` stone, with the board's adjacency: call it ``x``'s *field*. An
``x`` group is alive exactly when its part (connected component) of the field
holds another ``x`` group: a path from it to another group leaves it into an
empty region that touches both. So for each colour the position keeps the
parts of its field (a label per cell) and how many groups of the colour each
part holds. A cell is a legal placement for ``x`` (once removal has started
and every group is alive, as after every settled turn) exactly when its part
of ``x``'s field holds an ``x`` group: the engine's "region touching a
friendly group".

A placement of ``x`` on ``s`` leaves ``x``'s field as it was (only its group
count changes, as the stone joins neighbouring groups) and takes ``s`` out of
the enemy's field. That part can only fall apart if ``s`` closes a loop of
``x`` stones (or of ``x`` stones and the board's edge): going round ``s``, two
stretches of ``x`` stones or edge that already belong to one group, or both
reach the edge (on a hex board a set of cells parts the board only along
such a loop). Only then are the pieces flooded, side by side until all but
the largest are complete, and a piece left with a single enemy group has
that group dead. Removing a dead
group joins the other colour's parts around it (the smaller relabelled).

Move ids, the same for every position of one board size (whatever the
opening): a cell's index for a single placement, then ``swap``, ``pass``,
``black``, ``white``, ``komi 0`` … ``komi N`` (N the number of cells), then
the two-stone first turns of the strong pie, every pair of non-adjacent cells
in board order. A random playout draws those pairs by rejection (a uniform
draw over all pairs, and ``swap``, redrawn while it falls on an occupied
cell), and single placements the same way over the empty cells: the same
distribution as a uniform choice among the legal moves, without listing them.

:meth:`LifelinePosition.evaluate` is seat 0's share of the stones on the board.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable
from functools import cache

from rules.game import State, normalize_move
from rules.hexhex import HexBoard
from rules.position import SearchPosition

EMPTY, BLACK, WHITE, OFF = 0, 1, 2, 3
STRONG, WEAK, KOMI = 0, 1, 2
OPENINGS = {"strong-pie": STRONG, "weak-pie": WEAK, "komi-pie": KOMI}
PHASE_KOMI, PHASE_COLOUR, PHASE_PLAY = 0, 1, 2
_EDGE = -2  # the board's edge, as a member of a loop


def _runs(mask: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...]]:
    """Round a cell whose six neighbours (in turn) are out of a field where ``mask``
    has a bit: the stretches of out neighbours as (bits, first direction), and
    between them the stretches of in neighbours (directions), arc i following
    stretch i."""
    if mask == 0:
        return (), (tuple(range(6)),)
    if mask == 63:
        return ((63, 0),), ()
    start = next(d for d in range(6) if mask >> d & 1 and not mask >> ((d - 1) % 6) & 1)
    runs: list[tuple[int, int]] = []
    arcs: list[tuple[int, ...]] = []
    d = start
    for _ in range(6):
        out = bool(mask >> (d % 6) & 1)
        if out and (not runs or not mask >> ((d - 1) % 6) & 1):
            runs.append((0, d % 6))
        if out:
            runs[-1] = (runs[-1][0] | 1 << (d % 6), runs[-1][1])
        elif mask >> ((d - 1) % 6) & 1:
            arcs.append((d % 6,))
        else:
            arcs[-1] += (d % 6,)
        d += 1
    return tuple(runs), tuple(arcs)


_RUNS = tuple(_runs(mask) for mask in range(64))


def _pieces(keys: list[int]) -> list[list[int]]:
    """The arcs round a placed stone that stay connected, given the loop keys of the
    stretches between them: two stretches with one key close a loop through the
    stone, which parts the arcs on its two sides."""
    k = len(keys)

    def parted(i: int, j: int) -> bool:  # arcs i < j: by a loop from i+1..j to outside
        return any(
            keys[p] == keys[q] for p in range(i + 1, j + 1) for q in range(k) if not i + 1 <= q <= j
        )

    owner = [next(i for i in range(j + 1) if i == j or not parted(i, j)) for j in range(k)]
    groups: dict[int, list[int]] = {}
    for arc in range(k):
        groups.setdefault(owner[arc], []).append(arc)
    return list(groups.values())


class _Tables:
    """What every position of one board size shares: neighbours, names, move ids."""

    def __init__(self, size: int) -> None:
        board = HexBoard.of(size)
        n = self.n = len(board)
        self.names: tuple[str, ...] = tuple(board.cells)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(board.neighbours)
        # the six neighbours in turn, the edge as cell n (always OFF)
        self.ring = tuple(
            tuple(n if x is None else x for x in (board.step(i, d) for d in range(6)))
            for i in range(n)
        )
        self.offmask = tuple(sum(1 << d for d in range(6) if r[d] == n) for r in self.ring)
        self.edge = tuple(m != 0 for m in self.offmask)
        self.swap, self.pass_, self.black, self.white = n, n + 1, n + 2, n + 3
        self.komi0 = n + 4
        self.pair0 = 2 * n + 5
        rows: list[list[int]] = []
        px: list[int] = []
        py: list[int] = []
        base: list[int] = []
        for x in range(n):
            near = set(board.neighbours[x])
            row = [y for y in range(x + 1, n) if y not in near]
            base.append(len(px))
            rows.append(row)
            px.extend([x] * len(row))
            py.extend(row)
        self.rows, self.pair_base, self.px, self.py = rows, base, px, py
        self.npairs = len(px)

    def text(self, move: int) -> str:
        n = self.n
        if move < n:
            return self.names[move]
        if move >= self.pair0:
            k = move - self.pair0
            return f"{self.names[self.px[k]]} {self.names[self.py[k]]}"
        if move >= self.komi0:
            return f"komi {move - self.komi0}"
        return ("swap", "pass", "black", "white")[move - n]

    def move_id(self, text: str) -> int:
        words = normalize_move(text).split()
        specials = {"swap": self.swap, "pass": self.pass_, "black": self.black, "white": self.white}
        if len(words) == 1:
            if words[0] in specials:
                return specials[words[0]]
            if words[0] in self.index:
                return self.index[words[0]]
        elif len(words) == 2:
            if words[0] == "komi" and words[1].isdigit() and int(words[1]) <= self.n:
                return self.komi0 + int(words[1])
            if words[0] in self.index and words[1] in self.index:
                x, y = sorted((self.index[words[0]], self.index[words[1]]))
                row = self.rows[x]
                at = bisect_left(row, y)
                if at < len(row) and row[at] == y:
                    return self.pair0 + self.pair_base[x] + at
        raise ValueError(f"{text!r} is not a Lifeline move on this board")


@cache
def tables(size: int) -> _Tables:
    return _Tables(size)


class LifelinePosition(SearchPosition):
    """A Lifeline position that :meth:`play` changes in place.

    Public facts (read them, never change them): ``stones`` (stones on the board
    by colour: ``stones[1]`` Black's, ``stones[2]`` White's), ``mover`` (the
    colour to place, 1 or 2), ``white_seat`` (None before the komi pie's colour
    choice), ``komi_left`` (None outside the komi pie), ``cells`` (per cell index
    of the board: 0 empty, 1 black, 2 white; one more entry past the end stands
    for the edge), ``empties`` (the empty cells, in no order), ``placements``
    (placement turns so far), ``nmoves`` (moves so far).
    """

    __slots__ = (
        "_over",
        "_winner",
        "cells",
        "empties",
        "epos",
        "gedge",
        "gfree",
        "gid",
        "gmem",
        "komi_left",
        "mover",
        "nmoves",
        "opening",
        "part",
        "pgroups",
        "phase",
        "placements",
        "psize",
        "started",
        "stones",
        "t",
        "white_seat",
    )

    def __init__(self, size: int, opening: str) -> None:
        t = self.t = tables(size)
        n = t.n
        self.opening = OPENINGS[opening]
        self.phase = PHASE_KOMI if self.opening == KOMI else PHASE_PLAY
        self.mover = BLACK
        self.white_seat: int | None = None if self.opening == KOMI else 1
        self.komi_left: int | None = None
        self.placements = 0
        self.started = 0  # bit 1: Black has completed a placement turn, bit 2: White
        self.nmoves = 0
        self._over = False
        self._winner: int | None = None
        self.cells = [EMPTY] * n + [OFF]
        self.empties = list(range(n))
        self.epos = [*range(n), -1]
        self.stones = [0, 0, 0]
        self.gid = [-1] * (n + 1)
        self.gmem: list[list[int]] = []  # per group id its cells ([] when unused)
        self.gedge: list[bool] = []
        self.gfree: list[int] = []
        # per colour: the part of its field each cell is in (-1: an enemy stone or
        # the edge), and per part its number of groups of the colour and of cells
        self.part = [[], [0] * n + [-1], [0] * n + [-1]]
        self.pgroups = [[], [0], [0]]
        self.psize = [[], [n], [n]]

    def copy(self) -> LifelinePosition:
        other = object.__new__(LifelinePosition)
        other.t, other.opening, other.phase = self.t, self.opening, self.phase
        other.mover, other.white_seat, other.komi_left = self.mover, self.white_seat, self.komi_left
        other.placements, other.started, other.nmoves = self.placements, self.started, self.nmoves
        other._over, other._winner = self._over, self._winner
        other.cells, other.empties, other.epos = self.cells[:], self.empties[:], self.epos[:]
        other.stones, other.gid, other.gedge = self.stones[:], self.gid[:], self.gedge[:]
        other.gmem = [m[:] for m in self.gmem]
        other.gfree = self.gfree[:]
        lab, cnt, size = self.part, self.pgroups, self.psize
        other.part = [[], lab[1][:], lab[2][:]]
        other.pgroups = [[], cnt[1][:], cnt[2][:]]
        other.psize = [[], size[1][:], size[2][:]]
        return other

    # -- facts -------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self._over:
            return None
        if self.phase == PHASE_KOMI:
            return 0
        if self.phase == PHASE_COLOUR:
            return 1
        return self._seat(self.mover)

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def winner(self) -> int | None:
        return self._winner

    def _seat(self, colour: int) -> int:
        assert self.white_seat is not None
        return self.white_seat if colour == WHITE else 1 - self.white_seat

    def evaluate(self) -> float:
        if self._over:
            return 0.5 if self._winner is None else float(self._winner == 0)
        if self.white_seat is None:
            return 0.5
        black, white = self.stones[BLACK], self.stones[WHITE]
        if not black + white:
            return 0.5
        mine = white if self.white_seat == 0 else black
        return mine / (black + white)

    def move_text(self, move: int) -> str:
        return self.t.text(move)

    def move_id(self, text: str) -> int:
        return self.t.move_id(text)

    # -- the turn ----------------------------------------------------------

    def _two_stones(self) -> bool:
        return self.opening == STRONG and not self.started & self.mover

    def _special(self) -> int:
        """The id of swap or pass if the player to move may play it, else -1."""
        if self.opening == KOMI:
            if self.mover == WHITE and self.placements >= 4 and self.komi_left:
                return self.t.pass_
        elif self.nmoves == 1:
            return self.t.swap
        return -1

    def _removal(self) -> int:
        """0: nothing is removed this turn; 1: removal, with every group alive before
        the turn (the usual case); 2: removal, judged over the whole board."""
        if self.opening != STRONG and self.placements < 4:
            return 2 if self.placements == 3 else 0
        return 2 if self._two_stones() else 1

    def _any_dead(self) -> bool:
        cells, lab, cnt = self.cells, self.part, self.pgroups
        for members in self.gmem:
            if members:
                colour = cells[members[0]]
                if cnt[colour][lab[colour][members[0]]] == 1:
                    return True
        return False

    def _legal_cells(self) -> list[int]:
        """Legal single placements, in board order."""
        removal = self._removal()
        if removal == 0 or (removal == 2 and self._any_dead()):
            return sorted(self.empties)
        c = self.mover
        cells, lab, cnt = self.cells, self.part[c], self.pgroups[c]
        return [s for s in range(self.t.n) if cells[s] == EMPTY and cnt[lab[s]]]

    def legal_moves(self) -> list[int]:
        if self._over:
            return []
        t = self.t
        if self.phase == PHASE_KOMI:
            return list(range(t.komi0, t.komi0 + t.n + 1))
        if self.phase == PHASE_COLOUR:
            return [t.black, t.white]
        special = self._special()
        moves = [special] if special >= 0 else []
        if self._two_stones():
            if self.mover == BLACK:
                return moves + list(range(t.pair0, t.pair0 + t.npairs))
            cells = self.cells
            return moves + [
                t.pair0 + k
                for k, (x, y) in enumerate(zip(t.px, t.py, strict=True))
                if not cells[x] and not cells[y]
            ]
        moves += self._legal_cells()
        if not moves:  # never happens (see rules.lifeline), kept as the rule says
            self._end(3 - self.mover)
        return moves

    def play(self, move: int) -> None:
        t = self.t
        if move < t.n:
            self._play_cell(move)
        elif move >= t.pair0:
            k = move - t.pair0
            self._play_pair(t.px[k], t.py[k])
        elif move >= t.komi0:
            self.komi_left = move - t.komi0
            self.phase = PHASE_COLOUR
        elif move == t.swap:
            self.white_seat = 0
        elif move == t.pass_:
            assert self.komi_left is not None
            self.komi_left -= 1
            self.mover = BLACK
        else:  # the second player's colour
            self.white_seat = 1 if move == t.white else 0
            self.phase = PHASE_PLAY
        self.nmoves += 1

    def _end(self, winner_colour: int) -> None:
        self._over = True
        self._winner = self._seat(winner_colour)

    def _turn_done(self, c: int) -> None:
        """After ``c``'s placement turn: the other colour moves; the no-stones ruling."""
        self.placements += 1
        self.started |= c
        self.mover = 3 - c
        if self.started == 3:
            if not self.stones[3 - c]:
                self._end(c)
            elif not self.stones[c]:
                self._end(3 - c)

    def _play_pair(self, x: int, y: int) -> None:
        c = self.mover
        self._place(x, c, False)
        self._place(y, c, False)
        self._settle_all(c)
        self._turn_done(c)

    def _play_cell(self, s: int) -> None:
        c = self.mover
        removal = self._removal()
        if removal == 1:
            self._usual_turn(s, c)
            return
        self._place(s, c, False)
        if removal == 2:
            self._settle_all(c)
        self._turn_done(c)

    def _usual_turn(self, s: int, c: int) -> None:
        """``c`` places on ``s`` when every group is alive: only the enemy groups
        the stone cuts off, and the stone's own group, can die."""
        for g in self._place(s, c, True):
            self._remove(g, 3 - c)
        if self.pgroups[c][self.part[c][s]] == 1:
            self._remove(self.gid[s], c)
        self._turn_done(c)

    def _settle_all(self, c: int) -> None:
        """Steps 2 and 3 judged over the whole board: dead enemy groups go, then
        dead friendly ones."""
        cells, lab, cnt, gmem = self.cells, self.part, self.pgroups, self.gmem
        for x in (3 - c, c):
            dead = [
                g
                for g, members in enumerate(gmem)
                if members and cells[members[0]] == x and cnt[x][lab[x][members[0]]] == 1
            ]
            for g in dead:
                self._remove(g, x)

    # -- the fields --------------------------------------------------------

    def _place(self, s: int, c: int, want_dead: bool) -> list[int]:
        """Put a ``c`` stone on ``s`` and bring groups and fields up to date.
        With ``want_dead``, returns the enemy groups the placement leaves alone in
        their part of the field (dead, if every group was alive before)."""
        t, cells, gid, gedge = self.t, self.cells, self.gid, self.gedge
        ring = t.ring[s]
        mask = 0
        bit = 1
        joined: list[int] = []
        for nb in ring:
            v = cells[nb]
            if v == c:
                mask |= bit
                g = gid[nb]
                if g not in joined:
                    joined.append(g)
            elif v == OFF:
                mask |= bit
            bit <<= 1
        runs, arcs = _RUNS[mask]
        pieces = None
        if len(runs) > 1:
            off = t.offmask[s]
            keys = []
            for bits, first in runs:
                if bits & off:
                    keys.append(_EDGE)
                else:
                    g = gid[ring[first]]
                    keys.append(_EDGE if gedge[g] else g)
            if len(set(keys)) < len(keys):
                pieces = _pieces(keys)
        # the stone
        cells[s] = c
        empties, epos = self.empties, self.epos
        i = epos[s]
        last = empties.pop()
        if last != s:
            empties[i] = last
            epos[last] = i
        epos[s] = -1
        self.stones[c] += 1
        gmem = self.gmem
        if not joined:
            if self.gfree:
                g = self.gfree.pop()
                gmem[g] = [s]
                gedge[g] = t.edge[s]
            else:
                g = len(gmem)
                gmem.append([s])
                gedge.append(t.edge[s])
        else:
            g = max(joined, key=lambda h: len(gmem[h])) if len(joined) > 1 else joined[0]
            members = gmem[g]
            for h in joined:
                if h != g:
                    for cell in gmem[h]:
                        gid[cell] = g
                    members += gmem[h]
                    gedge[g] = gedge[g] or gedge[h]
                    gmem[h] = []
                    self.gfree.append(h)
            members.append(s)
            gedge[g] = gedge[g] or t.edge[s]
        gid[s] = g
        # own field: same cells, fewer groups
        self.pgroups[c][self.part[c][s]] += 1 - len(joined)
        # the enemy's field loses s
        e = 3 - c
        labe = self.part[e]
        old = labe[s]
        labe[s] = -1
        self.psize[e][old] -= 1
        if pieces is None:
            return []
        starts = [[ring[arcs[a][0]] for a in piece] for piece in pieces]
        return self._split(e, old, starts, want_dead)

    def _split(self, e: int, old: int, starts: list[list[int]], want_dead: bool) -> list[int]:
        """Part ``old`` of ``e``'s field has fallen apart into pieces, one per list
        of start cells: flood them side by side until all but one are complete,
        give those new labels, and return the groups left alone in a piece."""
        cells, gid, labe = self.cells, self.gid, self.part[e]
        cnt, size = self.pgroups[e], self.psize[e]
        neighbours = self.t.neighbours
        k = len(starts)
        ids = []
        for piece in starts:
            nid = len(cnt)
            cnt.append(0)
            size.append(0)
            ids.append(nid)
            for cell in piece:
                labe[cell] = nid
        queues = [list(piece) for piece in starts]
        heads = [0] * k
        done = [False] * k
        active = k
        while active > 1:
            for i in range(k):
                if done[i]:
                    continue
                queue = queues[i]
                head = heads[i]
                if head == len(queue):
                    done[i] = True
                    active -= 1
                    if active == 1:
                        break
                    continue
                heads[i] = head + 1
                nid = ids[i]
                for nb in neighbours[queue[head]]:
                    if labe[nb] == old:
                        labe[nb] = nid
                        queue.append(nb)
        dead: list[int] = []
        left = cnt[old]
        for i in range(k):
            if done[i]:
                groups = {gid[cell] for cell in queues[i] if cells[cell] == e}
                cnt[ids[i]] = len(groups)
                size[ids[i]] = len(queues[i])
                left -= len(groups)
                size[old] -= len(queues[i])
                if len(groups) == 1:
                    dead.append(groups.pop())
        cnt[old] = left
        rest = done.index(False)
        queue = queues[rest]
        if left == 1 and want_dead:
            found = next((gid[cell] for cell in queue if cells[cell] == e), -1)
            head, nid = heads[rest], ids[rest]
            while found < 0:
                for nb in neighbours[queue[head]]:
                    if labe[nb] == old:
                        labe[nb] = nid
                        queue.append(nb)
                        if cells[nb] == e:
                            found = gid[nb]
                head += 1
            dead.append(found)
        for cell in queue:
            labe[cell] = old
        return dead

    def _remove(self, g: int, x: int) -> None:
        """Take group ``g`` (colour ``x``) off the board: its cells join the other
        colour's field, merging the parts around them."""
        members = self.gmem[g]
        self.gmem[g] = []
        self.gfree.append(g)
        cells, gid, empties, epos = self.cells, self.gid, self.empties, self.epos
        self.pgroups[x][self.part[x][members[0]]] -= 1
        self.stones[x] -= len(members)
        for cell in members:
            cells[cell] = EMPTY
            gid[cell] = -1
            epos[cell] = len(empties)
            empties.append(cell)
        y = 3 - x
        laby, cnt, size = self.part[y], self.pgroups[y], self.psize[y]
        neighbours = self.t.neighbours
        around: dict[int, int] = {}
        for cell in members:
            for nb in neighbours[cell]:
                part = laby[nb]
                if part >= 0 and part not in around:
                    around[part] = nb
        if around:
            keep = max(around, key=size.__getitem__)
        else:
            keep = len(cnt)
            cnt.append(0)
            size.append(0)
        for part, start in around.items():
            if part == keep:
                continue
            cnt[keep] += cnt[part]
            size[keep] += size[part]
            cnt[part] = size[part] = 0
            laby[start] = keep
            stack = [start]
            while stack:
                for nb in neighbours[stack.pop()]:
                    if laby[nb] == part:
                        laby[nb] = keep
                        stack.append(nb)
        for cell in members:
            laby[cell] = keep
        size[keep] += len(members)

    # -- random play -------------------------------------------------------

    def playout(self, rng: random.Random, max_plies: int | None = None) -> int:
        """Uniformly random legal moves until the game ends (:meth:`_random_move`)."""
        rand = rng.random
        limit = -1 if max_plies is None else max_plies
        plies = 0
        while (
            not self._over and plies != limit and (self.phase != PHASE_PLAY or self._removal() != 1)
        ):
            plies += 1
            self._random_move(rand)
        usual_turn = self._random_usual_turn
        while not self._over and plies != limit:
            plies += 1
            usual_turn(rand)
        return plies

    def play_random(self, rng: random.Random) -> tuple[int, int] | None:
        seat = self.to_move
        if seat is None:
            return None
        move = self._random_move(rng.random)
        return None if move is None else (seat, move)

    def _random_move(self, rand: Callable[[], float]) -> int | None:
        """Play a uniformly random legal move of a game under way and return its id
        (None, the game over, if there is none): first turns of two stones drawn over
        all pairs (and ``swap``), again while a cell is taken; usual turns by
        :meth:`_random_usual_turn`; the rest from the list of legal moves."""
        t = self.t
        if self.phase == PHASE_PLAY:
            if self._removal() == 1:
                return self._random_usual_turn(rand)
            if self._two_stones():
                special = self._special()
                cells = self.cells
                while True:
                    k = int(rand() * (t.npairs + (special >= 0)))
                    if k == t.npairs:
                        self.play(special)
                        return special
                    x, y = t.px[k], t.py[k]
                    if not cells[x] and not cells[y]:
                        self.nmoves += 1
                        self._play_pair(x, y)
                        return t.pair0 + k
        return self._random_listed(rand)

    def _random_usual_turn(self, rand: Callable[[], float]) -> int | None:
        """A uniformly random move of a usual turn (every group alive as it starts):
        a cell drawn over the empty ones (and ``pass`` when open), again while
        illegal; from the list after 64 draws."""
        c = self.mover
        empties, labc, cntc = self.empties, self.part[c], self.pgroups[c]
        m = len(empties)
        slots = m + 1 if self.opening == KOMI and c == WHITE and self.komi_left else m
        for _ in range(64):
            i = int(rand() * slots)
            if i == m:
                self.play(self.t.pass_)
                return self.t.pass_
            s = empties[i]
            if cntc[labc[s]]:
                self.nmoves += 1
                self._usual_turn(s, c)
                return s
        return self._random_listed(rand)

    def _random_listed(self, rand: Callable[[], float]) -> int | None:
        moves = self.legal_moves()
        if not moves:
            return None
        move = moves[int(rand() * len(moves))]
        self.play(move)
        return move


def position(state: State) -> LifelinePosition:
    """The fast position of a Lifeline State (its moves replayed from the start)."""
    pos = LifelinePosition(state.options["size"], state.options["opening"])
    for text in state.history:
        pos.play(pos.move_id(text))
    return pos
