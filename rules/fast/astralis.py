"""Astralis for tree search: a mutable position with integer moves and fast playouts.

The same game as :mod:`rules.astralis` (``shared/rules/astralis.md`` decides),
computed incrementally. What a turn changes is found from what it touched:

- Each cell keeps how many yellow and cyan stones are next to it; control,
  contest and exploration follow from those two counts (stones are never
  next to each other, so the counts of a stone's own cell are zero).
- Each cell keeps how many of its neighbours are unexplored (``free``). A
  cell can start to qualify for a bonus only when its last unexplored
  neighbour is explored, when a capture hands a neighbour to one player, or
  when its owner's pawn leaves it; only those cells are looked at.
- A stone can become capturable (all its neighbours contested) only when it
  is put down or flipped, or when one of its neighbours becomes contested;
  then it is listed, and waits for its opponent's next resolution, which
  captures it if it still qualifies. That is how a stone placed among
  contested cells is captured in the opponent's next turn, even by a bare
  pawn move.

Move ids, stable for a board size: ``7·d`` moves the pawn to cell ``d`` (and is
also the setup move onto ``d``), ``7·d + k`` moves it to ``d`` and places a stone
on ``d``'s ``k``-th neighbour in board order (k = 1…6), ``7·cells`` is ``pass``.

A random playout does not list the moves: it draws a destination and, with
the right weights, either the bare move or one of the stones next to it, which
is the same as a uniform choice among the legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from rules.astralis import COLORS, AstralisState
from rules.hexhex import HexBoard
from rules.position import SearchPosition

KOMI = AstralisState.KOMI
_EMPTY = -1
_SLOTS = 7  # ids per destination: the bare move and up to six stones


class _Geometry:
    """What never changes on one board size: neighbours, pawn rays, move texts."""

    __slots__ = ("board", "cells", "homes", "ids", "neighbours", "pass_id", "rays", "texts")

    def __init__(self, base: int) -> None:
        board = HexBoard.of(base)
        n = len(board)
        self.board = board
        self.cells = n
        self.neighbours = tuple(tuple(sorted(ns)) for ns in board.neighbours)
        self.rays = tuple(
            tuple(tuple(ray) for d in range(6) if (ray := board.ray(c, d))) for c in range(n)
        )
        self.homes = (board.rows[0][1:-1], board.rows[-1][1:-1])
        self.pass_id = _SLOTS * n
        texts: list[str | None] = [None] * (self.pass_id + 1)
        for d, ns in enumerate(self.neighbours):
            texts[_SLOTS * d] = board.cells[d]
            for k, cell in enumerate(ns, 1):
                texts[_SLOTS * d + k] = f"{board.cells[d]} {board.cells[cell]}"
        texts[self.pass_id] = "pass"
        self.texts = tuple(texts)
        self.ids = {text: i for i, text in enumerate(texts) if text is not None}


@cache
def _geometry(base: int) -> _Geometry:
    return _Geometry(base)


#: The last State converted and its position: a search starts from its root
#: again and again, and a State never changes.
_last: tuple[AstralisState | None, AstralisPosition | None] = (None, None)


def position(state: AstralisState) -> AstralisPosition:
    """The search position of an Astralis State (a new one at every call)."""
    global _last
    known, found = _last
    if known is not state or found is None:
        found = AstralisPosition.of_state(state)
        _last = (state, found)
    return found.copy()


class AstralisPosition(SearchPosition):
    """A mutable Astralis position. Seat 0 is Yellow, seat 1 Cyan, as in the State."""

    __slots__ = (
        "_over",
        "candidates",
        "counts",
        "deferred",
        "explored",
        "free",
        "geometry",
        "pawns",
        "ply",
        "stones",
        "unexplored",
    )

    geometry: _Geometry
    stones: list[int]  # per cell: _EMPTY or the colour of its stone
    counts: tuple[list[int], list[int]]  # per colour, per cell: that colour's stones next to it
    explored: list[int]  # per cell: 1 if it holds or touches a stone
    free: list[int]  # per cell: how many of its neighbours are unexplored
    unexplored: int
    pawns: list[int]  # per colour; -1 before its setup move
    deferred: dict[int, int]  # cell -> colour of the bonus waiting for the pawn on it
    candidates: tuple[list[int], list[int]]  # per colour: its stones that may be capturable
    ply: int
    _over: bool | None  # None: not known yet

    @classmethod
    def of_state(cls, state: AstralisState) -> AstralisPosition:
        """The position of ``state``, read through its public facts."""
        geometry = _geometry(state.options["size"])
        n, neighbours, board = geometry.cells, geometry.neighbours, geometry.board
        stones = [
            _EMPTY if stone is None else COLORS.index(stone)
            for stone in map(state.stone_at, board.cells)
        ]
        counts: tuple[list[int], list[int]] = ([0] * n, [0] * n)
        for cell, stone in enumerate(stones):
            if stone != _EMPTY:
                for x in neighbours[cell]:
                    counts[stone][x] += 1
        explored = [int(stones[c] != _EMPTY or counts[0][c] + counts[1][c] > 0) for c in range(n)]
        self = cls.__new__(cls)
        self.geometry = geometry
        self.stones = stones
        self.counts = counts
        self.explored = explored
        free = self.free = [len(around) for around in neighbours]
        for cell in range(n):
            if explored[cell]:
                for x in neighbours[cell]:
                    free[x] -= 1
        self.unexplored = n - sum(explored)
        self.pawns = [
            -1 if cell is None else board.index(cell) for cell in map(state.pawns.get, COLORS)
        ]
        self.deferred = {
            board.index(cell): COLORS.index(color) for cell, color in state.deferred_bonuses
        }
        # the stones the rules would capture in their opponent's next resolution
        self.candidates = ([], [])
        for cell, stone in enumerate(stones):
            if stone != _EMPTY and all(counts[1 - stone][x] for x in neighbours[cell]):
                self.candidates[stone].append(cell)
        self.ply = len(state.history)
        self._over = None
        return self

    def copy(self) -> AstralisPosition:
        other = AstralisPosition.__new__(AstralisPosition)
        other.geometry = self.geometry
        other.stones = self.stones[:]
        other.counts = (self.counts[0][:], self.counts[1][:])
        other.explored = self.explored[:]
        other.free = self.free[:]
        other.unexplored = self.unexplored
        other.pawns = self.pawns[:]
        other.deferred = dict(self.deferred)
        other.candidates = (self.candidates[0][:], self.candidates[1][:])
        other.ply = self.ply
        other._over = self._over
        return other

    # -- turn and outcome -----------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.ply & 1

    @property
    def is_over(self) -> bool:
        if self._over is None:
            me = self.ply & 1
            self._over = self.ply >= 2 and (
                not self.unexplored or (not self._can_move(me) and not self._can_move(1 - me))
            )
        return self._over

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        yellow, cyan = self.territories()
        return 0 if yellow > cyan + KOMI else 1

    def territories(self) -> tuple[int, int]:
        """The cells each colour controls (its stones included), komi not included."""
        stones, (yellow, cyan) = self.stones, self.counts
        return (
            stones.count(0) + sum(1 for a, b in zip(yellow, cyan, strict=True) if a and not b),
            stones.count(1) + sum(1 for a, b in zip(yellow, cyan, strict=True) if b and not a),
        )

    def evaluate(self) -> float:
        """Yellow's share of the two scores as the rules would count them now:
        the cells each controls (stones included), plus Cyan's komi. 0 on the
        empty board; above 0.5 exactly when Yellow would win if the game ended
        here. Deferred bonuses count for nobody until they land."""
        yellow, cyan = self.territories()
        return yellow / (yellow + cyan + KOMI)

    # -- moves ----------------------------------------------------------------

    def move_text(self, move: int) -> str:
        text = self.geometry.texts[move] if 0 <= move < len(self.geometry.texts) else None
        if text is None:
            raise ValueError(f"{move} is not an Astralis move id on this board")
        return text

    def move_id(self, text: str) -> int:
        found = self.geometry.ids.get(text)
        if found is None:
            raise ValueError(f"{text!r} is not an Astralis move on this board")
        return found

    def _can_move(self, me: int) -> bool:
        """Whether ``me``'s pawn has a destination (it is placed and not blocked)."""
        start = self.pawns[me]
        if start < 0:
            return False
        them, stones, other = 1 - me, self.stones, self.pawns[1 - me]
        for ray in self.geometry.rays[start]:
            for cell in ray:
                if cell == other or stones[cell] == them:
                    break
                if stones[cell] == _EMPTY:
                    return True
        return False

    def _destinations(self, me: int) -> list[int]:
        """The cells ``me``'s pawn can move to, in walking order."""
        stones, them, other = self.stones, 1 - me, self.pawns[1 - me]
        out = []
        for ray in self.geometry.rays[self.pawns[me]]:
            for cell in ray:
                stone = stones[cell]
                if stone == them or cell == other:
                    break
                if stone == _EMPTY:
                    out.append(cell)
        return out

    def legal_moves(self) -> list[int]:
        """Placements (by destination, then stone, in board order), then bare
        pawn moves: the order of ``AstralisState.legal_moves``."""
        if self.is_over:
            return []
        me, g = self.ply & 1, self.geometry
        if self.ply < 2:
            return [_SLOTS * cell for cell in g.homes[me]]
        destinations = sorted(self._destinations(me))
        if not destinations:
            return [g.pass_id]
        explored, other, start = self.explored, self.pawns[1 - me], self.pawns[me]
        blocked = {other}
        if start in self.deferred:  # its stone lands as the pawn leaves
            blocked.add(start)
            blocked.update(g.neighbours[start])
        moves = [
            _SLOTS * d + k
            for d in destinations
            for k, cell in enumerate(g.neighbours[d], 1)
            if not explored[cell] and cell not in blocked
        ]
        moves.extend(_SLOTS * d for d in destinations)
        return moves

    def play(self, move: int) -> None:
        g = self.geometry
        me = self.ply & 1
        self.ply += 1
        self._over = None
        if move == g.pass_id:
            return
        dest, k = divmod(move, _SLOTS)
        if self.ply <= 2:  # setup: the pawn goes on its home edge
            self.pawns[me] = dest
            return
        place = g.neighbours[dest][k - 1] if k else -1
        self.unexplored -= _turn(self, me, dest, place)

    # -- playouts -------------------------------------------------------------

    def playout(self, rng: random.Random, max_plies: int | None = None) -> int:
        """Uniformly random legal moves until the end (or ``max_plies``).

        A move is drawn as an index below ``destinations + placements``
        (placements: the free cells next to each destination, summed): below
        the number of destinations it is that bare pawn move, otherwise it
        counts on through the destinations' free neighbours.
        """
        if self.is_over:
            return 0
        g = self.geometry
        rays, neighbours = g.rays, g.neighbours
        stones, explored, free = self.stones, self.explored, self.free
        free_at = free.__getitem__
        pawns, deferred, candidates = self.pawns, self.deferred, self.candidates
        getrandbits = rng.getrandbits
        limit = -1 if max_plies is None else max_plies
        plies = 0
        ply = self.ply
        self._over = None
        while plies != limit:
            me = ply & 1
            them = 1 - me
            start, other = pawns[me], pawns[them]
            if ply < 2 or start in deferred:  # setup, or a stone lands as the pawn leaves
                self.ply = ply
                moves = self.legal_moves()
                self.play(moves[_below(getrandbits, len(moves))])
                ply = self.ply
                plies += 1
                if not self.unexplored:
                    self._over = True
                    break
                continue
            # the destinations, with the opponent's pawn standing in for a stone of theirs
            stones[other] = them
            destinations: list[int] = []
            add = destinations.append
            for ray in rays[start]:
                for cell in ray:
                    stone = stones[cell]
                    if stone < 0:
                        add(cell)
                    elif stone == them:
                        break
            stones[other] = _EMPTY
            count = len(destinations)
            if not count:
                if not self._can_move(them):
                    self._over = True
                    break
                ply += 1  # pass
                plies += 1
                continue
            # the opponent's pawn's cell takes no stone: off the free counts for now
            hidden = not explored[other]
            if hidden:
                for x in neighbours[other]:
                    free[x] -= 1
            total = count + sum(map(free_at, destinations))
            bits = total.bit_length()
            r = getrandbits(bits)
            while r >= total:
                r = getrandbits(bits)
            if r < count:
                dest, place = destinations[r], -1
            else:
                r -= count
                for dest in destinations:
                    f = free[dest]
                    if r < f:
                        break
                    r -= f
                for place in neighbours[dest]:
                    if not explored[place] and place != other:
                        if not r:
                            break
                        r -= 1
            if hidden:
                for x in neighbours[other]:
                    free[x] += 1
            ply += 1
            plies += 1
            if place < 0 and not candidates[them] and (explored[start] or free[start]):
                pawns[me] = dest  # a bare move that changes nothing else
                continue
            self.unexplored -= _turn(self, me, dest, place)
            if not self.unexplored:
                self._over = True
                break
        self.ply = ply
        return plies


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """A uniform integer in [0, n), drawn as ``random.Random`` draws one."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


# -- a turn, in place ----------------------------------------------------------
#
# ``bonus`` collects the cells that may have started to qualify for a bonus;
# ``pos.candidates[c]`` the stones of colour c that became capturable (all
# their neighbours contested) and wait for the opponent's next resolution.


def _turn(pos: AstralisPosition, me: int, dest: int, place: int) -> int:
    """Move ``me``'s pawn to ``dest``, place a stone on ``place`` unless it is -1,
    and resolve. Returns how many cells became explored."""
    pawns, deferred = pos.pawns, pos.deferred
    start = pawns[me]
    bonus: list[int] = []
    explored = 0
    if not pos.explored[start] and not pos.free[start]:
        bonus.append(start)  # a bonus its owner's pawn held back may land now
    if start in deferred:
        explored += _put(pos, start, deferred.pop(start), bonus)
    pawns[me] = dest
    if place >= 0:
        explored += _put(pos, place, me, bonus)
    if bonus or pos.candidates[1 - me]:
        explored += _resolve(pos, me, bonus)
    return explored


def _suspect(pos: AstralisPosition, cell: int) -> None:
    """List the stones next to ``cell`` (newly contested) that are now capturable."""
    neighbours, stones = pos.geometry.neighbours, pos.stones
    for s in neighbours[cell]:
        stone = stones[s]
        if stone >= 0:
            other = pos.counts[1 - stone]
            for x in neighbours[s]:
                if not other[x]:
                    break
            else:
                pos.candidates[stone].append(s)


def _put(pos: AstralisPosition, cell: int, color: int, bonus: list[int]) -> int:
    """Put a stone on an empty cell; returns how many cells became explored."""
    neighbours, explored, free = pos.geometry.neighbours, pos.explored, pos.free
    mine, theirs = pos.counts[color], pos.counts[1 - color]
    pos.stones[cell] = color
    around = neighbours[cell]
    newly = [] if explored[cell] else [cell]
    contested = []
    for x in around:
        if not mine[x]:
            if theirs[x]:
                contested.append(x)
            elif not explored[x]:
                newly.append(x)
        mine[x] += 1
    for x in contested:
        _suspect(pos, x)
    for x in around:
        if not theirs[x]:
            break
    else:
        pos.candidates[color].append(cell)
    for x in newly:
        explored[x] = 1
    for x in newly:
        for y in neighbours[x]:
            left = free[y] - 1
            free[y] = left
            if not left and not explored[y]:
                bonus.append(y)
    return len(newly)


def _flip(pos: AstralisPosition, cell: int, color: int, bonus: list[int]) -> None:
    """Turn the stone on ``cell`` to ``color``."""
    neighbours, explored, free = pos.geometry.neighbours, pos.explored, pos.free
    mine, theirs = pos.counts[color], pos.counts[1 - color]
    pos.stones[cell] = color
    contested = []
    for x in neighbours[cell]:
        theirs[x] -= 1
        if not mine[x] and theirs[x]:
            contested.append(x)
        mine[x] += 1
        if not theirs[x]:  # now one player's: a neighbour may qualify for a bonus
            bonus.extend(b for b in neighbours[x] if not explored[b] and not free[b])
    for x in contested:
        _suspect(pos, x)
    if all(theirs[x] for x in neighbours[cell]):
        pos.candidates[color].append(cell)


def _resolve(pos: AstralisPosition, me: int, bonus: list[int]) -> int:
    """Step 3: captures by ``me``, then bonuses for either player, until nothing
    changes. Returns how many cells the bonus stones explored."""
    neighbours, stones, explored = pos.geometry.neighbours, pos.stones, pos.explored
    yellow, cyan = pos.counts
    mine = pos.counts[me]
    them = 1 - me
    pawns, deferred = pos.pawns, pos.deferred
    newly = 0
    while True:
        suspects = pos.candidates[them]
        # judged on the same board, then flipped together
        captured = [
            s for s in suspects if stones[s] == them and all(mine[x] for x in neighbours[s])
        ]
        suspects.clear()
        for s in captured:
            if stones[s] == them:  # not listed twice
                _flip(pos, s, me, bonus)
        landed = False
        cells = bonus[:]
        bonus.clear()
        for b in cells:
            if explored[b] or b in deferred:
                continue
            around = neighbours[b]
            if all(yellow[x] and not cyan[x] for x in around):
                owner = 0
            elif all(cyan[x] and not yellow[x] for x in around):
                owner = 1
            else:
                continue
            if pawns[owner] == b:
                continue  # no bonus under its owner's own pawn
            if pawns[1 - owner] == b:
                deferred[b] = owner  # waits for that pawn to leave
                continue
            newly += _put(pos, b, owner, bonus)
            landed = True
        if not captured and not landed:
            return newly
