"""Sliglube for search: a mutable position with integer moves and a fast random playout.

The rules are those of :mod:`rules.sliglube` (the same loops, control, flips,
removals, ``noflip`` and "stalemate wins"), decided with the same exact loop
facts of :mod:`rules.sliglube_loops`; only the bookkeeping differs. Listing the legal
moves means deciding every empty cell, a loop search each, and that is what
made random playouts slow. Three things make them cheaper here:

- *Rejection sampling.* A playout needs one uniformly random legal move per
  ply, not the list: :meth:`SliglubePosition.random_move` proposes one of the
  board's ``2n`` moves (each cell, plain or ``noflip``) uniformly and keeps the
  first that is legal, which is exactly the uniform choice among the legal
  moves. Occupied cells, and ``noflip`` where the cell does not touch two
  stones that do not touch each other (as a new loop through it would), are
  turned down without a search, and a cell is decided only as far as the
  proposal needs: whether a new loop through it would be the opponent's
  settles every ``noflip`` proposal there and most plain ones (the last such
  loop found is tried first next time).
- *Quiet moves change no loop.* Every loop is controlled by someone, so a
  legal placement that makes no new loop the mover controls makes no new loop
  at all (one the opponent controls would make it illegal), and then it flips
  and removes nothing either: the loops of the board and their colours stay
  exactly as they were. Most moves of a game are such quiet ones. A cell's
  verdict therefore holds from one turn of its player to the next, unless a
  stone placed since lies on a loop through the cell once it is placed (a
  cheap flood test), or a move since made loops.
- *What each colour's loops cover* (the stones on a loop it controls, the
  stones on none), which decides where the mover may not place, is carried
  over from move to move as far as the move provably leaves it true.

Move ids, for a board of ``n`` cells in board order: ``i`` places on cell
``i``, ``n + i`` is ``<cell i> noflip``, ``2n`` is ``black`` and ``2n + 1``
``white``.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from rules.hexhex import HexBoard
from rules.position import SearchPosition
from rules.sliglube import BLACK, NOFLIP, WHITE, SliglubeState
from rules.sliglube_loops import (
    _APART,
    HexGrid,
    LoopsThrough,
    OutOfBudget,
    any_through,
    bits,
    loop_core,
    loop_core_with,
    on_loop,
    search_through,
    touching_loops,
    union_through,
)

#: Path extensions allowed to a pruned loop search before the state graph takes
#: over (either way the answer is exact, only the cost differs; the engine allows 300).
_BUDGET = 1000
#: The same, for the search deciding whether a stone is on a loop a colour controls.
_STONE_BUDGET = 300


class _Tables:
    """What every position of one board size shares: the grid and the move names."""

    __slots__ = ("bit", "cells", "grid", "id_of", "index_of", "n", "nb", "texts", "width")

    def __init__(self, size: int) -> None:
        board = HexBoard.of(size)
        grid = HexGrid.of(size)
        self.grid = grid
        self.n = len(board)
        self.width = grid.width
        self.cells = grid.cells
        self.nb = grid.nb
        #: board index -> bit position, and bit position -> board index (-1 off the board)
        self.bit = grid.pos
        index_of = [-1] * (grid.width * grid.width)
        for i, p in enumerate(grid.pos):
            index_of[p] = i
        self.index_of = index_of
        self.texts = [*board.cells, *(f"{name} {NOFLIP}" for name in board.cells), BLACK, WHITE]
        self.id_of = {text: i for i, text in enumerate(self.texts)}


_TABLES: dict[int, _Tables] = {}


def _tables(size: int) -> _Tables:
    found = _TABLES.get(size)
    if found is None:
        found = _TABLES[size] = _Tables(size)
    return found


class _Verdict(NamedTuple):
    """An empty cell's two placements for one player: whether the plain one and
    the ``noflip`` one are legal, and ``ours``: the stones of the new loops
    through the cell that the player controls right after placing (what the
    plain placement flips and removes around). None where not decided yet:
    a cell on a new loop is first only judged *threatened* (on a new loop the
    opponent controls: then ``noflip`` is illegal, and the plain placement
    needs ``ours``) or not (then the plain placement is legal, and ``noflip``
    needs ``ours``)."""

    plain: bool | None
    noflip: bool | None
    ours: int | None


#: The verdict on a cell next to a loop the player controls.
_FORBIDDEN = _Verdict(False, False, 0)
#: On no new loop: nothing to flip.
_LOOPLESS = _Verdict(True, False, 0)
#: On a new loop, threatened or not (the rest to be decided).
_THREATENED = _Verdict(None, False, None)
_UNTHREATENED = _Verdict(True, None, None)

#: A player's decided cells: cell bit -> (how many quiet stones had been placed, verdict).
_Memo = dict[int, tuple[int, _Verdict]]


class SliglubePosition(SearchPosition):
    """A Sliglube position for search (see the module docstring for what it keeps)."""

    __slots__ = (
        "_core",
        "_cores",
        "_over",
        "black",
        "known",
        "memo",
        "ply",
        "proofs",
        "quiet",
        "t",
        "white",
        "white_seat",
        "witness",
    )

    def __init__(
        self, tables: _Tables, black: int, white: int, ply: int, white_seat: int | None
    ) -> None:
        self.t = tables
        self.black = black
        self.white = white
        self.ply = ply
        self.white_seat = white_seat
        #: per colour (black, white): the stones known to lie on a loop that colour
        #: controls, and those known to lie on none
        self.known = [0, 0, 0, 0]
        #: per colour: the loops (single, True) and unions of loops (False) it is
        #: known to control, whose stones make up its "known to lie on one" above
        self.proofs: list[tuple[tuple[int, bool], ...]] = [(), ()]
        #: the stones placed by quiet moves since the last move that made loops,
        #: and per colour the cells decided since then
        self.quiet: tuple[int, ...] = ()
        self.memo: list[_Memo] = [{}, {}]
        #: per cell, the last loop through it found controlled by a player (to
        #: try again first: checked before use, so shared by copies)
        self.witness: dict[int, int] = {}
        self._over: bool | None = None if ply >= 2 else False
        self._core: int | None = None
        self._cores: dict[int, int] = {}  # cell -> the loop core with a stone there

    def copy(self) -> SliglubePosition:
        other = SliglubePosition.__new__(SliglubePosition)
        other.t = self.t
        other.black = self.black
        other.white = self.white
        other.ply = self.ply
        other.white_seat = self.white_seat
        other.known = self.known.copy()
        other.proofs = self.proofs.copy()
        other.quiet = self.quiet
        other.memo = [self.memo[0].copy(), self.memo[1].copy()]
        other.witness = self.witness
        other._over = self._over
        other._core = self._core
        other._cores = self._cores
        return other

    # -- seats ---------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        if self.ply < 2:
            return self.ply
        if self.is_over:
            return None
        return self._mover_seat()

    def _mover_seat(self) -> int:
        """The seat placing now (from ply 2 on): White's at even plies."""
        white_seat = self.white_seat
        assert white_seat is not None
        return white_seat if self.ply % 2 == 0 else 1 - white_seat

    @property
    def is_over(self) -> bool:
        if self._over is None:
            self._over = not any(self._plain(p) for p in bits(self._free()))
        return self._over

    @property
    def winner(self) -> int | None:
        """The seat that was stalemated: it wins."""
        return self._mover_seat() if self.is_over else None

    # -- moves ---------------------------------------------------------------------

    def move_text(self, move: int) -> str:
        return self.t.texts[move]

    def move_id(self, text: str) -> int:
        try:
            return self.t.id_of[text]
        except KeyError:
            raise ValueError(f"{text!r} is not a canonical Sliglube move on this board") from None

    def legal_moves(self) -> list[int]:
        t = self.t
        n = t.n
        if self.ply == 0:
            return list(range(n))
        if self.ply == 1:
            return [2 * n, 2 * n + 1]
        index_of = t.index_of
        moves = []
        for p in bits(self._free()):
            verdict = self._full(p)
            if verdict.plain:
                moves.append(index_of[p])
            if verdict.noflip:
                moves.append(n + index_of[p])
        self._over = not moves
        return moves

    def play(self, move: int) -> None:
        t = self.t
        n = t.n
        if self.ply == 0:
            self.black |= 1 << t.bit[move]
        elif self.ply == 1:
            self.white_seat = 1 if move == 2 * n + 1 else 0
        else:
            self._place(t.bit[move % n], move >= n)
            return
        self.ply += 1
        self._over = None if self.ply >= 2 else False

    def _place(self, p: int, noflip: bool) -> None:
        """Play at bit ``p`` (a legal placement) and pass the turn."""
        ours = self._full(p).ours
        assert ours is not None
        white = self.ply % 2 == 0
        mine, theirs = (self.white, self.black) if white else (self.black, self.white)
        mine_end, theirs_end = self._outcome(p, noflip, ours)
        removed = mine & ~mine_end
        # what lies on no loop with the removed stones there lies on none without them
        core = self._core_with(p)
        core = loop_core(self.t.grid, core & ~removed) if removed else core
        if white:
            self.white, self.black = mine_end, theirs_end
        else:
            self.black, self.white = mine_end, theirs_end
        if ours:
            self._learn(white, ours, mine_end & theirs, removed)
            self.quiet = ()
            self.memo = [{}, {}]
        else:
            # a quiet move: no loop changes, and the new stone is on none
            self.quiet = (*self.quiet, p)
            self.known[1] |= 1 << p
            self.known[3] |= 1 << p
        self.ply += 1
        self._over = None
        self._core = core
        self._cores = {}

    def _outcome(self, p: int, noflip: bool, ours: int) -> tuple[int, int]:
        """(mover's stones, opponent's stones) after placing at ``p``: flip the
        opponent's stones of ``ours``, then remove the mover's stones next to it
        and off it (steps 2 and 3), unless ``noflip``."""
        mine, theirs = (self.white, self.black) if self.ply % 2 == 0 else (self.black, self.white)
        mine_now = mine | 1 << p
        if noflip or not ours:
            return mine_now, theirs
        flipped = ours & theirs
        removed = mine & ~ours & self.t.grid.grow(ours)
        return (mine_now | flipped) & ~removed, theirs & ~flipped

    def _learn(self, white: bool, ours: int, flipped: int, removed: int) -> None:
        """Carry over what is known of the controlled loops past a placement by
        the mover (White if ``white``) whose new loops it controls cover
        ``ours``, and which flipped and removed those stones.

        A loop stays a loop unless one of its stones is removed, and flips only
        turn the opponent's stones into the mover's: so a proof of control
        holds on for the mover while none of its stones is removed, and for the
        opponent while none is removed or flipped (a single loop with flipped
        stones is counted again). ``ours`` is the mover's, and stays whole.
        No new loop is the opponent's at the end of a legal turn, so stones on
        none of theirs stay so; stones on none of the mover's stay so but for
        ``ours``, unless flips may have handed it old loops."""
        known = self.known
        m = 1 if white else 0
        o = 1 - m
        stones = self.black | self.white
        mine = self.white if white else self.black
        if flipped or removed:
            kept = [(loop, single) for loop, single in self.proofs[m] if not loop & removed]
            handed = []
            theirs = []
            for loop, single in self.proofs[o]:
                if loop & removed:
                    continue
                if loop & flipped:
                    if not single:
                        continue
                    if 2 * (loop & mine).bit_count() > loop.bit_count():
                        handed.append((loop, True))
                        continue
                theirs.append((loop, single))
            self.proofs[o] = tuple(theirs)
            self.proofs[m] = (*kept, *handed)
            known[2 * o] = _union(self.proofs[o])
            known[2 * m] = _union(self.proofs[m])
            known[2 * m + 1] = 0 if flipped else known[2 * m + 1] & ~ours & stones
        else:
            known[2 * m + 1] &= ~ours
        self._prove(m, ours, False)
        known[2 * o + 1] &= stones

    def _prove(self, color: int, loops: int, single: bool) -> None:
        """Record that ``color`` (0 black, 1 white) controls the loop ``loops``
        (or, not ``single``, a union of loops)."""
        known = self.known
        if loops & ~known[2 * color]:
            known[2 * color] |= loops
            self.proofs[color] = (*self.proofs[color], (loops, single))

    # -- the rules ----------------------------------------------------------------

    def _free(self) -> int:
        return self.t.cells & ~(self.black | self.white)

    def _loop_core(self) -> int:
        if self._core is None:
            self._core = loop_core(self.t.grid, self.black | self.white)
        return self._core

    def _core_with(self, p: int) -> int:
        """The loop core of the board with a stone on the empty cell ``p``."""
        core = self._cores.get(p)
        if core is None:
            core = self._cores[p] = loop_core_with(
                self.t.grid, self.black | self.white, self._loop_core(), p
            )
        return core

    def _plain(self, p: int) -> bool:
        """Whether the plain placement at the empty cell ``p`` is legal."""
        plain = self._verdict(p).plain
        return bool(self._full(p).plain) if plain is None else plain

    def _full(self, p: int) -> _Verdict:
        """The verdict on the empty cell ``p``, decided to the end."""
        verdict = self._verdict(p)
        if verdict.ours is None:
            verdict = self._finish(p, verdict.plain is None)
            memo = self.memo[self.ply % 2 == 0]
            memo[p] = (memo[p][0], verdict)
        return verdict

    def _verdict(self, p: int) -> _Verdict:
        """The verdict on the empty cell ``p`` as far as decided: decided (as
        far as a first look goes) once, then kept while no loop through the
        cell can have changed."""
        memo = self.memo[self.ply % 2 == 0]
        now = len(self.quiet)
        entry = memo.get(p)
        if entry is not None:
            since, verdict = entry
            if since == now:
                return verdict
            if verdict is _FORBIDDEN or self._untouched(p, since):
                memo[p] = (now, verdict)
                return verdict
        verdict = _FORBIDDEN if self._forbidden(p) else self._decide(p)
        memo[p] = (now, verdict)
        return verdict

    def _untouched(self, p: int, since: int) -> bool:
        """Whether the loops through ``p`` once placed are those they were when
        only ``since`` of the quiet stones were on the board (no loop of the
        board has changed since: only quiet stones came). A loop through ``p``
        that was not there then passes through a quiet stone that came after,
        and such a stone, on no loop without ``p``, is on one through ``p`` as
        soon as it is on any."""
        grid = self.t.grid
        later = 0
        for q in self.quiet[since:]:
            later |= 1 << q
        core = self._core_with(p)
        return not any(on_loop(grid, q, core) for q in bits(later & core))

    def _forbidden(self, c: int) -> bool:
        """Whether the empty cell at bit ``c`` touches a loop the mover controls (step 1)."""
        t = self.t
        core = self._loop_core()
        near = t.nb[c] & core
        known = self.known
        m = 1 if self.ply % 2 == 0 else 0
        if near & known[2 * m]:
            return True
        mine = self.white if m else self.black
        for x in bits(near & ~known[2 * m + 1]):
            loop, single = _controlled_loop(t.grid, x, core, mine)
            if loop:
                self._prove(m, loop, single)
                return True
            known[2 * m + 1] |= 1 << x
        return False

    def _sides(self) -> tuple[int, int]:
        """(mover's stones, opponent's stones)."""
        return (self.white, self.black) if self.ply % 2 == 0 else (self.black, self.white)

    def _decide(self, p: int) -> _Verdict:
        """A first look at the allowed empty cell ``p``: on no new loop, or on a
        new loop and threatened or not (see :class:`_Verdict`)."""
        t = self.t
        grid = t.grid
        nb = t.nb
        mine, theirs = self._sides()
        around = nb[p] & (mine | theirs)
        if not any(around & ~nb[a] & ~(1 << a) for a in bits(around)):
            return _LOOPLESS
        core = self._core_with(p)
        if not (core >> p & 1 and on_loop(grid, p, core)):
            return _LOOPLESS
        known = self.witness.get(p)
        if (
            known is not None
            and not known & ~core
            and 2 * (known & theirs).bit_count() >= known.bit_count()
        ):
            return _THREATENED
        loop = _first_loop(grid, p, core, theirs)
        if loop:
            if loop != 1 << p:
                self.witness[p] = loop
            return _THREATENED
        return _UNTHREATENED

    def _finish(self, p: int, threatened: bool) -> _Verdict:
        """The rest of the verdict on the cell ``p`` on a new loop (steps 2–4),
        as :meth:`rules.sliglube.SliglubeState._decide` decides it."""
        grid = self.t.grid
        mine, theirs = self._sides()
        core = self._core_with(p)
        ours = union_through(grid, p, core, mine | 1 << p, cored=True, budget=_BUDGET)
        removed = mine & ~ours & grid.grow(ours)
        if not threatened:
            noflip = any(on_loop(grid, q, core) for q in bits(removed & core))
            return _Verdict(True, noflip, ours)
        # the plain placement is legal if the mover flips this threat away
        legal = bool(ours) and not _holds_loop_through(grid, p, core & ~removed, theirs & ~ours)
        return _Verdict(legal, False, ours)

    # -- playouts -----------------------------------------------------------------

    def playout(self, rng: random.Random, max_plies: int | None = None) -> int:
        plies = 0
        while max_plies is None or plies < max_plies:
            if self.ply < 2:
                move = rng.choice(self.legal_moves())
            else:
                found = None if self._over else self.random_move(rng)
                if found is None:
                    self._over = True
                    break
                move = found
            self.play(move)
            plies += 1
        return plies

    def random_move(self, rng: random.Random) -> int | None:
        """A uniformly random legal move (as ``rng.choice(legal_moves())`` would
        pick, by another route), or None once the game is over.

        Rejection sampling: propose one of the ``2n`` moves of the board
        uniformly, take it if it is legal, else draw again. Occupied cells, and
        ``noflip`` where the cell does not touch two stones that do not touch
        each other (as a new loop through it would), are turned down without a
        search, and a cell is decided only as far as the proposal needs.
        """
        if self.ply < 2:
            return rng.choice(self.legal_moves())
        t = self.t
        n = t.n
        cell_bit = t.bit
        stones = self.black | self.white
        free = t.cells & ~stones
        maybe = free & _two_apart(stones, t.width)
        memo = self.memo[self.ply % 2 == 0]
        looked = 0  # the cells whose verdict is up to date in memo
        left = free.bit_count()
        some = False  # whether some placement is known to be legal
        slots = 2 * n
        width = (slots - 1).bit_length()
        draw = rng.getrandbits
        while True:
            if not left and not some:
                if not any(self._plain(p) for p in bits(free)):
                    self._over = True
                    return None
                some = True
            i = draw(width)
            if i >= slots:
                continue
            noflip = i >= n
            p = cell_bit[i - n if noflip else i]
            if not (maybe if noflip else free) >> p & 1:
                continue
            if looked >> p & 1:
                verdict = memo[p][1]
            else:
                verdict = self._verdict(p)
                looked |= 1 << p
                left -= 1
            if noflip:
                legal = verdict.noflip
                if legal is None:
                    legal = self._full(p).noflip
            else:
                legal = verdict.plain
                if legal is None:
                    legal = self._full(p).plain
            if legal:
                return i
            some = some or verdict.plain is True

    # -- evaluation ---------------------------------------------------------------

    def evaluate(self) -> float:
        """Seat 0's share of the blocked cells: an empty cell is blocked for a
        player when it touches a loop they control, so they may not place there;
        the player with no legal placement wins, so the more of the board is
        blocked for you, the nearer you are to winning. (Plus one each, so an
        open board is an even share.) 1 or 0 once the game is over."""
        if self.ply < 2:
            return 0.5
        if self.is_over:
            return 1.0 if self.winner == 0 else 0.0
        grid = self.t.grid
        stones = self.black | self.white
        empty = grid.cells & ~stones
        white_blocked = touching_loops(grid, stones, empty, self.white).bit_count()
        black_blocked = touching_loops(grid, stones, empty, self.black).bit_count()
        seat0, seat1 = (
            (white_blocked, black_blocked)
            if self.white_seat == 0
            else (black_blocked, white_blocked)
        )
        return (seat0 + 1) / (seat0 + seat1 + 2)


