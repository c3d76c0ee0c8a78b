"""The fast Astralis search position plays exactly the game of the State."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from rules.astralis import AstralisState
from rules.fast.astralis import AstralisPosition
from rules.hexhex import HexBoard
from rules.position import position

GAME = rules.get_game("astralis")
SIZES = (7, 8)

#: A random game of size 7 in which Cyan's pawn stands on a cell that
#: qualifies for Yellow's bonus: the stone waits until the pawn leaves.
DEFERRED = [
    "a2",
    "m3",
    "c4",
    "l3 l4",
    "k8 j9",
    "e8 d7",
    "d5 e6",
    "i10",
    "a2 b2",
    "i5 h5",
    "j8 j7",
    "i2",
    "j2 j1",
    "i8",
    "m2 m1",
    "f7 f8",
    "m5",
    "k8 l7",
    "j5",
    "k3 j4",
]
#: A random game of size 7 after which Cyan captures with any move (a Yellow stone
#: stands among contested cells).
CAPTURE_PENDING = [
    "a4",
    "m3",
    "g4",
    "e1 e2",
    "g1 h1",
    "e10",
    "b1",
    "h9 g10",
    "e4 f5",
    "d6 c5",
    "d3 c2",
    "g6 h5",
    "d8 d7",
    "k2 k3",
    "c8 c9",
    "k7 l7",
    "h7",
    "e11 f12",
    "i6",
    "k7",
    "b8 a7",
    "k5 j5",
    "b5 a4",
    "g9 f8",
    "b1 a1",
    "g12 h11",
    "m6",
    "a6 b6",
]
#: A random game of size 7 whose last move captures, which hands a cell to Cyan
#: and so gives Cyan a bonus next to it.
CAPTURE_THEN_BONUS = [
    "a2",
    "m2",
    "f7 f8",
    "i6 i5",
    "g8 h8",
    "i3 h3",
    "i8 j7",
    "g3 g2",
    "c4 c3",
    "g11",
    "c8 d9",
    "g6 f5",
    "e10 e11",
    "l6 l5",
    "e2 e1",
    "c2 d2",
]
#: A random game of size 7 after which Yellow may move next to Cyan's pawn, on
#: an unexplored cell where no stone may go.
NEXT_TO_THE_PAWN = [
    "a5",
    "m5",
    "a3 b4",
    "i9 j8",
    "g3 h3",
    "i8",
    "j3 k2",
    "i6 i5",
    "k3 l3",
    "i11 h12",
    "k4",
    "f10 f9",
    "k8 l8",
    "f2 f3",
    "k6 k5",
    "e1 d1",
    "d10 d9",
    "f2 g2",
    "e10 e11",
    "f8 g8",
    "e5 d4",
    "j9 j10",
    "c3 b2",
    "l7",
    "c6 d6",
    "m7 m6",
    "c1",
    "j7",
    "c7 b7",
    "f10",
    "c9",
    "b6",
    "c8",
    "f10",
    "c3",
    "g10",
    "c6",
    "g5",
]
#: Size 7: Yellow's pawn in the corner a1, Cyan's stones on a2 and b1 and
#: Cyan's pawn on b2: Yellow's only move is pass.
BLOCKED = ["a3", "m6", "a4", "c2 b1", "a1", "b2 a2"]


def agree(pos: AstralisPosition, state: AstralisState) -> None:
    """Everything a search reads from a position is what the State says."""
    assert pos.to_move == state.to_move
    assert pos.is_over == state.is_over
    assert pos.winner == state.winner
    assert {pos.move_text(m) for m in pos.legal_moves()} == set(state.legal_moves())
    assert pos.territories() == (state.territory("yellow"), state.territory("cyan"))
    yellow, cyan = state.score("yellow"), state.score("cyan")
    assert pos.evaluate() == yellow / (yellow + cyan)


def board_of(pos: AstralisPosition) -> tuple:
    return tuple(pos.stones), tuple(pos.pawns), tuple(sorted(pos.deferred.items())), pos.ply


def outcomes(pos: AstralisPosition) -> dict[tuple, list[int]]:
    """The legal moves by the board they leave, to tell which move a playout
    played (two moves leave the same board only when one places the stone that
    a bonus would have put there anyway)."""
    found: dict[tuple, list[int]] = {}
    for move in pos.legal_moves():
        after = pos.copy()
        after.play(move)
        found.setdefault(board_of(after), []).append(move)
    return found


def play_and_check(
    state: AstralisState, pos: AstralisPosition, rng: random.Random, seen: dict[str, int]
) -> AstralisState:
    """Play ``state`` to its end with random moves, checking ``pos`` at every ply
    and a copy taken before each move; counts in ``seen`` what the rules did."""
    agree(pos, state)
    while not state.is_over:
        text = rng.choice(state.legal_moves())
        before, snapshot = state, pos.copy()
        state = state.play(text)
        pos.play(pos.move_id(text))
        agree(pos, state)
        agree(snapshot, before)  # the copy did not move
        seen["captures"] += len(state.last_change.flipped)
        seen["bare captures"] += bool(state.last_change.flipped) and " " not in text
        seen["bonuses"] += len(state.last_change.added)
        seen["deferred"] += bool(state.deferred_bonuses)
    return state


@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_with_the_state_at_every_ply(size: int) -> None:
    seen = dict.fromkeys(("captures", "bare captures", "bonuses", "deferred"), 0)
    for seed in range(16):
        state = GAME.new(size=size)
        play_and_check(state, position(state), random.Random(f"{size}-{seed}"), seen)
    # the sample exercised the rules that make the position hard to keep up to date
    assert seen["captures"] and seen["bare captures"] and seen["bonuses"]


def test_a_deferred_bonus_lands_as_the_pawn_leaves() -> None:
    state = GAME.new(size=7)
    pos = position(state)
    deferred = landed = False
    for text in DEFERRED:
        state = state.play(text)
        pos.play(pos.move_id(text))
        agree(pos, state)
        deferred |= bool(state.deferred_bonuses)
        landed |= deferred and bool(state.last_change.added) and not state.deferred_bonuses
        assert pos.deferred == {
            state.board.index(c): ("yellow", "cyan").index(color)
            for c, color in state.deferred_bonuses
        }
    assert deferred and landed
    seen = dict.fromkeys(("captures", "bare captures", "bonuses", "deferred"), 0)
    for seed in range(3):
        play_and_check(state, position(state), random.Random(seed), seen)


def test_a_blocked_pawn_passes() -> None:
    state = GAME.replay(BLOCKED, size=7)
    pos = position(state)
    agree(pos, state)
    assert [pos.move_text(m) for m in pos.legal_moves()] == ["pass"]
    pos.playout(random.Random(1), max_plies=1)
    state = state.play("pass")
    agree(pos, state)
    assert board_of(pos)[:3] == board_of(position(state))[:3]


@pytest.mark.parametrize("size", SIZES)
def test_playouts_play_the_moves_the_state_plays(size: int) -> None:
    """A playout, one ply at a time, plays a legal move and ends up where
    ``play`` and the State do."""
    for seed in range(2):
        rng = random.Random(seed)
        state = GAME.new(size=size)
        pos = position(state)
        while not state.is_over:
            after = outcomes(pos)
            assert pos.playout(rng, max_plies=1) == 1
            state = state.play(pos.move_text(after[board_of(pos)][0]))
            agree(pos, state)
        assert pos.playout(rng) == 0


class Scripted(random.Random):
    """A generator whose draws are given in advance."""

    def __init__(self, draws: list[int]) -> None:
        super().__init__(0)
        self.draws = draws

    def getrandbits(self, k: int) -> int:
        return self.draws.pop(0)


def check_every_draw(state: AstralisState) -> None:
    """Of the n legal moves, the playout's draws 0 … n-1 play each once, and
    exactly as the State does; a draw of n is refused (drawn again): so a
    playout's choice is uniform over the legal moves."""
    pos = position(state)
    after = outcomes(pos)
    count = len(pos.legal_moves())
    drawn = []
    for r in range(count):
        played = pos.copy()
        played.playout(Scripted([r]), max_plies=1)
        board = board_of(played)
        agree(played, state.play(pos.move_text(after[board][0])))
        drawn.append(board)
    assert Counter(drawn) == {board: len(moves) for board, moves in after.items()}
    played = pos.copy()
    played.playout(Scripted([count, 0]), max_plies=1)
    assert board_of(played) == drawn[0]


