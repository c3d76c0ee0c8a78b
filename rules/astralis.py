"""Astralis (Phil Leduc, 2021): an area-control game for Yellow and Cyan.

The rules are in ``shared/rules/astralis.md``; this module is their reference
implementation. In short: each player has a pawn and places stones. A cell is
*explored* if it holds a stone or is next to one; a player *controls* a cell
holding their stone, or an empty cell next to stones of theirs only; an empty
cell next to stones of both players is *contested*. The game ends as soon as
every cell is explored; each player scores the cells they control, Cyan adds a
komi of 3.5, the higher total wins.

Seats and colours: there is no pie. Seat 0 is Yellow, seat 1 is Cyan.

Setup (two plies, part of the record): Yellow then Cyan put their pawn on a
non-corner cell of their home edge, Yellow the bottom row ``a``, Cyan the top
row. Then turns alternate from Yellow. A turn is

1. move the pawn (mandatory) one or more cells in a straight line, passing over
   empty cells and the mover's own stones, never over an opponent's stone or
   the opponent's pawn, stopping on a cell with no stone and no pawn;
2. optionally place a stone next to the pawn's new cell, on a cell with no
   stone and no pawn that is not next to any stone;
3. resolve until nothing changes: first every opponent stone whose neighbours
   are all contested is flipped to the mover (all at once, judged on the same
   board), then every cell with no stone, next to no stone, whose neighbours are
   all controlled by one player P gets a stone of P (a *bonus*); repeat.

Move text: ``d4`` (pawn to d4), ``d4 e5`` (pawn to d4, stone on e5), ``pass``.

Rulings made here (each has a test in ``tests/rules/test_astralis.py``):

- **Pawns never affect control**, nor whether a cell is explored.
- **Bonus under a pawn.** A bonus cell holding P's own pawn gets nothing while
  the pawn stands there. A bonus cell holding the opponent's pawn is
  *deferred*: listed in ``deferred_bonuses`` and put down in step 1 of the pawn
  owner's next turn as the pawn leaves, before that player's own placement
  (so they cannot put their own stone on the cell they just left), and its
  consequences are resolved in that turn's step 3.
- **A deferred bonus is not a stone until it is placed**: the cell stays
  unexplored and uncontrolled (``control`` is None, ``territory`` does not count
  it), so the game cannot end while one is pending. It is never stranded: the
  cell is next to no stone, so the pawn on it can always step off, and must.
- **"Whatever has changed meanwhile"** is implemented (the deferred stone is
  put down without re-checking), but nothing can change meanwhile: see below.
- **Captures** are made only by the player whose turn it is, of the opponent's
  stones, in every resolution of their turn. Bonuses go to either player.
- **End** is checked after each turn's resolution. If the player to move has no
  pawn move, their only move is ``pass`` (nothing changes, no resolution); if
  neither player could move the game would end as it stands.
- **No rule forces a stone placement**, so nothing bounds a game's length; the
  bot's clocks deal with stalling.
- **legal_moves order**: every move that places a stone (by pawn destination,
  then stone cell, in board order), then the bare pawn moves (by destination).
  Placements first, so that "always take the first move" finishes a game.

Consequences of the rules, checked over random games by the tests:

- A bonus stone changes no other cell's control (its neighbours were already
  its owner's), and a capture only turns contested cells into the capturer's.
  So one round of captures then bonuses always leaves the board stable:
  captures never chain into further captures.
- A player may place a stone whose neighbours are all contested at once (a
  cell next to both colours' cells). It stands through that turn (nobody
  captures their own stones) and the opponent captures it in their next turn,
  even with a bare pawn move: the "whether or not that turn caused it" ruling.
- A cell can start to qualify for P's bonus only in P's turn (nothing the
  opponent does adds to P's control), so a deferred bonus is put down at the
  very start of the opponent's next turn: nothing can change meanwhile, and the
  practical effect of the deferral is that the opponent cannot put their own
  stone on the cell their pawn leaves.
- A bonus never actually waits under its owner's own pawn: the pawn arrives in
  its owner's turn, with a placement (which explores the cell) or a bare move
  (after which the only capture possible is of a stone the opponent just put
  next to cells that were already the mover's, so the cell qualified at the end
  of the mover's previous turn and got its stone then). The rule is still
  implemented as written.
- Only a corner pawn can be blocked: by opponent stones on both edge
  neighbours and the opponent's pawn on the inner one. That pawn is not on a
  corner, so both players are never blocked at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from rules.errors import IllegalMove, InvalidMove
from rules.game import NO_CHANGE, Change, Decision, Game, State, normalize_move
from rules.hexhex import HexBoard
from rules.options import Option
from rules.outcome import Outcome, Termination
from rules.plugins import Plugins
from rules.words import Words, colour_title

KOMI = 3.5
YELLOW, CYAN = 0, 1
COLORS = ("yellow", "cyan")
_EMPTY = -1
#: Control values: YELLOW, CYAN, CONTESTED, or UNEXPLORED.
CONTESTED = 2
UNEXPLORED = -1
_FORMAT = Words(
    "a move is a cell for your pawn, optionally followed by a cell for a stone "
    "(e.g. d4 e5), or pass"
)


@cache
def _sorted_neighbours(base: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(ns)) for ns in HexBoard.of(base).neighbours)


@cache
def _placements(base: int) -> tuple[tuple[tuple[int, str], ...], ...]:
    """For each pawn destination, its neighbours in board order with the text of
    the move that goes there and places a stone on that neighbour."""
    board = HexBoard.of(base)
    return tuple(
        tuple((n, f"{board.cells[d]} {board.cells[n]}") for n in ns)
        for d, ns in enumerate(_sorted_neighbours(base))
    )


@cache
def _home_cells(base: int, color: int) -> tuple[int, ...]:
    """The non-corner cells of a colour's home edge, in board order."""
    board = HexBoard.of(base)
    row = board.rows[0] if color == YELLOW else board.rows[-1]
    return row[1:-1]


