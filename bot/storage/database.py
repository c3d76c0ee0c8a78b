"""The one owner of the SQLite connection.

Every access goes through a single :class:`asyncio.Lock`, so a transaction
opened by one coroutine never sees another coroutine's statements slip in
between its own. Writes happen only inside :meth:`Database.transaction`
(``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any exception).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from bot.storage.migrations import MIGRATIONS

log = logging.getLogger(__name__)


class Database:
    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self.path = path

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating if needed) the database at ``path`` and apply pending migrations."""
        path = Path(path)
        if path.parent != Path():
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")
        await connection.execute("PRAGMA busy_timeout = 5000")
        database = cls(connection, path)
        await database.migrate()
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
                    for statement in _statements(script):
                        await self._connection.execute(statement)
                    await self._connection.execute(f"PRAGMA user_version = {number}")
                except BaseException:
                    await self._connection.execute("ROLLBACK")
                    raise
                await self._connection.execute("COMMIT")
                version = number
            return version

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with db.transaction() as tx:`` all statements on ``tx`` commit
        together, or none do."""
        async with self._lock:
            await self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                await self._connection.execute("ROLLBACK")
                raise
            await self._connection.execute("COMMIT")

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with db.reading() as conn:`` a consistent view for a few reads."""
        async with self._lock:
            yield self._connection


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
