"""Astralis: every rule and ruling of shared/rules/astralis.md, each shown on a
position built by playing moves (size 7 unless said otherwise).

Board diagrams in comments come from ``print(state)``: Y/C stones, 1/2 the
yellow/cyan pawns, y/c controlled cells, * contested, . unexplored."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import rules
from rules import IllegalMove, Termination
from rules.astralis import GAME, KOMI, _resolve

#: The opening used by most tests: Yellow's pawn on a3, Cyan's on m4.
START = ("a3", "m4")


def play(*moves: str, size: int = 7):
    return GAME.replay(moves, size=size)


def refusal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return str(caught.value)


def stones(state) -> dict[str, str]:
    return {cell: state.stone_at(cell) for cell in state.board.cells if state.stone_at(cell)}


# -- the game and its options ----------------------------------------------


def test_registered_with_its_options_colours_and_komi():
    assert rules.get_game("Astralis") is GAME
    assert (GAME.name, GAME.title, GAME.colors) == ("astralis", "Astralis", ("yellow", "cyan"))
    (size,) = GAME.options()
    assert (size.name, size.minimum, size.maximum, size.default) == ("size", 7, 8, 8)
    assert "komi" in GAME.summary.lower() and "d4 e5" in GAME.summary
    assert len(GAME.new().board) == 169 and len(GAME.new(size=7).board) == 127
    for bad in (6, 9):
        with pytest.raises(rules.OptionError):
            GAME.new(size=bad)
    state = GAME.new()
    assert KOMI == state.KOMI == 3.5
    assert (state.color_of(0), state.color_of(1), state.seat_of("cyan")) == ("yellow", "cyan", 1)


# -- setup --------------------------------------------------------------------


def test_setup_yellow_then_cyan_on_a_non_corner_cell_of_their_home_edge():
    state = GAME.new(size=8)
    assert state.color_to_move == "yellow"
    assert state.prompt == "place your pawn on your home edge (bottom row, a2–a7)"
    assert state.legal_moves() == ["a2", "a3", "a4", "a5", "a6", "a7"]
    state = state.play("a3")
    assert state.pawns == {"yellow": "a3", "cyan": None}
    assert state.last_change.placed == ("a3",)
    assert state.color_to_move == "cyan"
    assert state.prompt == "place your pawn on your home edge (top row, o2–o7)"
    assert state.legal_moves() == ["o2", "o3", "o4", "o5", "o6", "o7"]
    state = state.play("O4")
    assert state.history == ("a3", "o4")
    assert state.pawns == {"yellow": "a3", "cyan": "o4"}
    assert state.pawn_at("o4") == "cyan" and state.pawn_at("a4") is None
    assert state.color_to_move == "yellow"
    assert state.prompt == "move your pawn, then optionally place a stone (e.g. d4 e5)"


def test_setup_refuses_corners_other_edges_and_stones():
    state = GAME.new(size=7)
    for corner in ("a1", "a7"):
        assert refusal(state, corner) == (
            f"place your pawn on a non-corner cell of the bottom row, not {corner}"
        )
    assert "bottom row" in refusal(state, "m4")
    assert "bottom row" in refusal(state, "b3")
    assert "one cell" in refusal(state, "a3 b4")
    state = state.play("a3")
    assert refusal(state, "a4") == "place your pawn on a non-corner cell of the top row, not a4"
    assert "top row" in refusal(state, "m7")
    assert state.legal_moves() == ["m2", "m3", "m4", "m5", "m6"]


# -- step 1: the pawn ------------------------------------------------------------


def test_the_pawn_must_move_in_a_straight_line():
    state = play(*START)
    assert refusal(state, "a3") == "the pawn must move: it is already on a3"
    assert refusal(state, "c4") == "c4 is not in a straight line from your pawn at a3"
    # any distance along one of the six directions, even into a corner
    assert play(*START, "k9").pawns["yellow"] == "k9"
    assert play(*START, "a1").pawns["yellow"] == "a1"
    destinations = {move.split()[0] for move in state.legal_moves()}
    assert {"a1", "a7", "b3", "b4", "i1", "k9"} <= destinations
    assert "c4" not in destinations


def test_the_pawn_passes_over_its_own_stones_but_never_stops_on_one():
    # Yellow puts a stone on c3, in the line of its pawn (b3 -> c3 -> d3 ...)
    state = play(*START, "b3 c3", "l4")
    assert refusal(state, "c3") == "the pawn cannot stop on your stone at c3 (it may pass over it)"
    assert "d3" in state.legal_moves() and "c3" not in state.legal_moves()
    assert state.play("d3").pawns["yellow"] == "d3"


def test_the_pawn_cannot_pass_over_an_opponent_stone():
    state = play(*START, "b3", "e2 e3")  # Cyan's stone on e3, in Yellow's line b3-c3-d3-e3-f3
    assert refusal(state, "f3") == "the pawn cannot pass over Cyan's stone at e3"
    assert refusal(state, "e3") == "the pawn cannot stop on Cyan's stone at e3"
    assert state.play("d3").pawns["yellow"] == "d3"
    assert not any(move.split()[0] in ("e3", "f3", "g3") for move in state.legal_moves())


def test_the_pawn_cannot_pass_over_or_stop_on_the_opponent_pawn():
    state = play(*START, "b3", "f3")  # Cyan's pawn on f3, in Yellow's line
    assert refusal(state, "g3") == "the pawn cannot pass over Cyan's pawn at f3"
    assert refusal(state, "f3") == "the pawn cannot stop on Cyan's pawn at f3"
    assert state.play("e3").pawns["yellow"] == "e3"


# -- step 2: the optional stone ----------------------------------------------------


def test_a_stone_goes_next_to_the_pawn_on_a_cell_next_to_no_stone():
    state = play(*START, "b3 c3", "l4")
    assert state.stone_at("c3") == "yellow"
    assert play(*START, "b3 c3").last_change.placed == ("b3", "c3")
    assert refusal(state, "b4 c4") == "c4 is next to a stone"
    assert refusal(state, "b4 d4") == (
        "the stone must go next to your pawn's new cell b4, and d4 is not"
    )
    assert refusal(state, "b2 c3") == "c3 already holds a stone"
    assert refusal(state, "b2 b2") == "the stone cannot go under your pawn on b2"
    assert "b4 c5" in state.legal_moves() and "b4 c4" not in state.legal_moves()


def test_a_stone_cannot_go_on_the_opponent_pawn_but_may_go_where_the_own_pawn_was():
    state = play(*START, "b3", "f3")
    assert refusal(state, "e3 f3") == "f3 holds Cyan's pawn"
    # the cell the pawn just left is empty: a stone may go there
    state = play(*START, "b3 a3")
    assert state.stone_at("a3") == "yellow" and state.pawns["yellow"] == "b3"


# -- control ------------------------------------------------------------------


def test_control_contested_territory_and_score():
    state = play(*START, "b3 c3", "e2 e3")
    #  e   . 2 C c . ...      Cyan's stone e3, its pawn on e2
    #  d    . c * y . ...     d3 touches both stones: contested
    #  c     . y Y y . ...    Yellow's stone c3
    #  b      . y 1 y ...     Yellow's pawn on b3 (pawns play no part)
    assert state.control("c3") == "yellow"  # a stone
    assert state.control("c2") == "yellow"  # next to Yellow's stones only
    assert state.control("d2") == "cyan"
    assert state.control("d3") == "contested"
    assert state.control("b3") == "yellow"  # under Yellow's pawn
    assert state.control("e2") == "cyan"  # under Cyan's pawn
    assert state.control("m1") is None  # unexplored
    # c3 and its neighbours except the contested d3; e3 likewise
    assert state.territory("yellow") == 6 and state.territory("cyan") == 6
    assert state.score("yellow") == 6 and state.score("cyan") == 9.5
    with pytest.raises(ValueError):
        state.control("z9")
    with pytest.raises(ValueError, match="yellow and cyan"):
        state.score("green")


def test_states_are_immutable_and_copy_as_their_record():
    state = play(*START, "b3 c3")
    with pytest.raises(AttributeError):
        state.history = ()
    for clone in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert clone.history == state.history and clone.stone_at("c3") == "yellow"


# -- step 3: captures and bonuses ----------------------------------------------------

#: Yellow's stone b3, then Cyan's pawn goes to d1 while Yellow's waits on b5.
CORNER = (*START, "b4 b3", "d1", "b5")


def test_a_bonus_stone_fills_an_unexplored_cell_surrounded_by_one_player():
    # Yellow's stones b3 and c2 make a2, b1, b2 Yellow's: the corner a1, next
    # to no stone, gets a Yellow stone at once. (The pawn also passes over b3.)
    state = play(*START, "b4 b3", "m5", "b2 c2")
    #  c     y Y y y . ...
    #  b      y 1 Y y . ...
    #  a       Y y y . ...
    assert state.stone_at("a1") == "yellow"
    assert state.last_change.added == ("a1",)
    assert state.last_change.placed == ("b2", "c2")
    assert state.deferred_bonuses == ()


def test_a_stone_whose_neighbours_are_all_contested_is_captured():
    state = play(*CORNER, "b1 a1")
    assert state.stone_at("a1") == "cyan" and state.control("b2") == "contested"
    state = state.play("b2 c2")
    # a1's neighbours a2, b1, b2 all touch Yellow and Cyan stones: a1 flips
    assert state.stone_at("a1") == "yellow"
    assert state.last_change.flipped == ("a1",)
    assert state.control("b1") == "yellow"


def test_a_stone_placed_among_contested_cells_is_captured_in_the_next_turn():
    # Yellow's b3 and b6, Cyan's c5: the edge cell a4 is next to no stone, and
    # its neighbours a3, a5 are Yellow's, b4, b5 contested. Cyan puts a stone
    # there anyway: it is surrounded by contested cells at once, but only the
    # player to move captures, and only the opponent's stones.
    state = play(*START, "a2 b3", "d1", "a7", "d5 c5", "a5 b6", "b5 a4")
    #  c     . . y * C * y . .
    #  b      . y Y * 2 Y y .
    #  a       . y * C 1 y .
    assert state.stone_at("a4") == "cyan" and state.last_change.flipped == ()
    assert {state.control(cell) for cell in ("a3", "a5", "b4", "b5")} == {"contested"}
    # Yellow captures it with a bare pawn move: the turn need not cause it
    state = state.play("a6")
    assert state.last_change.flipped == ("a4",)
    assert state.stone_at("a4") == "yellow"
    assert state.control("a3") == "yellow" and state.control("b4") == "contested"


def test_a_capture_can_give_a_bonus_in_the_same_turn():
    # Cyan's c9 on the right edge; Yellow's b7 and e7 around it; Yellow's e10
    # contests d9 and d10, c9 flips, and then d8 (next to no stone) has only
    # Yellow's cells around it and gets a Yellow stone.
    state = play(*START, "a4", "d10 c9", "a6 b7", "d1", "d6 e7", "a1")
    assert state.control("d9") == "cyan" and state.control("d8") is None
    state = state.play("d9 e10")
    #  e   . . . . . y Y y y Y y
    #  d    . . . . . y y Y 1 y
    #  c     . . . . . . y y Y
    #  b      . . . . . y Y y
    assert state.last_change.flipped == ("c9",)
    assert state.last_change.added == ("d8",)
    assert state.stone_at("c9") == state.stone_at("d8") == "yellow"


def test_a_bonus_under_the_opponent_pawn_is_deferred_until_it_leaves():
    state = play(*CORNER, "a1", "b2 c2")  # Cyan's pawn sits on the corner a1
    assert state.deferred_bonuses == (("a1", "yellow"),)
    assert state.last_change.added == ()
    # not a stone yet: a1 is still unexplored and counts for nobody
    assert state.stone_at("a1") is None and state.control("a1") is None
    # b3, c2 and their ten neighbours; not a1
    assert state.territory("yellow") == 12 and not state.is_over
    # Cyan must move; the Yellow stone lands as the pawn leaves, before Cyan's
    # own placement, so Cyan cannot put a stone on the cell it just left
    assert refusal(state, "a2 a1") == (
        "a1 receives Yellow's deferred bonus stone as your pawn leaves"
    )
    assert "b1 a1" not in state.legal_moves()
    after = state.play("b1")
    assert after.stone_at("a1") == "yellow"
    assert after.last_change.added == ("a1",) and after.last_change.placed == ("b1",)
    assert after.deferred_bonuses == ()
    assert after.territory("yellow") == 13


# -- passing ---------------------------------------------------------------------

#: Cyan's stones on b1 and a2 (its pawn passing over b1 on the way), then
#: Yellow's pawn walks into the corner a1 and Cyan's pawn closes b2.
BLOCKED = (*START, "a5", "d1", "a6", "c1 b1", "a5", "a1 a2", "e5", "d1", "d4", "d2", "a1", "b2")


def test_a_pawn_that_cannot_move_passes():
    state = play(*BLOCKED)
    #  c     c c . . ...
    #  b      C 2 c . ...
    #  a       1 C c . ...
    assert state.color_to_move == "yellow" and not state.is_over
    assert state.legal_moves() == ["pass"]
    assert state.prompt == "your pawn cannot move: pass"
    assert refusal(state, "b3") == "your pawn cannot move: your only move is pass"
    after = state.play("PASS")
    assert after.history[-1] == "pass" and after.color_to_move == "cyan"
    assert stones(after) == stones(state) and after.pawns == state.pawns
    assert after.last_change == rules.NO_CHANGE
    # Cyan moves on, and Yellow's pawn is free again
    assert "b2" in after.play("b5").legal_moves()


def test_pass_is_refused_while_the_pawn_can_move():
    state = play(*START)
    assert refusal(state, "pass") == "you can pass only when your pawn cannot move"
    assert "pass" not in state.legal_moves()


# -- the end -----------------------------------------------------------------------

#: Short complete games found by a seeded random search (every cell explored).
KOMI_DECIDES = [
    "a4",
    "m6",
    "j10 i10",
    "m5 l5",
    "d7 e7",
    "h5 g5",
    "c7 c6",
    "h2 i2",
    "c4 c3",
    "f3 f2",
    "c1 d1",
    "f1 g1",
    "c7 c8",
    "f12 g12",
    "f7 g8",
    "f9 g10",
    "e6 f6",
    "k5 j6",
    "i8 j8",
    "j5 j4",
    "l8 m7",
    "d2 e3",
    "a2 a1",
    "h5 h6",
    "a3 a4",
    "k2 l1",
    "a6 a7",
    "m2 m3",
    "d9 e10",
]
YELLOW_WINS = [
    "a3",
    "m2",
    "c3 d3",
    "l3 l4",
    "h7 i6",
    "i3 i4",
    "h8 g9",
    "e5 d5",
    "c9 d9",
    "j7 i8",
    "c6 b5",
    "h7 g7",
    "f6 f5",
    "h10 i10",
    "b6 b7",
    "f11 g12",
    "b2 b1",
    "k7 l6",
    "e2 f3",
    "f11 e11",
    "e8 e7",
    "j8 k8",
    "l3 l2",
    "c4 b3",
    "f2 f1",
    "i2 h2",
    "f9 f10",
    "k2 j2",
]


def counted(state, color: str) -> int:
    """Cells ``color`` controls, counted from the stones alone."""
    total = 0
    board = state.board
    for cell in board.cells:
        if state.stone_at(cell):
            total += state.stone_at(cell) == color
            continue
        around = {state.stone_at(board.name(n)) for n in board.neighbours[board.index(cell)]}
        total += around - {None} == {color}
    return total


def test_the_game_ends_when_every_cell_is_explored_and_komi_can_decide_it():
    before = play(*KOMI_DECIDES[:-1])
    assert not before.is_over
    assert [c for c in before.board.cells if before.control(c) is None]  # some left
    final = before.play(KOMI_DECIDES[-1])
    assert final.is_over and final.to_move is None
    assert all(final.control(cell) is not None for cell in final.board.cells)
    assert final.territory("yellow") == counted(final, "yellow") == 58
    assert final.territory("cyan") == counted(final, "cyan") == 55
    assert final.score("cyan") == 55 + KOMI
    assert final.winner == 1
    assert final.result == "Cyan wins 58.5 to 58"
    assert final.outcome.termination is Termination.SCORE
    assert final.legal_moves() == [] and final.prompt == ""
    assert refusal(final, "a1") == "the game is over"


def test_a_yellow_win_is_reported_with_cyan_komi():
    final = play(*YELLOW_WINS)
    assert final.is_over and final.winner == 0
    assert final.result == "Yellow wins 57 to 53.5"
    assert final.territory("cyan") == counted(final, "cyan") == 50


# -- whole games ----------------------------------------------------------------------


def random_states(size: int, seed: int):
    rng = random.Random(seed)
    state = GAME.new(size=size)
    states = [state]
    while not state.is_over:
        assert state.ply < 2000, "random game did not end"
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize("size", [7, 8])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_finish_with_a_winner(size, seed):
    final = random_states(size, seed)[-1]
    assert final.is_over and final.result
    yellow, cyan = final.score("yellow"), final.score("cyan")
    assert final.winner == (0 if yellow > cyan else 1)
    assert all(final.control(cell) is not None for cell in final.board.cells)


def qualifies(state, cell: str) -> str | None:
    """The player a bonus on ``cell`` would go to, ignoring pawns."""
    board = state.board
    if state.control(cell) is not None:
        return None
    owners = {state.control(board.name(n)) for n in board.neighbours[board.index(cell)]}
    return owners.pop() if len(owners) == 1 and owners <= {"yellow", "cyan"} else None


@pytest.mark.parametrize("seed", range(4))
def test_resolution_leaves_a_stable_board(seed):
    """After every turn: no two stones touch, the mover has captured all it can,
    every bonus is given or deferred under the opponent's pawn, and (as the
    module docstring argues) a bonus never waits under its owner's own pawn."""
    for state in random_states(7, seed)[3:]:
        board = state.board
        mover = "cyan" if state.ply % 2 == 0 else "yellow"  # who just moved
        for cell in board.cells:
            near = [board.name(n) for n in board.neighbours[board.index(cell)]]
            if state.stone_at(cell):
                assert not any(state.stone_at(n) for n in near)
            if state.stone_at(cell) not in (None, mover):
                assert not all(state.control(n) == "contested" for n in near)
            owner = qualifies(state, cell)
            if owner:
                assert state.pawn_at(cell) not in (None, owner)
                assert (cell, owner) in state.deferred_bonuses
        for cell, _ in state.deferred_bonuses:
            assert state.pawn_at(cell) == state.color_to_move
            assert state.legal_moves() != ["pass"]


