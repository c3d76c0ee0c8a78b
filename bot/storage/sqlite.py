"""The SQLite backend: one file, one connection, one process.

Every access goes through a single :class:`asyncio.Lock`, so a transaction opened by
one coroutine never sees another coroutine's statements slip in between its own.
Writes happen only inside a transaction (``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back
on any exception), which locks the whole file: rows read in one stay as read, and
``FOR UPDATE`` is dropped from the SQL.

aiosqlite runs each statement in its one worker thread, and every call is a round trip
to that thread: under load those hops, each also waiting for the GIL, cost far more
than SQLite itself. So each call of a :class:`Connection` is one hop, and
:meth:`SqliteDatabase.read_many` and :meth:`SqliteDatabase.write` do a whole unit of
work (several prepared reads; a whole transaction) in a single hop: the named queries,
coroutines that await only their connection, run to their end in that thread
(:func:`run_now`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import health
from bot.storage.database import (
    Conflict,
    Connection,
    Database,
    Query,
    ReadFailed,
    Row,
    Statement,
    Unavailable,
    WriteFailed,
    unchanged,
)
from bot.storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

T = TypeVar("T")


class SqliteDatabase(Database):
    backend = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self.path = path
        self.where = str(path)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        try:
            return await cls._open(Path(path))
        except health.Unusable as error:
            raise Unavailable(str(error)) from error
        except (OSError, sqlite3.Error) as error:
            raise Unavailable(f"{health.plain_reason(error)} ({error})") from error

    @classmethod
    async def _open(cls, path: Path) -> SqliteDatabase:
        """Open, check (readable, undamaged, a schema this bot knows), migrate, and
        check that a write reaches the disk. A connection that fails any of it is
        closed: its thread would keep the process alive."""
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        # A file that cannot even be opened fails here, not in aiosqlite's thread (whose
        # late answer would find the event loop closed by then).
        await asyncio.to_thread(health.check_openable, path)
        connection = await aiosqlite.connect(path, isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute("PRAGMA busy_timeout = 5000")
            # Every commit waits for the disk (the default, said explicitly: write(durable=
            # False) relaxes it for one commit and restores this).
            await connection.execute("PRAGMA synchronous = FULL")
            database = cls(connection, path)
            await database._in_thread(lambda conn: health.check_readable(conn, len(MIGRATIONS)))
            await database.migrate()
            await database._in_thread(health.check_writable)
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        async with self._lock:
            await self._connection.close()

    async def migrate(self) -> int:
        """Apply the migrations newer than ``PRAGMA user_version``."""
        async with self._lock:
            cursor = await self._connection.execute("PRAGMA user_version")
            found = await cursor.fetchone()
            assert found is not None  # a PRAGMA's value is a row
            (version,) = found
            for number, script in enumerate(MIGRATIONS, 1):
                if number <= version:
                    continue
                log.info("applying database migration %d", number)
                # executescript would commit on its own; run statement by statement instead.
                await self._connection.execute("BEGIN IMMEDIATE")
                try:
                    if callable(script):
                        await self._in_thread(script)
                    else:
                        for statement in statements_of(script):
                            await self._connection.execute(statement)
                    await self._connection.execute(f"PRAGMA user_version = {number}")
                    await self._connection.execute("COMMIT")
                except BaseException:
                    if self._connection.in_transaction:
                        await self._connection.execute("ROLLBACK")
                    raise
                version = number
            return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._failed(error) from error
            try:
                yield _Hop(self)
                await self._connection.execute("COMMIT")
            except BaseException as error:
                if self._connection.in_transaction:  # SQLite may have rolled back already
                    await self._connection.execute("ROLLBACK")
                if isinstance(error, sqlite3.IntegrityError):
                    raise Conflict(str(error)) from error
                if health.is_storage_failure(error):
                    raise self._failed(error) from error
                raise

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield _Hop(self)

    async def read_many(self, *prepared: Query[Any]) -> list[Any]:
        async with self._lock:
            try:
                return await self._in_thread(
                    lambda conn: [run_now(q.run(_InThread(conn))) for q in prepared]
                )
            except sqlite3.Error as error:
                if health.is_storage_failure(error):
                    reason = health.plain_reason(error)
                    log.error(
                        "a read from the database %s failed: %s (%s)", self.path, reason, error
                    )
                    raise ReadFailed(reason) from error
                raise

    async def write(
        self,
        statements: Sequence[Statement],
        *,
        durable: bool = True,
        required: Collection[int] = (),
    ) -> list[int]:
        """One transaction in one hop. ``durable=False``: ``synchronous = NORMAL`` for
        this commit (no fsync of the WAL; it becomes durable with the next durable
        commit, the WAL being synced in order)."""
        async with self._lock:
            try:
                return await self._in_thread(
                    lambda conn: _write(conn, statements, durable, required)
                )
            except sqlite3.IntegrityError as error:
                raise Conflict(str(error)) from error
            except sqlite3.Error as error:
                if health.is_storage_failure(error):
                    raise self._failed(error) from error
                raise

    def _failed(self, error: BaseException) -> WriteFailed:
        """The one line for the operator about a write that failed; the error to raise."""
        reason = health.plain_reason(error)
        log.error(
            "a write to the database %s failed, nothing of it was saved: %s (%s)",
            self.path,
            reason,
            error,
        )
        return WriteFailed(reason)

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite has no public call for "run this function in your thread"; _execute is
        # what its own execute() and cursors use (tests/bot/storage/test_database.py covers
        # it, and pyproject.toml pins aiosqlite below its next minor version).
        connection = self._connection
        return await connection._execute(work, connection._conn)


def run_now(awaitable: Awaitable[T]) -> T:
    """The result of a coroutine that never suspends (a named query awaiting only an
    :class:`_InThread` connection), run to its end here, without an event loop."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return done.value
    steps.close()
    raise RuntimeError("a named query awaited something other than its connection")


