"""The AI benchmark's own opponents and its Elo ladder."""

from __future__ import annotations

import random

from bench.ladder import Load, elo
from bench.opponents import flat_mc_player, lookahead_player
from tests.ai import positions


def test_the_ladder_puts_random_at_zero_and_orders_the_players_by_their_scores() -> None:
    ratings = elo(
        [
            ("easy", "random", 9, 10),
            ("medium", "easy", 7.5, 10),
            ("hard", "medium", 7.5, 10),
            ("hard", "random", 10, 10),
        ]
    )
    assert ratings["random"] == 0
    assert 0 < ratings["easy"] < ratings["medium"] < ratings["hard"]
    # 75% is about 190 Elo; the virtual draws pull it in a little.
    assert 100 < ratings["hard"] - ratings["medium"] < 200


def test_lookahead_and_flat_mc_play_a_win_at_once_and_legal_moves() -> None:
    state = positions.LIFELINE_WIPE.state()
    rng = random.Random(1)
    assert lookahead_player(state, rng) == "b4"
    assert flat_mc_player(0.01)(state, rng) == "b4"
    other = positions.ASLI_ONE_SAFE_MOVE.state()
    assert lookahead_player(other, rng) in other.legal_moves()
    assert flat_mc_player(0.01)(other, rng) in other.legal_moves()


def test_a_komi_offer_of_the_lookahead_player_is_what_the_colour_choice_leaves_fair() -> None:
    import rules

    state = rules.get_game("asli").new(size=5)
    assert lookahead_player(state, random.Random(1)) == "komi 0"


def test_the_load_processes_end_with_the_block() -> None:
    with Load(2) as load:
        assert all(p.poll() is None for p in load.processes)
    assert all(p.poll() is not None for p in load.processes)