def test_legal_moves_are_exactly_the_moves_play_accepts():
    states = random_states(7, 11)
    board = states[0].board
    for state in states[2 : len(states) - 1 : 9]:
        candidates = ["pass"]
        for i, cell in enumerate(board.cells):
            candidates.append(cell)
            candidates.extend(f"{cell} {board.name(n)}" for n in board.neighbours[i])
        accepted = {move for move in candidates if state.is_legal(move)}
        listed = state.legal_moves()
        assert set(listed) == accepted
        # placements first, then bare pawn moves, each by board order
        split = [" " in move for move in listed]
        assert split == sorted(split, reverse=True)
        key = [tuple(board.index(part) for part in move.split()) for move in listed]
        placing = [k for k in key if len(k) == 2]
        assert placing == sorted(placing)


def test_malformed_moves_are_refused_politely():
    state = play(*START)
    for text in ("", "b3 c3 d3", "pass b3", "b3 pass"):
        assert "a move is a cell for your pawn" in refusal(state, text)
    assert "not a cell name" in refusal(state, "hello")
    assert "off the board" in refusal(state, "b3 z9")
    assert state.history == START  # nothing changed


def test_no_bonus_under_the_owner_pawn_and_a_deferral_under_the_opponent_pawn():
    """The one ruling no game can reach (see the module docstring: a bonus never
    waits under its owner's pawn), so it is checked on the resolution step
    itself: Yellow's stones b3 and c2 surround the corner a1."""
    board = GAME.new(size=7).board
    a1, m4 = board.index("a1"), board.index("m4")
    for pawns, stone, deferred in [
        ((m4, None), 0, {}),  # no pawn on a1: Yellow's bonus stone
        ((a1, m4), -1, {}),  # Yellow's own pawn on a1: nothing, not even deferred
        ((m4, a1), -1, {a1: 0}),  # Cyan's pawn on a1: deferred for Yellow
    ]:
        stones = [-1] * len(board)
        stones[board.index("b3")] = stones[board.index("c2")] = 0
        waiting: dict[int, int] = {}
        _resolve(7, stones, 1, pawns, waiting, [])
        assert (stones[a1], waiting) == (stone, deferred)