def _control(
    neighbours: tuple[tuple[int, ...], ...],
    stones: list[int] | tuple[int, ...],
) -> list[int]:
    """Control of every cell: the stone's colour, else the only colour of the
    adjacent stones, CONTESTED if both, UNEXPLORED if none."""
    out = []
    for i, stone in enumerate(stones):
        if stone != _EMPTY:
            out.append(stone)
            continue
        seen = 0  # bit 1: a yellow neighbour, bit 2: a cyan neighbour
        for n in neighbours[i]:
            s = stones[n]
            if s != _EMPTY:
                seen |= 1 << s
        out.append(UNEXPLORED if seen == 0 else CONTESTED if seen == 3 else seen >> 1)
    return out


def _around(neighbours: tuple[tuple[int, ...], ...], cells: set[int]) -> list[int]:
    """The cells and their neighbours, in board order."""
    out = set(cells)
    for i in cells:
        out.update(neighbours[i])
    return sorted(out)


def _recontrol(
    neighbours: tuple[tuple[int, ...], ...],
    stones: list[int],
    controls: list[int],
    changed: list[int],
) -> list[int]:
    """Bring ``controls`` up to date, in place, after the stones on the ``changed``
    cells changed: only those cells and their neighbours can change control.
    Returns the cells whose control changed."""
    moved = []
    for i in _around(neighbours, set(changed)):
        stone = stones[i]
        if stone == _EMPTY:
            seen = 0
            for n in neighbours[i]:
                s = stones[n]
                if s != _EMPTY:
                    seen |= 1 << s
            stone = UNEXPLORED if seen == 0 else CONTESTED if seen == 3 else seen >> 1
        if controls[i] != stone:
            controls[i] = stone
            moved.append(i)
    return moved


def _fmt(points: float) -> str:
    return str(int(points)) if points == int(points) else str(points)


