"""The database file: migrations, WAL, transactions and the move constraint."""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Conflict, Database, Query, Unavailable, apply, queries
from bot.storage.migrations import _V5_TERMINATIONS, MIGRATIONS
from rules import Termination
from tests.e2e.driver import PLANS, planned_moves

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def new_game(db: Database) -> int:
    async with db.transaction() as tx:
        return await queries.insert_game(
            tx, guild_id=1, channel_id=2, challenge_id=None, challenge_message_id=None,
            game="asli", options={"size": 5}, settings={}, player_ids=[10, 20],
            player_names=["Ana", "Bo"], created_at=NOW)


async def test_a_new_file_gets_every_migration_and_wal(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "sub" / "bot.sqlite3")
    try:
        async with db.reading() as conn:
            (version,) = await (await conn.execute("PRAGMA user_version")).fetchone()
            (mode,) = await (await conn.execute("PRAGMA journal_mode")).fetchone()
        assert version == len(MIGRATIONS)
        assert mode == "wal"
    finally:
        await db.close()


async def test_reopening_keeps_the_data_and_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    game_id = await new_game(db)
    await db.close()
    db = await Database.open(path)
    try:
        assert await db.migrate() == len(MIGRATIONS)
        async with db.reading() as conn:
            row = await queries.get_game(conn, game_id)
        assert row.player_names == ("Ana", "Bo")
        assert row.options == {"size": 5}
        assert row.created_at == NOW
    finally:
        await db.close()


async def test_a_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await new_game(db)
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await apply(tx, [queries.insert_move_statement(
                    game_id=game_id, ply=1, move="c3", seat=0, member_id=10, played_at=NOW)])
                raise RuntimeError("the post failed")
        async with db.reading() as conn:
            assert await queries.moves_of_game(conn, game_id) == []
    finally:
        await db.close()


async def test_one_move_per_ply(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
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
    finally:
        await db.close()


async def test_a_game_ends_once(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await new_game(db)
        async with db.transaction() as tx:
            first = queries.finish_game_statement(
                game_id, result="Ana wins", winner_seat=0, end_reason=Termination.NO_MOVES,
                finished_at=NOW)
            second = queries.finish_game_statement(
                game_id, result="Bo wins", winner_seat=1, end_reason=Termination.RESIGNATION,
                finished_at=NOW)
            assert await apply(tx, [first, second]) == [1, 0]
            row = await queries.get_game(tx, game_id)
        assert (row.status, row.result, row.finished_at) == ("finished", "Ana wins", NOW)
    finally:
        await db.close()


async def test_a_written_batch_is_one_transaction(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await new_game(db)
        first = queries.insert_move_statement(game_id=game_id, ply=1, move="c3", seat=0,
                                              member_id=10, played_at=NOW)
        again = queries.insert_move_statement(game_id=game_id, ply=1, move="d4", seat=0,
                                              member_id=10, played_at=NOW)
        finish = queries.finish_game_statement(game_id, result="Ana wins", winner_seat=0,
                                               end_reason=Termination.NO_MOVES, finished_at=NOW)
        with pytest.raises(Conflict):
            await db.write([first, finish, again])
        async with db.reading() as conn:  # neither the move nor the ending was kept
            assert await queries.moves_of_game(conn, game_id) == []
            assert (await queries.get_game(conn, game_id)).is_active
        assert await db.write([first, finish, finish]) == [1, 1, 0]  # rows changed by each
        moves = await db.read(Query("moves", lambda conn: [row["move"] for row in conn.execute(
            "SELECT move FROM moves WHERE game_id = ?", (game_id,))]))
        assert moves == ["c3"]
    finally:
        await db.close()


async def test_a_write_that_need_not_wait_for_the_disk_leaves_the_others_waiting(
        tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await new_game(db)
        assert await db.write([queries.set_last_message_statement(game_id, 77)],
                              durable=False) == [1]
        with pytest.raises(Conflict):  # still all or nothing
            await db.write([queries.set_last_message_statement(game_id, 78),
                            ("INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
                             " VALUES (?, 0, 'c3', 0, 10, '')", (game_id,))], durable=False)
        async with db.reading() as conn:
            assert (await queries.get_game(conn, game_id)).last_message_id == 77
        ((level,),) = await db.read(Query("synchronous", lambda conn: conn.execute(
            "PRAGMA synchronous").fetchall()))
        assert level == 2  # FULL: every other commit is synced to the disk
    finally:
        await db.close()


async def test_old_endings_take_the_words_of_rules_termination(tmp_path: Path) -> None:
    """Migration 5: "rules" becomes the ending the stored moves reach; the other words
    stay; a game that cannot be replayed any more keeps no ending rather than a wrong one."""
    path = tmp_path / "old.sqlite3"
    options, seed = PLANS["sliglube"]
    moves = planned_moves("sliglube", options, seed)
    with sqlite3.connect(path, isolation_level=None) as conn:  # as the bot left it before
        for script in MIGRATIONS[:4]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version = 4")
        for game_id, (game, reason) in enumerate([
                ("sliglube", "rules"), ("asli", "resignation"), ("asli", "timeout"),
                ("asli", "abort"), ("chess", "rules"), ("asli", None)], 1):
            conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, game, options, player0_id,"
                " player0_name, player1_id, player1_name, created_at, status, end_reason)"
                " VALUES (?, 1, 2, ?, ?, 10, 'Ana', 20, 'Bo', ?, ?, ?)",
                (game_id, game, json.dumps(options if game == "sliglube" else {}),
                 NOW.isoformat(), "active" if reason is None else "finished", reason))
        conn.executemany("INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
                         " VALUES (1, ?, ?, ?, 10, ?)",
                         [(ply, move, (ply - 1) % 2, NOW.isoformat())
                          for ply, move in enumerate(moves, 1)])
    db = await Database.open(path)
    try:
        async with db.reading() as conn:
            rows = [await queries.get_game(conn, game_id) for game_id in range(1, 7)]
        assert [row.end_reason for row in rows] == [
            Termination.STALEMATE, Termination.RESIGNATION, Termination.TIMEOUT,
            Termination.ABORT, None, None]
        with pytest.raises(Conflict):  # the old word is refused from now on
            await db.write([("UPDATE games SET end_reason = 'rules' WHERE id = 6", ())])
    finally:
        await db.close()


def test_the_schema_knows_every_ending_of_the_rules() -> None:
    """A new Termination needs a migration widening the CHECK of games.end_reason."""
    assert set(_V5_TERMINATIONS) == {termination.value for termination in Termination}


async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    await db.close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(Unavailable, match="made by a newer version of the bot"):
        await Database.open(path)


async def test_a_refused_database_leaves_no_thread_behind(tmp_path: Path) -> None:
    """aiosqlite's worker thread, left running, would keep the process alive after the
    refusal (the bot printed its error and never exited)."""
    def workers() -> set[threading.Thread]:
        return {t for t in threading.enumerate()
                if getattr(t, "_target", None) is aiosqlite.core._connection_worker_thread}

    before = workers()
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"not a database at all" * 500)
    with pytest.raises(Unavailable, match="not a database"):
        await Database.open(path)
    for thread in workers() - before:
        thread.join(timeout=5)
        assert not thread.is_alive()
