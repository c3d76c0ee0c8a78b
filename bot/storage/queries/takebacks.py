"""Requests to take back the last move, answered by the opponent."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Connection
from bot.storage.rows import TakebackRow, stamp


async def insert_takeback(
    conn: Connection, game_id: int, ply: int, requester_id: int, created_at: datetime
) -> int:
    return await conn.insert(
        "INSERT INTO takebacks (game_id, ply, requester_id, created_at) VALUES (?, ?, ?, ?)",
        (game_id, ply, requester_id, stamp(created_at)),
    )


async def get_takeback(conn: Connection, takeback_id: int) -> TakebackRow | None:
    row = await conn.fetch_one("SELECT * FROM takebacks WHERE id = ?", (takeback_id,))
    return TakebackRow.from_row(row) if row else None


async def takebacks_of_ply(conn: Connection, game_id: int, ply: int) -> list[TakebackRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM takebacks WHERE game_id = ? AND ply = ? ORDER BY id", (game_id, ply)
    )
    return [TakebackRow.from_row(row) for row in rows]


async def answer_takeback(
    conn: Connection, takeback_id: int, status: str, answered_at: datetime
) -> bool:
    """Close a pending request; False if it was already answered."""
    return (
        await conn.change(
            "UPDATE takebacks SET status = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
            (status, stamp(answered_at), takeback_id),
        )
        == 1
    )
