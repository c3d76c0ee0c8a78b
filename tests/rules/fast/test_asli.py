"""The fast Asli position plays exactly the game of the rules engine.

Every check compares it with :class:`rules.asli.AsliState` along games played
on both: the legal moves, whose turn it is, the end and the winner, and the
evaluation against territories and Holds counted on the State's board.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
from rules.fast.asli import AsliPosition
from rules.position import position

GAME = rules.get_game("asli")


def territories(state) -> list[tuple[list[int], set[str]]]:
    """Every territory of the State's board, by a plain flood fill: its points and the
    colours of the stones touching it."""
    board = state.board
    found = []
    seen: set[int] = set()
    for start in range(len(board)):
        if start in seen or state.stone_at(board.name(start)):
            continue
        region, touching = [start], set()
        seen.add(start)
        for u in region:
            for v in board.neighbours[u]:
                colour = state.stone_at(board.name(v))
                if colour:
                    touching.add(colour)
                elif v not in seen:
                    seen.add(v)
                    region.append(v)
        found.append((region, touching))
    return found


def territory_share(state) -> float:
    """Seat 0's share of (empty points of owned territories + Holds), the points no
    one owns counted half to each side, from the State's board by a plain flood fill:
    what evaluate() should say."""
    if state.is_over:
        return 0.5 if state.winner is None else float(state.winner == 0)
    if state.color_of(0) is None:
        return 0.5
    actions = {"black": 0, "white": 0, "nobody": 0}
    if state.prison_color is not None:
        other = "white" if state.prison_color == "black" else "black"
        actions[other] += state.prison_count
    for region, touching in territories(state):
        actions[touching.pop() if len(touching) == 1 else "nobody"] += len(region)
    total = sum(actions.values())
    return (actions[state.color_of(0)] + actions["nobody"] / 2) / total if total else 0.5


def assert_same(pos: AsliPosition, state) -> None:
    where = f"after {' '.join(state.history)}"
    assert pos.to_move == state.to_move, where
    assert pos.is_over == state.is_over, where
    assert pos.winner == state.winner, where
    ids = pos.legal_moves()
    assert len(set(ids)) == len(ids), where
    assert {pos.move_text(m) for m in ids} == set(state.legal_moves()), where
    assert pos.evaluate() == pytest.approx(territory_share(state)), where


def play_alongside(rng: random.Random, state, *, captures: float = 0.0, holds: float = 0.0) -> None:
    """A random game on the State and the fast position, compared at every ply;
    a ply prefers a capturing placement with probability ``captures``, and a
    Hold, when there is one, with probability ``holds``."""
    pos = position(state)
    assert isinstance(pos, AsliPosition)
    while True:
        assert_same(pos, state)
        if state.is_over:
            return
        moves = state.legal_moves()
        if state.komi is None:
            move = f"komi {rng.choice([0, 1, 2, 3, rng.randrange(len(state.board) + 1)])}"
        elif "hold" in moves and rng.random() < holds:
            move = "hold"
        elif captures and rng.random() < captures:
            capturing = [m for m in moves if m != "hold" and state.play(m).last_change.removed]
            move = rng.choice(capturing or moves)
        else:
            move = rng.choice(moves)
        if rng.random() < 0.1:
            # a copy is independent: a move played on it leaves the original alone
            other = pos.copy()
            other.play(rng.choice(other.legal_moves()))
            assert_same(pos, state)
        assert pos.move_text(pos.move_id(move)) == move
        state = state.play(move)
        pos.play(pos.move_id(move))


@pytest.mark.parametrize(
    ("size", "games", "captures", "holds"),
    [
        (5, 40, 0.0, 0.0),
        (5, 30, 0.7, 0.3),
        (6, 16, 0.5, 0.2),
        (7, 10, 0.3, 0.1),
        (9, 5, 0.2, 0.0),
    ],
)
def test_random_games_agree_with_the_engine(
    size: int, games: int, captures: float, holds: float
) -> None:
    for seed in range(games):
        play_alongside(
            random.Random(1000 * size + seed), GAME.new(size=size), captures=captures, holds=holds
        )


def test_a_game_on_the_default_board_agrees_with_the_engine() -> None:
    play_alongside(random.Random(13), GAME.new())


def test_a_position_made_from_a_state_in_mid_game_agrees() -> None:
    rng = random.Random(7)
    state = GAME.replay(["komi 2", "black"], size=7)
    for _ in range(20):
        state = state.play(rng.choice(state.legal_moves()))
    play_alongside(rng, state)


@pytest.mark.parametrize(
    ("opening", "moves"),
    [
        (
            ["komi 0", "white"],
            [
                "c2",
                "e5",
                "b1",
                "d1",
                "d5",
                "b2",
                "e4",
                "a5",
                "d3",
                "a3",
                "e5",
                "c1",
                "hold",
                "d1",
                "b1",
            ],
        ),
        (
            ["komi 5", "black"],
            [
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
                "d5",
            ],
        ),
    ],
)
def test_repetition_ends_the_game_in_a_draw(opening: list[str], moves: list[str]) -> None:
    state = GAME.new(size=5)
    pos = position(state)
    for move in [*opening, *moves]:
        assert_same(pos, state)
        state = state.play(move)
        pos.play(pos.move_id(move))
    assert state.result == "Draw by repetition"
    assert_same(pos, state)
    assert pos.is_over and pos.winner is None and pos.to_move is None
    assert pos.legal_moves() == [] and pos.evaluate() == 0.5


def test_move_ids_are_stable_and_round_trip() -> None:
    pos = position(GAME.new(size=5))
    assert sorted(pos.move_text(m) for m in pos.legal_moves()) == sorted(
        f"komi {k}" for k in range(26)
    )
    other = position(GAME.replay(["komi 3", "white", "c3"], size=5))
    for text in ["a1", "e5", "c3", "hold", "black", "white", "komi 0", "komi 25"]:
        assert pos.move_text(pos.move_id(text)) == text
        assert other.move_id(text) == pos.move_id(text)
    for text in ["pass", "f1", "komi 26", "swap"]:
        with pytest.raises(ValueError):
            pos.move_id(text)


def _played(pos: AsliPosition, move: int) -> AsliPosition:
    child = pos.copy()
    child.play(move)
    return child


def observed(pos: AsliPosition) -> tuple:
    return (pos.to_move, pos.is_over, pos.winner, tuple(pos.legal_moves()), pos.evaluate())


def test_each_playout_step_is_a_legal_move_and_the_game_ends_by_the_rules() -> None:
    rng = random.Random(5)
    for size in (5, 6):
        pos = position(GAME.new(size=size))
        while not pos.is_over:
            step = pos.copy()
            assert step.playout(rng, max_plies=1) == 1
            assert observed(step) in {observed(_played(pos, m)) for m in pos.legal_moves()}
            pos = step
        assert pos.legal_moves() == [] and pos.to_move is None
        end = pos.copy()
        assert end.playout(rng) == 0 and observed(end) == observed(pos)


def test_playouts_choose_uniformly_among_the_legal_moves() -> None:
    # a position late in a 5x5 game, where most empty points are illegal
    rng = random.Random(3)
    pos = position(GAME.replay(["komi 4", "white"], size=5))
    while len(pos.legal_moves()) > 6 or pos.legal_moves() == [pos.move_id("hold")]:
        pos.playout(rng, max_plies=1)
    moves = pos.legal_moves()
    assert 2 <= len(moves) <= 6
    after = {observed(_played(pos, m)): m for m in moves}
    assert len(after) == len(moves)
    counts: Counter[int] = Counter()
    trials = 300 * len(moves)
    for _ in range(trials):
        step = pos.copy()
        step.playout(rng, max_plies=1)
        counts[after[observed(step)]] += 1
    assert set(counts) == set(moves)
    assert all(200 <= counts[m] <= 400 for m in moves), counts


def test_a_random_move_is_legal_uniform_and_says_who_played_it() -> None:
    rng = random.Random(8)
    pos = position(GAME.new(size=5))
    while True:
        seat, moves = pos.to_move, pos.legal_moves()
        step = pos.copy()
        played = step.play_random(rng)
        if not moves:
            assert played is None and observed(step) == observed(pos)
            break
        assert played is not None and played[0] == seat and played[1] in moves
        assert observed(step) == observed(_played(pos, played[1]))
        pos = step
    # uniform in a late position where most empty points are illegal
    pos = position(GAME.replay(["komi 4", "white"], size=5))
    while len(pos.legal_moves()) > 6 or pos.legal_moves() == [pos.move_id("hold")]:
        pos.play_random(rng)
    moves = pos.legal_moves()
    counts: Counter[int] = Counter()
    for _ in range(300 * len(moves)):
        played = pos.copy().play_random(rng)
        assert played is not None
        counts[played[1]] += 1
    assert set(counts) == set(moves)
    assert all(200 <= counts[m] <= 400 for m in moves), counts


def reserve(state) -> set[str]:
    """The mover's reserve: Hold, and the points of every territory that touches the
    mover's stones and no others."""
    mine = state.color_of(state.to_move)
    kept = {"hold"}
    for region, touching in territories(state):
        if touching == {mine}:
            kept.update(state.board.name(p) for p in region)
    return kept


