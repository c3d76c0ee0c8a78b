"""Lifeline rules and rulings (shared/rules/lifeline.md), each shown on a
position reached by playing moves.

Base 3 board, as the cells are named:

        e1 e2 e3
      d1 d2 d3 d4
    c1 c2 c3 c4 c5
      b1 b2 b3 b4
        a1 a2 a3
"""

from __future__ import annotations

import itertools
import random

import pytest

import rules
from rules import NO_CHANGE, IllegalMove, Termination

GAME = rules.get_game("lifeline")


def show(state) -> str:
    """The board as text (X black, O white), top row first, for failure messages."""
    board = state.board
    lines = []
    for r in reversed(range(len(board.rows))):
        pad = " " * abs(r - (board.size - 1))
        marks = {None: ".", "black": "X", "white": "O"}
        stones = " ".join(marks[state.stone_at(board.cells[i])] for i in board.rows[r])
        lines.append(f"{board.row_labels[r]} {pad}{stones}")
    return "\n".join(lines)


def stones(state, colour: str) -> set[str]:
    return {cell for cell in state.board.cells if state.stone_at(cell) == colour}


def refusal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return str(caught.value)


def brute_force_moves(state) -> list[str]:
    """Every move text that play() accepts, found by trying them all."""
    specials = ["swap", "pass", "black", "white"]
    specials += [f"komi {k}" for k in range(len(state.board) + 1)]
    cells = state.board.cells
    tries = [*specials, *cells, *(f"{a} {b}" for a, b in itertools.combinations(cells, 2))]
    return [move for move in tries if state.is_legal(move)]


# -- the game and its options ----------------------------------------------------


def test_game_facts_and_options():
    assert (GAME.name, GAME.title, GAME.colors) == ("lifeline", "Lifeline", ("black", "white"))
    options = {option.name: option for option in GAME.options()}
    assert (options["size"].minimum, options["size"].maximum, options["size"].default) == (3, 12, 7)
    assert options["opening"].choices == ("strong-pie", "weak-pie", "komi-pie")
    assert options["opening"].default == "strong-pie"
    assert "swap" in GAME.summary and "komi" in GAME.summary
    state = GAME.new()
    assert len(state.board) == 127
    assert (state.opening, state.komi, state.komi_left) == ("strong-pie", None, None)
    assert (state.color_of(0), state.color_of(1), state.to_move) == ("black", "white", 0)
    assert state.prompt == "place two stones (e.g. c3 e5)"
    assert state.last_change == NO_CHANGE
    for bad in ({"size": 2}, {"size": 13}, {"opening": "pie"}):
        with pytest.raises(rules.OptionError):
            GAME.new(**bad)


def test_states_are_immutable():
    start = GAME.new(size=3)
    after = start.play("a1 c3")
    assert start.history == () and start.stone_at("a1") is None
    assert after.history == ("a1 c3",)
    with pytest.raises(AttributeError):
        after.history = ()


# -- groups, liveness, removal ---------------------------------------------------


def test_a_dead_enemy_group_is_captured():
    # White c1 sits in the corner between b1 and d1; Black c2 takes its last empty neighbour.
    state = GAME.replay(["c4 d1", "b4 e3", "b1", "c1", "c2"], size=3)
    assert state.stone_at("c1") is None, show(state)
    assert state.stone_at("c2") == "black"
    assert state.last_change.placed == ("c2",)
    assert state.last_change.removed == (("c1", "white"),)
    assert state.to_move == 1 and not state.is_over


def test_enemy_groups_are_removed_before_friendly_ones_are_judged():
    before = GAME.replay(["c2 e3", "a1 d3", "c4", "b4", "e1", "d4", "c1", "d2", "c5", "d1"], size=3)
    assert stones(before, "white") >= {"d1", "d2", "d3", "d4"}, show(before)
    # c3 fills row c: Black's row is walled in by White's row d (dead if judged now), but
    # White's row d loses its last link to b4 and a1 and dies first; its cells, once
    # empty, join Black's row to e1 and e3, so the new row lives.
    after = before.play("c3")
    assert {f"c{i}" for i in range(1, 6)} <= stones(after, "black"), show(after)
    assert sorted(after.last_change.removed) == [(f"d{i}", "white") for i in range(1, 5)]


