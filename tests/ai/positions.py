"""Positions with a tactic in them, each reached by playing moves from the start.

Found in random games; each test re-checks the fact it relies on (which moves
win or lose at once) before asking the AI, so a change of rules that moves the
position shows as a failed premise, not as a wrong AI.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import rules
from rules import State


@dataclass(frozen=True)
class Position:
    game: str
    options: dict = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def state(self) -> State:
        return rules.get_game(self.game).replay(self.moves, **self.options)


#: Black to move; only b4 wipes White's last stones off the board (17 moves).
LIFELINE_WIPE = Position("lifeline", {"size": 4}, (
    "b5 d3", "b1 e1", "e6", "g3", "e3", "d7", "a3", "e5", "a1", "d6", "c4", "f2", "c3", "c2",
    "f3", "g1", "g2", "f4", "c5", "b2", "d2", "b3", "f5", "c1", "a2", "a4", "d1", "f1"))

#: Black to move; only a2 leaves White with no legal play and no Hold (19 moves).
ASLI_NO_ACTION = Position("asli", {"size": 5}, (
    "komi 7", "black", "b3", "e4", "b4", "c5", "b5", "b1", "a1"))

#: Cyan to move; of 23 moves only h12 g13 ends the game with Cyan ahead on score.
ASTRALIS_LAST_PLACEMENT = Position("astralis", {"size": 7}, (
    "a3", "m6", "a6 a7", "i10 i11", "c6 d7", "i7 h7", "b6", "k7 l7", "k2 k1", "a1", "g2 g3",
    "a5 a4", "g11 g10", "a2 a1", "i9 i8", "c4", "k9", "a2 b3", "d6", "f2 e2", "e6 f6", "e1",
    "e11 d10", "e3 f4", "l6 k6", "c3 c2", "e4 d4", "c4 c5", "e11", "c6", "e7 f8", "c1", "g9",
    "i5 j4", "c9", "m5", "c7 b6", "e3", "b7", "i5", "d9", "g7", "l4", "k3 l3", "j6", "j3 i3",
    "f5", "m3", "e4", "i7", "e10 f11", "i5", "h9", "m5", "k9 j9", "m2 m1", "k7", "m4", "k3",
    "l5 m4", "k8", "l6", "k5", "m5", "g9", "i5", "g7", "k5", "i5", "k3", "j5", "h6", "j10",
    "i6", "b5", "i4", "b8", "i2", "e8", "j1", "e4", "i2", "l6", "j2", "i9", "g2 g1", "j8",
    "i2", "l6", "j1 i1", "f5", "j6", "f12", "i6", "f10", "g6 h5", "f9", "d3", "f12", "h6",
    "g13", "i6", "g9", "i7", "f9", "h8", "f10"))

#: Yellow to move; 4 of its 16 moves end the game at once with Cyan ahead.
ASTRALIS_LOSING_PLACEMENTS = Position("astralis", {"size": 7}, (
    "a6", "m4", "g12 g13", "h9", "b7 b8", "i8 h8", "e10 f10", "c4 c5", "e2 f2", "c6 b6",
    "k4 l4", "h5 i5", "h7 g7", "h4 i3", "c3", "e5 f5", "e3 d2", "d5 e6", "a3 a2", "j2 k1",
    "a1", "j10 i10", "e5 d4", "m7", "e3", "k7 k8", "h5", "j7 j6", "h1 i1", "l5", "b2",
    "l6 m6", "b4 a4", "e11 d10", "b2", "k7", "b5", "e11", "e8 f8", "f11", "m2 l2", "e10",
    "k4", "h12", "k2", "c8", "h5", "h12", "f4", "h2", "f3", "g3 g4", "e2", "g12", "d1", "c8"))

#: White to move with 8 moves; after any of them but c5, Black has a placement
#: that leaves White with no action.
ASLI_ONE_SAFE_MOVE = Position("asli", {"size": 5}, (
    "komi 12", "white", "b1", "d2", "d4", "b4", "e3", "a3", "b5", "d3", "c2", "e5", "d1", "b2",
    "e1", "d5", "c1", "a5", "c3", "a2", "d3", "hold"))

_SLIGLUBE_ENDGAME = (
    "h5", "white", "g6", "i3", "e1", "a3", "c7", "f1", "e9", "e3", "i4", "d4", "f3", "d8",
    "g4", "c4", "f8", "b5", "d6", "b6", "b3", "i2", "d7", "h3", "c3", "e7", "b4", "b1", "f6",
    "i1", "c2", "d5", "e5", "f4", "g1", "i5", "c1", "h4", "f2", "h1", "f1", "d2", "a2", "g7",
    "a1", "b2", "h6", "f7", "a4")

#: The mover has 3 placements; after d1 every reply of the opponent leaves the
#: mover with no legal placement, and a stalemated player wins.
SLIGLUBE_SELF_STALEMATE = Position("sliglube", {"size": 5}, _SLIGLUBE_ENDGAME)

#: The mover has 2 placements; one leaves the opponent without a placement,
#: which makes the opponent the winner. c1 does not.
SLIGLUBE_STALEMATING_THE_OPPONENT = Position("sliglube", {"size": 5},
                                             (*_SLIGLUBE_ENDGAME, "d3", "h5"))

#: Black to move, where four placements would take off a stone of Black's that is
#: part of a loop, so ``g5 noflip`` (and three more) are offered too.
SLIGLUBE_NOFLIP = Position("sliglube", {"size": 5}, (
    "c5", "white", "b2", "g6", "e2", "e8", "b6", "b1", "a5", "a2", "e7", "g2", "d7", "i5", "b3",
    "d4", "g4", "g7", "f1", "e1", "d1", "c2", "e4", "d6", "a3", "e9", "f3", "d8", "d3", "f8",
    "d2", "h2", "i3", "h6", "e5", "b4", "h3", "e6", "h4"))


def ends(state: State, move: str) -> int | str | None:
    """The winner if ``move`` ends the game at once, "on" if it does not."""
    after = state.play(move)
    return after.winner if after.is_over else "on"