def test_frugal_random_moves_leave_the_movers_reserve_for_last() -> None:
    """A frugal position plays any legal move but Hold and the points of its own
    territories while there is one, and stops, the game not over, when there is none."""
    rng = random.Random(11)
    stops = 0
    for seed in range(16):
        state = GAME.replay([f"komi {seed % 3}", rng.choice(["black", "white"])], size=5 + seed % 2)
        while not state.is_over:
            pos = position(state)
            assert pos.play_frugally()
            shared = set(state.legal_moves()) - reserve(state)
            step = pos.copy()
            played = step.play_random(rng)
            playout = pos.copy()
            plies = playout.playout(rng, max_plies=1)
            if shared:
                assert played is not None and pos.move_text(played[1]) in shared
                assert observed(step) == observed(_played(pos, played[1]))
                after = {observed(_played(pos, pos.move_id(m))) for m in shared}
                assert plies == 1 and observed(playout) in after
            else:
                stops += 1
                assert played is None and observed(step) == observed(pos)
                assert plies == 0 and observed(playout) == observed(pos)
                assert playout.playout(rng) == 0 and not playout.is_over
            # played as a frugal playout would, so that reserves are left at the end
            state = state.play(rng.choice(sorted(shared or state.legal_moves())))
    assert stops >= 5  # positions with only reserves left were met


