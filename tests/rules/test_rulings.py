"""An independent review of the four engines against shared/rules/*.md: one test
per rule or ruling that the game's own test file leaves unchecked, each built
by playing moves.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules import IllegalMove

LIFELINE = rules.get_game("lifeline")
ASLI = rules.get_game("asli")
SLIGLUBE = rules.get_game("sliglube")
ASTRALIS = rules.get_game("astralis")

MARKS = {None: ".", "black": "X", "white": "O", "yellow": "Y", "cyan": "C"}


def show(state) -> str:
    """A hexhex board as text, top row first (X/Y first colour, O/C second)."""
    board = state.board
    lines = []
    for r in reversed(range(len(board.rows))):
        pad = " " * abs(r - (board.size - 1))
        cells = " ".join(MARKS[state.stone_at(board.cells[i])] for i in board.rows[r])
        lines.append(f"{board.row_labels[r]} {pad}{cells}")
    return "\n".join(lines)


def refusal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return str(caught.value)


def stones(state, colour: str) -> set[str]:
    return {cell for cell in state.board.cells if state.stone_at(cell) == colour}


# -- notation, every game ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "before", "typed", "canonical"),
    [
        (LIFELINE, {"size": 7}, [], "G10, g8", "g8 g10"),  # board order, not text order
        (LIFELINE, {"size": 7}, [], "  E5 ,,C3 ", "c3 e5"),
        (LIFELINE, {"size": 7}, ["c3 e5"], "SWAP", "swap"),
        (LIFELINE, {"size": 4, "opening": "komi-pie"}, [], "Komi,05", "komi 5"),
        (LIFELINE, {"size": 4, "opening": "komi-pie"}, ["komi 5"], " White ", "white"),
        (
            LIFELINE,
            {"size": 4, "opening": "komi-pie"},
            ["komi 5", "white", "a1", "g4", "a4", "g1", "d4"],
            "PASS",
            "pass",
        ),
        (ASLI, {"size": 5}, [], "KOMI 003", "komi 3"),
        (ASLI, {"size": 5}, ["komi 3"], "Black", "black"),
        (ASLI, {"size": 5}, ["komi 3", "black"], " C3,", "c3"),
        (ASLI, {"size": 5}, ["komi 3", "black", "c3"], "Hold", "hold"),
        (SLIGLUBE, {"size": 5}, [], " D4 ", "d4"),
        (SLIGLUBE, {"size": 5}, ["d4"], "WHITE", "white"),
        (ASTRALIS, {"size": 7}, [], "A3", "a3"),
        (ASTRALIS, {"size": 7}, ["a3", "m4"], "D3,E3", "d3 e3"),
    ],
)
def test_moves_are_read_in_any_case_with_commas_and_stored_canonically(
    game, options, before, typed, canonical
):
    state = game.replay(before, **options)
    after = state.play(typed)
    assert after.history[-1] == canonical
    assert canonical in state.legal_moves()
    assert state.is_legal(typed)


def test_noflip_is_read_in_any_case_and_stored_canonically():
    # The size-7 position of test_sliglube's TWO_RINGS, where e7 noflip is legal.
    moves = [
        "c3",
        "white",
        "c4",
        "d6",
        "d3",
        "e8",
        "d5",
        "a7",
        "e4",
        "a1",
        "e5",
        "a2",
        "c6",
        "a3",
        "c7",
        "a5",
        "d8",
        "a6",
    ]
    state = SLIGLUBE.replay(moves, size=7)
    assert state.play(" E7,NoFlip").history[-1] == "e7 noflip"


# -- Lifeline ------------------------------------------------------------------------------


def region_has_colour(state, cell: str, colour: str) -> bool:
    """Whether the empty region of ``cell`` touches a stone of ``colour``."""
    board = state.board
    start = board.index(cell)
    seen, todo = {start}, [start]
    while todo:
        for n in board.neighbours[todo.pop()]:
            stone = state.stone_at(board.cells[n])
            if stone == colour:
                return True
            if stone is None and n not in seen:
                seen.add(n)
                todo.append(n)
    return False


def test_lifeline_ruling_where_to_place():
    """ "Any empty cell, as the seed says ... such a placement is legal when it
    changes the board (it can only do so by killing enemy groups)". A player
    without stones places anywhere (White's first weak-pie stone); a player with
    stones, placing in a region that touches only enemy stones, never changes the
    board once removal is on (every group is alive at the start of a turn), so
    that placement is refused, as changing nothing, on every turn of a game."""
    weak = LIFELINE.new(size=3, opening="weak-pie").play("c3")
    assert weak.legal_moves() == ["swap", *(c for c in weak.board.cells if c != "c3")]
    rng = random.Random(7)
    state = LIFELINE.new(size=3)
    checked = 0
    while not state.is_over:
        mover = state.color_to_move
        if state.ply >= 2 and stones(state, mover):
            for cell in state.board.cells:
                if state.stone_at(cell) is None and not region_has_colour(state, cell, mover):
                    assert refusal(state, cell).startswith("that placement changes nothing"), (
                        cell,
                        show(state),
                    )
                    checked += 1
        state = state.play(rng.choice(state.legal_moves()))
    assert checked > 0


def test_lifeline_komi_pie_white_without_stones_loses_with_komi_left():
    """The no-stones ruling ("once both players have completed their first turn,
    the game ends as soon as a turn leaves a player without stones") wins over the
    komi pie's "White may, on any turn, spend one point of komi". White's
    fourth-stone c3 joins d3 into White's only group, which dies (legal: the board
    changes); the turn leaves White, with nine komi left, without stones: lost."""
    state = LIFELINE.replay(["komi 9", "black", "d1", "d3", "a2"], size=3, opening="komi-pie")
    assert not state.is_over
    final = state.play("c3")
    assert final.last_change.removed == (("c3", "white"), ("d3", "white")), show(final)
    assert stones(final, "white") == set() and final.komi_left == 9
    assert final.color_of(0) == "white"
    assert final.is_over and final.winner == 1
    assert final.result == "Black wins: White has no stones left"
    assert final.legal_moves() == [] and final.prompt == ""


def test_lifeline_two_stone_turns_list_cells_in_board_order():
    state = LIFELINE.new(size=7)
    moves = state.legal_moves()
    assert "g8 g10" in moves and "g10 g8" not in moves and "g9 g10" not in moves
    assert "a1 m7" in moves and "m7 a1" not in moves


def test_lifeline_colour_word_refusal_does_not_invent_a_swap():
    for state in (
        LIFELINE.new(size=4),
        LIFELINE.new(size=4).play("a1 c3"),
        LIFELINE.new(size=4, opening="weak-pie"),
    ):
        message = refusal(state, "black")
        assert message.startswith(f"there is no choice of colour in the {state.opening}")
        assert "by the swap" not in message and "already decided" not in message


# -- Asli ---------------------------------------------------------------------------------


def test_asli_empty_move_says_what_to_do_now():
    start = ASLI.new(size=5)
    assert "komi" in refusal(start, "  ")
    assert "black or white" in refusal(start.play("komi 2"), "")


def test_asli_komi_holds_belong_to_white_whoever_chose_it():
    """ "the first player (seat 0) puts K black stones in the prison ... they give
    White K Holds": when seat 0 ends up White, seat 0 holds."""
    state = ASLI.replay(["komi 2", "black", "c3"], size=5)
    assert (state.color_of(0), state.to_move) == ("white", 0)
    assert state.legal_moves()[0] == "hold"
    held = state.play("hold")
    assert (held.prison_color, held.prison_count, held.to_move) == ("black", 1, 1)
    assert refusal(held, "hold") == "there is no enemy stone in the prison to hold"


# -- Sliglube -------------------------------------------------------------------------------

#: Size 5, a seeded random game. Black to move; rows b–d hold, among others, the
#: ring b4 b5 b6 c7 d7 d6 d5 c4 (d5 empty) and the longer one through b3, d4, c3.
#:   d  . . . X . O O X
#:   c   . . O X . . O
#:   b    . . O O X X
#:   a     . . X . .
CROWDED = [
    "h5",
    "white",
    "g6",
    "i3",
    "e1",
    "a3",
    "c7",
    "f1",
    "e9",
    "e3",
    "i4",
    "d4",
    "f3",
    "d8",
    "g4",
    "c4",
    "f8",
    "b5",
    "d6",
    "b6",
    "b3",
    "i2",
    "d7",
    "h3",
    "c3",
    "e7",
    "b4",
]
EIGHT = ("b4", "b5", "b6", "c7", "d7", "d6", "d5", "c4")
TEN = ("b3", "b4", "b5", "b6", "c7", "d7", "d6", "d5", "d4", "c3")


def test_sliglube_every_controlled_new_loop_flips_at_once():
    """Step 2: "for every new loop that you control, flip its enemy stones (all
    such loops at once)". White's d5 closes two loops it controls, the ring of
    eight (5 of 8) and the ring of ten (7 of 10); c4 lies only on the first, d4
    only on the second, and both turn white."""
    state = SLIGLUBE.replay([*CROWDED, "b1"], size=5)
    assert state.color_to_move == "white" and state.loops() == (), show(state)
    after = state.play("d5")
    assert set(after.last_change.flipped) == {"b5", "b6", "c4", "d4"}, show(after)
    assert after.last_change.removed == ()
    assert set(after.loops()) == {EIGHT, TEN}
    for loop in (EIGHT, TEN):
        assert {after.stone_at(cell) for cell in loop} == {"white"}


def test_sliglube_the_final_check_is_made_after_flips_and_removals():
    """Black's d5 closes the ring of eight (4 of 8: both control it) and the ring
    of ten (4 of 10: White's). Flipping the eight removes Black's d4, which breaks
    the ten, so at the end of the turn d5 is in no loop of White's: legal. The
    removal takes a stone that was part of a loop, so flipping is optional, but
    ``d5 noflip`` leaves d5 in White's ring of ten: illegal."""
    state = SLIGLUBE.replay(CROWDED, size=5)
    assert state.color_to_move == "black", show(state)
    after = state.play("d5")
    assert set(after.last_change.flipped) == {"b4", "c7", "d6", "d7"}
    assert set(after.last_change.removed) == {
        ("a3", "black"),
        ("d4", "black"),
        ("d8", "black"),
        ("e7", "black"),
    }
    assert after.loops() == (EIGHT,)
    assert after.loop_controllers(EIGHT) == frozenset({"black"})
    assert refusal(state, "d5 noflip") == "d5 would be part of a loop your opponent controls"
    assert "d5" in state.legal_moves() and "d5 noflip" not in state.legal_moves()


# -- Astralis -------------------------------------------------------------------------------


def test_astralis_ruling_no_limit_on_the_number_of_stones():
    """ "There is no limit on the number of stones (the physical 30 per player is a
    component count, not a rule)": Yellow always places, Cyan only moves its pawn;
    Yellow's 31st stone is a legal placement and the game goes on."""
    state = ASTRALIS.replay(["a3", "m4"], size=7)
    while len(stones(state, "yellow")) < 30:
        assert not state.is_over
        moves = state.legal_moves()
        state = state.play(moves[0] if state.color_to_move == "yellow" else moves[-1])
    if state.color_to_move == "cyan":
        state = state.play(state.legal_moves()[-1])
    placing = [move for move in state.legal_moves() if " " in move]
    assert placing and len(stones(state, "yellow")) == 30, str(state)
    after = state.play(placing[0])
    assert len(stones(after, "yellow")) >= 31 and not after.is_over


# -- end conditions: draws only in Asli ---------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (LIFELINE, {"size": 3}),
        (LIFELINE, {"size": 3, "opening": "weak-pie"}),
        (SLIGLUBE, {"size": 5}),
        (ASTRALIS, {"size": 7}),
    ],
)
def test_only_asli_can_draw(game, options):
    rng = random.Random(5)
    state = game.new(**options)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assert state.winner in (0, 1)
    assert state.result.startswith(state.color_of(state.winner).capitalize() + " wins")
    assert state.to_move is None and state.prompt == "" and state.legal_moves() == []
