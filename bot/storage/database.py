"""The one owner of the SQLite connection.

Every access goes through a single :class:`asyncio.Lock`, so a transaction
opened by one coroutine never sees another coroutine's statements slip in
between its own. Writes happen only inside a transaction (``BEGIN IMMEDIATE`` …
``COMMIT``, rolled back on any exception): :meth:`Database.transaction` for a
few awaited statements, or :meth:`Database.write` for a prepared list of them.

aiosqlite runs each statement in its one worker thread, and every call is a
round trip to that thread (for a fetch, two): under load those hops, each also
waiting for the GIL, cost far more than SQLite itself. The hot paths therefore
use :meth:`Database.read` and :meth:`Database.write`, which do a whole unit of
work (several prepared reads; a whole transaction) in a single hop.

Nothing outside this package sees a connection type: the services hold the
handles :meth:`~Database.transaction` and :meth:`~Database.reading` give them
only to pass them on to the named queries of :mod:`bot.storage.queries`, and a
broken constraint comes out as :class:`Conflict`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

import aiosqlite

from bot.storage import health
from bot.storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
P = ParamSpec("P")
#: One SQL statement with its parameters, for :meth:`Database.write` and :func:`apply`.
Statement = tuple[str, Sequence[Any]]
#: The connection a transaction or a read hands out, for the named queries only.
Connection = aiosqlite.Connection


class Unavailable(Exception):
    """The database cannot be opened or migrated (the message says why)."""


class Conflict(Exception):
    """A write broke a constraint of the database (a second move for the same ply, say);
    nothing of it was kept."""


class WriteFailed(Exception):
    """The database could not make a write (a full disk, a file made read-only…);
    nothing of it was kept. ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Query(Generic[T_co]):
    """A named read prepared with its arguments, for :meth:`Database.read`: it runs in
    the connection's thread, several of them in one hop."""

    name: str
    run: Callable[[sqlite3.Connection], T_co]


def query(function: Callable[Concatenate[sqlite3.Connection, P], T]) -> Callable[P, Query[T]]:
    """Make ``function(conn, *args)`` a named query: ``function(*args)`` prepares it."""

    @functools.wraps(function)
    def prepared(*args: P.args, **kwargs: P.kwargs) -> Query[T]:
        return Query(function.__name__, lambda conn: function(conn, *args, **kwargs))

    return prepared


class Database:
    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating if needed) the database at ``path`` and apply pending migrations;
        :class:`Unavailable` if it cannot be used."""
        try:
            return await cls._open(Path(path))
        except health.Unusable as error:
            raise Unavailable(str(error)) from error
        except (OSError, sqlite3.Error) as error:
            raise Unavailable(f"{health.plain_reason(error)} ({error})") from error

    @classmethod
    async def _open(cls, path: Path) -> Database:
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
            connection.row_factory = aiosqlite.Row
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
        """Apply the migrations newer than ``PRAGMA user_version``, each in its own
        transaction together with the version bump. Returns the resulting version."""
        async with self._lock:
            cursor = await self._connection.execute("PRAGMA user_version")
            (version,) = await cursor.fetchone()
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
                        for statement in _statements(script):
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
        """``async with db.transaction() as tx:`` all statements on ``tx`` commit
        together, or none do (a broken constraint: :class:`Conflict`)."""
        async with self._lock:
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._failed(error) from error
            try:
                yield self._connection
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
        """``async with db.reading() as conn:`` a consistent view for a few reads."""
        async with self._lock:
            yield self._connection

    async def read(self, prepared: Query[T]) -> T:
        """The answer of one prepared query, in one hop."""
        (answer,) = await self.read_many(prepared)
        return answer

    async def read_many(self, *prepared: Query[Any]) -> list[Any]:
        """The answers of several prepared queries, in order, read together in one hop."""
        async with self._lock:
            return await self._in_thread(lambda conn: [q.run(conn) for q in prepared])

    async def write(self, statements: Sequence[Statement], *, durable: bool = True) -> list[int]:
        """Execute ``statements`` as one transaction, in one hop; the number of rows
        each changed. Any error (a :class:`Conflict`…) rolls all of them back.

        ``durable=False`` skips the wait for the disk (``synchronous = NORMAL`` for this
        commit): for what can be lost to a power cut without harm (where a board was
        posted). The transaction is still atomic, survives the bot crashing, and
        becomes durable with the next durable commit (the WAL is synced in order)."""
        async with self._lock:
            try:
                return await self._in_thread(lambda conn: _write(conn, statements, durable))
            except sqlite3.IntegrityError as error:
                raise Conflict(str(error)) from error
            except sqlite3.Error as error:
                if health.is_storage_failure(error):
                    raise self._failed(error) from error
                raise

    def _failed(self, error: BaseException) -> WriteFailed:
        """The one line for the operator about a write that failed; the error to raise."""
        reason = health.plain_reason(error)
        log.error("a write to the database %s failed, nothing of it was saved: %s (%s)",
                  self.path, reason, error)
        return WriteFailed(reason)

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite has no public call for "run this function in your thread"; _execute is
        # what its own execute() and cursors use (tests/bot/storage/test_database.py covers
        # it, and pyproject.toml pins aiosqlite below its next minor version).
        connection = self._connection
        return await connection._execute(work, connection._conn)


async def apply(tx: Connection, statements: Sequence[Statement]) -> list[int]:
    """Execute prepared statements inside ``tx`` (a :meth:`Database.transaction`); the
    number of rows each changed."""
    counts = []
    for sql, parameters in statements:
        cursor = await tx.execute(sql, parameters)
        counts.append(cursor.rowcount)
    return counts


def _write(conn: sqlite3.Connection, statements: Sequence[Statement],
           durable: bool = True) -> list[int]:
    if not durable:
        conn.execute("PRAGMA synchronous = NORMAL")  # no fsync of the WAL at this commit
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            counts = [conn.execute(sql, parameters).rowcount for sql, parameters in statements]
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # a full disk may have rolled it back already
                conn.execute("ROLLBACK")
            raise
    finally:
        if not durable:
            conn.execute("PRAGMA synchronous = FULL")
    return counts


def _statements(script: str) -> list[str]:
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
