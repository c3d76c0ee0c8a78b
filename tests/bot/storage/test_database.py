"""The database, on SQLite and on PostgreSQL: migrations, transactions, the move
constraint, prepared reads and writes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import Conflict, Connection, Database, apply, open_database, queries
from bot.storage.database import Unavailable, parse_url, query
from bot.storage.migrations import MIGRATIONS

pytestmark = pytest.mark.both_backends

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_game(db: Database) -> int:
    async with db.transaction() as tx:
        return await queries.insert_game(
            tx, guild_id=1, channel_id=2, challenge_id=None, challenge_message_id=None,
            game="asli", options={"size": 5}, settings={}, player_ids=[10, 20],
            player_names=["Ana", "Bo"], created_at=NOW)


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


async def test_reopening_keeps_the_data_and_applies_nothing_twice(
        database_url: Path | str) -> None:
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
            tx, guild_id=snowflake, channel_id=snowflake + 1, challenge_id=None,
            challenge_message_id=None, game="asli", options={}, settings={},
            player_ids=[snowflake + 2, snowflake + 3], player_names=["Ana", "Bo"],
            created_at=NOW)
    row = await db.read(queries.game_by_id(game_id))
    assert (row.guild_id, row.player_ids) == (snowflake, (snowflake + 2, snowflake + 3))


async def test_a_failed_transaction_leaves_nothing(db: Database) -> None:
    game_id = await new_game(db)
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await apply(tx, [queries.insert_move_statement(
                game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW)])
            raise RuntimeError("the post failed")
    async with db.reading() as conn:
        assert await queries.moves_of_game(conn, game_id) == []


async def test_one_move_per_ply(db: Database) -> None:
    game_id = await new_game(db)
    async with db.transaction() as tx:
        await apply(tx, [queries.insert_move_statement(
            game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW)])
    with pytest.raises(Conflict):
        async with db.transaction() as tx:
            await apply(tx, [queries.insert_move_statement(
                game_id=game_id, ply=1, move="d4", seat=0, member_id=10, played_at=NOW)])
    async with db.reading() as conn:
        assert [m.move for m in await queries.moves_of_game(conn, game_id)] == ["c3"]


async def test_a_game_ends_once(db: Database) -> None:
    game_id = await new_game(db)
    async with db.transaction() as tx:
        assert await apply(tx, [
            queries.finish_game_statement(game_id, result="Ana wins", winner_seat=0,
                                          end_reason="rules", finished_at=NOW),
            queries.finish_game_statement(game_id, result="Bo wins", winner_seat=1,
                                          end_reason="resignation", finished_at=NOW)]) \
            == [1, 0]
        row = await queries.get_game(tx, game_id)
    assert (row.status, row.result, row.finished_at) == ("finished", "Ana wins", NOW)


@query
async def moves_played(conn: Connection, game_id: int) -> list[str]:
    return [row["move"] for row in await conn.fetch_all(
        "SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]


async def test_a_written_batch_is_one_transaction(db: Database) -> None:
    game_id = await new_game(db)
    first = queries.insert_move_statement(game_id=game_id, ply=1, move="c3", seat=0,
                                          member_id=10, played_at=NOW)
    again = queries.insert_move_statement(game_id=game_id, ply=1, move="d4", seat=0,
                                          member_id=10, played_at=NOW)
    finish = queries.finish_game_statement(game_id, result="Ana wins", winner_seat=0,
                                           end_reason="rules", finished_at=NOW)
    with pytest.raises(Conflict):
        await db.write([first, finish, again])
    async with db.reading() as conn:  # neither the move nor the ending was kept
        assert await queries.moves_of_game(conn, game_id) == []
        assert (await queries.get_game(conn, game_id)).is_active
    assert await db.write([first, finish, finish]) == [1, 1, 0]  # rows changed by each
    assert await db.read(moves_played(game_id)) == ["c3"]


async def test_prepared_reads_are_read_together(db: Database) -> None:
    game_id = await new_game(db)
    await db.write([queries.insert_move_statement(game_id=game_id, ply=1, move="c3", seat=0,
                                                  member_id=10, played_at=NOW)])
    row, moves, (clock, vacations) = await db.read_many(
        queries.game_by_id(game_id), moves_played(game_id), queries.clock_and_vacations(game_id))
    assert (row.id, moves, clock, vacations) == (game_id, ["c3"], None, {})


async def test_a_write_that_need_not_wait_for_the_disk_is_still_all_or_nothing(
        db: Database) -> None:
    game_id = await new_game(db)
    assert await db.write([queries.set_last_message_statement(game_id, 77)],
                          durable=False) == [1]
    with pytest.raises(Conflict):
        await db.write([queries.set_last_message_statement(game_id, 78),
                        ("INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
                         " VALUES (?, 0, 'c3', 0, 10, '')", (game_id,))], durable=False)
    async with db.reading() as conn:
        assert (await queries.get_game(conn, game_id)).last_message_id == 77


async def test_sqlite_waits_for_the_disk_again_after_a_write_that_did_not(
        tmp_path: Path) -> None:
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
        assert await tx.change("UPDATE games SET result = 'who? ''me?''' WHERE id = ?",
                               (game_id,)) == 1
        assert (await queries.get_game(tx, game_id)).result == "who? 'me?'"


def test_urls() -> None:
    assert parse_url("sqlite:///data/bot.sqlite3") == ("sqlite", "data/bot.sqlite3")
    assert parse_url("sqlite:////srv/bot.sqlite3") == ("sqlite", "/srv/bot.sqlite3")
    assert parse_url(Path("bot.sqlite3")) == ("sqlite", "bot.sqlite3")
    assert parse_url("postgresql://bot:pw@db/boardbot") \
        == ("postgresql", "postgresql://bot:pw@db/boardbot")
    with pytest.raises(Unavailable, match="mysql:// databases are not supported"):
        parse_url("mysql://bot@db/boardbot")


async def test_an_unreachable_postgresql_server_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(Unavailable):
        await open_database(f"postgresql://bot@/boardbot?host={tmp_path}&port=1")