class AstralisState(State):
    """A position of Astralis. Besides the contract: ``pawns``, ``pawn_at``,
    ``control``, ``territory``, ``score``, ``deferred_bonuses``, ``KOMI``."""

    KOMI: ClassVar[float] = KOMI
    __slots__ = (
        "_change",
        "_deferred",
        "_end",
        "_memo",
        "_pawns",
        "_stones",
        "_unsettled",
        "board",
        "game",
        "history",
        "options",
    )

    board: HexBoard
    _stones: tuple[int, ...]
    _pawns: tuple[int | None, int | None]
    _deferred: tuple[tuple[int, int], ...]
    _change: Change
    #: facts computed once: "control", "free", "legal", "outcome", ("dest", colour)
    _memo: dict[Any, Any]
    _unsettled: tuple[frozenset[int], frozenset[int]] | None
    #: why the game is over ("explored" or "blocked"), or None
    _end: str | None

    def __init__(
        self,
        game: Game,
        options: Mapping[str, Any],
        history: tuple[str, ...],
        stones: tuple[int, ...],
        pawns: tuple[int | None, int | None],
        deferred: tuple[tuple[int, int], ...],
        change: Change,
        controls: list[int] | None = None,
        unsettled: tuple[frozenset[int], frozenset[int]] | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "game", game)
        put(self, "options", options)
        put(self, "board", HexBoard.of(options["size"]))
        put(self, "history", history)
        put(self, "_stones", stones)
        put(self, "_pawns", pawns)
        put(self, "_deferred", deferred)
        put(self, "_change", change)
        # ``controls``: of these stones, when the move that made them kept it up to date
        put(self, "_memo", {} if controls is None else {"control": controls})
        # For each colour, the cells whose control changed since that colour's last
        # resolution (None: unknown, look at the whole board). Everywhere else the
        # board is as that resolution left it: settled.
        put(self, "_unsettled", unsettled)
        put(self, "_end", self._ending())

    # -- seats and turn -------------------------------------------------------

    def color_of(self, seat: int) -> str | None:
        return COLORS[seat] if seat in (0, 1) else None

    @property
    def _mover(self) -> int:
        return len(self.history) % 2

    @property
    def to_move(self) -> int | None:
        return None if self._end else self._mover

    @property
    def in_setup(self) -> bool:
        """True during the two opening plies that place the pawns."""
        return len(self.history) < 2

    # -- Astralis facts -------------------------------------------------------

    @property
    def pawns(self) -> dict[str, str | None]:
        """Where each pawn stands, by colour (None before its setup move)."""
        return {
            COLORS[c]: None if p is None else self.board.name(p) for c, p in enumerate(self._pawns)
        }

    def pawn_at(self, cell: str) -> str | None:
        """The colour of the pawn on ``cell``, or None; unknown cell -> ValueError."""
        i = self.board.index(cell)
        for color, p in enumerate(self._pawns):
            if p == i:
                return COLORS[color]
        return None

    def stone_at(self, cell: str) -> str | None:
        stone = self._stones[self.board.index(cell)]
        return None if stone == _EMPTY else COLORS[stone]

    @property
    def deferred_bonuses(self) -> tuple[tuple[str, str], ...]:
        """Bonus stones waiting for the opponent's pawn to leave: (cell, colour)."""
        return tuple((self.board.name(i), COLORS[c]) for i, c in self._deferred)

    def _controls(self) -> list[int]:
        found = self._memo.get("control")
        if found is None:
            found = self._memo["control"] = _control(
                _sorted_neighbours(self.board.base), self._stones
            )
        return found

    def control(self, cell: str) -> str | None:
        """ "yellow"/"cyan" for the controlling player, "contested", or None if the
        cell is unexplored. Pawns and deferred bonuses play no part."""
        value = self._controls()[self.board.index(cell)]
        return None if value == UNEXPLORED else "contested" if value == CONTESTED else COLORS[value]

    def territory(self, color: str) -> int:
        """How many cells ``color`` controls, cells with its stones included."""
        if color not in COLORS:
            raise ValueError(f"Astralis is played by yellow and cyan, not {color!r}")
        who = COLORS.index(color)
        return sum(1 for value in self._controls() if value == who)

    def score(self, color: str) -> float:
        """Territory, plus the komi for Cyan."""
        return self.territory(color) + (KOMI if color == "cyan" else 0)

    @property
    def last_change(self) -> Change:
        return self._change

    # -- end ------------------------------------------------------------------

    def _ending(self) -> str | None:
        """Why the game is over ("explored" or "blocked"), or None."""
        if self.in_setup:
            return None
        if UNEXPLORED not in self._controls():
            return "explored"
        if not self._destinations(self._mover) and not self._destinations(1 - self._mover):
            return "blocked"
        return None

    @property
    def is_over(self) -> bool:
        return self._end is not None

    @property
    def outcome(self) -> Outcome | None:
        """The higher score wins (the komi's half point rules out a tie)."""
        if not self._end:
            return None
        found = self._memo.get("outcome")
        if found is None:
            won = YELLOW if self.score("yellow") > self.score("cyan") else CYAN
            top, low = self.score(COLORS[won]), self.score(COLORS[1 - won])
            template = (
                "{winner} wins {top} to {low}"
                if self._end == "explored"
                else "{winner} wins {top} to {low} (neither pawn can move)"
            )
            winner = colour_title(COLORS[won])
            found = self._memo["outcome"] = Outcome(
                won, Termination.SCORE, Words(template, winner=winner, top=_fmt(top), low=_fmt(low))
            )
        return found

    @property
    def prompt(self) -> str:
        if self._end:
            return ""
        if self.in_setup:
            row = self.board.rows[0] if self._mover == YELLOW else self.board.rows[-1]
            first, last = self.board.name(row[1]), self.board.name(row[-2])
            # (each template literal in its Words: the catalogues' extraction reads them)
            if self._mover == YELLOW:
                return Words(
                    "place your pawn on your home edge (bottom row, {first}–{last})",
                    first=first,
                    last=last,
                )
            return Words(
                "place your pawn on your home edge (top row, {first}–{last})",
                first=first,
                last=last,
            )
        if not self._destinations(self._mover):
            return Words("your pawn cannot move: pass")
        return Words("move your pawn, then optionally place a stone (e.g. d4 e5)")

    # -- moves ----------------------------------------------------------------

    def _destinations(self, color: int) -> tuple[int, ...]:
        """Cells ``color``'s pawn can move to, in board order."""
        key = ("dest", color)
        found = self._memo.get(key)
        if found is not None:
            return found
        start = self._pawns[color]
        other = self._pawns[1 - color]
        stones = self._stones
        out = []
        if start is not None:
            for direction in range(6):
                for cell in self.board.ray(start, direction):
                    stone = stones[cell]
                    if cell == other or stone == 1 - color:
                        break
                    if stone == _EMPTY:
                        out.append(cell)
        found = self._memo[key] = tuple(sorted(out))
        return found

    def _placeable(self) -> frozenset[int]:
        """Cells where the mover may place a stone after moving their pawn (any
        destination): no stone, no pawn, next to no stone, counting the deferred
        bonus that the pawn's departure will put down."""
        found = self._memo.get("free")
        if found is not None:
            return found
        me = self._mover
        controls = self._controls()
        free = {i for i, value in enumerate(controls) if value == UNEXPLORED}
        free.discard(self._pawns[1 - me])
        home = self._pawns[me]
        if home is not None and any(cell == home for cell, _ in self._deferred):
            free.discard(home)
            free.difference_update(self.board.neighbours[home])
        found = self._memo["free"] = frozenset(free)
        return found

    def legal_moves(self) -> list[str]:
        found = self._memo.get("legal")
        if found is not None:
            return list(found)
        name = self.board.name
        if self._end:
            moves: list[str] = []
        elif self.in_setup:
            moves = [name(i) for i in _home_cells(self.board.base, self._mover)]
        else:
            destinations = self._destinations(self._mover)
            if not destinations:
                moves = ["pass"]
            else:
                free = self._placeable()
                placements = _placements(self.board.base)
                moves = [text for d in destinations for n, text in placements[d] if n in free]
                names = self.board.cells
                moves.extend(names[d] for d in destinations)
        self._memo["legal"] = tuple(moves)
        return moves

    def decisions(self) -> tuple[Decision, ...]:
        if self._end or self.in_setup or self._destinations(self._mover):
            return ()
        return (Decision(Words("Pass"), "pass"),)

    def parse(self, text: str) -> str:
        parts = normalize_move(text).split()
        if parts == ["pass"]:
            return "pass"
        if not 1 <= len(parts) <= 2 or "pass" in parts:
            raise InvalidMove(_FORMAT)
        return " ".join(self.board.name(self.board.index(part)) for part in parts)

    def play(self, move: str) -> AstralisState:
        text = self.parse(move)
        if self._end:
            raise IllegalMove("the game is over")
        if self.in_setup:
            return self._setup(text)
        parts = text.split()
        if parts == ["pass"]:
            if self._destinations(self._mover):
                raise IllegalMove("you can pass only when your pawn cannot move")
            return self._next(
                text,
                self._stones,
                self._pawns,
                self._deferred,
                NO_CHANGE,
                self._controls(),
                self._unsettled,
            )
        cells = [self.board.index(part) for part in parts]
        if not self._destinations(self._mover):
            raise IllegalMove("your pawn cannot move: your only move is pass")
        self._check_pawn_move(cells[0])
        if len(cells) == 2:
            self._check_placement(cells[0], cells[1])
        return self._turn(*cells)

    def _setup(self, text: str) -> AstralisState:
        me = self._mover
        refusal = (
            Words("place your pawn on a non-corner cell of the bottom row")
            if me == YELLOW
            else Words("place your pawn on a non-corner cell of the top row")
        )
        parts = text.split()
        if len(parts) != 1 or parts[0] == "pass":
            raise IllegalMove(
                "{refusal} (one cell, e.g. {cell})", refusal=refusal, cell=self.legal_moves()[0]
            )
        cell = self.board.index(parts[0])
        if cell not in _home_cells(self.board.base, me):
            raise IllegalMove("{refusal}, not {cell}", refusal=refusal, cell=parts[0])
        pawns = (cell, None) if me == YELLOW else (self._pawns[0], cell)
        return self._next(
            parts[0],
            self._stones,
            pawns,
            self._deferred,
            Change(placed=(parts[0],)),
            self._controls(),
            (frozenset(), frozenset()),
        )

    def _check_pawn_move(self, dest: int) -> None:
        me, name = self._mover, self.board.name
        start = self._pawns[me]
        assert start is not None
        if dest == start:
            raise IllegalMove("the pawn must move: it is already on {cell}", cell=name(dest))
        for direction in range(6):
            ray = self.board.ray(start, direction)
            if dest in ray:
                break
        else:
            raise IllegalMove(
                "{cell} is not in a straight line from your pawn at {start}",
                cell=name(dest),
                start=name(start),
            )
        them = colour_title(COLORS[1 - me])
        for cell in ray[: ray.index(dest)]:
            if self._stones[cell] == 1 - me:
                raise IllegalMove(
                    "the pawn cannot pass over {them}'s stone at {cell}", them=them, cell=name(cell)
                )
            if cell == self._pawns[1 - me]:
                raise IllegalMove(
                    "the pawn cannot pass over {them}'s pawn at {cell}", them=them, cell=name(cell)
                )
        stone = self._stones[dest]
        if stone == me:
            raise IllegalMove(
                "the pawn cannot stop on your stone at {cell} (it may pass over it)",
                cell=name(dest),
            )
        if stone != _EMPTY:
            raise IllegalMove(
                "the pawn cannot stop on {them}'s stone at {cell}", them=them, cell=name(dest)
            )
        if dest == self._pawns[1 - me]:
            raise IllegalMove(
                "the pawn cannot stop on {them}'s pawn at {cell}", them=them, cell=name(dest)
            )

    def _check_placement(self, dest: int, cell: int) -> None:
        name = self.board.name
        if cell == dest:
            raise IllegalMove("the stone cannot go under your pawn on {cell}", cell=name(dest))
        if cell not in self.board.neighbours[dest]:
            raise IllegalMove(
                "the stone must go next to your pawn's new cell {pawn}, and {cell} is not",
                pawn=name(dest),
                cell=name(cell),
            )
        if self._stones[cell] != _EMPTY:
            raise IllegalMove("{cell} already holds a stone", cell=name(cell))
        them = colour_title(COLORS[1 - self._mover])
        if cell == self._pawns[1 - self._mover]:
            raise IllegalMove("{cell} holds {them}'s pawn", cell=name(cell), them=them)
        if cell in self._placeable():
            return
        home = self._pawns[self._mover]
        if cell == home:  # the deferred bonus lands there as the pawn leaves
            raise IllegalMove(
                "{cell} receives {them}'s deferred bonus stone as your pawn leaves",
                cell=name(cell),
                them=them,
            )
        raise IllegalMove("{cell} is next to a stone", cell=name(cell))

    # -- resolution -----------------------------------------------------------

    def _turn(self, dest: int, place: int | None = None) -> AstralisState:
        me, name = self._mover, self.board.name
        stones = list(self._stones)
        controls = list(self._controls())
        deferred = dict(self._deferred)
        added: list[int] = []
        new_stones: list[int] = []
        start = self._pawns[me]
        assert start is not None  # pawns are placed in the setup
        # Step 1: the pawn moves; a bonus deferred under it is put down.
        if start in deferred:
            stones[start] = deferred.pop(start)
            added.append(start)
            new_stones.append(start)
        pawns = (dest, self._pawns[1]) if me == YELLOW else (self._pawns[0], dest)
        # Step 2: the optional stone.
        placed = [name(dest)]
        if place is not None:
            stones[place] = me
            placed.append(name(place))
            new_stones.append(place)
        # Step 3: resolve.
        neighbours = _sorted_neighbours(self.board.base)
        moved = _recontrol(neighbours, stones, controls, new_stones)
        unsettled = self._unsettled
        changed = None if unsettled is None else set(moved)
        # the pawn's old cell may now get a bonus that its pawn held back
        pending = frozenset() if unsettled is None else unsettled[me] | {start}
        flipped = _resolve(
            self.board.base, stones, me, pawns, deferred, added, controls, changed, pending
        )
        if changed is not None and unsettled is not None:
            # settled for me now; the opponent must look again at what changed
            if me == YELLOW:
                unsettled = (frozenset(), unsettled[CYAN] | changed)
            else:
                unsettled = (unsettled[YELLOW] | changed, frozenset())
        change = Change(
            placed=tuple(placed),
            flipped=tuple(name(i) for i in flipped),
            added=tuple(name(i) for i in added),
        )
        text = " ".join(placed)
        return self._next(
            text, tuple(stones), pawns, tuple(sorted(deferred.items())), change, controls, unsettled
        )

    def _next(
        self,
        text: str,
        stones: tuple[int, ...],
        pawns: tuple[int | None, int | None],
        deferred: tuple[tuple[int, int], ...],
        change: Change,
        controls: list[int],
        unsettled: tuple[frozenset[int], frozenset[int]] | None,
    ) -> AstralisState:
        return AstralisState(
            self.game,
            self.options,
            (*self.history, text),
            stones,
            pawns,
            deferred,
            change,
            controls,
            unsettled,
        )

    def __str__(self) -> str:
        """A text diagram, top row first: Y/C stones, 1/2 the yellow/cyan pawns,
        y/c cells controlled, * contested, . unexplored, + a deferred bonus."""
        board, controls = self.board, self._controls()
        deferred = {cell for cell, _ in self._deferred}
        lines = []
        for r in reversed(range(len(board.rows))):
            marks = []
            for i in board.rows[r]:
                if i == self._pawns[0]:
                    marks.append("1")
                elif i == self._pawns[1]:
                    marks.append("2")
                elif i in deferred:
                    marks.append("+")
                elif self._stones[i] != _EMPTY:
                    marks.append("YC"[self._stones[i]])
                else:
                    marks.append(
                        {UNEXPLORED: ".", CONTESTED: "*", YELLOW: "y", CYAN: "c"}[controls[i]]
                    )
            indent = " " * abs(r - (board.base - 1))
            lines.append(f"{board.row_labels[r]:>2} {indent}{' '.join(marks)}")
        return "\n".join(lines)


