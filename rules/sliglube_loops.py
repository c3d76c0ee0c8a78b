"""Loop search on a hexhex board, for Sliglube.

A *loop* is an induced cycle of six or more stones in the board's adjacency
graph: a closed ring one stone wide, every stone of it touching exactly two
others of it. (On a hex grid the only shorter induced cycle is a triangle of
three mutually touching stones, which encloses nothing; there are no induced
cycles of four or five.)

Sets of cells are Python ints used as bit sets, with a *padded* layout: the
cell at axial coordinates (row, q) has bit ``(row + 1) · W + q + 1`` where
``W = 2·base + 1``. The padding column and rows hold no cell, so the six
neighbours of a whole set are six shifts (``±1``, ``±W``, ``±(W − 1)``) and a
flood fill is a handful of big-int operations per step. Bit order is board
order, so "smallest bit" and "first cell in board order" agree.

The search is a depth-first walk over *induced paths* starting at one stone
``v``: a path ``v, p1, …, pk`` may only grow by a stone that touches none of
``p1 … p(k−1)``; it closes into a loop when the new stone touches ``v``. Two
prunings keep it small on crowded boards:

- the only stones that can ever close the ring are ``v``'s neighbours that
  touch none of the path's interior (the *targets*); once none is left, or
  none can be reached from the path's tip through stones the path may still
  use (a flood fill), the branch is dropped;
- each ring is walked in one direction only: the closing stone must come
  after ``p1`` in board order.

Every search runs on the *loop core* (stones left after repeatedly discarding
those without two non-touching stone neighbours, which no loop can pass
through). Whole-position listings start from every core stone and only look
at stones after it, so each loop is found once, from its first stone.

Sliglube rarely needs the loops themselves, only facts about them, and those
searches prune much harder than a listing could:

- *controlled* loops only (``plus``: at least half the ring one player's):
  a branch is cut when even the best completion cannot reach half (see
  :func:`_gain_bound`);
- *unions* (which stones lie on some such loop): a branch is cut when it can
  no longer reach a stone not yet known to be covered;
- *existence*: the search stops at the first loop.

Where those searches would still walk thousands of paths (crowded boards,
control hard to reach), :class:`LoopsThrough` answers the same questions
exactly from a graph of a few hundred path states, by two passes of simple
arithmetic; :func:`control_through` tries the searches first with a budget.

Which stones lie on some loop, and which pairs of touching stones are
consecutive on some loop, need no search at all (:func:`on_loop`,
:func:`stones_on_loops`, :func:`links_on_loops`): a few flood fills per stone
decide them exactly.

``all_loops`` and ``loops_through`` list loops one by one; on a crowded
board there can be very many (a completely full base-5 board holds 3.5
million), so the rules engine never lists them to decide a move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

from rules.hexhex import HexBoard


def bits(mask: int) -> Iterator[int]:
    """The bit positions set in ``mask``, smallest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class HexGrid:
    """The padded bit layout of one hexhex board (see the module docstring)."""

    __slots__ = ("board", "cells", "index_of", "nb", "pos", "width")

    def __init__(self, board: HexBoard) -> None:
        base = board.base
        middle = base - 1
        self.board = board
        self.width = width = 2 * base + 1
        pos = []
        for i in range(len(board)):
            row, col = board.row_col(i)
            x2 = 2 * col + abs(row - middle)
            q = (x2 - row + middle) // 2
            pos.append((row + 1) * width + q + 1)
        #: board index -> bit position, and back
        self.pos: tuple[int, ...] = tuple(pos)
        self.index_of: dict[int, int] = {p: i for i, p in enumerate(pos)}
        #: the mask of every cell of the board
        self.cells: int = sum(1 << p for p in pos)
        nb = [0] * (width * width)
        for p in pos:
            nb[p] = self.grow(1 << p) & ~(1 << p)
        #: bit position -> mask of its neighbours on the board
        self.nb: list[int] = nb

    @classmethod
    @cache
    def of(cls, base: int) -> HexGrid:
        return cls(HexBoard.of(base))

    def grow(self, mask: int) -> int:
        """``mask`` and every cell next to it."""
        w = self.width
        return (
            mask | mask << 1 | mask >> 1 | mask << w | mask >> w | mask << (w - 1) | mask >> (w - 1)
        ) & self.cells

    def around(self, mask: int) -> int:
        """Every cell next to some cell of ``mask`` (cells of ``mask`` only if
        they touch another one)."""
        w = self.width
        return (
            mask << 1 | mask >> 1 | mask << w | mask >> w | mask << (w - 1) | mask >> (w - 1)
        ) & self.cells

    def mask(self, indices: Iterable[int]) -> int:
        """The set of board cells ``indices`` as a mask."""
        pos = self.pos
        out = 0
        for i in indices:
            out |= 1 << pos[i]
        return out

    def indices(self, mask: int) -> list[int]:
        """The board indices of the cells in ``mask``, in board order."""
        index_of = self.index_of
        return [index_of[p] for p in bits(mask)]

    def ring_order(self, loop: int) -> list[int]:
        """The board indices of a loop's stones in ring order: from its first
        cell in board order towards the earlier of that cell's two ring
        neighbours."""
        start = (loop & -loop).bit_length() - 1
        first, _ = bits(self.nb[start] & loop)
        order = [start, first]
        previous, current = start, first
        while True:
            following = next(bits(self.nb[current] & loop & ~(1 << previous)))
            if following == start:
                break
            order.append(following)
            previous, current = current, following
        return [self.index_of[p] for p in order]


