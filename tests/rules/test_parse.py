"""Reading moves: "not a move of this game" (InvalidMove, decided by the parser
without looking at the position) against "not legal now" (IllegalMove)."""

from __future__ import annotations

import pytest

import rules
from rules import IllegalMove, InvalidMove, State, UnknownCell
from tests.rules.test_astralis import BLOCKED

LIFELINE = rules.get_game("lifeline")
ASLI = rules.get_game("asli")
SLIGLUBE = rules.get_game("sliglube")
ASTRALIS = rules.get_game("astralis")


def position(game: rules.Game, moves: list[str], **options) -> State:
    return game.replay(moves, **options)


# (game, options, moves to the position, text, canonical move)
READ = [
    (LIFELINE, {"size": 7}, [], " G10,g8 ", "g8 g10"),
    (LIFELINE, {"size": 4, "opening": "komi-pie"}, [], "KOMI 007", "komi 7"),
    (LIFELINE, {"size": 4}, ["a1 c3"], "Swap", "swap"),
    (ASLI, {"size": 5}, [], "komi 03", "komi 3"),
    (ASLI, {"size": 5}, ["komi 3", "white"], "C3", "c3"),
    (SLIGLUBE, {"size": 5}, ["d4", "white"], "C3 , NoFlip", "c3 noflip"),
    (ASTRALIS, {"size": 7}, ["a3", "m4"], "D3,E3", "d3 e3"),
    (ASTRALIS, {"size": 7}, ["a3", "m4"], "PASS", "pass"),
]

# (game, options, moves to the position, text, what the refusal says)
NOT_A_MOVE = [
    (LIFELINE, {"size": 4}, [], "", "the move is empty"),
    (LIFELINE, {"size": 4}, [], "hello", "'hello' is not a move here"),
    (LIFELINE, {"size": 4}, [], "z9", "z9 is off the board"),
    (LIFELINE, {"size": 4}, [], "a1 b1 c1", "'a1 b1 c1' is not a move here"),
    (LIFELINE, {"size": 4}, [], "swap now", "'swap' takes nothing after it"),
    (LIFELINE, {"size": 4, "opening": "komi-pie"}, [], "komi", "the komi must be a whole number"),
    (ASLI, {"size": 5}, [], "komi x", "write the komi as komi N"),
    (ASLI, {"size": 5}, ["komi 0", "white"], "f1", "f1 is off the board"),
    (ASLI, {"size": 5}, ["komi 0", "white"], "pass", "Asli has no pass"),
    (ASLI, {"size": 5}, ["komi 0", "white"], "c3 d4", "is not a cell name"),
    (SLIGLUBE, {"size": 5}, ["d4", "white"], "c3 flip", "is not a move: name a cell"),
    (SLIGLUBE, {"size": 5}, ["d4", "white"], "x1", "x1 is off the board"),
    (ASTRALIS, {"size": 7}, ["a3", "m4"], "b3 c3 d3", "a move is a cell for your pawn"),
    (ASTRALIS, {"size": 7}, ["a3", "m4"], "b3 pass", "a move is a cell for your pawn"),
]

# (game, options, moves to the position, text, what the refusal says): moves of the
# game, each well formed, that the position does not allow
NOT_NOW = [
    (LIFELINE, {"size": 4}, ["a1 c3"], "a1", "a1 is occupied"),
    (LIFELINE, {"size": 4}, [], "komi 3", "there is no komi in the strong-pie"),
    (
        LIFELINE,
        {"size": 4, "opening": "komi-pie"},
        [],
        "komi 99",
        "the komi must be a whole number from 0 to 37, not 99",
    ),
    (LIFELINE, {"size": 4}, ["a1 c3", "swap"], "swap", "the colours have just been swapped"),
    (ASLI, {"size": 5}, [], "c3", "the first player must choose the komi first"),
    (ASLI, {"size": 5}, [], "komi 26", "komi must be between 0 and 25"),
    (ASLI, {"size": 5}, ["komi 0", "white"], "hold", "there is no enemy stone in the prison"),
    (SLIGLUBE, {"size": 5}, ["d4"], "c3", "choose your colour"),
    (SLIGLUBE, {"size": 5}, ["d4", "white", "c3"], "c3", "c3 is occupied"),
    (ASTRALIS, {"size": 7}, [], "d4", "place your pawn on a non-corner cell of the bottom row"),
    (ASTRALIS, {"size": 7}, ["a3", "m4"], "pass", "you can pass only when your pawn cannot move"),
]


@pytest.mark.parametrize(("game", "options", "moves", "text", "canonical"), READ)
def test_parse_gives_the_canonical_move(game, options, moves, text, canonical):
    state = position(game, moves, **options)
    assert state.parse(text) == canonical
    if canonical in state.legal_moves():
        assert state.play(text).history[-1] == canonical
    else:  # well formed, so refused as not allowed now
        with pytest.raises(IllegalMove) as caught:
            state.play(text)
        assert not isinstance(caught.value, InvalidMove)


@pytest.mark.parametrize(("game", "options", "moves", "text", "says"), NOT_A_MOVE)
def test_text_that_is_no_move_is_an_invalid_move(game, options, moves, text, says):
    state = position(game, moves, **options)
    with pytest.raises(InvalidMove, match=says):
        state.parse(text)
    with pytest.raises(InvalidMove, match=says):
        state.play(text)
    assert not state.is_legal(text)


@pytest.mark.parametrize(("game", "options", "moves", "text", "says"), NOT_NOW)
def test_a_move_not_allowed_now_is_an_illegal_move_only(game, options, moves, text, says):
    state = position(game, moves, **options)
    assert state.parse(text) == text  # a move of the game, in canonical text
    with pytest.raises(IllegalMove, match=says) as caught:
        state.play(text)
    assert not isinstance(caught.value, InvalidMove)


def test_parse_ignores_the_position():
    """The same text reads the same in every position, occupied, undecided or over."""
    blocked = ASTRALIS.replay(BLOCKED, size=7)
    assert blocked.legal_moves() == ["pass"]
    assert blocked.parse("b3 c3") == "b3 c3"
    over = SLIGLUBE.new(size=5)
    while not over.is_over:
        over = over.play(over.legal_moves()[0])
    assert over.parse("a1") == "a1" and over.parse("black") == "black"
    with pytest.raises(InvalidMove):
        over.play("a1 north")
    with pytest.raises(IllegalMove, match="game is over"):
        over.play("a1")


def test_an_unknown_cell_is_an_invalid_move_everywhere():
    board = ASLI.new(size=5).board
    with pytest.raises(UnknownCell) as caught:
        board.index("z9")
    assert isinstance(caught.value, InvalidMove)
    with pytest.raises(InvalidMove):
        ASLI.new(size=5).stone_at("z9")