def _resolve(
    base: int,
    stones: list[int],
    me: int,
    pawns: tuple[int | None, int | None],
    deferred: dict[int, int],
    added: list[int],
    controls: list[int] | None = None,
    changed: set[int] | None = None,
    pending: frozenset[int] = frozenset(),
) -> list[int]:
    """Step 3 of a turn, in place: captures by ``me`` then bonuses for either
    player, repeated until nothing changes. Returns the flipped cells; appends
    bonus stones to ``added`` and new deferred bonuses to ``deferred``.

    ``controls``, the control of these stones if the caller has it, is kept up
    to date in place. ``changed``, if given, holds the cells whose control this
    turn has changed so far, and ``pending`` those it changed since ``me``'s last
    resolution before this turn, plus the pawn's old cell; the search then
    looks only at them and their neighbours, and adds to ``changed`` the cells
    it changes. That suffices: every resolution leaves no capture and no bonus
    pending except under a pawn, so a stone becomes capturable, or a cell
    starts to qualify for a bonus, only when its own or a neighbour's control
    changes.
    """
    neighbours = _sorted_neighbours(base)
    if controls is None:
        controls = _control(neighbours, stones)
    flipped: list[int] = []
    while True:
        near = range(len(stones)) if changed is None else _around(neighbours, changed | pending)
        captured = [
            i
            for i in near
            if stones[i] == 1 - me and all(controls[n] == CONTESTED for n in neighbours[i])
        ]
        for i in captured:
            stones[i] = me
        if captured:
            flipped.extend(captured)
            moved = _recontrol(neighbours, stones, controls, captured)
            if changed is not None:
                changed.update(moved)
                near = _around(neighbours, changed | pending)
        bonuses = []
        for i in near:
            if controls[i] != UNEXPLORED or i in deferred:
                continue
            owners = {controls[n] for n in neighbours[i]}
            if len(owners) != 1:
                continue
            (owner,) = owners
            if owner not in (YELLOW, CYAN) or pawns[owner] == i:
                continue  # no bonus under the owner's own pawn
            if pawns[1 - owner] == i:
                deferred[i] = owner  # waits for the opponent's pawn to leave
            else:
                bonuses.append((i, owner))
        for i, owner in bonuses:
            stones[i] = owner
            added.append(i)
        if bonuses:
            moved = _recontrol(neighbours, stones, controls, [i for i, _ in bonuses])
            if changed is not None:
                changed.update(moved)
        if not captured and not bonuses:
            return flipped


