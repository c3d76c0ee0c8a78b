"""Whether the database can be used, and why not in plain words.

At start-up the bot refuses a database it cannot trust: better to stop at once, with
one line saying why, than to accept moves it cannot keep. A SQLite file must open, be
undamaged and of a schema version this bot knows (:func:`check_readable`), and take a
write all the way to the disk (:func:`check_writable`); a PostgreSQL database must be
of a schema version this bot knows (:func:`check_postgres_version`) and take a write
(:func:`check_postgres_writable`: not a read-only standby, not a user without the
right, not a full disk). While running, a write that fails (a full disk, a file made
read-only, a server out of reach) is described by :func:`plain_reason` to the member
and the operator.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import asyncpg
from asyncpg.pool import PoolConnectionProxy

# SQLite's primary result codes (https://sqlite.org/rescode.html).
_SQLITE_REASONS = {
    3: "the bot is not allowed to use the database file",  # SQLITE_PERM
    5: "another program holds the database locked",  # SQLITE_BUSY
    6: "another program holds the database locked",  # SQLITE_LOCKED
    8: "the database file is read-only",  # SQLITE_READONLY
    10: "the disk could not be read or written",  # SQLITE_IOERR
    11: "the database file is damaged",  # SQLITE_CORRUPT
    13: "the disk is full",  # SQLITE_FULL
    14: "the database file cannot be opened (does its folder exist, and may the bot "
    "write there?)",  # SQLITE_CANTOPEN
    26: "the file is not a database, or is damaged beyond reading",  # SQLITE_NOTADB
}
_OS_REASONS = {
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "the bot is not allowed to write there",
    errno.EPERM: "the bot is not allowed to write there",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file may not grow any more",
}


# PostgreSQL's failures that are the server's or its disk's, not the bot's SQL.
_POSTGRES_REASONS: tuple[tuple[type[BaseException], str], ...] = (
    (asyncpg.DiskFullError, "the database server's disk is full"),
    (
        asyncpg.ReadOnlySQLTransactionError,
        "the database server takes no writes (a read-only standby, or a database made read-only)",
    ),
    (asyncpg.InsufficientPrivilegeError, "the database user may not write there"),
    (asyncpg.InsufficientResourcesError, "the database server is out of resources"),
    (asyncpg.PostgresIOError, "the database server could not read or write its disk"),
    (asyncpg.OperatorInterventionError, "the database server is shutting down or starting"),
    (asyncpg.PostgresConnectionError, "the database server cannot be reached"),
    (asyncpg.InterfaceError, "the connection to the database server was lost"),
    (ConnectionError, "the database server cannot be reached"),
    (TimeoutError, "the database server does not answer"),
)


def postgres_reason(error: BaseException) -> str | None:
    """Why PostgreSQL failed, if the failure is the server's (None: the bot's own SQL,
    a broken constraint)."""
    for kind, reason in _POSTGRES_REASONS:
        if isinstance(error, kind):
            return reason
    return None


def plain_reason(error: BaseException) -> str:
    """Why a database operation failed, in words for members and operators."""
    if (reason := postgres_reason(error)) is not None:
        return reason
    if isinstance(error, OSError) and error.errno in _OS_REASONS:
        return _OS_REASONS[error.errno]
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _SQLITE_REASONS:
        return _SQLITE_REASONS[code & 0xFF]
    text = str(error).lower()
    for words, reason in (
        ("readonly", _SQLITE_REASONS[8]),
        ("read-only", _SQLITE_REASONS[8]),
        ("disk is full", _SQLITE_REASONS[13]),
        ("malformed", _SQLITE_REASONS[11]),
        ("not a database", _SQLITE_REASONS[26]),
    ):
        if words in text:
            return reason
    return f"the database refused it ({error})"


def is_storage_failure(error: BaseException) -> bool:
    """An error of the database or its disk (not of the bot's own SQL, not a broken
    constraint: those are bugs or :class:`~bot.storage.Conflict`)."""
    if postgres_reason(error) is not None:
        return True
    return isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError) and not isinstance(
        error, sqlite3.IntegrityError | sqlite3.ProgrammingError
    )


class Unusable(Exception):
    """The database must not be used; the message says why and what to do."""


def check_openable(path: Path) -> None:
    """Open the file (creating it if need be) and close it again."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA schema_version")
    finally:
        conn.close()


def check_readable(conn: sqlite3.Connection, known_version: int) -> int:
    """Refuse a damaged file and one made by a newer bot; returns the schema version."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    problems = [problem for (problem,) in conn.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        found = " ".join("; ".join(problems).split())
        raise Unusable(f"the database file is damaged ({found[:200]}): restore it from a backup")
    if (refusal := newer_schema(version, known_version)) is not None:
        raise refusal
    return int(version)


def check_writable(conn: sqlite3.Connection) -> None:
    """Write to the file once, all the way to the disk (the schema version, rewritten
    as it is): a read-only file, folder or mount, or a full disk, shows up now rather
    than at a member's move."""
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def newer_schema(version: int, known_version: int) -> Unusable | None:
    """The refusal of a database made by a newer bot, if it is one."""
    if version <= known_version:
        return None
    return Unusable(
        f"the database is at schema version {version}, made by a newer version of "
        f"the bot (this one knows versions up to {known_version}): run the newer "
        "bot, or restore a backup made for this one"
    )


async def check_postgres_version(conn: PoolConnectionProxy, known_version: int) -> int:
    """Refuse a PostgreSQL database made by a newer bot; returns the schema version (0:
    a database the bot has not used yet)."""
    version = (
        await conn.fetchval("SELECT MAX(version) FROM schema_migrations")
        if await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
        else 0
    )
    if (refusal := newer_schema(version or 0, known_version)) is not None:
        raise refusal
    return int(version or 0)


async def check_postgres_writable(conn: PoolConnectionProxy) -> None:
    """Write to the database once, committed as every write is (the latest schema
    version's row, rewritten as it is): a read-only server or database, a user without
    the right to write, or a full disk shows up now rather than at a member's move."""
    async with conn.transaction():
        await conn.execute(
            "UPDATE schema_migrations SET applied_at = applied_at"
            " WHERE version = (SELECT MAX(version) FROM schema_migrations)"
        )