def test_a_placement_that_kills_is_legal_even_if_its_stone_dies_too():
    before = GAME.replay(["a1 c2", "c1 c4", "d1", "a2"], size=3)
    assert "b1" in before.legal_moves()
    # b1 joins all of Black's stones into one group (dead: it is Black's only group) and
    # takes the last empty neighbour of White's c1 (dead), which goes first.
    after = before.play("b1")
    assert after.last_change.removed[0] == ("c1", "white")
    assert set(after.last_change.removed[1:]) == {
        ("a1", "black"),
        ("b1", "black"),
        ("c2", "black"),
        ("d1", "black"),
    }
    assert stones(after, "black") == set() and stones(after, "white") == {"a2", "c4"}


def test_a_placement_whose_only_effect_is_its_own_death_is_refused():
    state = GAME.replay(["c2 d4", "b4 d2", "d3", "c4", "e2"], size=3)
    # e3 is a corner whose three neighbours are all black: a white stone there dies alone.
    assert state.color_to_move == "white" and state.stone_at("e3") is None, show(state)
    assert "e3" not in state.legal_moves()
    assert refusal(state, "e3") == (
        "that placement changes nothing: your stone would only be removed again"
    )
    assert "c3" in state.legal_moves()


def test_black_first_stones_must_not_touch():
    state = GAME.new(size=3)
    message = refusal(state, "a1 a2")
    assert message.startswith("that placement changes nothing: your stones would only be")
    assert "single group" in message
    assert "a1 a2" not in state.legal_moves() and "a1 a3" in state.legal_moves()


# -- the strong pie --------------------------------------------------------------


def test_two_stone_first_turns_are_written_in_board_order():
    state = GAME.new(size=5)
    for sloppy in ("e5 c3", "C3,E5", "  e5 ,  c3 "):
        assert state.play(sloppy).history == ("c3 e5",)
    after = state.play("e5 c3")
    assert after.last_change.placed == ("c3", "e5")
    assert stones(after, "black") == {"c3", "e5"}
    assert refusal(state, "c3") == "place two stones on your first turn (e.g. c3 e5)"
    assert refusal(state, "c3 c3") == "place your two stones on two different cells"
    white = after.play("a1 b4")
    assert white.prompt == "place a stone" and white.color_to_move == "black"
    assert refusal(white, "a3 a5").startswith("place one stone per turn")


def test_swap_exchanges_colours_and_white_moves_again():
    state = GAME.new(size=3).play("a1 c3")
    assert state.prompt == "place two stones, or swap"
    assert state.legal_moves()[0] == "swap"
    swapped = state.play("swap")
    assert (swapped.color_of(0), swapped.color_of(1)) == ("white", "black")
    assert swapped.seat_of("black") == 1
    assert swapped.to_move == 0 and swapped.color_to_move == "white"
    assert stones(swapped, "black") == {"a1", "c3"} and stones(swapped, "white") == set()
    assert swapped.prompt == "place two stones (e.g. c3 e5)"
    assert swapped.last_change == NO_CHANGE
    # White's two-stone turn, now played by the first player; then the second plays Black.
    played = swapped.play("b4 e1")
    assert played.to_move == 1 and played.color_to_move == "black"
    assert stones(played, "white") == {"b4", "e1"}


def test_swap_only_on_whites_first_turn():
    start = GAME.new(size=3)
    assert "White" in refusal(start, "swap")
    swapped = start.play("a1 c3").play("swap")
    assert "swap" not in swapped.legal_moves()
    assert refusal(swapped, "swap").startswith("the colours have just been swapped")
    later = start.play("a1 c3").play("b4 e1")
    assert refusal(later, "swap") == "it is not your first turn: swap is no longer possible"
    assert refusal(later.play("c5"), "swap") == (
        "it is not your first turn: swap is no longer possible"
    )


# -- the weak pie ----------------------------------------------------------------


def test_weak_pie_removes_nothing_during_the_first_three_placements():
    state = GAME.new(size=4, opening="weak-pie")
    assert state.prompt == "place a stone"
    state = state.play("a2")
    assert state.prompt == "place a stone, or swap" and state.legal_moves()[0] == "swap"
    state = state.play("c6").play("a3")
    # Each colour has a single group, dead by definition, yet nothing was removed.
    assert stones(state, "black") == {"a2", "a3"} and stones(state, "white") == {"c6"}
    assert refusal(state, "swap") == "it is not your first turn: swap is no longer possible"
    # The fourth stone brings removal: Black's lone group goes, White's two stones live.
    state = state.play("f1")
    assert stones(state, "black") == set(), show(state)
    assert stones(state, "white") == {"c6", "f1"}
    assert state.result == "White wins: Black has no stones left"
    assert state.outcome.termination is Termination.NO_STONES


