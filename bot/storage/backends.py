"""Which backend a database's URL names, and opening it."""

from __future__ import annotations

from pathlib import Path

from bot.storage.database import Database, parse_url
from bot.storage.postgres import POOL_SIZE, PostgresDatabase
from bot.storage.sqlite import SqliteDatabase


async def open_database(
    url: str | Path, *, pool_size: int = POOL_SIZE, pgbouncer: bool = False
) -> Database:
    """Open the database at ``url`` and apply pending migrations: ``sqlite:///path`` (or a
    bare path) for a SQLite file, created if needed; ``postgresql://user:pass@host/db``
    for a PostgreSQL database, which must exist, reached with at most ``pool_size``
    connections (``pgbouncer``: through PgBouncer's transaction pooling).
    :class:`~bot.storage.Unavailable` if it cannot be used."""
    kind, where = parse_url(url)
    if kind == "postgresql":
        return await PostgresDatabase.open(where, pool_size=pool_size, pgbouncer=pgbouncer)
    return await SqliteDatabase.open(Path(where))
