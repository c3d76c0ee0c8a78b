"""The standings equal an independent computation: a crosstable matrix, its scores,
Sonneborn–Berger and head-to-head, and a sort by comparison."""

from __future__ import annotations

import functools
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competitions.pairing import Result, round_robin
from bot.competitions.standings import standings


def by_hand(
    ratings: dict[int, float], results: list[Result], byes: list[int]
) -> list[tuple[int, float, float, float]]:
    ids = sorted(ratings)
    cross = {a: {b: [] for b in ids} for a in ids}  # cross[a][b]: a's points against b
    for r in results:
        cross[r.first][r.second].append(r.points)
        cross[r.second][r.first].append(1 - r.points)
    score = {a: sum(sum(v) for v in cross[a].values()) + byes.count(a) for a in ids}
    sb = {a: sum(sum(cross[a][b]) * score[b] for b in ids) for a in ids}
    h2h = {}
    for a in ids:
        level = [b for b in ids if b != a and (score[b], sb[b]) == (score[a], sb[a])]
        h2h[a] = sum(sum(cross[a][b]) for b in level) if level else 0.0

    def compare(a: int, b: int) -> int:
        for x, y in ((score[a], score[b]), (sb[a], sb[b]), (h2h[a], h2h[b])):
            if x != y:
                return -1 if x > y else 1
        if ratings[a] != ratings[b]:
            return -1 if ratings[a] > ratings[b] else 1
        return -1 if a < b else 1

    return [(a, score[a], sb[a], h2h[a]) for a in sorted(ids, key=functools.cmp_to_key(compare))]


@settings(max_examples=120, deadline=None)
@given(
    n=st.integers(2, 9),
    legs=st.integers(1, 2),
    data=st.data(),
)
def test_standings_match_a_computation_by_hand(n: int, legs: int, data: st.DataObject) -> None:
    ratings = {p: float(data.draw(st.sampled_from([1400, 1500, 1600]))) for p in range(1, n + 1)}
    results, byes = [], []
    for one in round_robin(list(ratings), legs):
        results += [
            Result(p.first, p.second, data.draw(st.sampled_from([1.0, 0.5, 0.0])))
            for p in one.pairings
        ]
        if one.bye is not None and data.draw(st.booleans()):
            byes.append(one.bye)
    table = standings(ratings, results, byes)
    assert [(s.player, s.score, s.sonneborn_berger, s.head_to_head) for s in table] == by_hand(
        ratings, results, byes
    )
    assert table[0].rank == 1
    for before, after in itertools.pairwise(table):
        level = (before.score, before.sonneborn_berger, before.head_to_head, before.rating) == (
            after.score,
            after.sonneborn_berger,
            after.head_to_head,
            after.rating,
        )
        assert after.rank == (before.rank if level else table.index(after) + 1)


def test_a_small_table() -> None:
    # 1 beats 2, 2 beats 3, 3 beats 1; 4 loses to everyone: 1, 2, 3 level on score
    # and SB (1 each); head-to-head among them is level too: rating decides.
    ratings = {1: 1500.0, 2: 1600.0, 3: 1550.0, 4: 1500.0}
    results = [
        Result(1, 2, 1.0),
        Result(2, 3, 1.0),
        Result(3, 1, 1.0),
        Result(1, 4, 1.0),
        Result(4, 2, 0.0),
        Result(3, 4, 1.0),
    ]
    table = standings(ratings, results)
    assert [s.player for s in table] == [2, 3, 1, 4]
    assert [s.score for s in table] == [2.0, 2.0, 2.0, 0.0]
    assert table[0].sonneborn_berger == 2.0  # beat 3 (2) and 4 (0)
    assert (table[0].wins, table[0].losses, table[3].losses) == (2, 1, 3)