@pytest.mark.parametrize("size", SIZES)
def test_a_playout_draws_every_legal_move_with_the_same_chance(size: int) -> None:
    rng = random.Random(size)
    state = GAME.new(size=size)
    while not state.is_over:
        if state.ply % 8 < 2:
            check_every_draw(state)
        state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(
    ("record", "captures"),
    [
        pytest.param(CAPTURE_PENDING, True, id="capture-pending"),
        pytest.param(CAPTURE_THEN_BONUS[:-1], None, id="capture-then-bonus"),
        pytest.param(DEFERRED[:18], False, id="deferred-bonus"),
        pytest.param(BLOCKED, False, id="blocked"),
        pytest.param(NEXT_TO_THE_PAWN, False, id="next-to-the-pawn"),
    ],
)
def test_every_move_a_playout_draws_is_the_states(record: list[str], captures: bool | None) -> None:
    state = GAME.replay(record, size=7)
    check_every_draw(state)
    if captures is not None:  # with a capture pending, every move captures, bare ones too
        assert all(
            bool(state.play(text).last_change.flipped) == captures for text in state.legal_moves()
        )


def test_a_bonus_held_under_its_owners_pawn_lands_as_the_pawn_leaves() -> None:
    """No game reaches it (see rules.astralis), so the board is built by hand:
    Yellow's stones b3 and c2 surround the corner a1, where Yellow's pawn stands."""
    board = HexBoard.of(7)
    stones = [-1] * len(board)
    stones[board.index("b3")] = stones[board.index("c2")] = 0
    state = AstralisState(
        GAME,
        {"size": 7},
        ("a2", "m4", "a1", "m5"),
        tuple(stones),
        (board.index("a1"), board.index("m4")),
        (),
        rules.NO_CHANGE,
    )
    assert state.stone_at("a1") is None
    check_every_draw(state)
    assert state.play("a2").stone_at("a1") == "yellow"


