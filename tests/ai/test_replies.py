"""Last-good-reply playouts (a knowledge setting, off unless a game turns it on): the
replies of a won simulation are kept, a lost one's forgotten, and a kept reply is
played where it is legal."""

from __future__ import annotations

import dataclasses
import random

import rules
from ai.games import knowledge
from ai.levels import Budget
from ai.mcts import Search
from rules.position import position


def search(game: str, **options: int) -> Search:
    state = rules.get_game(game).new(**options)
    known = dataclasses.replace(knowledge(game, options), last_good_reply=1.0)
    return Search(position(state), known, random.Random(3))


def test_the_winners_replies_are_kept_and_the_losers_forgotten() -> None:
    found = search("astralis", size=7)
    assert found.replies is not None
    found._learn_replies([(0, 10), (1, 20), (0, 30), (0, 31), (1, 40)], 1.0)  # seat 0 won
    assert found.replies == ({20: 30}, {})  # 31 follows seat 0's own move: no reply
    found._learn_replies([(1, 50), (0, 20), (1, 10)], 1.0)
    assert found.replies == ({20: 30, 50: 20}, {})
    found._learn_replies([(0, 10), (1, 20), (0, 30)], 0.0)  # seat 1 won: 30 forgotten
    assert found.replies == ({50: 20}, {10: 20})
    found._learn_replies([(0, 10), (1, 20)], 0.5)  # a draw teaches nothing
    assert found.replies == ({50: 20}, {10: 20})


def test_a_search_with_replies_learns_them_and_plays_legal_moves() -> None:
    found = search("lifeline", size=5)
    found.run(Budget(playouts=200))
    assert found.playouts == 200
    assert found.replies is not None and all(found.replies)
    assert found.root_stats()[0].move in found.root_position.legal_moves()
    plain = Search(found.root_position, knowledge("lifeline", {"size": 5}), random.Random(3))
    assert plain.replies is None  # off by default
