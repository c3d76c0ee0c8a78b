"""Positions with a tactic in them, each reached by playing moves from the start.

Found in random games; each test re-checks the fact it relies on (which moves
win or lose at once) before asking the AI, so a change of rules that moves the
position shows as a failed premise, not as a wrong AI.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import rules
from rules import State
from tests.rules.test_rulings import CROWDED


@dataclass(frozen=True)
class Position:
    game: str
    options: dict = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def state(self) -> State:
        return rules.get_game(self.game).replay(self.moves, **self.options)


#: Black to move; only b4 wipes White's last stones off the board (17 moves).
LIFELINE_WIPE = Position(
    "lifeline",
    {"size": 4},
    (
        "b5 d3",
        "b1 e1",
        "e6",
        "g3",
        "e3",
        "d7",
        "a3",
        "e5",
        "a1",
        "d6",
        "c4",
        "f2",
        "c3",
        "c2",
        "f3",
        "g1",
        "g2",
        "f4",
        "c5",
        "b2",
        "d2",
        "b3",
        "f5",
        "c1",
        "a2",
        "a4",
        "d1",
        "f1",
    ),
)

#: Black to move; only a2 leaves White with no legal play and no Hold (19 moves).
ASLI_NO_ACTION = Position(
    "asli", {"size": 5}, ("komi 7", "black", "b3", "e4", "b4", "c5", "b5", "b1", "a1")
)

#: Cyan to move; of 23 moves only h12 g13 ends the game with Cyan ahead on score.
ASTRALIS_LAST_PLACEMENT = Position(
    "astralis",
    {"size": 7},
    (
        "a3",
        "m6",
        "a6 a7",
        "i10 i11",
        "c6 d7",
        "i7 h7",
        "b6",
        "k7 l7",
        "k2 k1",
        "a1",
        "g2 g3",
        "a5 a4",
        "g11 g10",
        "a2 a1",
        "i9 i8",
        "c4",
        "k9",
        "a2 b3",
        "d6",
        "f2 e2",
        "e6 f6",
        "e1",
        "e11 d10",
        "e3 f4",
        "l6 k6",
        "c3 c2",
        "e4 d4",
        "c4 c5",
        "e11",
        "c6",
        "e7 f8",
        "c1",
        "g9",
        "i5 j4",
        "c9",
        "m5",
        "c7 b6",
        "e3",
        "b7",
        "i5",
        "d9",
        "g7",
        "l4",
        "k3 l3",
        "j6",
        "j3 i3",
        "f5",
        "m3",
        "e4",
        "i7",
        "e10 f11",
        "i5",
        "h9",
        "m5",
        "k9 j9",
        "m2 m1",
        "k7",
        "m4",
        "k3",
        "l5 m4",
        "k8",
        "l6",
        "k5",
        "m5",
        "g9",
        "i5",
        "g7",
        "k5",
        "i5",
        "k3",
        "j5",
        "h6",
        "j10",
        "i6",
        "b5",
        "i4",
        "b8",
        "i2",
        "e8",
        "j1",
        "e4",
        "i2",
        "l6",
        "j2",
        "i9",
        "g2 g1",
        "j8",
        "i2",
        "l6",
        "j1 i1",
        "f5",
        "j6",
        "f12",
        "i6",
        "f10",
        "g6 h5",
        "f9",
        "d3",
        "f12",
        "h6",
        "g13",
        "i6",
        "g9",
        "i7",
        "f9",
        "h8",
        "f10",
    ),
)

#: Yellow to move; 4 of its 16 moves end the game at once with Cyan ahead.
ASTRALIS_LOSING_PLACEMENTS = Position(
    "astralis",
    {"size": 7},
    (
        "a6",
        "m4",
        "g12 g13",
        "h9",
        "b7 b8",
        "i8 h8",
        "e10 f10",
        "c4 c5",
        "e2 f2",
        "c6 b6",
        "k4 l4",
        "h5 i5",
        "h7 g7",
        "h4 i3",
        "c3",
        "e5 f5",
        "e3 d2",
        "d5 e6",
        "a3 a2",
        "j2 k1",
        "a1",
        "j10 i10",
        "e5 d4",
        "m7",
        "e3",
        "k7 k8",
        "h5",
        "j7 j6",
        "h1 i1",
        "l5",
        "b2",
        "l6 m6",
        "b4 a4",
        "e11 d10",
        "b2",
        "k7",
        "b5",
        "e11",
        "e8 f8",
        "f11",
        "m2 l2",
        "e10",
        "k4",
        "h12",
        "k2",
        "c8",
        "h5",
        "h12",
        "f4",
        "h2",
        "f3",
        "g3 g4",
        "e2",
        "g12",
        "d1",
        "c8",
    ),
)

#: White to move with 8 moves; after any of them but c5, Black has a placement
#: that leaves White with no action.
ASLI_ONE_SAFE_MOVE = Position(
    "asli",
    {"size": 5},
    (
        "komi 12",
        "white",
        "b1",
        "d2",
        "d4",
        "b4",
        "e3",
        "a3",
        "b5",
        "d3",
        "c2",
        "e5",
        "d1",
        "b2",
        "e1",
        "d5",
        "c1",
        "a5",
        "c3",
        "a2",
        "d3",
        "hold",
    ),
)

#: The crowded Sliglube position of the rulings' tests, played on to its end game.
_SLIGLUBE_ENDGAME = (
    *CROWDED,
    "b1",
    "f6",
    "i1",
    "c2",
    "d5",
    "e5",
    "f4",
    "g1",
    "i5",
    "c1",
    "h4",
    "f2",
    "h1",
    "f1",
    "d2",
    "a2",
    "g7",
    "a1",
    "b2",
    "h6",
    "f7",
    "a4",
)

#: The mover has 3 placements; after d1 every reply of the opponent leaves the
#: mover with no legal placement, and a stalemated player wins.
SLIGLUBE_SELF_STALEMATE = Position("sliglube", {"size": 5}, _SLIGLUBE_ENDGAME)

#: The mover has 2 placements; one leaves the opponent without a placement,
#: which makes the opponent the winner. c1 does not.
SLIGLUBE_STALEMATING_THE_OPPONENT = Position(
    "sliglube", {"size": 5}, (*_SLIGLUBE_ENDGAME, "d3", "h5")
)

#: Black to move, where four placements would take off a stone of Black's that is
#: part of a loop, so ``g5 noflip`` (and three more) are offered too.
SLIGLUBE_NOFLIP = Position(
    "sliglube",
    {"size": 5},
    (
        "c5",
        "white",
        "b2",
        "g6",
        "e2",
        "e8",
        "b6",
        "b1",
        "a5",
        "a2",
        "e7",
        "g2",
        "d7",
        "i5",
        "b3",
        "d4",
        "g4",
        "g7",
        "f1",
        "e1",
        "d1",
        "c2",
        "e4",
        "d6",
        "a3",
        "e9",
        "f3",
        "d8",
        "d3",
        "f8",
        "d2",
        "h2",
        "i3",
        "h6",
        "e5",
        "b4",
        "h3",
        "e6",
        "h4",
    ),
)


def ends(state: State, move: str) -> int | str | None:
    """The winner if ``move`` ends the game at once, "on" if it does not."""
    after = state.play(move)
    return after.winner if after.is_over else "on"


# -- the tactics suite (tests/ai/test_tactics.py) -----------------------------------------


def record(moves: str) -> tuple[str, ...]:
    """The moves of a record written with commas between them."""
    return tuple(moves.split(","))


# Each reached by playing moves (random games, searched for a position with one winning
# or saving move, or two); the test checks its premise on the engine before the AI.

#: The mover has 13 placements; after any but c1 the opponent has one that takes the
#: mover's last stones off the board: c1 saves them.
LIFELINE_SAVE = Position(
    "lifeline",
    {"size": 5},
    record(
        "b6 c5,c2 i1,g4,g5,i2,c3,g3,d1,h1,b5,d3,h3,i5,c6,b4,a5,g2,d6,e4,a2,f6,c7,a1,e6,d5,b6,"
        "e8,h4,h2,i4,b3,g7,i3,d7,e3,d4,f3,f7,g1,f1,e7,f4,e5,b2,f5,h5,e2,g6"
    ),
)

#: White to move (23 moves): d5 captures two Black stones (the prison's Black stones,
#: White's Holds, go from 3 to 5) and leaves Black no action: a capture that wins at once.
ASLI_CAPTURE_WINS = Position("asli", {"size": 5}, ("komi 3", "black", "c4", "e4", "e5"))

#: White to move (23 moves); after any move but ``hold`` or a4, Black has a placement that
#: leaves White with no action: the Hold (one of the two Black stones in the prison) saves.
ASLI_HOLD_SAVES = Position("asli", {"size": 5}, ("komi 2", "black", "b5", "a5", "a2"))

#: White to move on 13x13 (a game the old hard lost to the new one, bench ai, 2026-11-27):
#: Black's l1 and m2 live by each other through m1, its i13 by l1 through k1; k1 cuts i13
#: off and takes it, and Black is left no action: a lone stone anywhere is dead, m1 joins
#: its two groups into one dead group, and its prison holds no White stone to Hold.
ASLI_CUT_LEAVES_NO_ACTION = Position(
    "asli", {"size": 13}, ("komi 0", "black", "l1", "l2", "m2", "m3", "i13")
)

#: White to move (166 moves), from a bench game the hard level lost in nine plies: a12
#: is the one move that loses by force. After a12, b12 (or c13) leaves every White
#: move a Black reply that leaves White no action: a13 takes a12 and b13 together
#: (White's only groups), c13 cuts a lone White stone played elsewhere off from them.
ASLI_CORNER_TRAP = Position("asli", {"size": 13}, ("komi 0", "black", "c11", "b13", "a11"))

#: Black to move (after a12 above): b12 and c13 win by force in three plies.
ASLI_CORNER_TRAP_SPRUNG = Position("asli", {"size": 13}, (*ASLI_CORNER_TRAP.moves, "a12"))

#: Black to move (23 moves); only d1 leaves White no placement that wins at once.
ASLI_ONE_SAVE = Position("asli", {"size": 5}, ("komi 2", "black", "e1", "e2"))

#: Black to move (21 moves): c1 takes nine White stones, turning a prison of 6 Black
#: stones (White's Holds) into one of 3 White stones (Black's), and White has no action.
ASLI_PRISON_TURNS = Position(
    "asli",
    {"size": 7},
    record(
        "komi 15,black,c4,d6,d5,a7,b7,d1,c7,hold,f5,c3,g6,a3,g2,b6,f7,c6,c5,c2,f3,f4,f1,e7,"
        "d4,e3,f6,hold,a6,d7,c1,b2,g7,a1,b4,hold,a4,e5,g4,b5,e6,g5,d3,f5,b7,c7,d2,e6,g1,b1,"
        "f2,e4,e2,e1,f7,b3"
    ),
)

#: Yellow to move (22 moves): only ``b6 a5`` ends the game with Yellow ahead, by the
#: capture its placement makes (a Cyan stone flipped).
ASTRALIS_CAPTURE_WINS = Position(
    "astralis",
    {"size": 7},
    record(
        "a2,m3,l8,l4 l5,k9 j10,g9 f9,k2,g2 f2,k4 j4,g13 h12,f3 f4,g12 f11,b3 b4,g11,l8 k8,g9,"
        "h8 g8,d6 d5,f7 f6,d10,e6,h9 i8,e5,d6,g5 h4,c5 c6,i5 h6,c2 d3,i2,b2 b1,j1 j2,h1 i1,"
        "j8,h2,k7,f3,k4 l3,h2,m2 m1,b3 a2,h2,e6 e7,f3,e10 d10,h2,e2,h8,e8 d8,k5,c8 b7,i7 j6,"
        "e8,g7,e5,i7,a1,k5,a3,h8,h2,k5,c3,c1,c5,h5,c2,h10,h1,i10,l1,l7 m6,g6,d4,g2,e4,g7,e3,"
        "i7,e1,i9 h10,e4,i7,h3,e9,h7"
    ),
)

#: Cyan to move (29 moves); after any move but a6, Yellow has a move that ends the game
#: with Yellow ahead.
ASTRALIS_ONE_SAVE = Position(
    "astralis",
    {"size": 7},
    record(
        "a3,m3,a2 b3,m4 m5,c4 d4,f10 g10,i8 i7,d8,f7 e7,d7 c7,f10 e9,a7 b8,f12 f11,c9,f5 f4,"
        "g13,k1 k2,l8 m7,c5 b5,f7 g7,a5,k3 j4,a4,f7,i2 h2,k8 k7,h3 h4,i8,g4,j7,d1 d2,d10,d8,"
        "l5 k5,c8,l8 k9,g12,c4,h12 g13,c2,c8,l6,g12,l2 m2,a6,f7,d6,k8,d9 d10,f7,c9,k3,f12,k8,"
        "j9,l7,b4,l8,h9 i9,h8,m4,h5,l5,h11,h9,f12,h11,g12,l7,h11,l5,h6,i8,h10 h11,i6,h5,c2,"
        "h10,f5,c6,c5,j3,c2,f2,a2 a1,e2 f2,h8,e1,d9,f1 g1,j6,e1,h8,e4,h1,i6,l1,e8,l2,c6,g2,h5,"
        "g4,f6,g6,f10,b6,e10,b4,f10,a4,m4,a5,l5,j2,f10,l2,f5,l4,j6,l2,m3,k3,m6,l3,l6,e8,l1,d7,"
        "l5,c6,e10,c2,i8,f5,e6,f6,c4,c6,h8,l1,i8,h1,f10,g2,f5,g5,f10,c5,f7,i3,g8,i10,d5,i2,"
        "c4,h3,c2,m3,i6,j3,h7,i3,e8,i11,k4,i2,c8,h3,e8,b4,d8,b6,l3,j3,l4,a6,m4,i4,k6,i2,h6,"
        "h3,h5,b4,g6,a3"
    ),
)

#: Black to move (24 placements); only c2 wins by force: it closes a loop, and after every
#: reply Black has no legal placement left, which wins (stalemate wins).
SLIGLUBE_LOOP_WINS = Position(
    "sliglube",
    {"size": 5},
    record(
        "e5,black,g5,f2,g7,h2,f8,i4,b4,a2,g4,i2,e9,b5,e2,c7,f5,d2,h4,g3,f4,a3,b6,d8,h5,d7,"
        "e4,b2,e1,g1,f6,i5,f3,e3,i3,d1,b3,h6,i1,d5,c6"
    ),
)
