"""Sliglube rules, one test per rule and ruling, each position reached by playing.

The ring used most on size 5 surrounds c3: b2 b3 c4 d4 d3 c2.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalMove, Termination, sliglube
from rules.sliglube_loops import HexGrid, all_loops

GAME = rules.get_game("sliglube")

#: Black opens b2, the second player takes White; White then builds the c3 ring
#: with a stone inside it (c3) and one outside next to it (b1), Black adds d4
#: to the ring and otherwise plays far away on the top rows.
RING_WITH_EXTRAS = ["b2", "white", "b3", "d4", "c3", "h2", "c4", "h4", "b1", "h1", "d3", "g1"]


def play(moves: list[str], size: int = 5):
    return GAME.replay(moves, size=size)


def refusal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return str(caught.value)


def test_registration_options_and_help():
    assert GAME.name == "sliglube" and GAME.title == "Sliglube"
    assert GAME.colors == ("black", "white")
    (size,) = GAME.options()
    assert (size.name, size.kind, size.default, size.minimum, size.maximum) == (
        "size",
        int,
        6,
        5,
        7,
    )
    assert len(GAME.new().board) == 91
    for bad in (4, 8):
        with pytest.raises(rules.OptionError):
            GAME.new(size=bad)
    assert "noflip" in GAME.summary
    assert "not implemented" in GAME.summary and "remove" in GAME.summary


def test_pie_opening_second_player_takes_white_and_moves_next():
    start = GAME.new(size=5)
    assert start.prompt == "place the first black stone"
    assert start.to_move == 0 and start.color_of(0) is None and start.color_of(1) is None
    assert "d4 noflip" not in start.legal_moves() and len(start.legal_moves()) == 61
    opened = start.play("D4")
    assert opened.stone_at("d4") == "black" and opened.last_change.placed == ("d4",)
    assert opened.to_move == 1 and opened.color_of(0) is None
    assert opened.prompt == "choose your colour: black or white"
    assert opened.legal_moves() == ["black", "white"]
    assert "choose your colour" in refusal(opened, "c3")
    chosen = opened.play("white")
    assert (chosen.color_of(0), chosen.color_of(1)) == ("black", "white")
    assert chosen.seat_of("white") == 1
    # the opening stone was Black's move: White (the second player again) moves
    assert chosen.to_move == 1 and chosen.color_to_move == "white"
    assert chosen.prompt == "place a stone"
    assert chosen.play("c3").to_move == 0


def test_pie_opening_second_player_takes_black():
    chosen = play(["d4", "black"])
    assert (chosen.color_of(0), chosen.color_of(1)) == ("white", "black")
    assert chosen.to_move == 0 and chosen.color_to_move == "white"
    after = chosen.play("a1")
    assert after.stone_at("a1") == "white" and after.to_move == 1
    assert "already chosen" in refusal(after, "white")


def test_first_stone_cannot_be_noflip():
    assert "noflip" in refusal(GAME.new(size=5), "d4 noflip")


def test_occupied_and_malformed_moves_are_refused_politely():
    state = play(["d4", "white"])
    assert refusal(state, "d4") == "d4 is occupied"
    assert "not a move" in refusal(state, "c3 flip")
    assert "off the board" in refusal(state, "z9")


def test_a_ring_of_six_becomes_a_loop_flips_and_removes():
    """White closes the c3 ring holding four of its six stones: it controls the
    new loop, so Black's b2 and d4 turn white, and White's own stones next to
    the loop and not in it (c3 inside, b1 outside) leave the board."""
    before = play(RING_WITH_EXTRAS)
    assert before.loops() == ()
    after = before.play("c2")
    assert after.loops() == (("b2", "b3", "c4", "d4", "d3", "c2"),)
    assert after.last_change.placed == ("c2",)
    assert after.last_change.flipped == ("b2", "d4")
    assert after.last_change.removed == (("b1", "white"), ("c3", "white"))
    assert [after.stone_at(c) for c in ("b2", "b3", "c4", "d4", "d3", "c2")] == ["white"] * 6
    assert after.stone_at("c3") is None and after.stone_at("b1") is None
    assert after.loop_controllers(after.loops()[0]) == frozenset({"white"})
    assert after.loop_stones() == frozenset({"b2", "b3", "c4", "d4", "d3", "c2"})
    assert after.loop_links() == frozenset(
        {("b2", "b3"), ("b3", "c4"), ("c4", "d4"), ("d3", "d4"), ("c2", "d3"), ("b2", "c2")}
    )
    assert before.loop_links() == frozenset() and before.loop_stones() == frozenset()


def test_no_placement_next_to_a_loop_you_control():
    """Inside or outside the ring, White may not play next to its own loop;
    Black, who does not control it, may."""
    black_to_move = play([*RING_WITH_EXTRAS, "c2"])
    assert black_to_move.color_to_move == "black"
    assert black_to_move.is_legal("c3") and black_to_move.is_legal("e5")
    white_to_move = black_to_move.play("g3")
    assert refusal(white_to_move, "c3") == "c3 is next to a loop you control"
    assert refusal(white_to_move, "e5") == "e5 is next to a loop you control"
    assert refusal(white_to_move, "a1 noflip") == "a1 is next to a loop you control"
    moves = white_to_move.legal_moves()
    assert "c3" not in moves and "a1" not in moves and "e6" in moves


def test_placed_stone_may_not_end_in_a_loop_the_opponent_controls():
    """Black closing a ring where White holds four stones makes a loop Black
    does not control: nothing flips and the placement is refused."""
    state = play(["b2", "white", "b3", "h2", "c4", "h4", "d3", "h1", "c2"])
    assert state.color_to_move == "black"
    assert refusal(state, "d4") == "d4 would be part of a loop your opponent controls"
    assert "d4" not in state.legal_moves()


def test_exactly_half_is_control_for_the_player_closing_the_ring():
    """Three black and three white: Black, closing it, controls it and flips."""
    after = play(["b2", "white", "b3", "c4", "d4", "h1", "d3", "c2"])
    assert after.last_change.flipped == ("b3", "d3", "d4")
    assert after.loops() == (("b2", "b3", "c4", "d4", "d3", "c2"),)
    assert after.loop_controllers(after.loops()[0]) == frozenset({"black"})


#: Size 7. White closes the d4 ring (c3 c4 d5 e5 e4 d3) and flips Black's
#: opening stone c3; Black holds d6 (next to the ring's d5) and e8 of the d7
#: ring (c6 c7 d8 e8 e7 d6), White c6 c7 d8. Black's other stones are on row a.
TWO_RINGS = [
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


def test_noflip_is_legal_when_flipping_would_remove_a_stone_of_a_loop():
    """White closing the d7 ring would remove d5, next to the new loop and
    part of White's d4 loop: flipping is optional. ``e7`` flips and removes,
    ``e7 noflip`` leaves both loops and their colours as they are."""
    state = play(TWO_RINGS, size=7)
    assert state.loops() == (("c3", "c4", "d5", "e5", "e4", "d3"),)
    assert {"e7", "e7 noflip"} <= set(state.legal_moves())
    flipped = state.play("e7")
    assert flipped.last_change.flipped == ("d6", "e8")
    assert flipped.last_change.removed == (("d5", "white"),)
    assert flipped.loops() == (("c6", "c7", "d8", "e8", "e7", "d6"),)
    kept = state.play("e7 noflip")
    assert kept.history[-1] == "e7 noflip"
    assert kept.last_change.flipped == () and kept.last_change.removed == ()
    assert kept.stone_at("d6") == "black" and kept.stone_at("d5") == "white"
    assert kept.loops() == (
        ("c3", "c4", "d5", "e5", "e4", "d3"),
        ("c6", "c7", "d8", "e8", "e7", "d6"),
    )
    assert kept.loop_controllers(kept.loops()[1]) == frozenset({"white"})
    # two of each colour: both control
    assert kept.loop_controllers(["c6", "d6", "e8", "c7"]) == frozenset({"black", "white"})


def test_noflip_is_illegal_when_flipping_is_not_optional():
    before = play(RING_WITH_EXTRAS)
    # the removals here (b1, c3) are of stones on no loop
    assert refusal(before, "c2 noflip").startswith("c2 noflip: flipping is not optional here")
    assert "c2 noflip" not in before.legal_moves()
    # and with no loop at all
    assert "not optional" in refusal(play(["d4", "white"]), "a1 noflip")


def test_exactly_half_is_controlled_by_both_so_noflip_can_lose_it():
    """As above but Black holds three of the d7 ring: left unflipped, the new
    loop is half Black's, so Black controls it too and ``e7 noflip`` would
    leave e7 in a loop the opponent controls."""
    moves = [
        "c3",
        "white",
        "c4",
        "d6",
        "d3",
        "e8",
        "d5",
        "d8",
        "e4",
        "a1",
        "e5",
        "a2",
        "c6",
        "a3",
        "c7",
        "a5",
    ]
    state = play(moves, size=7)
    assert refusal(state, "e7 noflip") == "e7 would be part of a loop your opponent controls"
    assert state.play("e7").last_change.flipped == ("d6", "d8", "e8")


def test_loop_controllers_reads_any_cells_and_rejects_empty_ones():
    state = play(["b2", "white", "b3", "c4", "d4", "h1", "d3", "c2"])
    assert state.loop_controllers(["b2", "c4", "h1", "b3"]) == frozenset({"black"})
    with pytest.raises(ValueError):
        state.loop_controllers(["b2", "e5"])
    with pytest.raises(ValueError):
        state.loop_controllers(["zz1"])


def stalemate_game(size: int, seed: int):
    rng = random.Random(seed)
    state = GAME.new(size=size)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_the_player_without_a_legal_placement_wins():
    final = stalemate_game(5, seed=3)
    stuck = "white" if final.ply % 2 == 0 else "black"
    assert final.is_over and final.to_move is None and final.legal_moves() == []
    assert final.winner == final.seat_of(stuck)
    title = stuck.capitalize()
    assert final.result == f"{title} wins: {title} has no legal placement (stalemate wins)"
    assert final.outcome.termination is Termination.STALEMATE
    assert final.prompt == ""
    # every empty cell is refused, with its own reason
    for cell in final.board.cells:
        message = refusal(final, cell)
        assert "game is over" in message
        if final.stone_at(cell) is None:
            assert (
                "next to a loop you control" in message
                or "part of a loop your opponent controls" in message
            )
    # the position before was still a game: its mover had a placement
    before = GAME.replay(final.history[:-1], size=5)
    assert not before.is_over and final.last_move in before.legal_moves()


@pytest.mark.parametrize("size", [5, 6, 7])
def test_random_games_finish(size):
    final = stalemate_game(size, seed=size)
    assert final.is_over and final.result and final.winner in (0, 1)
    assert GAME.replay(final.history, size=size).result == final.result


def test_loop_links_and_stones_summarise_every_loop():
    """Along a random game, the links and stones reported without listing are
    exactly those of the listed loops."""
    state = GAME.new(size=5)
    order = {name: i for i, name in enumerate(state.board.cells)}
    rng = random.Random(11)
    seen = 0
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        rings = state.loops()
        links = set()
        for ring in rings:
            for a, b in zip(ring, (*ring[1:], ring[0]), strict=True):
                links.add((a, b) if order[a] < order[b] else (b, a))
        assert state.loop_links() == links
        assert state.loop_stones() == frozenset(cell for ring in rings for cell in ring)
        assert state.loops() is rings  # listed once per position
        seen += len(rings)
    assert seen > 0


def test_records_use_canonical_text():
    state = play(TWO_RINGS, size=7).play("  E7 ,NOFLIP ")
    assert state.history[:2] == ("c3", "white") and state.history[-1] == "e7 noflip"


def naive_moves(state) -> list[str]:
    """The legal placements by the plainest reading of the rules: list every
    loop of the board (with the loop module's plain enumeration, itself checked
    against brute force) before and after, with no shortcut."""
    grid = HexGrid.of(state.options["size"])
    board = state.board
    color = "white" if state.ply % 2 == 0 else "black"  # also once the game is over
    cells = {i: state.stone_at(name) for i, name in enumerate(board.cells)}

    def loops_of(stones: dict[int, str | None]) -> list[frozenset[int]]:
        mask = grid.mask(i for i, c in stones.items() if c)
        return [frozenset(grid.indices(loop)) for loop in all_loops(grid, mask)]

    def held_by(loop: frozenset[int], stones: dict[int, str | None], who: str) -> bool:
        return 2 * sum(stones[i] == who for i in loop) >= len(loop)

    def next_to(i: int, loop: frozenset[int]) -> bool:
        return i not in loop and any(n in loop for n in board.neighbours[i])

    other = "white" if color == "black" else "black"
    mine = [loop for loop in loops_of(cells) if held_by(loop, cells, color)]
    moves = []
    for c in range(len(board)):
        if cells[c] or any(next_to(c, loop) for loop in mine):
            continue
        placed = {**cells, c: color}
        after = loops_of(placed)
        new = [loop for loop in after if c in loop]
        ours = [loop for loop in new if held_by(loop, placed, color)]
        covered = set().union(*ours)
        removed = {
            i
            for i, s in placed.items()
            if s == color and i not in covered and any(next_to(i, loop) for loop in ours)
        }
        end = {
            i: (None if i in removed else color if i in covered else s) for i, s in placed.items()
        }
        if not any(c in loop and held_by(loop, end, other) for loop in loops_of(end)):
            moves.append(board.name(c))
        optional = any(i in loop for i in removed for loop in after)
        if optional and not any(held_by(loop, placed, other) for loop in new):
            moves.append(f"{board.name(c)} noflip")
    return moves


#: Positions with more stones on loops than this are left out of the comparison:
#: the naive reading lists every loop of the board once per cell, which takes
#: seconds a position where loops number in the thousands (late in some games).
NAIVE_LIMIT = 30


@given(data=st.data(), budget=st.sampled_from([sliglube._SEARCH_BUDGET, 0, 3]))
@settings(max_examples=8)
def test_legal_moves_match_a_naive_reading_of_the_rules(budget, data):
    """Also with the pruned searches cut short (3) or skipped (0), so that the
    state graph of rules.sliglube_loops decides every cell."""
    saved, sliglube._SEARCH_BUDGET = sliglube._SEARCH_BUDGET, budget
    try:
        play_against_naive_rules(data)
    finally:
        sliglube._SEARCH_BUDGET = saved


def play_against_naive_rules(data):
    state = GAME.new(size=5)
    while not state.is_over:
        moves = state.legal_moves()
        if state.ply >= 2 and len(state.loop_stones()) <= NAIVE_LIMIT:
            assert moves == naive_moves(state), state.history
        state = state.play(data.draw(st.sampled_from(moves)))
    assert naive_moves(state) == []