def loop_core(grid: HexGrid, stones: int) -> int:
    """The stones that might lie on a loop: repeatedly discard every stone
    that lacks two stone neighbours (among those left) that do not touch each
    other, since a stone on a loop touches two ring stones that do not touch.

    Bit-parallel: ``near[d]`` marks the stones whose neighbour in direction
    ``d`` (around the hexagon) is kept; directions ``d`` and ``e`` that are
    not next to each other around the hexagon give non-touching neighbours.
    """
    w = grid.width
    core = stones
    while True:
        near = (core >> 1, core >> w, core >> (w - 1), core << 1, core << w, core << (w - 1))
        keep = 0
        for d, e in _APART:
            keep |= near[d] & near[e]
        keep &= core
        if keep == core:
            return core
        core = keep


def loop_core_with(grid: HexGrid, stones: int, core: int, p: int) -> int:
    """The loop core of ``stones`` plus the stone at bit ``p``, given ``core``,
    the loop core of ``stones``. Only stones joined to ``p`` through stones
    outside ``core`` can come back (any other stone of the new core would
    already have been in ``core``), so the discarding starts from those."""
    spare = stones & ~core
    revived = _flood(grid, grid.nb[p] & spare, spare)
    return loop_core(grid, core | revived | 1 << p)


#: Pairs of the six directions (E, NE, NW, W, SW, SE) that are not adjacent
#: around the hexagon: the neighbours there do not touch each other.
_APART = tuple((d, e) for d in range(6) for e in range(d + 2, 6) if (d, e) != (0, 5))


#: Called with each loop found (a mask); returning True stops the search.
Visitor = Callable[[int], bool]


class OutOfBudget(Exception):
    """A search gave up after the number of steps it was allowed."""


