"""Every diagram of the guides is a position the engine reaches by playing moves, and
each test here checks the fact its caption states on that position."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import rules
from bot.learning.guide import guide_for, guides
from rules import IllegalMove, State

FACTS: dict[tuple[str, str], Callable[[State], None]] = {}


def fact(game: str, key: str) -> Callable[[Callable[[State], None]], Callable[[State], None]]:
    def register(check: Callable[[State], None]) -> Callable[[State], None]:
        FACTS[game, key] = check
        return check

    return register


def diagram_state(game: str, key: str) -> State:
    guide = guide_for(game)
    diagram = guide.page(guide.number_of(key)).diagram
    assert diagram is not None
    return diagram.state(game)


def before(state: State) -> State:
    """The position one move earlier."""
    return state.game.replay(state.history[:-1], **state.options)


def removed(state: State) -> set[str]:
    return {cell for cell, _ in state.last_change.removed}


def empty(state: State) -> set[str]:
    return {cell for cell in state.board.cells if state.stone_at(cell) is None}


def placeable(state: State) -> set[str]:
    return {move.split()[0] for move in state.legal_moves() if move.split()[0] in state.board}


def refusal(state: State, move: str) -> str:
    with pytest.raises(IllegalMove) as error:
        state.play(move)
    return str(error.value)


# -- Lifeline ------------------------------------------------------------------------


@fact("lifeline", "goal")
def _(state: State) -> None:
    assert state.last_move == "f5" and state.last_change.placed == ("f5",)
    assert removed(state) == {"g4", "b4", "c5"}
    assert not any(state.stone_at(cell) == "white" for cell in state.board.cells)
    assert state.winner == state.seat_of("black")
    assert state.outcome is not None and state.outcome.termination is rules.Termination.NO_STONES


@fact("lifeline", "lifelines")
def _(state: State) -> None:
    assert state.last_move == "b2" and state.stone_at("b2") == "white"
    assert state.last_change.removed == (("a1", "black"),)
    assert not state.is_over


@fact("lifeline", "turn")
def _(state: State) -> None:
    assert state.last_move == "c2" and state.stone_at("c2") == "black"
    earlier = before(state)
    # c2 joins the black stones around it into a group whose only empty neighbours
    # (d2, a1) touch no other black group: no lifeline when placed
    assert {n for n in ("c1", "c3", "d2", "a1") if earlier.stone_at(n) is None} == {"d2", "a1"}
    assert earlier.stone_at("c1") == "white"
    assert {color for _, color in state.last_change.removed} == {"white"}
    assert removed(state) >= {"c1"}
    assert all(state.stone_at(cell) != "white" for cell in state.board.cells)
    assert state.winner == state.seat_of("black")


@fact("lifeline", "change")
def _(state: State) -> None:
    assert state.color_to_move == "white" and state.stone_at("a1") is None
    assert "a1" not in placeable(state)
    assert placeable(state) == empty(state) - {"a1"}  # a1 is the only cell refused
    refusal(state, "a1")
    # Black on a1 would be legal: it joins the group around it
    assert "a1" in placeable(state.game.replay(state.history[:-1], **state.options))


@fact("lifeline", "openings")
def _(state: State) -> None:
    assert state.color_to_move == "white" and "swap" in state.legal_moves()
    assert {state.stone_at("c2"), state.stone_at("e4")} == {"black"}
    assert any(len(move.split()) == 2 for move in state.legal_moves())  # two stones
    swapped = state.play("swap")
    assert swapped.color_of(0) == "white" and swapped.color_to_move == "white"


# -- Asli ------------------------------------------------------------------------------


@fact("asli", "goal")
def _(state: State) -> None:
    assert state.last_move == "e4" and removed(state) == {"e5", "a2"}
    assert state.is_over and state.winner == state.seat_of("white")
    assert state.legal_moves() == []
    assert state.prison_color == "black"  # no white prisoner: Black cannot Hold
    assert "black" in state.ever_two_groups  # so a lone black group is dead


@fact("asli", "life")
def _(state: State) -> None:
    assert state.last_move == "g3"
    assert removed(state) == {"g2", "e7"}
    earlier = before(state)
    assert earlier.stone_at("g1") is None and earlier.stone_at("f1") is None
    assert state.prison_color == "black" and state.prison_count == 1  # 3 black, 2 white cancelled


@fact("asli", "turn")
def _(state: State) -> None:
    assert state.color_to_move == "black"
    for cell in ("e1", "f2"):
        assert "would leave your group" in refusal(state, cell)
    assert placeable(state) == empty(state) - {"e1", "f2"}


@fact("asli", "prison")
def _(state: State) -> None:
    earlier = before(state)
    assert state.last_move == "hold" and earlier.prison_count == 1
    assert state.prison_count == 0
    assert all(state.stone_at(c) == earlier.stone_at(c) for c in state.board.cells)


@fact("asli", "incursion")
def _(state: State) -> None:
    assert state.last_move == "e1" and state.last_change.removed == (("d1", "black"),)
    assert "minimal incursion cannot answer" in refusal(state, "d1")
    # once both have played elsewhere, d1 is Black's again
    assert "d1" in placeable(state.play("a5").play("a3"))


@fact("asli", "start")
def _(state: State) -> None:
    assert state.prison_color == "black" and state.prison_count == 3
    assert state.legal_moves() == ["black", "white"]


# -- Sliglube --------------------------------------------------------------------------


@fact("sliglube", "goal")
def _(state: State) -> None:
    assert state.is_over and state.winner == state.seat_of("white")
    assert state.outcome is not None and state.outcome.termination is rules.Termination.STALEMATE


LOOP = {"d2", "d3", "e4", "f3", "f2", "e2"}


def neighbours(state: State, cells: set[str]) -> set[str]:
    board = state.board
    return {board.cells[n] for cell in cells for n in board.neighbours[board.index(cell)]} - cells


@fact("sliglube", "loops")
def _(state: State) -> None:
    assert [set(loop) for loop in state.loops()] == [LOOP]
    assert state.loop_controllers(LOOP) == {"white"}
    assert state.color_to_move == "white"
    next_to = neighbours(state, LOOP) & empty(state)
    assert "e3" in next_to  # the cell inside the ring
    assert empty(state) - placeable(state) == next_to  # the shaded cells, exactly


@fact("sliglube", "flips")
def _(state: State) -> None:
    assert state.last_move == "e4" and state.stone_at("e4") == "white"
    assert set(state.last_change.flipped) == {"e2", "f3"}
    assert state.last_change.removed == (("d4", "white"),)
    assert [set(loop) for loop in state.loops()] == [LOOP]
    assert all(state.stone_at(cell) == "white" for cell in LOOP)


@fact("sliglube", "noflip")
def _(state: State) -> None:
    assert state.color_to_move == "white"
    assert {"c5", "c5 noflip"} <= set(state.legal_moves())
    flipped = state.play("c5")
    assert {"b3", "b4", "c5", "d5", "d4", "c3"} in [set(loop) for loop in flipped.loops()]
    assert set(flipped.last_change.flipped) == {"b3", "d5"}
    assert removed(flipped) == {"c2", "c6", "e4"}
    assert {"c2", "e4"} <= set().union(*state.loops())  # part of White's other loop
    kept = state.play("c5 noflip")
    assert kept.last_change.removed == () and kept.last_change.flipped == ()


@fact("sliglube", "start")
def _(state: State) -> None:
    assert state.stone_at("e2") == "black" and state.legal_moves() == ["black", "white"]
    assert state.play("black").color_to_move == "white"


# -- Astralis --------------------------------------------------------------------------


@fact("astralis", "goal")
def _(state: State) -> None:
    assert state.is_over and all(state.control(cell) is not None for cell in state.board.cells)
    assert state.territory("cyan") == 65 and state.score("cyan") == 68.5
    assert state.score("yellow") == 56 and state.winner == state.seat_of("cyan")


@fact("astralis", "turn")
def _(state: State) -> None:
    assert state.color_to_move == "cyan"
    moves = [move.split() for move in state.legal_moves()]
    stones = {words[1] for words in moves if len(words) == 2}
    assert stones and not stones & ({"g6"} | neighbours(state, {"g6"}))


@fact("astralis", "control")
def _(state: State) -> None:
    assert state.control("g5") == state.control("h5") == "contested"
    assert state.control("g6") == "yellow" and state.control("h4") == "cyan"
    contested = {cell for cell in state.board.cells if state.control(cell) == "contested"}
    assert contested == {"g5", "h5"}


@fact("astralis", "captures")
def _(state: State) -> None:
    assert state.last_move == "g11 g12" and state.last_change.flipped == ("i11",)
    assert before(state).stone_at("i11") == "yellow" and state.stone_at("i11") == "cyan"


@fact("astralis", "bonus")
def _(state: State) -> None:
    assert state.last_move == "b7 b6" and state.last_change.added == ("a7",)
    assert state.stone_at("a7") == "yellow"
    assert all(before(state).stone_at(cell) is None for cell in neighbours(state, {"a7"}))


@fact("astralis", "deferred")
def _(state: State) -> None:
    assert state.deferred_bonuses == (("k1", "yellow"),)
    assert state.pawns["cyan"] == "k1" and state.stone_at("k1") is None
    moved = state.play(next(m for m in state.legal_moves() if not m.startswith("k1")))
    assert moved.stone_at("k1") == "yellow"


# -- the pages ---------------------------------------------------------------------------

PAGES = [
    (guide.game, page.key)
    for guide in guides()
    if guide.game in ("asli", "lifeline", "sliglube", "astralis")
    for page in guide.pages
    if page.diagram
]


@pytest.mark.parametrize(("game", "key"), PAGES, ids=[f"{g}-{k}" for g, k in PAGES])
def test_the_diagram_shows_what_its_caption_says(game: str, key: str) -> None:
    assert (game, key) in FACTS, f"no test of the diagram of {game}'s page {key!r}"
    FACTS[game, key](diagram_state(game, key))


def test_every_fact_tested_is_a_page() -> None:
    assert set(FACTS) == set(PAGES)