@functools.lru_cache(maxsize=1024)
def sqlite_sql(sql: str) -> str:
    """The portable SQL as SQLite takes it: no ``FOR UPDATE`` (the transaction holds
    the whole file)."""
    text = sql.rstrip()
    return text[: -len(" FOR UPDATE")] if text.upper().endswith(" FOR UPDATE") else sql


class _InThread(Connection):
    """The connection, in its own thread: every method returns without suspending."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> Sequence[Row]:
        return self._conn.execute(sqlite_sql(sql), args).fetchall()

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        return self._conn.execute(sqlite_sql(sql), args).fetchone()

    async def change(self, sql: str, args: Sequence[Any] = ()) -> int:
        return self._conn.execute(sqlite_sql(sql), args).rowcount

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        rowid = self._conn.execute(sqlite_sql(sql), args).lastrowid
        assert rowid is not None  # set by every execute
        return rowid

    async def change_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sqlite_sql(sql), rows)


class _Hop(Connection):
    """The connection, from the event loop: each call one hop to its thread."""

    def __init__(self, database: SqliteDatabase) -> None:
        self._database = database

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> Sequence[Row]:
        return await self._there(lambda conn: conn.fetch_all(sql, args))

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        return await self._there(lambda conn: conn.fetch_one(sql, args))

    async def change(self, sql: str, args: Sequence[Any] = ()) -> int:
        return await self._there(lambda conn: conn.change(sql, args))

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        return await self._there(lambda conn: conn.insert(sql, args))

    async def change_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        await self._there(lambda conn: conn.change_many(sql, rows))

    async def _there(self, call: Callable[[_InThread], Awaitable[T]]) -> T:
        return await self._database._in_thread(lambda conn: run_now(call(_InThread(conn))))


def _write(
    conn: sqlite3.Connection,
    statements: Sequence[Statement],
    durable: bool = True,
    required: Collection[int] = (),
) -> list[int]:
    if not durable:
        conn.execute("PRAGMA synchronous = NORMAL")  # no fsync of the WAL at this commit
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            counts = [conn.execute(sqlite_sql(sql), args).rowcount for sql, args in statements]
            if (conflict := unchanged(counts, required)) is not None:
                raise conflict
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a full disk may have rolled it back already
                conn.execute("ROLLBACK")
            raise
    finally:
        if not durable:
            conn.execute("PRAGMA synchronous = FULL")
    return counts


def statements_of(script: str) -> list[str]:
    """Split a migration script into complete SQL statements (triggers included)."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if text and sqlite3.complete_statement(text):
            statements.append(text)
            current = []
    if "\n".join(current).strip():
        raise ValueError(f"incomplete SQL statement in a migration: {current!r}")
    return statements