def search_through(
    grid: HexGrid,
    v: int,
    stones: int,
    visit: Visitor,
    *,
    plus: int | None = None,
    goal: list[int] | None = None,
    budget: int | None = None,
) -> bool:
    """Call ``visit`` with loops through the stone at bit ``v`` that use only
    ``stones``, each loop at most once; stop as soon as ``visit`` returns True
    and return whether it did.

    With ``plus`` (a set of stones, one player's), only loops holding at least
    half ``plus`` stones are visited, and branches that cannot reach that
    share are cut (see :func:`_gain_bound`). With ``goal`` (a one-item list
    holding a mask, which ``visit`` may shrink as it learns), branches whose
    loops could not contain any cell of ``goal[0]`` are cut: a search that
    wants the *union* of some loops passes the cells not yet covered. With
    ``budget``, raise :class:`OutOfBudget` after that many path extensions.

    With ``plus`` or ``goal``, ``visit`` must either return True (stop) or
    take every stone of the loop out of ``goal[0]``: the transposition table
    below relies on it.

    *Transpositions.* Once a path reaches a tip ``w``, how it may go on
    depends only on ``w`` and the *region* (the stones it may still use,
    reachable from ``w``; the closing stones left are the region's stones
    next to ``v``), plus the path's balance of ``plus`` stones. Many paths
    share a tip and region (they differ behind them), so a finished branch is
    remembered by ``(w, region)`` with its balance: when no loop turned up
    that still holds a goal stone, a later path arriving there with no better
    balance is not followed again: if its own stones hold no goal stone (the
    goal only shrinks), or if the first path's did (then no completion met
    the bound at all, else it would have been visited and cleared them).
    """
    nb = grid.nb
    steps = [budget if budget is not None else -1]
    w1 = grid.width
    w0 = w1 - 1
    vbit = 1 << v
    vn = nb[v] & stones
    bounded = plus is not None or goal is not None
    #: (tip, region) -> [balance, balance, gain bound]: see "Transpositions" in the docstring
    failed: dict[tuple[int, int], list[Any]] = {}
    weigh = plus if plus is not None else 0

    def extend(tip: int, path: int, length: int, balance: int, ban: int, targets: int) -> bool:
        # ``path`` (``length`` stones, ``balance`` = plus stones minus others) runs
        # from v to ``tip``; ``ban`` holds the path and every neighbour of its
        # interior; ``targets`` the stones that may still close it.
        new_targets = targets & ~nb[tip]
        candidates = nb[tip] & stones & ~ban
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            gained = balance + (1 if low & weigh else -1)
            if low & vn:
                if (
                    low & targets
                    and length >= 5
                    and (plus is None or gained >= 0)
                    and visit(path | low)
                ):
                    return True
                continue
            if not new_targets:
                continue
            new_ban = ban | nb[tip] | low
            allowed = stones & ~new_ban & (~vn | new_targets)
            w = low.bit_length() - 1
            steps[0] -= 1
            if not steps[0]:
                raise OutOfBudget
            # flood the stones the rest of the path may use, from the new tip
            front = region = nb[w] & allowed
            rest = allowed & ~region
            if bounded:
                while front:
                    front = (
                        front << 1
                        | front >> 1
                        | front << w1
                        | front >> w1
                        | front << w0
                        | front >> w0
                    ) & rest
                    rest ^= front
                    region |= front
                if not region & new_targets:
                    continue
                if goal is not None and not (path | low | region) & goal[0]:
                    continue
                # the rest depends only on (w, region): see "Transpositions" above
                key = (w, region)
                seen = failed.get(key)
                if seen is None:
                    seen = failed[key] = [_NEVER, _NEVER, None]
                elif gained <= seen[1] or (
                    gained <= seen[0] and not (goal is not None and (path | low) & goal[0])
                ):
                    continue
                if gained < 1 and plus is not None:
                    if seen[2] is None:
                        seen[2] = _gain_bound(grid, region, plus, nb[w], new_targets)
                    if gained + seen[2] < 0:
                        continue
                if extend(w, path | low, length + 1, gained, new_ban, new_targets):
                    return True
                if goal is None or (path | low) & goal[0]:
                    seen[1] = max(seen[1], gained)
                else:
                    seen[0] = max(seen[0], gained)
                continue
            else:
                while front and not region & new_targets:
                    front = (
                        front << 1
                        | front >> 1
                        | front << w1
                        | front >> w1
                        | front << w0
                        | front >> w0
                    ) & rest
                    rest ^= front
                    region |= front
                if not region & new_targets:
                    continue
            if extend(w, path | low, length + 1, gained, new_ban, new_targets):
                return True
        return False

    later = vn
    start = 1 if vbit & weigh else -1
    for p1 in bits(vn):
        b1 = 1 << p1
        later &= ~b1
        if later and extend(p1, vbit | b1, 2, start + (1 if b1 & weigh else -1), vbit | b1, later):
            return True
    return False


#: Below any balance a path can have.
_NEVER = -(1 << 20)


