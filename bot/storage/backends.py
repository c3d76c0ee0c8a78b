"""Which backend a database's URL names, and opening it."""

from __future__ import annotations

from pathlib import Path

from bot.storage.database import Database, parse_url
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase


async def open_database(url: str | Path) -> Database:
    """Open the database at ``url`` and apply pending migrations: ``sqlite:///path`` (or a
    bare path) for a SQLite file, created if needed; ``postgresql://user:pass@host/db``
    for a PostgreSQL database, which must exist. :class:`~bot.storage.Unavailable` if it
    cannot be used."""
    kind, where = parse_url(url)
    if kind == "postgresql":
        return await PostgresDatabase.open(where)
    return await SqliteDatabase.open(Path(where))
