"""Sliglube (Saïd Galdseid, 2024): a loop-stalemate game on a hexhex board.

The rules as implemented (``shared/rules/sliglube.md`` decides; every ruling
made there or here is spelled out below and has a test):

**Loops.** A *loop* is a set of six or more stones, of any colours, forming a
closed ring one stone wide: an induced cycle of the board's adjacency graph
(see :mod:`rules.sliglube_loops`). A player *controls* a loop when at least half of its
stones are theirs, so a loop with exactly half of each colour is controlled by
both. A cell or stone is *adjacent to* a loop when it is not part of it and
touches one of its stones, inside the ring or outside. A *new loop* is a loop
through the stone just placed.

**Opening (pie).** Seat 0 places one black stone anywhere (``d4``). Seat 1
then chooses the colour it will play (``black`` or ``white``). That stone was
Black's first move, so White moves next, whoever White is. Until the choice
``color_of`` is None for both seats.

**A turn**, for the player to move (the *mover*), in this exact order:

1. *Placement*: put a stone of your colour on an empty cell that is not
   adjacent to any loop you control, judged on the board before placing.
2. *Flip*: on the board right after placing, take every new loop that you
   control (with the placed stone counted as yours) and turn every enemy stone
   of all of them to your colour at once.
3. *Remove*: take off every stone of yours that is adjacent to one of those
   loops and part of none of them. (The placed stone is part of all of them,
   so it never goes.)
4. *Check*: on the board at the end of the turn (after flips and removals),
   the placed stone must not be part of a loop your opponent controls;
   otherwise the placement is illegal. (Removing stones never makes a new
   loop, and flipping only takes stones from the opponent, so this can only
   fail when a new loop was already the opponent's right after placing.)

**Optional flipping** (``d4 noflip``). Ruling: flipping is optional when step 3
would remove at least one stone of yours that is *part of some loop* on the
board right after the placement (before flipping; flipping changes colours,
not which rings exist, so "after flipping" is the same board of loops). Any
loop counts, of any control, new or old. Then ``d4 noflip`` is a legal move
that skips steps 2 and 3, and step 4 is judged on the board right after the
placement. ``d4 noflip`` is illegal in every other case. It follows that
``d4 noflip`` is only ever legal when ``d4`` is too: both fail exactly when a
new loop is the opponent's right after placing, except that ``d4`` may still
pass if flips or removals take that loop away.

**End.** At the start of your turn, if you have no legal placement (neither a
plain nor a ``noflip`` one), the game ends and *you win*: stalemate wins.
There is no other ending.

**Omitted.** The seed also says "You may also remove stones from friendly or
enemy loops adjacent to it if doing so increases your loop's length by at
least one stone"; it does not say which stones or how length is measured, and
the designer's rewrite drops it. It is not implemented (see the rules file).

Notation: ``d4``, ``d4 noflip``, ``black``, ``white``.

Game-specific attributes of :class:`SliglubeState`: ``loops()`` (every loop
on the board, each a tuple of cell names in ring order),
``loop_controllers(loop)`` (the colours controlling it), and two cheap
summaries that need no listing: ``loop_links()`` (the pairs of touching
stones consecutive on some loop, each pair in board order) and
``loop_stones()`` (the stones on some loop).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from rules.errors import IllegalMove, InvalidMove
from rules.game import NO_CHANGE, Change, Decision, Game, State, normalize_move
from rules.hexhex import HexBoard
from rules.options import Option
from rules.outcome import Outcome, Termination
from rules.plugins import Plugins
from rules.sliglube_loops import (
    HexGrid,
    all_loops,
    any_through,
    bits,
    control_through,
    links_on_loops,
    loop_core,
    loop_core_with,
    on_loop,
    touching_loops,
)
from rules.words import Words, colour_title

BLACK, WHITE = "black", "white"
NOFLIP = "noflip"


def _controls(loop: int, mine: int) -> bool:
    """Whether the owner of ``mine`` holds at least half of ``loop``'s stones."""
    return 2 * (loop & mine).bit_count() >= loop.bit_count()


