"""The pairings, by their properties: every player once a round, no rematch in a Swiss
while a pairing without one exists (checked against every pairing there is), seats
balanced, byes to distinct players; knockout brackets with byes and drawn games
played again."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.competitions.pairing import (
    SEAT_LIMIT,
    Pairing,
    Result,
    Round,
    bracket_order,
    champion,
    knockout,
    round_robin,
    swiss_round,
)


def balance(results: list[Result]) -> Counter[int]:
    seats: Counter[int] = Counter()
    for r in results:
        seats[r.first] += 1
        seats[r.second] -= 1
    return seats


def once_each(one: Round, players: list[int]) -> None:
    assert sorted(one.players) == sorted(players)


# -- round robin ----------------------------------------------------------------------


@pytest.mark.parametrize("legs", [1, 2])
@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_meets_everyone_with_balanced_seats(n: int, legs: int) -> None:
    players = [100 + i for i in range(n)]
    rounds = round_robin(players, legs)
    per_leg = n - 1 if n % 2 == 0 else n
    assert len(rounds) == legs * per_leg
    meetings: Counter[frozenset[int]] = Counter()
    rests: Counter[int] = Counter()
    results = []
    for one in rounds:
        once_each(one, players)
        assert (one.bye is None) == (n % 2 == 0)
        if one.bye is not None:
            rests[one.bye] += 1
        for p in one.pairings:
            meetings[frozenset(p.players)] += 1
            results.append(Result(p.first, p.second, 0.5))
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {legs}
    assert all(rests[p] == legs for p in players) if n % 2 else not rests
    seats = balance(results)
    assert all(abs(seats[p]) <= (1 if legs == 1 else 0) for p in players)


def test_round_robin_refuses_one_player_and_three_legs() -> None:
    with pytest.raises(ValueError):
        round_robin([1])
    with pytest.raises(ValueError):
        round_robin([1, 2], legs=3)


# -- Swiss ----------------------------------------------------------------------------


def matchings(players: list[int], allowed: Callable[[int, int], bool]) -> Iterator[None]:
    """Every perfect matching of ``players`` whose pairs are allowed (yields nothing
    but their existence: enough for the checks)."""
    if not players:
        yield None
        return
    p, rest = players[0], players[1:]
    for q in rest:
        if allowed(p, q):
            yield from matchings([x for x in rest if x != q], allowed)


def a_pairing_exists(
    players: list[int], byes: set[int], allowed: Callable[[int, int], bool]
) -> bool:
    candidates = [p for p in players if p not in byes] if len(players) % 2 else [None]
    return any(
        next(matchings([p for p in players if p != bye], allowed), False) is None
        for bye in candidates
    )


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 10),
    data=st.data(),
)
def test_swiss_rounds_keep_the_rules_while_they_can(n: int, data: st.DataObject) -> None:
    players = list(range(1, n + 1))
    rounds = data.draw(st.integers(1, max(1, n - 1)), label="rounds")
    results: list[Result] = []
    byes: list[int] = []
    for _ in range(rounds):
        one = swiss_round(players, results, byes)
        once_each(one, players)
        met = {frozenset((r.first, r.second)) for r in results}
        rematch = any(frozenset(p.players) in met for p in one.pairings)
        if rematch:
            assert not a_pairing_exists(
                players, set(byes), lambda a, b, met=met: frozenset((a, b)) not in met
            )
        if one.bye is not None:
            assert one.bye not in byes  # there is always a fresh one: rounds < players
            byes.append(one.bye)
        seats = balance(results)
        after = balance(results + [Result(p.first, p.second, 0) for p in one.pairings])
        if not rematch and any(abs(after[p]) > SEAT_LIMIT for p in players):

            def fits(
                a: int, b: int, met: set[frozenset[int]] = met, seats: Counter[int] = seats
            ) -> bool:
                return frozenset((a, b)) not in met and (
                    (seats[a] < SEAT_LIMIT and seats[b] > -SEAT_LIMIT)
                    or (seats[b] < SEAT_LIMIT and seats[a] > -SEAT_LIMIT)
                )

            assert not a_pairing_exists(players, set(byes[:-1] if one.bye else byes), fits)
        for p in one.pairings:
            points = data.draw(st.sampled_from([1.0, 0.5, 0.0]), label="result")
            results.append(Result(p.first, p.second, points))


def test_swiss_first_round_top_half_meets_bottom_half_seats_alternating() -> None:
    one = swiss_round([1, 2, 3, 4, 5, 6, 7, 8], [])
    assert one.pairings == (Pairing(1, 5), Pairing(6, 2), Pairing(3, 7), Pairing(8, 4))
    assert one.bye is None


def test_swiss_pairs_within_score_groups_and_gives_the_bye_to_the_lowest() -> None:
    players = [1, 2, 3, 4, 5]
    first = swiss_round(players, [])
    assert first.bye == 5
    results = [Result(p.first, p.second, 1.0) for p in first.pairings]  # seat 0 wins
    second = swiss_round(players, results, [5])
    winners = {p.first for p in first.pairings} | {5}
    # The three on one point: two of them meet, the third floats down; the bye goes
    # to the lowest without one.
    assert second.bye not in (5,)
    paired_winners = [p for p in second.pairings if set(p.players) <= winners]
    assert len(paired_winners) == 1


def test_swiss_with_every_opponent_met_still_pairs_everyone() -> None:
    players = [1, 2, 3, 4]
    results = [
        Result(a, b, 0.5)
        for one in round_robin(players)
        for a, b in [one.pairings[0].players, one.pairings[1].players]
    ]
    one = swiss_round(players, results)
    once_each(one, players)


def test_a_200_player_swiss_round_is_paired() -> None:
    rng = random.Random(7)
    players = list(range(200))
    results: list[Result] = []
    for _ in range(8):
        one = swiss_round(players, results)
        once_each(one, players)
        met = {frozenset((r.first, r.second)) for r in results}
        assert not any(frozenset(p.players) in met for p in one.pairings)
        results += [Result(p.first, p.second, rng.choice((1.0, 0.5, 0.0))) for p in one.pairings]
    assert all(abs(s) <= SEAT_LIMIT for s in balance(results).values())


# -- knockout -------------------------------------------------------------------------


def test_bracket_order_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    assert bracket_order(1) == [0]
    with pytest.raises(ValueError):
        bracket_order(6)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 33), data=st.data())
def test_knockout_plays_down_to_one_champion(n: int, data: st.DataObject) -> None:
    seeds = list(range(1, n + 1))
    played: dict[int, list[Result]] = {}
    rounds = knockout(seeds, played)
    first = rounds[0]
    sides = [s for m in first for s in m.sides if s is not None]
    assert sorted(sides) == seeds
    byes = [m.winner for m in first if None in m.sides]
    size = 2 * len(first)
    assert sorted(b for b in byes if b is not None) == seeds[: size - n]  # the top seeds
    for number in range(1, len(rounds) + 1):
        while True:
            rounds = knockout(seeds, played)
            waiting = [m for m in rounds[number - 1] if m.winner is None]
            if not waiting:
                break
            for match in waiting:
                game = match.next_game()
                assert game is not None
                if match.games:  # a drawn game again, the seats swapped
                    last = match.games[-1]
                    assert last.points == 0.5
                    assert (game.first, game.second) == (last.second, last.first)
                points = data.draw(st.sampled_from([1.0, 0.5, 0.0]), label="result")
                played.setdefault(number, []).append(Result(game.first, game.second, points))
    rounds = knockout(seeds, played)
    winner = champion(rounds)
    assert winner in seeds
    for earlier, later in itertools.pairwise(rounds):
        assert [s for m in later for s in m.sides] == [m.winner for m in earlier]
    losers = {
        p for matches in rounds for m in matches for p in m.sides if p not in (m.winner, None)
    }
    assert losers == set(seeds) - {winner}
