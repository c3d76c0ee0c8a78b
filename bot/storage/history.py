"""Named queries for looking back: recent games of a server, ratings and their changes.
Each takes the connection handed out by ``Database.transaction()`` or ``reading()``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.storage.models import GameRow

Conn = aiosqlite.Connection


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    game: str
    member_id: int
    member_name: str
    rating: float
    deviation: float
    volatility: float
    games: int
    wins: int
    losses: int
    draws: int

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> RatingRow:
        return cls(row["guild_id"], row["game"], row["member_id"], row["member_name"],
                   row["rating"], row["deviation"], row["volatility"], row["games"],
                   row["wins"], row["losses"], row["draws"])


@dataclass(frozen=True, slots=True)
class RatingChangeRow:
    game_id: int
    before: tuple[float, float]  # by seat
    after: tuple[float, float]


async def recent_games(conn: Conn, guild_id: int, *, limit: int = 25) -> list[GameRow]:
    """A server's games, newest first (live and finished alike)."""
    cursor = await conn.execute(
        "SELECT * FROM games WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit))
    return [GameRow.from_row(row) for row in await cursor.fetchall()]


async def get_rating(conn: Conn, guild_id: int, game: str, member_id: int) -> RatingRow | None:
    cursor = await conn.execute(
        "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND member_id = ?",
        (guild_id, game, member_id))
    row = await cursor.fetchone()
    return RatingRow.from_row(row) if row else None


async def save_rating(conn: Conn, rating: RatingRow, *, updated_at: datetime) -> None:
    """Insert or replace a member's rating and record in one game of one server."""
    await conn.execute(
        "INSERT INTO ratings (guild_id, game, member_id, member_name, rating, deviation,"
        " volatility, games, wins, losses, draws, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, game, member_id) DO UPDATE SET"
        " member_name = excluded.member_name, rating = excluded.rating,"
        " deviation = excluded.deviation, volatility = excluded.volatility,"
        " games = excluded.games, wins = excluded.wins, losses = excluded.losses,"
        " draws = excluded.draws, updated_at = excluded.updated_at",
        (rating.guild_id, rating.game, rating.member_id, rating.member_name, rating.rating,
         rating.deviation, rating.volatility, rating.games, rating.wins, rating.losses,
         rating.draws, updated_at.isoformat()))


async def leaderboard(conn: Conn, guild_id: int, game: str, *, limit: int) -> list[RatingRow]:
    cursor = await conn.execute(
        "SELECT * FROM ratings WHERE guild_id = ? AND game = ?"
        " ORDER BY rating DESC, deviation, member_id LIMIT ?", (guild_id, game, limit))
    return [RatingRow.from_row(row) for row in await cursor.fetchall()]


async def ratings_of_member(conn: Conn, guild_id: int, member_id: int) -> list[RatingRow]:
    cursor = await conn.execute(
        "SELECT * FROM ratings WHERE guild_id = ? AND member_id = ? ORDER BY game",
        (guild_id, member_id))
    return [RatingRow.from_row(row) for row in await cursor.fetchall()]


async def insert_rating_change(conn: Conn, game_id: int, before: tuple[float, float],
                               after: tuple[float, float], *, rated_at: datetime) -> bool:
    """Record what a game did to ratings; False if that game was already rated."""
    cursor = await conn.execute(
        "INSERT OR IGNORE INTO rating_changes (game_id, before0, after0, before1, after1,"
        " rated_at) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, before[0], after[0], before[1], after[1], rated_at.isoformat()))
    return cursor.rowcount == 1


async def get_rating_change(conn: Conn, game_id: int) -> RatingChangeRow | None:
    cursor = await conn.execute("SELECT * FROM rating_changes WHERE game_id = ?", (game_id,))
    row = await cursor.fetchone()
    if row is None:
        return None
    return RatingChangeRow(row["game_id"], (row["before0"], row["before1"]),
                           (row["after0"], row["after1"]))