def _two_apart(stones: int, width: int) -> int:
    """The cells next to two stones that do not touch each other (bit-parallel)."""
    w0 = width - 1
    near = (stones >> 1, stones >> width, stones >> w0, stones << 1, stones << width, stones << w0)
    found = 0
    for d, e in _APART:
        found |= near[d] & near[e]
    return found


def _controlled_loop(grid: HexGrid, x: int, core: int, mine: int) -> tuple[int, bool]:
    """A loop through stone ``x`` within ``core`` that ``mine`` controls (at
    least half of it), as a mask, or 0; and True. Past the budget, the union of
    every such loop through ``x`` instead, and False."""
    found = [0]

    def visit(loop: int) -> bool:
        found[0] = loop
        return True

    if not core >> x & 1:
        return 0, True
    try:
        search_through(grid, x, core, visit, plus=mine, budget=_STONE_BUDGET)
    except OutOfBudget:
        return LoopsThrough(grid, x, core).union(mine), False
    return found[0], True


def _first_loop(grid: HexGrid, p: int, core: int, plus: int) -> int:
    """A loop through ``p`` within ``core`` that is at least half ``plus``, or 0;
    past the budget, the mask of ``p`` alone if there is one (no loop to show)."""
    found = [0]

    def visit(loop: int) -> bool:
        found[0] = loop
        return True

    try:
        search_through(grid, p, core, visit, plus=plus, budget=_BUDGET)
    except OutOfBudget:
        best = LoopsThrough(grid, p, core).balance(plus)
        return 1 << p if best is not None and best >= 0 else 0
    return found[0]


def _union(proofs: tuple[tuple[int, bool], ...]) -> int:
    out = 0
    for loop, _ in proofs:
        out |= loop
    return out


def _holds_loop_through(grid: HexGrid, p: int, stones: int, plus: int) -> bool:
    """Whether some loop through ``p`` within ``stones`` is at least half ``plus``."""
    core = loop_core(grid, stones)
    if not (core >> p & 1 and on_loop(grid, p, core)):
        return False
    return any_through(grid, p, core, plus, cored=True, budget=_BUDGET)


def position(state: SliglubeState) -> SliglubePosition:
    """The search position of a Sliglube state."""
    tables = _tables(state.options["size"])
    black = white = 0
    for i, name in enumerate(state.board.cells if state.history else ()):
        stone = state.stone_at(name)
        if stone == BLACK:
            black |= 1 << tables.bit[i]
        elif stone == WHITE:
            white |= 1 << tables.bit[i]
    white_seat = None if state.color_of(0) is None else (0 if state.color_of(0) == WHITE else 1)
    return SliglubePosition(tables, black, white, len(state.history), white_seat)
