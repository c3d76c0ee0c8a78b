"""Who plays whom, and in which seat: round robin (Berger tables), Swiss and knockout.

Pure: players are ids (ints), given strongest first (the seeding); what was played is
a list of :class:`Result`. Nothing here knows Discord, the database or a game's rules.

* :func:`round_robin`: every round of a round robin, one or two legs (the second the
  first with the seats swapped). Each player's first and second seats differ by at
  most one (none in two legs); with an odd number of players one rests each round.
* :func:`swiss_round`: the next round of a Swiss: players meet those of their score,
  the top half of a score group the bottom half; no rematch while a pairing without
  one exists; a bye (to the lowest player who has not had one) when their number is
  odd; seats to whoever had the second seat more often. The search goes back on its
  steps (depth first, the preferred opponents first) within a budget; what it cannot
  find so gives up the seats' limit, then rematches.
* :func:`knockout`: a single-elimination bracket (byes to the top seeds), worked out
  from the games played: a drawn game is played again with the seats swapped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: The points of a won, drawn and lost game.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
#: How many steps a Swiss pairing's search may take before it gives up a wish.
SEARCH_BUDGET = 20_000
#: The furthest a Swiss lets a player's first seats outnumber the seconds (or the
#: reverse) before it would rather give up a score group.
SEAT_LIMIT = 2


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game to play: ``first`` takes seat 0, ``second`` seat 1."""

    first: int
    second: int

    @property
    def players(self) -> tuple[int, int]:
        return (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its games, and who has a bye (Swiss) or rests (round robin)."""

    pairings: tuple[Pairing, ...]
    bye: int | None = None

    @property
    def players(self) -> list[int]:
        return [p for pairing in self.pairings for p in pairing.players] + (
            [] if self.bye is None else [self.bye]
        )


@dataclass(frozen=True, slots=True)
class Result:
    """A game played (or forfeited): ``points`` are ``first``'s (1, 0.5 or 0)."""

    first: int
    second: int
    points: float

    def points_of(self, player: int) -> float:
        return self.points if player == self.first else 1.0 - self.points

    def opponent_of(self, player: int) -> int:
        return self.second if player == self.first else self.first

    @property
    def winner(self) -> int | None:
        if self.points == DRAW:
            return None
        return self.first if self.points == WIN else self.second


# -- round robin ----------------------------------------------------------------------


def round_robin(players: Sequence[int], legs: int = 1) -> list[Round]:
    """Berger tables: the circle method, the last player fixed and the others turning.

    Among the turning players the seats follow the regular tournament on Z_k (``x``
    takes the first seat against ``y`` when ``y - x`` mod k is in 1..(k-1)/2), which
    gives each the first seat (k-1)/2 times; against the fixed player the seats
    alternate by round. So every player's seats differ by at most one."""
    if len(players) < 2:
        raise ValueError("a round robin needs at least two players")
    if legs not in (1, 2):
        raise ValueError("a round robin has one or two legs")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    seats: list[int | None] = [*players, *([None] if len(players) % 2 else [])]
    k = len(seats) - 1  # odd: the turning players
    fixed = seats[k]
    rounds: list[Round] = []
    for r in range(k):
        games: list[tuple[int | None, int | None]] = []
        turning = seats[r]
        games.append((fixed, turning) if r % 2 == 0 else (turning, fixed))
        for i in range(1, (k - 1) // 2 + 1):
            x, y = seats[(r + i) % k], seats[(r - i) % k]
            ahead = 1 <= (-2 * i) % k <= (k - 1) // 2
            games.append((x, y) if ahead else (y, x))
        pairings: list[Pairing] = []
        bye = None
        for a, b in games:
            if a is None or b is None:
                bye = a if b is None else b
            else:
                pairings.append(Pairing(a, b))
        rounds.append(Round(tuple(pairings), bye))
    if legs == 2:
        rounds += [
            Round(tuple(Pairing(p.second, p.first) for p in one.pairings), one.bye)
            for one in rounds
        ]
    return rounds


# -- Swiss ----------------------------------------------------------------------------


class _OutOfBudget(Exception):
    pass


@dataclass(slots=True)
class _Record:
    score: float = 0.0
    #: First seats minus second seats.
    balance: int = 0
    #: The seat of the last game (None: none played).
    last: int | None = None
    byes: int = 0


def swiss_round(
    players: Sequence[int],
    results: Iterable[Result],
    byes: Iterable[int] = (),
    *,
    bye_points: float = WIN,
    budget: int = SEARCH_BUDGET,
) -> Round:
    """The next round of a Swiss among ``players`` (strongest first; those withdrawn
    left out), given every game played so far (in the order played) and who had byes."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len(players) < 2:
        raise ValueError("a Swiss round needs at least two players")
    records: dict[int, _Record] = defaultdict(_Record)
    met: dict[int, set[int]] = defaultdict(set)
    for result in results:
        for seat, player in enumerate((result.first, result.second)):
            one = records[player]
            one.score += result.points_of(player)
            one.balance += 1 if seat == 0 else -1
            one.last = seat
        met[result.first].add(result.second)
        met[result.second].add(result.first)
    for player in byes:
        records[player].score += bye_points
        records[player].byes += 1
    seed = {player: i for i, player in enumerate(players)}
    order = sorted(players, key=lambda p: (-records[p].score, seed[p]))
    rank = {player: i for i, player in enumerate(order)}

    def seats_allow(first: int, second: int) -> bool:
        return records[first].balance < SEAT_LIMIT and records[second].balance > -SEAT_LIMIT

    def want(player: int) -> float:
        """Which seat the player is due: > 0 the first, < 0 the second."""
        one = records[player]
        if one.balance:
            return -float(one.balance)
        return 0.0 if one.last is None else (0.5 if one.last == 1 else -0.5)

    def search(
        rest: list[int], rematches: bool, seat_limit: bool, spent: list[int]
    ) -> list[tuple[int, int]]:
        def allowed(p: int, q: int) -> bool:
            if not rematches and q in met[p]:
                return False
            return not seat_limit or seats_allow(p, q) or seats_allow(q, p)

        def pair(rest: list[int]) -> list[tuple[int, int]] | None:
            if not rest:
                return []
            p, others = rest[0], rest[1:]
            group = [q for q in others if records[q].score == records[p].score]
            ideal = (len(group) + 1) // 2 - 1  # the top half meets the bottom half
            position = {q: i for i, q in enumerate(group)}
            wish = want(p)

            def cost(q: int) -> tuple[int, float, int, int]:
                clash = 1 if wish * want(q) > 0 else 0
                place = abs(position[q] - ideal) if q in position else rank[q]
                return (int(q in met[p]), abs(records[p].score - records[q].score), clash, place)

            for q in sorted((q for q in others if allowed(p, q)), key=cost):
                spent[0] += 1
                if spent[0] > budget:
                    raise _OutOfBudget
                found = pair([x for x in others if x != q])
                if found is not None:
                    return [(p, q), *found]
            return None

        found = pair(rest)
        if found is None:
            raise _OutOfBudget
        return found

    bottom_up = list(reversed(order))
    if len(order) % 2:
        fresh = [p for p in bottom_up if records[p].byes == 0]
        least = sorted(bottom_up, key=lambda p: records[p].byes)
        candidates: list[int | None] = list(fresh or least)
    else:
        candidates = [None]
    for rematches, seat_limit in ((False, True), (False, False), (True, False)):
        spent = [0]  # the steps of this wish's search, every bye tried
        for bye in candidates:
            try:
                pairs = search([p for p in order if p != bye], rematches, seat_limit, spent)
            except _OutOfBudget:
                if spent[0] > budget:
                    break
                continue
            return Round(_seat(pairs, records, rank), bye)
    # Unreachable in practice: with rematches allowed, the first way down succeeds.
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    return Round(_seat(pairs, records, rank), order[-1] if len(order) % 2 else None)


def _seat(
    pairs: list[tuple[int, int]], records: Mapping[int, _Record], rank: Mapping[int, int]
) -> tuple[Pairing, ...]:
    """The seats of each pair: the first to whoever had it less often, then to whoever
    had the second last time, then alternately by board (the higher-placed player
    first on the odd boards)."""
    seated = []
    for board, (p, q) in enumerate(sorted(pairs, key=lambda pq: min(rank[pq[0]], rank[pq[1]]))):
        a, b = (p, q) if rank[p] < rank[q] else (q, p)
        ra, rb = records[a], records[b]
        if ra.balance != rb.balance:
            first = a if ra.balance < rb.balance else b
        elif ra.last is not None and rb.last is not None and ra.last != rb.last:
            first = a if ra.last == 1 else b
        else:
            first = a if board % 2 == 0 else b
        seated.append(Pairing(first, b if first == a else a))
    return tuple(seated)


# -- knockout -------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """The seeds (0 the strongest) in the order of a bracket's slots: 0 meets
    ``size - 1``, and the two strongest can meet only in the final."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [0]
    while len(order) < size:
        width = 2 * len(order)
        order = [x for seed in order for x in (seed, width - 1 - seed)]
    return order


def bracket_size(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


@dataclass(frozen=True, slots=True)
class Match:
    """Two players' match in a knockout round (1 the first), at ``slot`` from the top.
    A side is None while undecided (or, in the first round, a bye)."""

    round: int
    slot: int
    sides: tuple[int | None, int | None]
    games: tuple[Result, ...]
    winner: int | None

    def next_game(self) -> Pairing | None:
        """The game it waits for: the first (seats alternate by slot), or a drawn
        game's replay with the seats swapped. None: decided, or a side undecided."""
        a, b = self.sides
        if self.winner is not None or a is None or b is None:
            return None
        if self.games:
            last = self.games[-1]
            return Pairing(last.second, last.first)
        return Pairing(a, b) if self.slot % 2 == 0 else Pairing(b, a)


def knockout(seeds: Sequence[int], played: Mapping[int, Sequence[Result]]) -> list[list[Match]]:
    """Every round of the bracket of ``seeds`` (strongest first), as far as the games
    ``played`` in each round (by round number, in the order played) decide it. The
    champion is the last round's winner."""
    if len(seeds) < 2:
        raise ValueError("a knockout needs at least two players")
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player is listed twice")
    size = bracket_size(len(seeds))
    slots: list[int | None] = [seeds[i] if i < len(seeds) else None for i in bracket_order(size)]
    rounds: list[list[Match]] = []
    number = 1
    first_round = True
    while len(slots) > 1:
        matches = []
        games = played.get(number, ())
        for slot in range(len(slots) // 2):
            a, b = slots[2 * slot], slots[2 * slot + 1]
            mine = tuple(g for g in games if {g.first, g.second} == {a, b})
            winner = None
            if first_round and (a is None) != (b is None):
                winner = a if b is None else b  # a bye
            for game in mine:
                if game.winner is not None:
                    winner = game.winner
                    break
            matches.append(Match(number, slot, (a, b), mine, winner))
        rounds.append(matches)
        slots = [match.winner for match in matches]
        number += 1
        first_round = False
    return rounds


def champion(rounds: Sequence[Sequence[Match]]) -> int | None:
    return rounds[-1][0].winner if rounds else None