def test_the_tactical_moves_are_hold_and_the_stones_next_to_a_stone() -> None:
    """(Every legal move where the opponent is down to one legal point.) Every move that
    wins at once is among them: a stone with no stone around it captures and cuts nothing."""
    rng = random.Random(24)
    winners_seen = lone_winners = 0
    for seed in range(12):
        state = GAME.replay([f"komi {seed % 4}", rng.choice(["black", "white"])], size=5 + seed % 3)
        while not state.is_over:
            pos = position(state)
            tactical = {pos.move_text(m) for m in pos.tactical_moves()}
            board = state.board
            near = {
                board.name(p)
                for p in range(len(board))
                if not state.stone_at(board.name(p))
                and any(
                    state.stone_at(board.name(q))
                    for q in range(len(board))
                    if q != p and max(map(abs, divmod_delta(p, q, state.options["size"]))) == 1
                )
            }
            legal = set(state.legal_moves())
            if tactical != legal:
                assert tactical == {m for m in legal if m == "hold" or m in near}
            for move in legal:
                after = state.play(move)
                if after.is_over and after.winner == state.to_move:
                    winners_seen += 1
                    lone_winners += move != "hold" and move not in near
                    assert move in tactical, f"{move} after {' '.join(state.history)}"
            state = state.play(rng.choice(sorted(legal)))
    assert winners_seen > 10 and lone_winners  # both kinds of win were checked


def divmod_delta(p: int, q: int, size: int) -> tuple[int, int]:
    (pr, pc), (qr, qc) = divmod(p, size), divmod(q, size)
    return pr - qr, pc - qc
