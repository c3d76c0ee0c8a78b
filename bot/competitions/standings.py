"""A tournament's standings: score, then Sonneborn–Berger, then head-to-head, then
rating. Pure, like :mod:`bot.competitions.pairing`.

* score: 1 a win, ½ a draw, 0 a loss (a loss on time or a forfeit is a loss), plus
  ``bye_points`` a bye;
* Sonneborn–Berger: the final scores of the opponents a player beat, plus half of those
  of the opponents they drew (byes count nothing here);
* head-to-head: among the players level on both, the points each scored in the games
  between them;
* rating: the higher first; and last the id, so that the order is always the same.
  Players level on all four share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.competitions.pairing import WIN, Result


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    rank: int
    score: float
    sonneborn_berger: float
    head_to_head: float
    rating: float
    played: int
    wins: int
    draws: int
    losses: int
    byes: int


def standings(
    ratings: Mapping[int, float],
    results: Iterable[Result],
    byes: Iterable[int] = (),
    *,
    bye_points: float = WIN,
) -> list[Standing]:
    """The standings of the players of ``ratings`` (their ratings), best first."""
    games = [r for r in results if r.first in ratings and r.second in ratings]
    score: dict[int, float] = dict.fromkeys(ratings, 0.0)
    tally: dict[int, list[int]] = {p: [0, 0, 0] for p in ratings}  # wins, draws, losses
    bye_count: dict[int, int] = dict.fromkeys(ratings, 0)
    for game in games:
        for player in (game.first, game.second):
            points = game.points_of(player)
            score[player] += points
            tally[player][0 if points == 1 else 1 if points == 0.5 else 2] += 1
    for player in byes:
        if player in ratings:
            score[player] += bye_points
            bye_count[player] += 1
    sb: dict[int, float] = dict.fromkeys(ratings, 0.0)
    for game in games:
        for player in (game.first, game.second):
            sb[player] += game.points_of(player) * score[game.opponent_of(player)]
    level: dict[tuple[float, float], list[int]] = defaultdict(list)
    for player in ratings:
        level[(score[player], sb[player])].append(player)
    h2h: dict[int, float] = dict.fromkeys(ratings, 0.0)
    for group in level.values():
        if len(group) < 2:
            continue
        among = set(group)
        for game in games:
            if game.first in among and game.second in among:
                h2h[game.first] += game.points_of(game.first)
                h2h[game.second] += game.points_of(game.second)

    def key(player: int) -> tuple[float, float, float, float]:
        return (-score[player], -sb[player], -h2h[player], -ratings[player])

    order = sorted(ratings, key=lambda p: (*key(p), p))
    table: list[Standing] = []
    for i, player in enumerate(order):
        rank = table[-1].rank if table and key(order[i - 1]) == key(player) else i + 1
        wins, draws, losses = tally[player]
        table.append(
            Standing(
                player=player,
                rank=rank,
                score=score[player],
                sonneborn_berger=sb[player],
                head_to_head=h2h[player],
                rating=ratings[player],
                played=wins + draws + losses,
                wins=wins,
                draws=draws,
                losses=losses,
                byes=bye_count[player],
            )
        )
    return table