def _holds_loop_through(grid: HexGrid, p: int, stones: int, plus: int) -> bool:
    """Whether some loop through ``p`` within ``stones`` is at least half ``plus``."""
    core = loop_core(grid, stones)
    if not (core >> p & 1 and on_loop(grid, p, core)):
        return False
    return any_through(grid, p, core, plus, cored=True, budget=_SEARCH_BUDGET)


#: Path extensions allowed to a pruned search before the state graph takes over.
_SEARCH_BUDGET = 300


class _Outcome(NamedTuple):
    """The board after a legal placement, and what changed."""

    mine: int
    theirs: int
    flipped: int
    removed: int


class _Verdict(NamedTuple):
    """A cell's two possible placements: an outcome if legal, else the reason."""

    plain: _Outcome | str
    noflip: _Outcome | str


class SliglubeState(State):
    """A Sliglube position. Immutable; loop facts are computed on demand and kept."""

    __slots__ = (
        "_black",
        "_change",
        "_core",
        "_forbid",
        "_grid",
        "_legal",
        "_links",
        "_loops",
        "_rings",
        "_verdicts",
        "_white",
        "_white_seat",
        "board",
        "game",
        "history",
        "options",
    )

    game: SliglubeGame
    board: HexBoard
    _grid: HexGrid
    _black: int
    _white: int
    _white_seat: int | None
    _change: Change
    _loops: tuple[int, ...] | None
    _rings: tuple[tuple[str, ...], ...] | None
    _links: frozenset[tuple[str, str]] | None
    _forbid: int | None
    _legal: list[str] | None
    _core: int | None  # the loop core of the stones on the board
    _verdicts: dict[int, _Verdict]

    def __init__(
        self,
        game: SliglubeGame,
        options: Mapping[str, Any],
        history: tuple[str, ...],
        black: int,
        white: int,
        white_seat: int | None,
        change: Change,
    ) -> None:
        put = object.__setattr__
        put(self, "game", game)
        put(self, "options", options)
        put(self, "board", HexBoard.of(options["size"]))
        put(self, "_grid", HexGrid.of(options["size"]))
        put(self, "history", history)
        put(self, "_black", black)
        put(self, "_white", white)
        put(self, "_white_seat", white_seat)
        put(self, "_change", change)
        for name in ("_loops", "_rings", "_links", "_forbid", "_legal", "_core"):
            put(self, name, None)
        put(self, "_verdicts", {})

    # -- seats and colours ----------------------------------------------------

    def color_of(self, seat: int) -> str | None:
        if self._white_seat is None:
            return None
        return WHITE if seat == self._white_seat else BLACK

    @property
    def _mover_color(self) -> str:
        """The colour placing now (from ply 2 on): White at even plies."""
        return WHITE if len(self.history) % 2 == 0 else BLACK

    @property
    def to_move(self) -> int | None:
        ply = len(self.history)
        if ply < 2:
            return ply
        if self.is_over:
            return None
        return self.seat_of(self._mover_color)

    # -- the board ----------------------------------------------------------------

    def stone_at(self, cell: str) -> str | None:
        bit = 1 << self._grid.pos[self.board.index(cell)]
        if self._black & bit:
            return BLACK
        if self._white & bit:
            return WHITE
        return None

    @property
    def last_change(self) -> Change:
        return self._change

    def _loop_list(self) -> tuple[int, ...]:
        found = self._loops
        if found is None:
            found = tuple(all_loops(self._grid, self._black | self._white))
            object.__setattr__(self, "_loops", found)
        return found

    def loops(self) -> tuple[tuple[str, ...], ...]:
        """Every loop on the board, each as its cell names in ring order (from
        its first cell in board order towards the earlier of its two ring
        neighbours), loops ordered by their first cell then ring.

        A crowded board can hold thousands of loops (listing them takes a
        noticeable fraction of a second); the listing is kept once made. To
        draw or count what lies on loops, prefer :meth:`loop_links` and
        :meth:`loop_stones`, which are decided without listing."""
        found = self._rings
        if found is None:
            names = self.board.cells
            rings = [
                tuple(names[i] for i in self._grid.ring_order(loop)) for loop in self._loop_list()
            ]
            order = {name: i for i, name in enumerate(names)}
            found = tuple(sorted(rings, key=lambda ring: [order[c] for c in ring]))
            object.__setattr__(self, "_rings", found)
        return found

    def loop_links(self) -> frozenset[tuple[str, str]]:
        """The pairs of touching stones that are consecutive on at least one
        loop (each pair as two cell names in board order): the segments to
        draw to outline every loop. Cheap even where loops are countless."""
        found = self._links
        if found is None:
            names = self.board.cells
            index_of = self._grid.index_of
            found = frozenset(
                (names[index_of[u]], names[index_of[v]])
                for u, v in links_on_loops(self._grid, self._black | self._white)
            )
            object.__setattr__(self, "_links", found)
        return found

    def loop_stones(self) -> frozenset[str]:
        """The cells whose stones are part of at least one loop."""
        return frozenset(cell for link in self.loop_links() for cell in link)

    def loop_controllers(self, loop: Iterable[str]) -> frozenset[str]:
        """The colours controlling the loop made of these cells (at least half of
        its stones theirs; both colours when it is exactly half each).
        ValueError if a cell is unknown or empty."""
        mask = 0
        for cell in loop:
            index = self.board.index(cell)
            bit = 1 << self._grid.pos[index]
            if not (self._black | self._white) & bit:
                raise ValueError(f"{self.board.name(index)} holds no stone")
            mask |= bit
        if not mask:
            raise ValueError("a loop has stones")
        return frozenset(
            color
            for color, stones in ((BLACK, self._black), (WHITE, self._white))
            if _controls(mask, stones)
        )

    # -- the rules ----------------------------------------------------------------

    def _sides(self) -> tuple[int, int]:
        """(mover's stones, opponent's stones)."""
        if self._mover_color == WHITE:
            return self._white, self._black
        return self._black, self._white

    def _forbidden(self) -> int:
        """Cells adjacent to a loop the mover controls (step 1)."""
        found = self._forbid
        if found is None:
            mine, _ = self._sides()
            stones = self._black | self._white
            found = touching_loops(self._grid, stones, self._grid.cells & ~stones, mine)
            object.__setattr__(self, "_forbid", found)
        return found

    def _verdict(self, p: int) -> _Verdict:
        """Both placements at the empty, allowed cell with bit ``p``, kept once
        decided (listing the legal moves decides them all, then ``play`` needs
        one again)."""
        verdict = self._verdicts.get(p)
        if verdict is None:
            verdict = self._verdicts[p] = self._decide(p)
        return verdict

    def _decide(self, p: int) -> _Verdict:
        """Both placements at the empty, allowed cell with bit ``p`` (steps 2–4).

        Removing stones never creates a loop (whether a ring is a loop depends
        only on its own stones), so the loops through the placed stone at the
        end of the turn are the new loops that lost no stone, and flipping only
        takes stones from the opponent. Hence the placement is illegal only if
        some new loop is already the opponent's right after placing, and then
        ``noflip`` is illegal too; the final board is searched only in that case.
        """
        grid = self._grid
        mine, theirs = self._sides()
        mine_now = mine | 1 << p
        cell = self.board.name(grid.index_of[p])
        not_optional = Words(
            "{cell} noflip: flipping is not optional here (it is only optional "
            "when it would remove a stone of yours that is part of a loop)",
            cell=cell,
        )
        # a stone on a loop touches two stones that do not touch each other
        around = grid.nb[p] & (mine | theirs)
        if not any(around & ~grid.nb[a] & ~(1 << a) for a in bits(around)):
            return _Verdict(_Outcome(mine_now, theirs, 0, 0), not_optional)
        if self._core is None:
            object.__setattr__(self, "_core", loop_core(grid, mine | theirs))
            assert self._core is not None
        core = loop_core_with(grid, mine | theirs, self._core, p)
        if not (core >> p & 1 and on_loop(grid, p, core)):  # no new loop at all
            return _Verdict(_Outcome(mine_now, theirs, 0, 0), not_optional)
        lost = Words("{cell} would be part of a loop your opponent controls", cell=cell)
        threatened, ours, new_loops = control_through(
            grid, p, core, mine_now, theirs, _SEARCH_BUDGET
        )
        flipped = ours & theirs
        removed = mine & ~ours & grid.grow(ours)
        noflip: _Outcome | str = not_optional
        if any(on_loop(grid, q, core) for q in bits(removed & core)):
            noflip = lost if threatened else _Outcome(mine_now, theirs, 0, 0)
        mine_end = (mine_now | flipped) & ~removed
        theirs_end = theirs & ~flipped
        plain: _Outcome | str = _Outcome(mine_end, theirs_end, flipped, removed)
        if threatened and not ours:
            plain = lost
        elif threatened:
            if new_loops is not None:
                best = new_loops.balance(theirs_end, removed)
                kept = best is not None and best >= 0
            else:
                kept = _holds_loop_through(grid, p, core & ~removed, theirs_end)
            if kept:
                plain = lost
        return _Verdict(plain, noflip)

    def legal_moves(self) -> list[str]:
        found = self._legal
        if found is None:
            found = self._list_moves()
            object.__setattr__(self, "_legal", found)
        return list(found)

    def decisions(self) -> tuple[Decision, ...]:
        if len(self.history) == 1:
            return Decision(Words("Play black"), BLACK), Decision(Words("Play white"), WHITE)
        return ()

    def _list_moves(self) -> list[str]:
        ply = len(self.history)
        names = self.board.cells
        if ply == 0:
            return list(names)
        if ply == 1:
            return [BLACK, WHITE]
        grid = self._grid
        moves = []
        free = grid.cells & ~(self._black | self._white) & ~self._forbidden()
        for p in bits(free):
            verdict = self._verdict(p)
            name = names[grid.index_of[p]]
            if isinstance(verdict.plain, _Outcome):
                moves.append(name)
            if isinstance(verdict.noflip, _Outcome):
                moves.append(f"{name} {NOFLIP}")
        return moves

    @property
    def is_over(self) -> bool:
        return len(self.history) >= 2 and not self.legal_moves()

    @property
    def outcome(self) -> Outcome | None:
        """The stalemated player wins."""
        if not self.is_over:
            return None
        title = colour_title(self._mover_color)
        return Outcome(
            self.seat_of(self._mover_color),
            Termination.STALEMATE,
            Words("{winner} wins: {winner} has no legal placement (stalemate wins)", winner=title),
        )

    @property
    def prompt(self) -> str:
        ply = len(self.history)
        if ply == 0:
            return Words("place the first black stone")
        if ply == 1:
            return Words("choose your colour: black or white")
        return "" if self.is_over else Words("place a stone")

    # -- moves --------------------------------------------------------------------

    def parse(self, text: str) -> str:
        move = normalize_move(text)
        if not move:
            raise InvalidMove("the move is empty: name a cell (d4), or a cell and noflip")
        if move in (BLACK, WHITE):
            return move
        words = move.split(" ")
        if len(words) > 2 or (len(words) == 2 and words[1] != NOFLIP):
            raise InvalidMove(
                "{text} is not a move: name a cell (d4), or a cell and noflip (d4 noflip)",
                text=repr(text.strip()),
            )
        words[0] = self.board.name(self.board.index(words[0]))
        return " ".join(words)

    def play(self, move: str) -> SliglubeState:
        text = self.parse(move)
        ply = len(self.history)
        if ply == 1:
            return self._choose(text)
        if text in (BLACK, WHITE):
            raise IllegalMove(
                Words("the colours are already chosen: place a stone")
                if ply
                else Words("place the first black stone before choosing colours")
            )
        words = text.split(" ")
        index = self.board.index(words[0])
        cell = self.board.name(index)
        noflip = len(words) == 2
        p = self._grid.pos[index]
        if ply == 0:
            if noflip:
                raise IllegalMove(
                    "noflip: flipping is not optional here (the first stone "
                    "flips nothing: just name the cell)"
                )
            return self._after(
                text, self._black | 1 << p, self._white, None, Change(placed=(cell,))
            )
        outcome = self._placement(p, cell, noflip)
        if isinstance(outcome, str):
            if self.is_over:
                # no placement is legal; still say why this one is not
                outcome = Words(
                    "the game is over ({result}): {why}", result=self.result, why=outcome
                )
            raise IllegalMove(outcome)
        names = self.board.cells
        index_of = self._grid.index_of
        color = self._mover_color
        change = Change(
            placed=(cell,),
            flipped=tuple(names[index_of[q]] for q in bits(outcome.flipped)),
            removed=tuple((names[index_of[q]], color) for q in bits(outcome.removed)),
        )
        if color == WHITE:
            black, white = outcome.theirs, outcome.mine
        else:
            black, white = outcome.mine, outcome.theirs
        return self._after(
            f"{cell} {NOFLIP}" if noflip else cell, black, white, self._white_seat, change
        )

    def _placement(self, p: int, cell: str, noflip: bool) -> _Outcome | str:
        """The outcome of placing at bit ``p``, or why it is illegal (steps 1–4)."""
        if (self._black | self._white) >> p & 1:
            return Words("{cell} is occupied", cell=cell)
        if self._forbidden() >> p & 1:
            return Words("{cell} is next to a loop you control", cell=cell)
        verdict = self._verdict(p)
        return verdict.noflip if noflip else verdict.plain

    def _choose(self, text: str) -> SliglubeState:
        if text not in (BLACK, WHITE):
            raise IllegalMove("choose your colour: black or white (not {text})", text=repr(text))
        white_seat = 1 if text == WHITE else 0
        return SliglubeState(
            self.game,
            self.options,
            (*self.history, text),
            self._black,
            self._white,
            white_seat,
            NO_CHANGE,
        )

    def _after(
        self, move: str, black: int, white: int, white_seat: int | None, change: Change
    ) -> SliglubeState:
        return SliglubeState(
            self.game, self.options, (*self.history, move), black, white, white_seat, change
        )