def _gain_bound(grid: HexGrid, region: int, plus: int, at_tip: int, targets: int) -> int:
    """An upper bound on (plus stones − other stones) over the rest of a path:
    the stones after its tip, up to and including the one that closes the ring.

    ``region`` holds the stones the rest may use, ``at_tip`` the cells next to
    the tip. The plus stones of the rest come in *runs*, each inside one
    cluster (connected set) of plus stones of ``region``; a run is preceded by
    at least ``d`` other stones, ``d`` being the cluster's distance (counted in
    other stones) to the tip or to another cluster, and the rest ends with at
    least one other stone unless it closes on a plus stone. So a cluster of
    ``n`` stones adds at most ``max(0, n − d)``.
    """
    reachable = region & plus
    bound = 0 if targets & plus else -1
    if not reachable:
        return bound
    w1 = grid.width
    w0 = w1 - 1
    lone = reachable & ~grid.around(reachable)
    bound += (lone & at_tip).bit_count()  # single stones add 1 only next to the tip
    others = region & ~plus
    clusters = reachable & ~lone
    while clusters:
        cluster = front = clusters & -clusters
        while front:
            front = (
                (front << 1 | front >> 1 | front << w1 | front >> w1 | front << w0 | front >> w0)
                & clusters
                & ~cluster
            )
            cluster |= front
        clusters &= ~cluster
        size = cluster.bit_count()
        if cluster & at_tip:
            bound += size
            continue
        elsewhere = reachable & ~cluster
        near = cluster
        distance = 1
        while distance < size:
            near |= (
                near << 1 | near >> 1 | near << w1 | near >> w1 | near << w0 | near >> w0
            ) & others
            if (
                near & at_tip
                or (near << 1 | near >> 1 | near << w1 | near >> w1 | near << w0 | near >> w0)
                & elsewhere
            ):
                break
            distance += 1
        bound += size - distance
    return bound


def _flood(grid: HexGrid, start: int, within: int) -> int:
    """The stones of ``within`` connected to ``start`` through ``within``
    (``start`` itself included only where it lies in ``within``)."""
    w1 = grid.width
    w0 = w1 - 1
    region = front = start & within
    while front:
        front = (
            (front << 1 | front >> 1 | front << w1 | front >> w1 | front << w0 | front >> w0)
            & within
            & ~region
        )
        region |= front
    return region


def on_loop(grid: HexGrid, v: int, stones: int) -> bool:
    """Whether the stone at bit ``v`` is part of some loop within ``stones``.

    Exact, without listing loops: ``v`` is on a loop if and only if two of its
    stone neighbours ``a`` and ``b`` that do not touch are joined by a path of
    stones avoiding ``v`` and its other neighbours. (A shortest such path is
    one stone wide and touches ``v`` only at its ends, so with ``v`` it is an
    induced cycle, of six or more stones on this grid; conversely a loop
    through ``v`` minus ``v`` is such a path.)
    """
    nb = grid.nb
    around_v = nb[v] & stones
    rest = stones & ~around_v & ~(1 << v)
    for a in bits(around_v):
        far = around_v & ~nb[a] & ~(1 << a)
        if far & ~((1 << (a + 1)) - 1):  # each pair once: b after a
            reached = _flood(grid, nb[a] & rest, rest)
            if grid.around(reached) & far & ~((1 << (a + 1)) - 1):
                return True
    return False


def stones_on_loops(grid: HexGrid, stones: int) -> int:
    """The stones that are part of some loop, decided stone by stone with
    :func:`on_loop` (no listing)."""
    core = loop_core(grid, stones)
    return sum(1 << v for v in bits(core) if on_loop(grid, v, core))


def links_on_loops(grid: HexGrid, stones: int) -> list[tuple[int, int]]:
    """The pairs ``(u, v)`` (bit positions, ``u < v``) of touching stones that
    are consecutive on some loop.

    Exact, without listing loops: ``u–v`` is a link of a loop if and only if a
    stone neighbour ``a`` of ``u`` not touching ``v`` and a stone neighbour
    ``b`` of ``v`` not touching ``u``, with ``a`` and ``b`` not touching, are
    joined by a path of stones touching neither ``u`` nor ``v`` (a shortest
    one closes an induced cycle ``u, v, b, …, a``; conversely any loop
    through the link gives such a path).
    """
    nb = grid.nb
    core = stones_on_loops(grid, stones)
    found = []
    for u in bits(core):
        for v in bits(nb[u] & core & ~((1 << (u + 1)) - 1)):
            near = nb[u] | nb[v]
            rest = core & ~near
            side_u = nb[u] & core & ~nb[v] & ~(1 << v)
            side_v = nb[v] & core & ~nb[u] & ~(1 << u)
            for a in bits(side_u):
                ends = side_v & ~nb[a]
                if ends and grid.around(_flood(grid, nb[a] & rest, rest)) & ends:
                    found.append((u, v))
                    break
    return found


