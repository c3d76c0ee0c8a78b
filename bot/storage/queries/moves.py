"""Moves: one row per ply; the current position is their replay."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Connection, Statement
from bot.storage.rows import MoveRow


def insert_move_statement(
    *,
    game_id: int,
    ply: int,
    move: str,
    seat: int,
    member_id: int,
    played_at: datetime,
    conditional: bool = False,
) -> Statement:
    """A :class:`~bot.storage.Conflict` if that ply of that game is already recorded;
    changes no row unless it follows the game's last recorded move (a position read
    before a takeback elsewhere is not played on). ``conditional``: played on the
    player's behalf, from their conditional moves."""
    return (
        "INSERT INTO moves (game_id, ply, move, seat, member_id, played_at, conditional)"
        " SELECT ?, ?, ?, ?, ?, ?, ? WHERE ? = 1"
        " OR EXISTS (SELECT 1 FROM moves WHERE game_id = ? AND ply = ?)",
        (
            game_id,
            ply,
            move,
            seat,
            member_id,
            played_at.isoformat(),
            int(conditional),
            ply,
            game_id,
            ply - 1,
        ),
    )


async def moves_of_game(conn: Connection, game_id: int) -> list[MoveRow]:
    rows = await conn.fetch_all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
    return [MoveRow.from_row(row) for row in rows]


def set_move_message_statement(game_id: int, ply: int, message_id: int) -> Statement:
    return (
        "UPDATE moves SET message_id = ? WHERE game_id = ? AND ply = ?",
        (message_id, game_id, ply),
    )


async def delete_last_move(conn: Connection, game_id: int, ply: int) -> bool:
    """Remove move ``ply`` if it is the game's last; False if it is not (any more)."""
    return (
        await conn.change(
            "DELETE FROM moves WHERE game_id = ? AND ply = ?"
            " AND ply = (SELECT MAX(ply) FROM moves WHERE game_id = ?)",
            (game_id, ply, game_id),
        )
        == 1
    )