class SliglubeGame(Game):
    name = "sliglube"
    title = "Sliglube"
    colors = (BLACK, WHITE)
    #: Its fast search position, AI knowledge, painter and guide (see rules.plugins).
    plugins = Plugins(
        fast="rules.fast.sliglube:position",
        ai="ai.games.sliglube:knowledge",
        painter="render.games.sliglube:PAINTER",
        guide="bot.learning.guides.sliglube:GUIDE",
    )
    terminations = (Termination.STALEMATE,)
    option_specs = (
        Option("size", int, 6, "cells per side of the hexagonal board", minimum=5, maximum=7),
    )
    summary = (
        "Sliglube (Saïd Galdseid, 2024): a loop-stalemate game on a hexagonal board.\n"
        "A loop is a ring of six or more stones of any colours, one stone wide (each of its "
        "stones touches exactly two others of it). You control a loop when at least half of "
        "its stones are yours (exactly half: both players control it).\n"
        "Opening: the first player places a black stone anywhere (d4); the second player "
        "chooses a colour (black or white); White moves next.\n"
        "On your turn place a stone on an empty cell that is not next to a loop you control. "
        "Every new loop through that stone which you control has its enemy stones flipped to "
        "your colour, then your stones next to those loops (and not part of them) are removed. "
        "The stone you placed must not end the turn as part of a loop your opponent controls. "
        "When the removal would take a stone of yours that is part of some loop, flipping is "
        "optional: play d4 noflip to place without flipping or removing.\n"
        "If at the start of your turn you have no legal placement, the game ends and you WIN.\n"
        "Known omission: the original rules' optional extra removal (\"you may also remove "
        "stones from friendly or enemy loops adjacent to it if doing so increases your loop's "
        'length") is not implemented; it is too vague to apply.\n'
        "Moves: d4, d4 noflip, black, white."
    )

    def _initial(self, options: dict[str, Any]) -> SliglubeState:
        return SliglubeState(self, options, (), 0, 0, None, NO_CHANGE)


GAME = SliglubeGame()
