"""The database, on SQLite and on PostgreSQL: migrations, start-up checks,
transactions, the move constraint, prepared reads and writes."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import (
    Conflict,
    Connection,
    Database,
    WriteFailed,
    apply,
    open_database,
    queries,
)
from bot.storage.database import Unavailable, parse_url, query
from bot.storage.migrations import _V5_TERMINATIONS, MIGRATIONS
from bot.storage.pg_migrations import postgres_form
from bot.storage.postgres import PostgresDatabase
from rules import Termination
from tests.e2e.driver import PLANS, planned_moves
from tests.timing import seconds

pytestmark = pytest.mark.both_backends

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_game(db: Database) -> int:
    async with db.transaction() as tx:
        return await queries.insert_game(
            tx,
            guild_id=1,
            channel_id=2,
            challenge_id=None,
            challenge_message_id=None,
            game="asli",
            options={"size": 5},
            settings={},
            player_ids=[10, 20],
            player_names=["Ana", "Bo"],
            created_at=NOW,
        )


@pytest.fixture
async def db(database_url: Path | str):
    database = await open_database(database_url)
    yield database
    await database.close()


async def test_a_new_sqlite_file_gets_every_migration_and_wal(tmp_path: Path) -> None:
    db = await open_database(f"sqlite:///{tmp_path}/sub/bot.sqlite3")
    try:
        assert db.backend == "sqlite"
        assert (tmp_path / "sub" / "bot.sqlite3").is_file()
        (version, mode) = await db.read(pragmas())
        assert version == len(MIGRATIONS)
        assert mode == "wal"
    finally:
        await db.close()


@query
async def pragmas(conn: Connection) -> tuple[int, str]:
    (version,) = await conn.fetch_one("PRAGMA user_version")
    (mode,) = await conn.fetch_one("PRAGMA journal_mode")
    return version, mode


async def test_a_new_postgresql_database_gets_every_migration(postgres_server) -> None:
    db = await open_database(await postgres_server.fresh())
    try:
        assert db.backend == "postgresql"
        assert await db.migrate() == len(MIGRATIONS)
        assert await new_game(db) == 1
    finally:
        await db.close()


async def test_reopening_keeps_the_data_and_applies_nothing_twice(database_url: Path | str) -> None:
    db = await open_database(database_url)
    game_id = await new_game(db)
    await db.close()
    db = await open_database(database_url)
    try:
        assert await db.migrate() == len(MIGRATIONS)
        async with db.reading() as conn:
            row = await queries.get_game(conn, game_id)
        assert row.player_names == ("Ana", "Bo")
        assert row.options == {"size": 5}
        assert row.created_at == NOW
    finally:
        await db.close()


async def test_discord_ids_need_64_bits(db: Database) -> None:
    snowflake = 1_234_567_890_123_456_789
    async with db.transaction() as tx:
        game_id = await queries.insert_game(
            tx,
            guild_id=snowflake,
            channel_id=snowflake + 1,
            challenge_id=None,
            challenge_message_id=None,
            game="asli",
            options={},
            settings={},
            player_ids=[snowflake + 2, snowflake + 3],
            player_names=["Ana", "Bo"],
            created_at=NOW,
        )
    row = await db.read(queries.game_by_id(game_id))
    assert (row.guild_id, row.player_ids) == (snowflake, (snowflake + 2, snowflake + 3))


async def test_a_failed_transaction_leaves_nothing(db: Database) -> None:
    game_id = await new_game(db)
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await apply(
                tx,
                [
                    queries.insert_move_statement(
                        game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW
                    )
                ],
            )
            raise RuntimeError("the post failed")
    async with db.reading() as conn:
        assert await queries.moves_of_game(conn, game_id) == []


async def test_one_move_per_ply(db: Database) -> None:
    game_id = await new_game(db)
    async with db.transaction() as tx:
        await apply(
            tx,
            [
                queries.insert_move_statement(
                    game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW
                )
            ],
        )
    with pytest.raises(Conflict):
        async with db.transaction() as tx:
            await apply(
                tx,
                [
                    queries.insert_move_statement(
                        game_id=game_id, ply=1, move="d4", seat=0, member_id=10, played_at=NOW
                    )
                ],
            )
    async with db.reading() as conn:
        assert [m.move for m in await queries.moves_of_game(conn, game_id)] == ["c3"]


async def test_a_game_ends_once(db: Database) -> None:
    game_id = await new_game(db)
    async with db.transaction() as tx:
        assert await apply(
            tx,
            [
                queries.finish_game_statement(
                    game_id,
                    result="Ana wins",
                    winner_seat=0,
                    end_reason=Termination.NO_MOVES,
                    finished_at=NOW,
                ),
                queries.finish_game_statement(
                    game_id,
                    result="Bo wins",
                    winner_seat=1,
                    end_reason=Termination.RESIGNATION,
                    finished_at=NOW,
                ),
            ],
        ) == [1, 0]
        row = await queries.get_game(tx, game_id)
    assert (row.status, row.result, row.finished_at) == ("finished", "Ana wins", NOW)


@query
async def moves_played(conn: Connection, game_id: int) -> list[str]:
    return [
        row["move"]
        for row in await conn.fetch_all(
            "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
    ]


async def test_a_written_batch_is_one_transaction(db: Database) -> None:
    game_id = await new_game(db)
    first = queries.insert_move_statement(
        game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW
    )
    again = queries.insert_move_statement(
        game_id=game_id, ply=1, move="d4", seat=0, member_id=10, played_at=NOW
    )
    finish = queries.finish_game_statement(
        game_id, result="Ana wins", winner_seat=0, end_reason=Termination.NO_MOVES, finished_at=NOW
    )
    with pytest.raises(Conflict):
        await db.write([first, finish, again])
    async with db.reading() as conn:  # neither the move nor the ending was kept
        assert await queries.moves_of_game(conn, game_id) == []
        assert (await queries.get_game(conn, game_id)).is_active
    assert await db.write([first, finish, finish]) == [1, 1, 0]  # rows changed by each
    assert await db.read(moves_played(game_id)) == ["c3"]


async def test_a_required_statement_that_changes_nothing_undoes_the_write(db: Database) -> None:
    """A move read on an old position (another process moved since) stores nothing,
    not even what was written with it (its post in the outbox)."""
    game_id = await new_game(db)
    second = queries.insert_move_statement(
        game_id=game_id, ply=2, move="c4", seat=1, member_id=20, played_at=NOW
    )
    with pytest.raises(Conflict):
        await db.write([second, queries.set_last_message_statement(game_id, 77)], required=(0,))
    assert (await db.read(queries.game_by_id(game_id))).last_message_id is None
    assert await db.write([queries.set_last_message_statement(game_id, 77)], required=(0,)) == [1]


async def test_prepared_reads_are_read_together(db: Database) -> None:
    game_id = await new_game(db)
    await db.write(
        [
            queries.insert_move_statement(
                game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW
            )
        ]
    )
    row, moves, (clock, vacations) = await db.read_many(
        queries.game_by_id(game_id), moves_played(game_id), queries.clock_and_vacations(game_id)
    )
    assert (row.id, moves, clock, vacations) == (game_id, ["c3"], None, {})


async def test_a_write_that_need_not_wait_for_the_disk_is_still_all_or_nothing(
    db: Database,
) -> None:
    game_id = await new_game(db)
    assert await db.write([queries.set_last_message_statement(game_id, 77)], durable=False) == [1]
    with pytest.raises(Conflict):
        await db.write(
            [
                queries.set_last_message_statement(game_id, 78),
                (
                    "INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
                    " VALUES (?, 0, 'c3', 0, 10, '')",
                    (game_id,),
                ),
            ],
            durable=False,
        )
    async with db.reading() as conn:
        assert (await queries.get_game(conn, game_id)).last_message_id == 77


async def test_sqlite_waits_for_the_disk_again_after_a_write_that_did_not(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "bot.sqlite3")
    try:
        game_id = await new_game(db)
        await db.write([queries.set_last_message_statement(game_id, 77)], durable=False)
        ((level,),) = await db.read(synchronous())
        assert level == 2  # FULL: every other commit is synced to the disk
    finally:
        await db.close()


@query
async def synchronous(conn: Connection) -> list:
    return await conn.fetch_all("PRAGMA synchronous")


async def test_text_placeholders_and_quotes_are_told_apart(db: Database) -> None:
    game_id = await new_game(db)
    async with db.transaction() as tx:
        assert (
            await tx.change("UPDATE games SET result = 'who? ''me?''' WHERE id = ?", (game_id,))
            == 1
        )
        assert (await queries.get_game(tx, game_id)).result == "who? 'me?'"


def test_urls() -> None:
    assert parse_url("sqlite:///data/bot.sqlite3") == ("sqlite", "data/bot.sqlite3")
    assert parse_url("sqlite:////srv/bot.sqlite3") == ("sqlite", "/srv/bot.sqlite3")
    assert parse_url(Path("bot.sqlite3")) == ("sqlite", "bot.sqlite3")
    assert parse_url("postgresql://bot:pw@db/boardbot") == (
        "postgresql",
        "postgresql://bot:pw@db/boardbot",
    )
    with pytest.raises(Unavailable, match="mysql:// databases are not supported"):
        parse_url("mysql://bot@db/boardbot")


async def test_an_unreachable_postgresql_server_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(Unavailable):
        await open_database(f"postgresql://bot@/boardbot?host={tmp_path}&port=1")


# -- what the bot refuses at start-up -------------------------------------------------


async def old_database(backend: str, url: Path | str, version: int) -> asyncpg.Connection | None:
    """Bring an empty database to ``version`` as the bot of that version left it; on
    PostgreSQL, the open asyncpg connection (the caller closes it)."""
    if backend == "sqlite":
        with sqlite3.connect(url, isolation_level=None) as conn:
            for script in MIGRATIONS[:version]:
                conn.executescript(script)
            conn.execute(f"PRAGMA user_version = {version}")
        conn.close()
        return None
    conn = await asyncpg.connect(str(url))
    await conn.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    for number, migration in enumerate(MIGRATIONS[:version], 1):
        await conn.execute(postgres_form(migration))
        await conn.execute("INSERT INTO schema_migrations VALUES ($1, '')", number)
    return conn


async def test_old_endings_take_the_words_of_rules_termination(
    backend: str, database_url: Path | str
) -> None:
    """Migration 5: "rules" becomes the ending the stored moves reach; the other words
    stay; a game that cannot be replayed any more keeps no ending rather than a wrong one."""
    options, seed = PLANS["sliglube"]
    moves = planned_moves("sliglube", options, seed)
    games = [
        (
            game_id,
            game,
            json.dumps(options if game == "sliglube" else {}),
            NOW.isoformat(),
            "active" if reason is None else "finished",
            reason,
        )
        for game_id, (game, reason) in enumerate(
            [
                ("sliglube", "rules"),
                ("asli", "resignation"),
                ("asli", "timeout"),
                ("asli", "abort"),
                ("chess", "rules"),
                ("asli", None),
            ],
            1,
        )
    ]
    played = [(ply, move, (ply - 1) % 2, NOW.isoformat()) for ply, move in enumerate(moves, 1)]
    insert_game = (
        "INSERT INTO games (id, guild_id, channel_id, game, options, player0_id,"
        " player0_name, player1_id, player1_name, created_at, status, end_reason)"
        " VALUES ({}, 1, 2, {}, {}, 10, 'Ana', 20, 'Bo', {}, {}, {})"
    )
    insert_move = (
        "INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
        " VALUES (1, {}, {}, {}, 10, {})"
    )
    pg = await old_database(backend, database_url, 4)  # as the bot left it before
    if pg is None:
        with sqlite3.connect(database_url, isolation_level=None) as conn:
            conn.executemany(insert_game.format(*"??????"), games)
            conn.executemany(insert_move.format(*"????"), played)
        conn.close()
    else:
        await pg.executemany(insert_game.format(*(f"${n}" for n in range(1, 7))), games)
        await pg.executemany(insert_move.format(*(f"${n}" for n in range(1, 5))), played)
        await pg.close()
    db = await open_database(database_url)
    try:
        async with db.reading() as conn:
            rows = [await queries.get_game(conn, game_id) for game_id in range(1, 7)]
        assert [row.end_reason for row in rows] == [
            Termination.STALEMATE,
            Termination.RESIGNATION,
            Termination.TIMEOUT,
            Termination.ABORT,
            None,
            None,
        ]
        with pytest.raises(Conflict):  # the old word is refused from now on
            await db.write([("UPDATE games SET end_reason = 'rules' WHERE id = 6", ())])
    finally:
        await db.close()


def test_the_schema_knows_every_ending_of_the_rules() -> None:
    """A new Termination needs a migration widening the CHECK of games.end_reason."""
    assert set(_V5_TERMINATIONS) == {termination.value for termination in Termination}


async def test_a_database_from_a_newer_bot_is_refused(
    backend: str, database_url: Path | str
) -> None:
    db = await open_database(database_url)
    await db.close()
    if backend == "sqlite":
        with sqlite3.connect(database_url) as conn:
            conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        conn.close()
    else:
        conn = await asyncpg.connect(str(database_url))
        await conn.execute("INSERT INTO schema_migrations VALUES ($1, '')", len(MIGRATIONS) + 1)
        await conn.close()
    with pytest.raises(Unavailable, match="made by a newer version of the bot"):
        await open_database(database_url)


async def test_a_refused_database_leaves_no_thread_behind(tmp_path: Path) -> None:
    """aiosqlite's worker thread, left running, would keep the process alive after the
    refusal (the bot printed its error and never exited)."""

    def workers() -> set[threading.Thread]:
        return {
            t
            for t in threading.enumerate()
            if getattr(t, "_target", None) is aiosqlite.core._connection_worker_thread
        }

    before = workers()
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"not a database at all" * 500)
    with pytest.raises(Unavailable, match="not a database"):
        await open_database(path)
    for thread in workers() - before:
        thread.join(timeout=seconds(5))
        assert not thread.is_alive()


async def test_a_postgresql_database_that_takes_no_writes_is_refused_in_plain_words(
    postgres_server,
) -> None:
    """A read-only standby (here: every transaction read-only) is refused at start-up;
    a write it refuses later is a WriteFailed that says why, never a crash."""
    url = await postgres_server.fresh()
    await (await open_database(url)).close()
    read_only = url + "&default_transaction_read_only=on"
    with pytest.raises(Unavailable, match="the database server takes no writes"):
        await open_database(read_only)
    db = PostgresDatabase(await asyncpg.create_pool(read_only, min_size=1, max_size=1), read_only)
    try:
        with pytest.raises(WriteFailed, match="takes no writes"):
            await db.write([("UPDATE games SET last_message_id = 1", ())])
        with pytest.raises(WriteFailed, match="takes no writes"):
            async with db.transaction() as tx:
                await tx.change("UPDATE games SET last_message_id = 1")
    finally:
        await db.close()