class Astralis(Game):
    name = "astralis"
    title = "Astralis"
    colors = COLORS
    #: Its fast search position, AI knowledge, painter and guide (see rules.plugins).
    plugins = Plugins(
        fast="rules.fast.astralis:position",
        ai="ai.games.astralis:knowledge",
        painter="render.games.astralis:PAINTER",
        guide="bot.learning.guides.astralis:GUIDE",
    )
    terminations = (Termination.SCORE,)
    option_specs = (Option("size", int, 8, "cells on each side of the board", 7, 8),)
    summary = (
        "Astralis (Phil Leduc, 2021) is an area-control game on a hexagonal board. Yellow "
        "(seat 0) and Cyan each have a pawn and place stones.\n"
        "Setup: Yellow then Cyan put their pawn on a non-corner cell of their home edge "
        "(Yellow the bottom row, Cyan the top row), e.g. `a3`.\n"
        "A turn: move your pawn in a straight line (over empty cells and your own stones, "
        "never over the opponent's stones or pawn), then optionally place a stone next to it "
        "on a cell that is not next to any stone: `d4` or `d4 e5`. If your pawn cannot move, "
        "play `pass`.\n"
        "A cell is yours if it holds your stone or only your stones are next to it; next to "
        "both colours it is contested. After each turn, the mover captures (flips) every "
        "opponent stone whose neighbours are all contested, and any empty cell away from "
        "stones whose neighbours are all one player's gets that player's stone (a bonus; "
        "under the opponent's pawn it is placed when that pawn leaves).\n"
        "The game ends when every cell holds or touches a stone. Score: cells you control; "
        "Cyan adds a komi of 3.5. Higher score wins.\n"
        "Option: size 7 or 8 (default 8)."
    )

    def _initial(self, options: dict[str, Any]) -> AstralisState:
        board = HexBoard.of(options["size"])
        return AstralisState(
            self, dict(options), (), (_EMPTY,) * len(board), (None, None), (), NO_CHANGE
        )


GAME = Astralis()
