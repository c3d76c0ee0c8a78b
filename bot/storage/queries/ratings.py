"""Ratings per member per game per server, and what each rated game did to them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from bot.storage.database import Connection, Row
from bot.storage.rows import RatingChangeRow, RatingRow


async def get_rating(
    conn: Connection, guild_id: int, game: str, member_id: int
) -> RatingRow | None:
    """A member's rating, locked until the transaction (``tx``) that read it ends."""
    row = await conn.fetch_one(
        "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND member_id = ? FOR UPDATE",
        (guild_id, game, member_id),
    )
    return RatingRow.from_row(row) if row else None


#: A rating's own columns, after its key (the server, where per server; the game; the member).
_RATING_COLUMNS = (
    "member_name",
    "rating",
    "deviation",
    "volatility",
    "games",
    "wins",
    "losses",
    "draws",
    "updated_at",
)


async def _upsert_rating(
    conn: Connection,
    table: Literal["ratings", "global_ratings"],
    key: tuple[str, ...],
    key_values: tuple[object, ...],
    rating: RatingRow,
    updated_at: datetime,
) -> None:
    """Insert or replace one rating row of ``table``, identified by ``key``."""
    columns = key + _RATING_COLUMNS
    values = (
        *key_values,
        rating.member_name,
        rating.rating,
        rating.deviation,
        rating.volatility,
        rating.games,
        rating.wins,
        rating.losses,
        rating.draws,
        updated_at.isoformat(),
    )
    updates = ", ".join(f"{column} = excluded.{column}" for column in _RATING_COLUMNS)
    await conn.change(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}",
        values,
    )


async def save_rating(conn: Connection, rating: RatingRow, *, updated_at: datetime) -> None:
    """Insert or replace a member's rating and record in one game of one server."""
    await _upsert_rating(
        conn,
        "ratings",
        ("guild_id", "game", "member_id"),
        (rating.guild_id, rating.game, rating.member_id),
        rating,
        updated_at,
    )


async def leaderboard(conn: Connection, guild_id: int, game: str, *, limit: int) -> list[RatingRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM ratings WHERE guild_id = ? AND game = ?"
        " ORDER BY rating DESC, deviation, member_id LIMIT ?",
        (guild_id, game, limit),
    )
    return [RatingRow.from_row(row) for row in rows]


async def ratings_of_member(conn: Connection, guild_id: int, member_id: int) -> list[RatingRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM ratings WHERE guild_id = ? AND member_id = ? ORDER BY game",
        (guild_id, member_id),
    )
    return [RatingRow.from_row(row) for row in rows]


async def insert_rating_change(
    conn: Connection,
    game_id: int,
    before: tuple[float, float],
    after: tuple[float, float],
    *,
    rated_at: datetime,
    table: Literal["rating_changes", "global_rating_changes"] = "rating_changes",
) -> bool:
    """Record what a game did to ratings (``table``: the server's, or
    ``global_rating_changes``); False if that game was already rated so."""
    return (
        await conn.change(
            f"INSERT INTO {table} (game_id, before0, after0, before1, after1, rated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
            (game_id, before[0], after[0], before[1], after[1], rated_at.isoformat()),
        )
        == 1
    )


async def get_rating_change(conn: Connection, game_id: int) -> RatingChangeRow | None:
    row = await conn.fetch_one("SELECT * FROM rating_changes WHERE game_id = ?", (game_id,))
    return RatingChangeRow.from_row(row) if row else None


# -- over every server (global_ratings: a RatingRow whose guild_id is GLOBAL) ---------

#: The ``guild_id`` of a rating over every server.
GLOBAL = 0


def _global(row: Row) -> RatingRow:
    return RatingRow(
        GLOBAL,
        row["game"],
        row["member_id"],
        row["member_name"],
        row["rating"],
        row["deviation"],
        row["volatility"],
        row["games"],
        row["wins"],
        row["losses"],
        row["draws"],
    )


async def get_global_rating(conn: Connection, game: str, member_id: int) -> RatingRow | None:
    """A member's rating over every server, locked until the transaction ends."""
    row = await conn.fetch_one(
        "SELECT * FROM global_ratings WHERE game = ? AND member_id = ? FOR UPDATE",
        (game, member_id),
    )
    return _global(row) if row else None


async def save_global_rating(conn: Connection, rating: RatingRow, *, updated_at: datetime) -> None:
    """Insert or replace a member's rating and record in one game over every server."""
    await _upsert_rating(
        conn,
        "global_ratings",
        ("game", "member_id"),
        (rating.game, rating.member_id),
        rating,
        updated_at,
    )


async def global_leaderboard(conn: Connection, game: str, *, limit: int) -> list[RatingRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM global_ratings WHERE game = ?"
        " ORDER BY rating DESC, deviation, member_id LIMIT ?",
        (game, limit),
    )
    return [_global(row) for row in rows]


async def insert_global_rating_change(
    conn: Connection,
    game_id: int,
    before: tuple[float, float],
    after: tuple[float, float],
    *,
    rated_at: datetime,
) -> bool:
    """Record what a game did to global ratings; False if it was already rated so."""
    return await insert_rating_change(
        conn, game_id, before, after, rated_at=rated_at, table="global_rating_changes"
    )


async def get_global_rating_change(conn: Connection, game_id: int) -> RatingChangeRow | None:
    row = await conn.fetch_one("SELECT * FROM global_rating_changes WHERE game_id = ?", (game_id,))
    return RatingChangeRow.from_row(row) if row else None


async def games_rated_not_globally(conn: Connection, *, limit: int) -> list[int]:
    """Games rated per server but not yet globally (those rated before global ratings
    existed), in the order they were rated."""
    rows = await conn.fetch_all(
        "SELECT c.game_id FROM rating_changes c"
        " LEFT JOIN global_rating_changes g ON g.game_id = c.game_id"
        " WHERE g.game_id IS NULL ORDER BY c.rated_at, c.game_id LIMIT ?",
        (limit,),
    )
    return [int(r["game_id"]) for r in rows]
