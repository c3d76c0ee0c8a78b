"""Asli rules, one test per rule or ruling of shared/rules/asli.md.

Every position is reached by playing moves on a 5×5 board; the diagrams show
it (X black, O white, row 5 at the top), as ``board_text`` prints it.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules import NO_CHANGE, IllegalMove, OptionError, Termination

GAME = rules.get_game("asli")


def play(*moves: str, komi: int = 0, colour: str = "white", size: int = 5):
    """The position after the opening (komi, colour choice) and ``moves``.
    With ``colour="white"`` seat 0 plays Black."""
    return GAME.replay([f"komi {komi}", colour, *moves], size=size)


def board_text(state) -> str:
    n = state.board.size
    marks = {None: ".", "black": "X", "white": "O"}
    lines = [
        " ".join(marks[state.stone_at(state.board.name(r * n + c))] for c in range(n))
        for r in reversed(range(n))
    ]
    return "\n".join(lines)


def rows(*lines: str) -> str:
    return "\n".join(lines)


def refusal(state, move: str) -> str:
    with pytest.raises(IllegalMove) as caught:
        state.play(move)
    return str(caught.value)


# -- options and opening -------------------------------------------------------


def test_game_options_and_help():
    assert GAME.name == "asli" and GAME.title == "Asli"
    assert GAME.colors == ("black", "white")
    (size,) = GAME.options()
    assert (size.name, size.minimum, size.maximum, size.default) == ("size", 5, 25, 13)
    assert GAME.new().board.size == 13
    with pytest.raises(OptionError):
        GAME.new(size=4)
    assert "hold" in GAME.summary and "komi" in GAME.summary


def test_komi_puts_black_stones_in_the_prison():
    state = GAME.new(size=5)
    assert state.to_move == 0 and state.color_of(0) is None
    assert state.prompt == "choose the komi (komi N, 0–25)"
    assert state.legal_moves()[0] == "komi 0" and state.legal_moves()[-1] == "komi 25"
    after = state.play("KOMI 3")
    assert after.history == ("komi 3",)
    assert after.komi == 3
    assert (after.prison_color, after.prison_count) == ("black", 3)
    assert GAME.new().play("komi 169").komi == 169


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("komi 26", "komi must be between 0 and 25"),
        ("komi -1", "komi must be between 0 and 25"),
        ("komi three", "write the komi as komi N"),
        ("c3", "the first player must choose the komi first"),
        ("black", "the first player must choose the komi first"),
    ],
)
def test_komi_refusals_say_why(move, message):
    assert message in refusal(GAME.new(size=5), move)


def test_second_player_chooses_colour_then_black_acts_first():
    chosen = GAME.new(size=5).play("komi 2")
    assert chosen.to_move == 1 and chosen.color_of(1) is None
    assert chosen.prompt == "choose your colour: black or white"
    assert chosen.legal_moves() == ["black", "white"]
    assert "choice of colour" in refusal(chosen, "c3")

    white = chosen.play("White")
    assert (white.color_of(0), white.color_of(1)) == ("black", "white")
    assert white.seat_of("white") == 1
    assert white.to_move == 0 and white.color_to_move == "black"

    black = chosen.play("black")
    assert black.color_of(1) == "black" and black.to_move == 1
    assert "already been chosen" in refusal(black, "white")
    assert "already been chosen" in refusal(black, "komi 4")


# -- placing, notation, messages ---------------------------------------------


def test_placement_and_refusals():
    state = play("C3")
    assert state.stone_at("c3") == "black" and state.history[-1] == "c3"
    assert state.last_change.placed == ("c3",) and state.last_change.removed == ()
    assert state.to_move == 1 and state.color_to_move == "white"
    assert refusal(state, "c3") == "c3 is occupied"
    assert "z9 is off the board" in refusal(state, "z9")
    assert "f1 is off the board" in refusal(state, "f1")
    assert "no pass" in refusal(state, "pass")
    assert "not a cell name" in refusal(state, "hold me")
    with pytest.raises(ValueError):
        state.stone_at("zz9")


# -- prison and Hold -------------------------------------------------------------


def test_hold_spends_an_enemy_prisoner():
    state = play("c3", komi=2)
    assert state.prompt == "place a stone, or hold (2 black prisoners)"
    assert state.legal_moves()[0] == "hold"
    held = state.play("HOLD")
    assert (held.prison_color, held.prison_count) == ("black", 1)
    assert held.last_change == NO_CHANGE
    assert board_text(held) == board_text(state)
    assert held.color_to_move == "black"


def test_hold_refused_without_an_enemy_prisoner():
    # Black cannot hold the black komi stones: they are White's resource.
    state = play(komi=2)
    assert refusal(state, "hold") == "there is no enemy stone in the prison to hold"
    assert "hold" not in state.legal_moves()
    assert state.prompt == "place a stone"
    assert refusal(play(), "hold") == "there is no enemy stone in the prison to hold"


def test_dead_groups_go_to_the_prison():
    # Black has a1 and c3, linked only through a2; White a2 cuts a1 off: a1 is
    # dead, and c3, now Black's only group after Black has had two, is dead too.
    state = play("a1", "b1", "c3", "a2")
    assert board_text(state) == rows(
        ". . . . .",
        ". . . . .",
        ". . . . .",
        "O . . . .",
        ". O . . .",
    )
    assert set(state.last_change.removed) == {("a1", "black"), ("c3", "black")}
    assert (state.prison_color, state.prison_count) == ("black", 2)


def test_pairs_cancel_in_the_prison():
    # One black komi stone, then Black captures two white stones: one pair
    # cancels and the prison holds one white stone.
    state = play("d2", "e2", "e3", "d1", komi=1)
    assert (state.prison_color, state.prison_count) == ("black", 1)
    state = state.play("e1")
    assert set(state.last_change.removed) == {("d1", "white"), ("e2", "white")}
    assert (state.prison_color, state.prison_count) == ("white", 1)


# -- liveness: the single-group clause and its flag --------------------------------


def test_a_lone_group_is_alive_without_a_path():
    # Black never had two groups: its row is alive although no empty point
    # touches it. A second black group could not reach it, so every placement
    # is suicide, and Black, with no prisoner to hold, loses.
    state = play("a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2")
    assert board_text(state).endswith(rows("O O O O O", "X X X X X"))
    assert state.ever_two_groups == frozenset()
    assert state.is_over and state.legal_moves() == []
    assert state.result == "White wins: Black has no legal action"
    assert state.winner == 1 and state.to_move is None and state.prompt == ""
    assert state.outcome.termination is Termination.NO_MOVES


def test_a_second_group_gets_no_help_from_the_single_group_clause():
    #   . . . . .      White's only group (a1–d1) touches one empty point, e1,
    #   . . . . .      and that territory does not reach the rest of the board.
    #   . . . . .      A second white group at c4 would have no path to it: the
    #   X X X X X      moment it is placed White has two groups, so neither is
    #   O O O O .      alive by the single-group clause, and the play is refused.
    state = play("a2", "a1", "b2", "b1", "c2", "c1", "d2", "d1", "e2", komi=1)
    assert state.ever_two_groups == frozenset()
    assert refusal(state, "c4") == "that play would leave your group at c4 dead"
    assert state.legal_moves() == ["hold", "e1"]
    assert state.prompt == "place a stone, or hold (1 black prisoner)"
    # Filling e1 keeps a single group: alive although no empty point touches it.
    filled = state.play("e1")
    assert board_text(filled).endswith(rows("X X X X X", "O O O O O"))
    assert filled.ever_two_groups == frozenset()


def test_the_flag_kills_a_colour_joined_into_one_group():
    # Black a1 and c1 are two groups (linked through b1): the flag is set, so
    # joining them into one group with b1 leaves that group dead.
    state = play("a1", "e5")
    assert state.ever_two_groups == frozenset()
    state = state.play("c1").play("e3")
    assert state.ever_two_groups == {"black", "white"}
    assert refusal(state, "b1") == "that play would leave your group at b1 dead"
    assert "b1" not in state.legal_moves()
    assert "d1" in state.legal_moves()


def test_suicide_is_refused_and_changes_nothing():
    state = play("a1", "e5", "c1", "e3", "b2", "d5")
    # b1 would join a1, b2 and c1 into Black's only group.
    before = board_text(state)
    assert refusal(state, "b1") == "that play would leave your group at b1 dead"
    assert board_text(state) == before and state.ply == 8


def test_capturing_can_give_the_placed_stone_life():
    #   . . . . .        e1 touches only white stones, but it cuts White's
    #   . . . . .        d1 and e2 apart: both die, and once they are gone
    #   . . . . X        the black stone has a path to d2.
    #   . . . X O
    #   . . . O .
    state = play("d2", "e2", "e3", "d1")
    assert "e1" in state.legal_moves()
    state = state.play("e1")
    assert board_text(state).endswith(rows(". . . . X", ". . . X .", ". . . . X"))
    assert state.last_change.placed == ("e1",)
    assert set(state.last_change.removed) == {("d1", "white"), ("e2", "white")}
    # White has had two groups and has none left: any stone would be a lone dead group.
    assert state.result == "Black wins: White has no legal action"
    assert state.winner == 0


# -- incursions ------------------------------------------------------------------


def reply_position():
    #   . . . . X      White e1 was played in the territory {e1}, which only
    #   . . . . .      black stones touched (d1, e2): it cut d1 off from e2,
    #   . . . . .      exactly one live black group turned dead. A minimal
    #   . . . O X      incursion.
    #   . . O . O
    return play("e2", "c1", "e5", "d2", "d1", "e1")


def test_a_minimal_incursion_cannot_answer_a_minimal_incursion():
    state = reply_position()
    assert state.last_change.removed == (("d1", "black"),)
    # Black d1 would be one too (d1 only touches white stones; it kills e1 alone).
    assert refusal(state, "d1") == "a minimal incursion cannot answer a minimal incursion"
    assert "d1" not in state.legal_moves()


def test_the_restriction_lasts_one_action():
    state = reply_position().play("a5").play("a1")
    after = state.play("d1")
    assert after.last_change.removed == (("e1", "white"),)


def test_a_capture_in_shared_territory_is_not_minimal():
    #   . . X . .      Black b4 kills White's a5, but in a territory that
    #   . X . . .      touched black stones too (a3, c5): not an incursion.
    #   X O . . .      So White may answer with the minimal incursion a4
    #   O X . . .      (in Black's territory {a4, a5, b5}, killing a3 alone).
    #   . . . . .
    state = play("a3", "a2", "c5", "b3", "b2", "a5", "b4")
    assert state.last_change.removed == (("a5", "white"),)
    after = state.play("a4")
    assert after.last_change.removed == (("a3", "black"),)
    # ...and that one was minimal: Black may not retake a3 (in White's
    # territory {a3}, killing a4 alone) at once.
    assert refusal(after, "a3") == "a minimal incursion cannot answer a minimal incursion"


def test_a_hold_clears_the_restriction():
    # Black's a5 is a minimal incursion (kills a4 alone, in White's territory
    # {a5}); White holds; Black's next minimal incursion c5 is allowed.
    state = play(
        "b4", "c4", "b2", "b5", "a5", "a4", "c1", "d5", "c3", "c2", "a5", komi=2, colour="black"
    )
    assert state.last_change.removed == (("a4", "white"),)
    state = state.play("hold")
    assert state.prison_count == 1
    assert board_text(state).startswith(rows("X O . O .", ". X O . ."))
    after = state.play("c5")
    assert after.last_change.removed == (("b5", "white"),)


# -- end of the game ---------------------------------------------------------


def test_draw_by_repetition():
    moves = ["c2", "e5", "b1", "d1", "d5", "b2", "e4", "a5", "d3", "a3", "e5", "c1", "hold", "d1"]
    state = play(*moves)
    repeated = play(*moves[:11])  # after Black's e5, White to move
    assert not state.is_over
    final = state.play("b1")
    assert final.last_change.removed == (("c1", "white"), ("d1", "white"))
    assert board_text(final) == board_text(repeated)
    assert final.color_to_move is None and repeated.color_to_move == "white"
    assert final.is_over and final.result == "Draw by repetition"
    assert final.winner is None and final.to_move is None
    assert final.outcome.termination is Termination.REPETITION
    assert final.stone_at("b1") == "black"  # the play stands
    assert final.legal_moves() == []
    assert "game is over" in refusal(final, "a1")


def test_a_position_after_a_hold_counts_for_repetition():
    moves = [
        "d4",
        "a3",
        "a2",
        "a5",
        "e1",
        "b4",
        "c5",
        "d2",
        "b2",
        "d5",
        "e5",
        "b3",
        "c3",
        "c4",
        "c1",
        "d5",
        "c2",
        "hold",
        "c5",
        "hold",
        "b5",
    ]
    state = play(*moves, komi=5, colour="black")
    after_play = play(*moves[:17], komi=5, colour="black")
    after_hold = play(*moves[:18], komi=5, colour="black")
    final = state.play("d5")
    # The same stones appeared after Black's c2 with White to move, then after
    # White's hold with Black to move: only the second one is repeated.
    assert board_text(after_play) == board_text(after_hold) == board_text(final)
    assert after_play.color_to_move == "white" and after_hold.color_to_move == "black"
    assert final.result == "Draw by repetition"


# -- legal_moves against a plain reading of the rules -------------------------------


def _neighbours(n: int, i: int) -> list[int]:
    r, c = divmod(i, n)
    return [
        j
        for j, ok in ((i - n, r > 0), (i - 1, c > 0), (i + 1, c < n - 1), (i + n, r < n - 1))
        if ok
    ]


def _blobs(n: int, board: list[int], keep) -> list[frozenset[int]]:
    seen: set[int] = set()
    blobs = []
    for i in range(n * n):
        if i in seen or not keep(board[i]):
            continue
        blob, todo = {i}, [i]
        while todo:
            u = todo.pop()
            for v in _neighbours(n, u):
                if v not in blob and board[v] == board[i]:
                    blob.add(v)
                    todo.append(v)
        seen |= blob
        blobs.append(frozenset(blob))
    return blobs


def _alive(n: int, board: list[int], group: frozenset[int], flag: bool) -> bool:
    colour = board[next(iter(group))]
    groups = [g for g in _blobs(n, board, bool) if board[next(iter(g))] == colour]
    if not flag and len(groups) == 1:
        return True
    for territory in _blobs(n, board, lambda x: x == 0):
        touched = {v for u in territory for v in _neighbours(n, u)}
        if touched & group and any(touched & g for g in groups if g != group):
            return True
    return False


def _outcomes(
    n: int, board: list[int], me: int, flags: set[int], after_minimal: bool
) -> dict[int, tuple[list[int], bool]]:
    """Brute force over the rules text: for each point where ``me`` may play,
    the board after the play and whether it was a minimal incursion."""
    enemy = 3 - me
    found = {}
    for p in range(n * n):
        if board[p]:
            continue
        territory = next(t for t in _blobs(n, board, lambda x: x == 0) if p in t)
        owned_by_enemy = {board[v] for u in territory for v in _neighbours(n, u)} - {0} == {enemy}
        new = list(board)
        new[p] = me
        # every enemy group is alive before the play, so "turned dead" = dead now
        dead = [
            g for g in _blobs(n, new, lambda x: x == enemy) if not _alive(n, new, g, enemy in flags)
        ]
        for g in dead:
            for u in g:
                new[u] = 0
        if any(not _alive(n, new, g, me in flags) for g in _blobs(n, new, lambda x: x == me)):
            continue
        minimal = owned_by_enemy and len(dead) == 1
        if not (minimal and after_minimal):
            found[p] = (new, minimal)
    return found


def _stones(state) -> list[int]:
    return [{None: 0, "black": 1, "white": 2}[state.stone_at(c)] for c in state.board.cells]


@pytest.mark.parametrize("seed", range(12))
def test_legal_moves_are_exactly_the_plays_the_rules_allow(seed):
    """Random games (biased towards captures) checked point by point against a
    brute-force reading of the rules: the same points are legal, each play
    leaves the same board, every other point is refused."""
    rnd = random.Random(seed)
    n = 5 if seed < 9 else 6
    state = play(komi=rnd.choice([0, 1, 3]), size=n)
    flags: set[int] = set()
    after_minimal = False
    while not state.is_over:
        me = 1 if state.color_to_move == "black" else 2
        board = _stones(state)
        expected = _outcomes(n, board, me, flags, after_minimal)
        moves = state.legal_moves()
        assert [m for m in moves if m != "hold"] == [state.board.name(p) for p in sorted(expected)]
        assert ("hold" in moves) == (state.prison_color == ("white", "black")[me - 1])
        for cell in set(state.board.cells) - {state.board.name(p) for p in expected}:
            assert not state.is_legal(cell)
            with pytest.raises(IllegalMove):
                state.play(cell)
        captures = [m for m in moves if m != "hold" and state.play(m).last_change.removed]
        move = rnd.choice(captures if captures and rnd.random() < 0.6 else moves)
        state = state.play(move)
        if move == "hold":
            after_minimal = False
        else:
            board, after_minimal = expected[state.board.index(move)]
            assert _stones(state) == board
            for colour in (1, 2):
                if len([g for g in _blobs(n, board, bool) if board[next(iter(g))] == colour]) > 1:
                    flags.add(colour)
        assert state.ever_two_groups == {("black", "white")[c - 1] for c in flags}
    assert state.result