class LoopsThrough:
    """Every loop through the stone at bit ``v`` within ``stones``, folded into
    a small graph of path *states*, so that questions about control are
    answered exactly without walking the loops one by one.

    A state is an induced path from ``v`` cut to what matters for its future:
    its tip ``w`` and its *region* (the stones the rest of the path may still
    use, reachable from ``w``; see "Transpositions" in :func:`search_through`).
    Each state's moves (the next stone, or the closing stone next to ``v``)
    and the states they lead to depend on nothing else, and a move shrinks the
    region, so the states form an acyclic graph whose root-to-closing walks are
    exactly the loops through ``v`` (each once: the closing stone comes after
    the first in board order). A region is first stripped of the stones no
    path can use (every stone of a path but the closing one has two
    non-touching neighbours on it), so that more paths share a state. On
    crowded size-7 boards a few hundred states stand for tens of thousands of
    loops. For a weighting
    (``plus`` stones +1, the others −1), the best balance of a path into each
    state and out of it follow by one pass each way.
    """

    __slots__ = ("_moves", "_roots", "_tips", "v")

    def __init__(self, grid: HexGrid, v: int, stones: int) -> None:
        nb = grid.nb
        w1 = grid.width
        w0 = w1 - 1
        self.v = v
        vn = nb[v] & stones
        index: dict[tuple[int, int], int] = {}
        tips: list[int] = []
        #: per state: (stone, next state) moves; -1 closes the ring on that stone
        moves: list[list[tuple[int, int]]] = []
        finished: list[int] = []  # states whose moves are all known, children first

        def state(w: int, region: int) -> int:
            # drop the stones no rest of a path can use: all but the closing
            # stones need two non-touching neighbours among the region and w
            tip = 1 << w
            while True:
                around = region | tip
                near = (
                    around >> 1,
                    around >> w1,
                    around >> w0,
                    around << 1,
                    around << w1,
                    around << w0,
                )
                keep = vn
                for d, e in _APART:
                    keep |= near[d] & near[e]
                if not region & ~keep:
                    break
                region &= keep
            key = (w, region)
            found = index.get(key)
            if found is not None:
                return found
            here = len(tips)
            index[key] = here
            tips.append(w)
            out: list[tuple[int, int]] = []
            moves.append(out)
            closing = not vn >> w & 1  # from the first stone a closure is a triangle
            beyond = region & ~nb[w]
            for c in bits(nb[w] & region):
                if vn >> c & 1:
                    if closing:
                        out.append((c, -1))
                    continue
                # the stones the path may use after c: flood from c within beyond
                allowed = beyond & ~(1 << c)
                rest = front = nb[c] & allowed
                while front:
                    front = (
                        (
                            front << 1
                            | front >> 1
                            | front << w1
                            | front >> w1
                            | front << w0
                            | front >> w0
                        )
                        & allowed
                        & ~rest
                    )
                    rest |= front
                if rest & vn:
                    nxt = state(c, rest)
                    if tips[nxt] >= 0:  # a state with no way to close is dropped
                        out.append((c, nxt))
            if out:
                finished.append(here)
            else:
                tips[here] = -1
            return here

        roots = []
        later = vn
        for p1 in bits(vn):
            later &= ~(1 << p1)
            if not later:
                break
            allowed = stones & ~(1 << v) & ~(1 << p1) & (~vn | later)
            region = _flood(grid, nb[p1] & allowed, allowed)
            if region & later:
                root = state(p1, region)
                if tips[root] >= 0:
                    roots.append(root)
        # parents before children: the reverse of the order states were finished
        order = finished[::-1]
        rank = {s: r for r, s in enumerate(order)}
        self._tips = [tips[s] for s in order]
        self._moves = [[(c, -1 if t < 0 else rank[t]) for c, t in moves[s]] for s in order]
        self._roots = [rank[r] for r in roots]

    @property
    def empty(self) -> bool:
        """Whether no loop passes through ``v``."""
        return not self._roots

    def _best(self, plus: int, avoid: int = 0) -> list[int]:
        """Per state: the best balance of the rest of a loop from it (moves
        after its tip, up to the closing stone), using no stone of ``avoid``."""
        moves = self._moves
        best = [_NEVER] * len(moves)
        for s in range(len(moves) - 1, -1, -1):
            top = _NEVER
            for c, t in moves[s]:
                if avoid >> c & 1:
                    continue
                gain = (1 if plus >> c & 1 else -1) + (0 if t < 0 else best[t])
                if gain > top:
                    top = gain
            best[s] = top
        return best

    def balance(self, plus: int, avoid: int = 0) -> int | None:
        """The most (``plus`` stones − other stones) of any loop through ``v``
        that uses no stone of ``avoid``; None if there is no such loop. (A
        loop of ``stones`` avoiding ``avoid`` is exactly a loop of the stones
        left without them: being a loop depends only on the ring's own stones.)"""
        if avoid >> self.v & 1:
            return None
        best = self._best(plus, avoid)
        tips = self._tips
        start = 1 if plus >> self.v & 1 else -1
        top = max(
            (
                (1 if plus >> tips[r] & 1 else -1) + best[r]
                for r in self._roots
                if not avoid >> tips[r] & 1
            ),
            default=_NEVER,
        )
        return None if top <= _NEVER // 2 else start + top

    def union(self, plus: int | None = None) -> int:
        """The stones of the loops through ``v`` where ``plus`` stones are at
        least half (every loop through ``v`` if ``plus`` is None)."""
        if not self._roots:
            return 0
        if plus is None:
            plus = -1  # every stone counts for: every loop qualifies
        best = self._best(plus)
        tips = self._tips
        moves = self._moves
        reach = [_NEVER] * len(moves)  # best balance of a path from v up to the state's tip
        start = 1 if plus >> self.v & 1 else -1
        for r in self._roots:
            reach[r] = start + (1 if plus >> tips[r] & 1 else -1)
        covered = 0
        for s in range(len(moves)):
            here = reach[s]
            if here == _NEVER or here + best[s] < 0:
                continue  # no loop through this state qualifies
            covered |= 1 << tips[s]
            for c, t in moves[s]:
                gain = here + (1 if plus >> c & 1 else -1)
                if t < 0:
                    if gain >= 0:
                        covered |= 1 << c
                elif gain > reach[t]:
                    reach[t] = gain
        return covered | 1 << self.v if covered else 0