def test_a_capture_can_make_a_bonus() -> None:
    state = GAME.new(size=7)
    pos = position(state)
    for text in CAPTURE_THEN_BONUS:
        state = state.play(text)
        pos.play(pos.move_id(text))
        agree(pos, state)
    assert state.last_change.flipped and state.last_change.added


def test_a_full_playout_ends_the_game() -> None:
    pos = position(GAME.new(size=8))
    assert isinstance(pos, AstralisPosition)  # rules.position finds the fast position
    assert pos.playout(random.Random(5), max_plies=5) == 5
    assert pos.ply == 5 and not pos.is_over
    plies = pos.playout(random.Random(6))
    assert pos.is_over and pos.winner in (0, 1) and pos.to_move is None
    assert pos.ply == 5 + plies and pos.legal_moves() == []


def test_copies_are_independent() -> None:
    pos = position(GAME.new(size=8))
    pos.playout(random.Random(3), max_plies=40)
    copy = pos.copy()
    board = board_of(pos)
    copy.playout(random.Random(4))
    assert board_of(pos) == board
    assert copy.is_over and not pos.is_over


@pytest.mark.parametrize("size", SIZES)
def test_move_ids_are_stable_and_round_trip(size: int) -> None:
    start = position(GAME.new(size=size))
    later = start.copy()
    later.playout(random.Random(2), max_plies=30)
    ids = set()
    for move in range(len(later.geometry.texts)):
        try:
            text = start.move_text(move)
        except ValueError:
            continue
        assert start.move_id(text) == later.move_id(text) == move
        assert later.move_text(move) == text
        ids.add(move)
    assert set(later.legal_moves()) <= ids
    assert "pass" in {start.move_text(m) for m in ids}
    for text in ("z99", "a1 a1", "pass a1", ""):
        with pytest.raises(ValueError):
            start.move_id(text)
    with pytest.raises(ValueError):
        start.move_text(len(start.geometry.texts))