def test_weak_pie_swap_after_blacks_first_stone():
    state = GAME.new(size=4, opening="weak-pie").play("d4").play("swap")
    assert (state.color_of(0), state.to_move, state.prompt) == ("white", 0, "place a stone")
    state = state.play("a1")
    assert state.to_move == 1 and stones(state, "white") == {"a1"}


# -- the komi pie ----------------------------------------------------------------


def test_komi_pie_komi_then_colour_then_passes():
    state = GAME.new(size=4, opening="komi-pie")
    assert state.prompt == "choose the komi (komi N, 0–37)"
    assert state.legal_moves() == [f"komi {k}" for k in range(38)]
    assert (state.to_move, state.color_of(0), state.color_of(1)) == (0, None, None)
    state = state.play("KOMI  2")
    assert (state.komi, state.komi_left, state.to_move) == (2, 2, 1)
    assert state.prompt == "choose your colour: black or white (White gets 2 komi)"
    assert state.legal_moves() == ["black", "white"]
    state = state.play("black")
    assert (state.color_of(0), state.color_of(1), state.to_move) == ("white", "black", 1)
    for move in ("a1", "g4", "a4"):
        state = state.play(move)
        assert "pass" not in state.legal_moves()
    assert refusal(state, "pass").startswith("komi can be spent only after the first four")
    state = state.play("g1").play("d4")
    assert stones(state, "black") == {"a1", "a4", "d4"} and stones(state, "white") == {"g1", "g4"}
    assert state.color_to_move == "white"
    assert state.prompt == "place a stone, or pass (2 komi left)"
    assert state.legal_moves()[0] == "pass"
    passed = state.play("pass")
    assert (passed.komi_left, passed.komi, passed.color_to_move) == (1, 2, "black")
    assert passed.last_change == NO_CHANGE and stones(passed, "white") == {"g1", "g4"}
    assert refusal(passed, "pass").startswith("only White can pass")
    state = passed.play("b2").play("pass")
    assert state.komi_left == 0
    state = state.play("b4")
    assert "pass" not in state.legal_moves()
    assert refusal(state, "pass").startswith("you have no komi left to spend")
    assert state.prompt == "place a stone"


def test_komi_is_bounded_by_the_number_of_cells():
    state = GAME.new(size=3, opening="komi-pie")
    assert state.play("komi 19").komi == 19
    assert state.play("komi 0").komi_left == 0
    for bad in ("komi 20", "komi -1", "komi x", "komi", "komi 2 3"):
        assert refusal(state, bad).startswith("the komi must be a whole number from 0 to 19")
    assert "komi" in refusal(state, "c3")
    assert "komi" in refusal(state, "white")
    chosen = state.play("komi 3")
    assert refusal(chosen, "komi 4") == "the komi has already been chosen (3)"
    assert "colour" in refusal(chosen, "c3")
    assert refusal(chosen.play("white"), "black") == "the colours are already decided"


def test_komi_pie_has_no_swap_and_white_first_may_choose_to_be_white():
    state = GAME.replay(["komi 5", "white", "c3"], size=4, opening="komi-pie")
    assert (state.color_of(0), state.color_of(1), state.to_move) == ("black", "white", 1)
    assert "swap" not in state.legal_moves()
    assert refusal(state, "swap").startswith("there is no swap in the komi pie")


# -- the end -----------------------------------------------------------------------


def test_a_player_without_stones_after_the_first_turns_loses():
    # Black's c3 joins all its stones into one group, which dies: legal, as the board
    # changes. The turn leaves Black without stones, so the game ends there (the ruling
    # follows Board Game Arena and AbstractPlay: no pointless last move for White).
    before = GAME.replay(["c2 d3", "b4 e1"], size=3)
    assert not before.is_over
    state = before.play("c3")
    assert stones(state, "black") == set() and stones(state, "white")
    assert state.is_over and state.to_move is None
    assert state.winner == 1 and state.result == "White wins: Black has no stones left"
    assert state.legal_moves() == [] and state.prompt == ""
    assert refusal(state, "a1").startswith("the game is over: White wins")


def test_the_winner_is_a_seat_even_after_a_swap():
    # After the swap seat 0 plays White; Black (seat 1) kills its own stones.
    state = GAME.replay(["c2 d3", "swap", "b4 e1", "c3"], size=3)
    assert state.result == "White wins: Black has no stones left"
    assert state.winner == 0