def loops_through(grid: HexGrid, v: int, stones: int) -> list[int]:
    """Every loop through the stone at bit ``v`` within ``stones``, as masks."""
    found: list[int] = []
    search_through(grid, v, loop_core(grid, stones), _collector(found))
    return found


def all_loops(grid: HexGrid, stones: int) -> list[int]:
    """Every loop within ``stones``, as masks, ordered by first stone."""
    found: list[int] = []
    visit = _collector(found)
    remaining = loop_core(grid, stones)
    for v in bits(remaining):
        search_through(grid, v, remaining, visit)
        remaining &= ~(1 << v)
    return found


def union_through(
    grid: HexGrid,
    v: int,
    stones: int,
    plus: int | None = None,
    *,
    cored: bool = False,
    budget: int | None = None,
) -> int:
    """The stones of all loops through ``v`` (only those where ``plus`` stones
    are at least half, if given), without listing the loops one by one.
    ``cored``: ``stones`` is already its own loop core.

    Two exact methods: the pruned search (quick when the control bound or the
    goal cuts early) and :class:`LoopsThrough` (steady where loops abound).
    ``budget``: path extensions allowed to the search before switching to
    the other (0: that one alone; None: the search alone)."""
    if not cored:
        stones = loop_core(grid, stones)
    if not stones >> v & 1:
        return 0
    if budget != 0:
        try:
            return _searched_union(grid, v, stones, plus, budget)
        except OutOfBudget:
            pass
    return LoopsThrough(grid, v, stones).union(plus)


def _searched_union(
    grid: HexGrid, v: int, stones: int, plus: int | None, budget: int | None
) -> int:
    goal = [stones]

    def visit(loop: int) -> bool:
        goal[0] &= ~loop
        return not goal[0]

    search_through(grid, v, stones, visit, plus=plus, goal=goal, budget=budget)
    return stones & ~goal[0]


