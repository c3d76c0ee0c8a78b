"""The PostgreSQL backend (asyncpg): one database that several bot processes share.

Each process keeps a small pool of connections. A transaction runs at PostgreSQL's
default isolation (read committed): what must happen once is guarded in the SQL itself
(a constraint, an ``UPDATE … WHERE`` that checks the state it changes, a claim of
:mod:`bot.storage.queries.claims`), and a read-then-write locks what it read with
``FOR UPDATE``. A read (:meth:`~PostgresDatabase.reading`, several prepared queries)
sees one snapshot. The migrations run under an advisory lock, so processes starting
together apply each one once; the version is the largest in ``schema_migrations``. At
start-up the database must be of a version this bot knows and take a write
(:mod:`bot.storage.health`); a write the server refuses later for want of room, of
the right to write or of a connection comes out as :class:`WriteFailed`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator, Collection, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

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
from bot.storage.pg_migrations import postgres_form

log = logging.getLogger(__name__)

#: Connections per process at most (the moves of one process rarely need more).
POOL_SIZE = 10
#: Seconds to wait for the server when connecting.
CONNECT_TIMEOUT = 10.0
#: The advisory lock held while migrating (any number the bot alone uses).
MIGRATION_LOCK = 0x626F617264  # "board"

_Failures = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
#: What a statement cache meets behind PgBouncer's transaction pooling.
_PREPARED_STATEMENT_CLASH = (
    asyncpg.exceptions.DuplicatePreparedStatementError,
    asyncpg.exceptions.InvalidSQLStatementNameError,
)
_PGBOUNCER_HINT = (
    "the server's connections do not keep the statements the bot prepares on them (one "
    "unknown, or another client's found): it is PgBouncer (or another pooler) in "
    "transaction pooling; set DATABASE_PGBOUNCER=1"
)


class PostgresDatabase(Database):
    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str, *, pgbouncer: bool = False) -> None:
        self._pool = pool
        self._closed = False
        self.url = url
        self.where = without_password(url)
        #: Reached through PgBouncer's transaction pooling: no prepared statement kept
        #: on a connection, no lock held outside a transaction.
        self.pgbouncer = pgbouncer

    @classmethod
    async def open(
        cls, url: str, *, pool_size: int = POOL_SIZE, pgbouncer: bool = False
    ) -> PostgresDatabase:
        """Open a pool of at most ``pool_size`` connections. ``pgbouncer``: the server is
        PgBouncer in transaction pooling, which gives each transaction whichever server
        connection is free: asyncpg's statement cache is off (a statement prepared on
        one server connection is unknown on the next), and the migrations take their
        lock inside their transaction."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": "boardbot"},
                statement_cache_size=0 if pgbouncer else 100,
                reset=_nothing_to_reset if pgbouncer else None,
            )
        except _Failures as error:
            raise Unavailable(str(error) or type(error).__name__) from error
        database = cls(pool, url, pgbouncer=pgbouncer)
        try:
            await database.migrate()
            async with pool.acquire() as conn:
                await health.check_postgres_writable(conn)
        except health.Unusable as error:
            await pool.close()
            raise Unavailable(str(error)) from error
        except _Failures as error:
            await pool.close()
            if not pgbouncer and isinstance(error, _PREPARED_STATEMENT_CLASH):
                raise Unavailable(_PGBOUNCER_HINT) from error
            raise Unavailable(f"{health.plain_reason(error)} ({error})") from error
        except BaseException:
            await pool.close()
            raise
        return database

    async def close(self) -> None:
        self._closed = True  # what is still at work now fails for good, not "for now"
        await self._pool.close()

    async def migrate(self) -> int:
        if self.pgbouncer:  # a session's lock would stay on whichever server connection
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                return await self._migrate(conn)
        async with self._pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                return await self._migrate(conn)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def _migrate(self, conn: PoolConnectionProxy) -> int:
        """The migrations not yet applied, each in a transaction (a savepoint inside
        the one transaction of PgBouncer's mode), under the migration lock."""
        version = await health.check_postgres_version(conn, len(MIGRATIONS))
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        for number, migration in enumerate(MIGRATIONS, 1):
            if number <= version:
                continue
            log.info("applying database migration %d", number)
            form = postgres_form(migration)
            async with conn.transaction():
                if callable(form):
                    await form(_Postgres(conn))
                else:
                    await conn.execute(form)
                await conn.execute(
                    "INSERT INTO schema_migrations VALUES ($1, $2)",
                    number,
                    datetime.now(UTC).isoformat(),
                )
            version = number
        return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        with self._translated():
            async with self._pool.acquire() as conn, conn.transaction():
                yield _Postgres(conn)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        with self._translated_read():
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield _Postgres(conn)

    async def read_many(self, *prepared: Query[Any]) -> list[Any]:
        with self._translated_read():
            async with self._pool.acquire() as conn:
                if len(prepared) == 1:  # one statement or a few: no snapshot worth two trips
                    return [await prepared[0].run(_Postgres(conn))]
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    return [await q.run(_Postgres(conn)) for q in prepared]

    @contextmanager
    def _translated_read(self) -> Iterator[None]:
        """A failing server is ReadFailed, said once to the operator."""
        try:
            yield
        except _Failures as error:
            if health.is_storage_failure(error) and not self._closed:
                reason = health.plain_reason(error)
                log.error("a read from the database %s failed: %s (%s)", self.where, reason, error)
                raise ReadFailed(reason) from error
            raise

    async def write(
        self,
        statements: Sequence[Statement],
        *,
        durable: bool = True,
        required: Collection[int] = (),
    ) -> list[int]:
        """``durable=False``: ``synchronous_commit = off`` for this transaction."""
        with self._translated():
            async with self._pool.acquire() as conn, conn.transaction():
                if not durable:
                    await conn.execute("SET LOCAL synchronous_commit = off")
                counts = [
                    rows_changed(await conn.execute(postgres_sql(sql), *args))
                    for sql, args in statements
                ]
                if (conflict := unchanged(counts, required)) is not None:
                    raise conflict
                return counts

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """A broken constraint is a Conflict; a failing disk or server, WriteFailed."""
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as error:
            raise Conflict(str(error)) from error
        except _Failures as error:
            if health.is_storage_failure(error) and not self._closed:
                raise self._failed(error) from error
            raise

    def _failed(self, error: BaseException) -> WriteFailed:
        """The one line for the operator about a write that failed; the error to raise."""
        reason = health.plain_reason(error)
        log.error(
            "a write to the database %s failed, nothing of it was saved: %s (%s)",
            self.where,
            reason,
            error,
        )
        return WriteFailed(reason)


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """PgBouncer's mode: a connection goes back to the pool as it is. The bot leaves
    nothing on a session (no prepared statement, session lock, ``LISTEN`` or ``SET``),
    and asyncpg's reset query (``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET
    ALL``) would cost a trip per transaction and run on whichever server connection
    PgBouncer picked: another client's session."""


class _Postgres(Connection):
    def __init__(self, conn: PoolConnectionProxy) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, args: Sequence[Any] = ()) -> Sequence[Row]:
        return await self._conn.fetch(postgres_sql(sql), *args)

    async def fetch_one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        return await self._conn.fetchrow(postgres_sql(sql), *args)

    async def change(self, sql: str, args: Sequence[Any] = ()) -> int:
        return rows_changed(await self._conn.execute(postgres_sql(sql), *args))

    async def insert(self, sql: str, args: Sequence[Any] = ()) -> int:
        return await self._conn.fetchval(postgres_sql(sql) + " RETURNING id", *args)

    async def change_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(postgres_sql(sql), list(rows))


@functools.lru_cache(maxsize=1024)
def postgres_sql(sql: str) -> str:
    """The portable SQL as PostgreSQL takes it: ``?`` placeholders numbered ``$1``,
    ``$2``… (none counted inside quotes)."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def rows_changed(status: str) -> int:
    """The row count of a command's status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def without_password(url: str) -> str:
    """The URL fit for a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