def test_having_no_stones_is_normal_before_both_first_turns():
    swapped = GAME.new(size=3).play("a1 c3").play("swap")
    assert not swapped.is_over and stones(swapped, "white") == set()
    komi = GAME.replay(["komi 1", "black", "a1"], size=3, opening="komi-pie")
    assert not komi.is_over and komi.color_to_move == "white"


# -- legal moves and bad input ----------------------------------------------------


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"size": 3, "opening": "strong-pie"}, 1),
        ({"size": 3, "opening": "strong-pie"}, 2),
        ({"size": 3, "opening": "weak-pie"}, 3),
        ({"size": 3, "opening": "komi-pie"}, 4),
    ],
)
def test_legal_moves_are_exactly_the_moves_that_play(options, seed):
    rng = random.Random(seed)
    state = GAME.new(**options)
    checked = 0
    while not state.is_over:
        moves = state.legal_moves()
        if state.ply % 3 == 0 or state.ply < 3:
            assert moves == brute_force_moves(state), (state.history, show(state))
            checked += 1
        state = state.play("komi 2" if moves[0] == "komi 0" else rng.choice(moves))
    assert checked > 3


def test_legal_moves_of_whites_first_turn_beside_corner_stones():
    # Black's stones hug a corner, where cuts by four stones are possible.
    for opening in ("a2 b1", "a1 b3", "b1 d1", "a2 c1", "d1 e2"):
        state = GAME.new(size=3).play(opening)
        assert state.legal_moves() == brute_force_moves(state), opening
        swapped = state.play("swap")
        assert swapped.legal_moves() == brute_force_moves(swapped), opening


def test_bad_input_is_refused_with_a_reason():
    state = GAME.replay(["c3 e5", "a1 g4"], size=4)
    assert refusal(state, "e5") == "e5 is occupied"
    assert refusal(state, "z9").startswith("z9 is off the board")
    assert refusal(state, "a9").startswith("a9 is off the board")
    assert refusal(state, "hello") == "'hello' is not a move here: place a stone"
    assert refusal(state, "").startswith("the move is empty")
    assert refusal(state, "komi 3").startswith("there is no komi in the strong-pie")
    assert refusal(state, "black").startswith("there is no choice of colour in the strong-pie")
    assert refusal(state, "pass").startswith("there is no passing in the strong-pie")
    assert refusal(state, "swap now").startswith("'swap' takes nothing after it")
    assert refusal(state, "c3 c3 c3").startswith("'c3 c3 c3' is not a move here")
    with pytest.raises(ValueError):
        state.stone_at("z9")
    assert state.is_legal("B2") and not state.is_legal("e5")


def naive_turn(state, cell: str) -> dict[str, str]:
    """The board after ``state``'s player puts one stone on ``cell``, by a plain
    reading of the rules: remove dead enemy groups, then dead friendly ones."""
    board = state.board
    stones = {c: state.stone_at(c) for c in board.cells}
    stones[cell] = state.color_to_move

    def parts(colour):  # maximal connected sets of cells holding ``colour``
        seen, out = set(), []
        for start in board.cells:
            if stones[start] == colour and start not in seen:
                part, todo = {start}, [start]
                while todo:
                    here = todo.pop()
                    for n in board.neighbours[board.index(here)]:
                        other = board.cells[n]
                        if stones[other] == colour and other not in part:
                            part.add(other)
                            todo.append(other)
                seen |= part
                out.append(part)
        return out

    def touches(a, b):
        return any(board.cells[n] in b for c in a for n in board.neighbours[board.index(c)])

    for colour in ("white" if stones[cell] == "black" else "black", stones[cell]):
        groups, regions = parts(colour), parts(None)
        for group in groups:
            if not any(
                touches(region, group) and touches(region, other)
                for region in regions
                for other in groups
                if other is not group
            ):
                for c in group:
                    stones[c] = None
    return stones


@pytest.mark.parametrize(("size", "seed"), [(5, 1), (6, 2), (7, 3)])
def test_every_turn_of_a_random_game_removes_what_the_rules_remove(size, seed):
    """Long random games, each placement checked against a plain reading of the
    rules (the engine derives each position's groups from the last one's)."""
    rng = random.Random(seed)
    state = GAME.new(size=size)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        after = state.play(move)
        if " " not in move and move not in ("swap", "pass"):
            assert {c: after.stone_at(c) for c in state.board.cells} == naive_turn(state, move), (
                state.history,
                move,
                show(state),
            )
        state = after
    assert state.ply > 40