def control_through(
    grid: HexGrid, v: int, stones: int, mine: int, theirs: int, budget: int = 300
) -> tuple[bool, int, LoopsThrough | None]:
    """For the loops through ``v`` within ``stones`` (a loop core): whether one
    is at least half ``theirs``, and the union of those at least half
    ``mine``. Pruned searches first, each allowed ``budget`` path extensions;
    past that, one :class:`LoopsThrough` answers whatever is left, and is
    returned too (else None) for further questions."""
    through = None
    try:
        if not budget:
            raise OutOfBudget
        threatened = search_through(grid, v, stones, _stop, plus=theirs, budget=budget)
    except OutOfBudget:
        through = LoopsThrough(grid, v, stones)
        best = through.balance(theirs)
        threatened = best is not None and best >= 0
    if through is None:
        try:
            return threatened, _searched_union(grid, v, stones, mine, budget), None
        except OutOfBudget:
            through = LoopsThrough(grid, v, stones)
    return threatened, through.union(mine), through


def touching_loops(grid: HexGrid, stones: int, empty: int, plus: int | None = None) -> int:
    """The cells of ``empty`` (cells without stones) next to some loop (some
    loop where ``plus`` stones are at least half, if given).

    Two passes. First, empty cells are decided one at a time by a short search
    for a loop through each stone next to the cell: where loops abound one
    turns up at once, and it also decides the other empty cells next to it; a
    stone whose search ends empty is on no such loop. Searches that run too
    long are left to the second pass, a single sweep over every loop (each
    from its first stone) that only follows branches which could still reach a
    stone next to an undecided cell.
    """
    nb = grid.nb
    around = grid.around
    core = loop_core(grid, stones)
    pending = empty & around(core)
    found = 0
    hopeless = 0  # stones on no loop of the kind wanted
    unsure = 0  # empty cells left to the second pass
    allowance = _QUICK_TOTAL
    while pending and allowance > 0:
        cell = (pending & -pending).bit_length() - 1
        pending &= ~(1 << cell)
        for x in bits(nb[cell] & core & ~hopeless):
            allowance -= _QUICK_STEPS
            try:
                loop = _first_through(grid, x, core, plus, _QUICK_STEPS)
            except OutOfBudget:
                unsure |= 1 << cell
                continue
            if loop:
                found |= empty & around(loop)
                pending &= ~found
                unsure &= ~found
                break
            hopeless |= 1 << x
        else:
            continue
        unsure &= ~(1 << cell)
    unsure |= pending
    if not unsure:
        return found
    goal = [core & around(unsure) & ~hopeless]

    def visit(loop: int) -> bool:
        nonlocal unsure, found
        found |= empty & around(loop)
        unsure &= ~found
        goal[0] = core & around(unsure) & ~hopeless
        return not goal[0]

    remaining = core
    for v in bits(core):
        if search_through(grid, v, remaining, visit, plus=plus, goal=goal):
            break
        remaining &= ~(1 << v)
    return found


#: Path extensions allowed to each quick per-stone search of touching_loops,
#: and to all of them together (tuned on crowded positions of random games).
_QUICK_STEPS = 30
_QUICK_TOTAL = 150


def _first_through(
    grid: HexGrid, v: int, stones: int, plus: int | None, budget: int | None = None
) -> int:
    """A loop through ``v`` (where ``plus`` stones are at least half, if given), or 0."""
    first = [0]

    def visit(loop: int) -> bool:
        first[0] = loop
        return True

    search_through(grid, v, stones, visit, plus=plus, budget=budget)
    return first[0]


def any_through(
    grid: HexGrid,
    v: int,
    stones: int,
    plus: int | None = None,
    wanted: int | None = None,
    *,
    cored: bool = False,
    budget: int | None = None,
) -> bool:
    """Whether some loop through ``v`` exists (one where ``plus`` stones are at
    least half, if given; one containing a stone of ``wanted``, if given).
    ``cored``: ``stones`` is already its own loop core. ``budget``: as for
    :func:`union_through`."""
    if not cored:
        stones = loop_core(grid, stones)
    if not stones >> v & 1:
        return False
    if budget != 0:
        visit = _stop if wanted is None else lambda loop: bool(loop & wanted)
        try:
            return search_through(
                grid,
                v,
                stones,
                visit,
                plus=plus,
                goal=None if wanted is None else [wanted],
                budget=budget,
            )
        except OutOfBudget:
            pass
    through = LoopsThrough(grid, v, stones)
    if wanted is not None:
        return bool(through.union(plus) & wanted)
    best = through.balance(-1 if plus is None else plus)
    return best is not None and best >= 0


def _stop(loop: int) -> bool:
    return True


def _collector(found: list[int]) -> Visitor:
    def visit(loop: int) -> bool:
        found.append(loop)
        return False

    return visit
