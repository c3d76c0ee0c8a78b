"""Seeks (open challenges to anyone, anywhere), their cards in the lobbies, and each
server's lobby channel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.storage.database import Connection, Statement, query
from bot.storage.queries.games import dump
from bot.storage.rows import SeekPostRow, SeekRow, stamp

# -- lobbies ------------------------------------------------------------------------


async def set_lobby(
    conn: Connection, guild_id: int, channel_id: int | None, *, by: int, at: datetime
) -> None:
    """Set (or, with None, clear) a server's lobby channel."""
    if channel_id is None:
        await conn.change("DELETE FROM lobbies WHERE guild_id = ?", (guild_id,))
        return
    await conn.change(
        "INSERT INTO lobbies (guild_id, channel_id, set_by, set_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,"
        " set_by = excluded.set_by, set_at = excluded.set_at",
        (guild_id, channel_id, by, at.isoformat()),
    )


async def get_lobby(conn: Connection, guild_id: int) -> int | None:
    row = await conn.fetch_one("SELECT channel_id FROM lobbies WHERE guild_id = ?", (guild_id,))
    return None if row is None else int(row["channel_id"])


async def all_lobbies(conn: Connection) -> list[tuple[int, int]]:
    """Every server's lobby: (guild, channel), by server."""
    rows = await conn.fetch_all("SELECT guild_id, channel_id FROM lobbies ORDER BY guild_id")
    return [(int(r["guild_id"]), int(r["channel_id"])) for r in rows]


# -- seeks --------------------------------------------------------------------------


async def insert_seek(
    conn: Connection,
    *,
    guild_id: int | None,
    channel_id: int | None,
    seeker_id: int,
    seeker_name: str,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    created_at: datetime,
    expires_at: datetime,
) -> int:
    return await conn.insert(
        "INSERT INTO seeks (guild_id, channel_id, seeker_id, seeker_name, game, options,"
        " settings, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            seeker_id,
            seeker_name,
            game,
            dump(options),
            dump(settings),
            created_at.isoformat(),
            stamp(expires_at),
        ),
    )


async def get_seek(conn: Connection, seek_id: int) -> SeekRow | None:
    row = await conn.fetch_one("SELECT * FROM seeks WHERE id = ?", (seek_id,))
    return SeekRow.from_row(row) if row else None


seek_by_id = query(get_seek)


async def open_seeks(conn: Connection, *, limit: int = 25) -> list[SeekRow]:
    """The open seeks, oldest first."""
    rows = await conn.fetch_all(
        "SELECT * FROM seeks WHERE status = 'open' ORDER BY id LIMIT ?", (limit,)
    )
    return [SeekRow.from_row(r) for r in rows]


async def open_seek_of(conn: Connection, seeker_id: int, game: str) -> SeekRow | None:
    row = await conn.fetch_one(
        "SELECT * FROM seeks WHERE seeker_id = ? AND game = ? AND status = 'open'",
        (seeker_id, game),
    )
    return SeekRow.from_row(row) if row else None


async def open_seeks_of(conn: Connection, seeker_id: int) -> list[SeekRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM seeks WHERE seeker_id = ? AND status = 'open' ORDER BY id", (seeker_id,)
    )
    return [SeekRow.from_row(r) for r in rows]


async def take_seek(
    conn: Connection,
    seek_id: int,
    *,
    accepter_id: int,
    accepter_name: str,
    guild_id: int,
    channel_id: int,
    at: datetime,
) -> bool:
    """Claim an open seek for ``accepter_id``, its game to start in ``channel_id``;
    False if it was no longer open (another accepted first, or it closed): of two
    members accepting at once, exactly one is True."""
    return (
        await conn.change(
            "UPDATE seeks SET status = 'accepted', accepter_id = ?, accepter_name = ?,"
            " game_guild_id = ?, game_channel_id = ?, closed_at = ?"
            " WHERE id = ? AND status = 'open'",
            (accepter_id, accepter_name, guild_id, channel_id, at.isoformat(), seek_id),
        )
        == 1
    )


async def close_seek(conn: Connection, seek_id: int, *, status: str, at: datetime) -> bool:
    """Cancel or expire an open seek; False if it was no longer open."""
    return (
        await conn.change(
            "UPDATE seeks SET status = ?, closed_at = ? WHERE id = ? AND status = 'open'",
            (status, at.isoformat(), seek_id),
        )
        == 1
    )


async def set_seek_challenge(conn: Connection, seek_id: int, challenge_id: int) -> None:
    await conn.change("UPDATE seeks SET challenge_id = ? WHERE id = ?", (challenge_id, seek_id))


async def set_seek_game(conn: Connection, seek_id: int, game_id: int) -> None:
    await conn.change("UPDATE seeks SET game_id = ? WHERE id = ?", (game_id, seek_id))


async def seeks_without_game(conn: Connection) -> list[SeekRow]:
    """Seeks accepted whose game is not started yet (a crash in between)."""
    rows = await conn.fetch_all(
        "SELECT * FROM seeks WHERE status = 'accepted' AND game_id IS NULL ORDER BY id"
    )
    return [SeekRow.from_row(r) for r in rows]


async def seeks_due(conn: Connection, by: datetime) -> list[SeekRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM seeks WHERE status = 'open' AND expires_at <= ? ORDER BY expires_at",
        (stamp(by),),
    )
    return [SeekRow.from_row(r) for r in rows]


async def next_seek_expiry(conn: Connection) -> datetime | None:
    row = await conn.fetch_one("SELECT MIN(expires_at) AS due FROM seeks WHERE status = 'open'")
    return None if row is None or row["due"] is None else datetime.fromisoformat(row["due"])


# -- their cards --------------------------------------------------------------------


def add_seek_post_statement(seek_id: int, guild_id: int, channel_id: int) -> Statement:
    return (
        "INSERT INTO seek_posts (seek_id, guild_id, channel_id) VALUES (?, ?, ?)"
        " ON CONFLICT (seek_id, guild_id) DO NOTHING",
        (seek_id, guild_id, channel_id),
    )


def set_seek_post_statement(seek_id: int, guild_id: int, message_id: int) -> Statement:
    return (
        "UPDATE seek_posts SET message_id = ? WHERE seek_id = ? AND guild_id = ?",
        (message_id, seek_id, guild_id),
    )


async def seek_posts(conn: Connection, seek_id: int) -> list[SeekPostRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM seek_posts WHERE seek_id = ? ORDER BY guild_id", (seek_id,)
    )
    return [SeekPostRow.from_row(r) for r in rows]


seek_posts_of = query(seek_posts)


def reopen_seek_statement(seek_id: int) -> Statement:
    """An accepted seek whose game could not be made (no challenge yet): open again."""
    return (
        "UPDATE seeks SET status = 'open', accepter_id = NULL, accepter_name = NULL,"
        " game_guild_id = NULL, game_channel_id = NULL, closed_at = NULL"
        " WHERE id = ? AND status = 'accepted' AND challenge_id IS NULL",
        (seek_id,),
    )
