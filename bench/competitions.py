"""Competitions: pairing a 200-player Swiss round, drawing a 40-player standings
picture, and reading the standings of a 1,000-game tournament from a SQLite file.

    python -m bench competitions [--quick]
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.common import latency_row, print_table
from bot.claims import Claims
from bot.competitions.pairing import Result, round_robin, swiss_round
from bot.competitions.service import Tournaments, byes_of, results_of
from bot.competitions.standings import standings
from bot.competitions.tables import round_rows
from bot.model import Member
from bot.storage import TournamentGameRow, open_database, queries
from render.crosstable import table_png


def swiss(players: int, rounds: int, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    ids = list(range(players))
    results: list[Result] = []
    byes: list[int] = []
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        one = swiss_round(ids, results, byes)
        samples.append(time.perf_counter() - start)
        if one.bye is not None:
            byes.append(one.bye)
        results += [Result(p.first, p.second, rng.choice((1.0, 0.5, 0.0))) for p in one.pairings]
    return samples


def picture(players: int, repeats: int) -> list[float]:
    rng = random.Random(2)
    ids = list(range(1, players + 1))
    games = [
        TournamentGameRow(
            0, 1, r, b, 0, ids[(b + r) % players], ids[(b + r + players // 2) % players],
            None, rng.choice((1.0, 0.5, 0.0)), False,
        )
        for r in range(1, 8)
        for b in range(players // 2)
    ]  # fmt: skip
    table = standings(dict.fromkeys(ids, 1500.0), results_of(games), byes_of(games))
    header, rows = round_rows(table, games, {i: f"Player number {i}" for i in ids}, 7)
    table_png("warm-up", header, rows)  # fonts loaded once per process
    samples = []
    for i in range(repeats):
        start = time.perf_counter()
        table_png("A long Swiss", header, rows, theme=("dark", "light")[i % 2], highlight=[0])
        samples.append(time.perf_counter() - start)
    return samples


class _NoOpener:
    async def create(self, **kwargs: Any) -> Any:
        raise AssertionError("no game is opened here")

    async def accept(self, **kwargs: Any) -> Any:
        raise AssertionError("no game is opened here")


async def standings_query(players: int, repeats: int) -> tuple[int, list[float]]:
    """A double round robin of ``players`` with every game scored: the standings read."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.sqlite3")
        svc = Tournaments(db, _NoOpener(), now=lambda: now, claims=Claims(db, now=lambda: now))
        made = await svc.create(
            guild_id=1, channel_id=2, organiser=Member(1, "Org"), name="League",
            format="double_round_robin", game="lifeline", starts_at=now + timedelta(days=1),
            min_players=2, max_players=players,
        )  # fmt: skip
        rng = random.Random(3)
        async with db.transaction() as tx:
            for i in range(players):
                await queries.add_entrant(
                    tx, made.id, member_id=100 + i, member_name=f"P{i}", joined_at=now,
                    max_players=players,
                )  # fmt: skip
            await queries.seed_entrants(
                tx, made.id, [(100 + i, i, 1500.0 + i) for i in range(players)]
            )
            await queries.set_tournament_status(tx, made.id, old="signup", new="running")
            rows = [
                (number, board, 0, p.first + 100, p.second + 100, rng.choice((1.0, 0.5)), False)
                for number, one in enumerate(round_robin(list(range(players)), 2), start=1)
                for board, p in enumerate(one.pairings)
            ]  # fmt: skip
            await queries.insert_tournament_games(tx, made.id, rows)
        await svc.table(1, made.id)  # warm
        samples = []
        for _ in range(repeats):
            start = time.perf_counter()
            await svc.table(1, made.id)
            samples.append(time.perf_counter() - start)
        await db.close()
        return len(rows), samples


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    players = 40 if quick else 200
    games, read = asyncio.run(standings_query(8 if quick else 32, 3 if quick else 30))
    print_table(
        "Competitions",
        [
            latency_row(
                "Swiss round pairing", f"{players} players, 9 rounds", swiss(players, 9), "< 1 s"
            ),
            latency_row(
                "standings picture (round by round)",
                "40 players, 7 rounds",
                picture(40, 3 if quick else 20),
                "< 150 ms",
            ),
            latency_row("standings read (SQLite file)", f"{games} games", read, "< 50 ms"),
        ],
    )
