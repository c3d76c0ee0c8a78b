"""Named queries. Each takes the connection handed out by
``Database.transaction()`` (writes) or ``Database.reading()`` (reads). The
writes of a move and of a board post also exist as :data:`Statement` values
(``*_statement``), for :meth:`Database.write` to store in one hop."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from bot.storage.database import Statement
from bot.storage.models import ChallengeRow, GameRow, MoveRow

Conn = aiosqlite.Connection


def _dump(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# -- challenges ---------------------------------------------------------------

async def insert_challenge(conn: Conn, *, guild_id: int, channel_id: int, challenger_id: int,
                           challenger_name: str, opponent_id: int | None,
                           opponent_name: str | None, game: str, options: dict[str, Any],
                           settings: dict[str, Any], created_at: datetime) -> int:
    cursor = await conn.execute(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name,"
        " opponent_id, opponent_name, game, options, settings, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, challenger_id, challenger_name, opponent_id, opponent_name,
         game, _dump(options), _dump(settings), created_at.isoformat()))
    return cursor.lastrowid


async def get_challenge(conn: Conn, challenge_id: int) -> ChallengeRow | None:
    rows = await conn.execute_fetchall("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
    return ChallengeRow.from_row(rows[0]) if rows else None


async def find_pending_challenge(conn: Conn, *, guild_id: int, challenger_id: int,
                                 opponent_id: int | None, game: str) -> ChallengeRow | None:
    rows = await conn.execute_fetchall(
        "SELECT * FROM challenges WHERE guild_id = ? AND challenger_id = ? AND opponent_id IS ?"
        " AND game = ? AND status = 'pending' ORDER BY id LIMIT 1",
        (guild_id, challenger_id, opponent_id, game))
    return ChallengeRow.from_row(rows[0]) if rows else None


async def set_challenge_message(conn: Conn, challenge_id: int, message_id: int) -> None:
    await conn.execute("UPDATE challenges SET message_id = ? WHERE id = ?",
                       (message_id, challenge_id))


async def close_challenge(conn: Conn, challenge_id: int, *, status: str, closed_at: datetime,
                          game_id: int | None = None) -> bool:
    """Move a pending challenge to ``status``; False if it was no longer pending."""
    cursor = await conn.execute(
        "UPDATE challenges SET status = ?, closed_at = ?, game_id = ?"
        " WHERE id = ? AND status = 'pending'",
        (status, closed_at.isoformat(), game_id, challenge_id))
    return cursor.rowcount == 1


# -- games ----------------------------------------------------------------------

async def insert_game(conn: Conn, *, guild_id: int, channel_id: int, challenge_id: int | None,
                      challenge_message_id: int | None, game: str, options: dict[str, Any],
                      settings: dict[str, Any], player_ids: Sequence[int],
                      player_names: Sequence[str], created_at: datetime) -> int:
    """A new active game; ``settings["rated"] = False`` (a casual challenge) makes it unrated."""
    cursor = await conn.execute(
        "INSERT INTO games (guild_id, channel_id, challenge_id, challenge_message_id, game,"
        " options, settings, player0_id, player0_name, player1_id, player1_name, created_at,"
        " rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, challenge_id, challenge_message_id, game, _dump(options),
         _dump(settings), player_ids[0], player_names[0], player_ids[1], player_names[1],
         created_at.isoformat(), 0 if settings.get("rated") is False else 1))
    return cursor.lastrowid


async def get_game(conn: Conn, game_id: int) -> GameRow | None:
    rows = await conn.execute_fetchall("SELECT * FROM games WHERE id = ?", (game_id,))
    return GameRow.from_row(rows[0]) if rows else None


def game_by_id(conn: sqlite3.Connection, game_id: int) -> GameRow | None:
    """:func:`get_game` for :meth:`Database.run`."""
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    return GameRow.from_row(row) if row else None


async def game_in_thread(conn: Conn, guild_id: int, thread_id: int) -> GameRow | None:
    rows = await conn.execute_fetchall(
        "SELECT * FROM games WHERE guild_id = ? AND thread_id = ? ORDER BY id DESC LIMIT 1",
        (guild_id, thread_id))
    return GameRow.from_row(rows[0]) if rows else None


async def games_of_member(conn: Conn, guild_id: int, member_id: int, *, status: str,
                          limit: int = 100) -> list[GameRow]:
    """A member's games in one server with ``status``, most recent first."""
    order = "id DESC" if status == "active" else "finished_at DESC, id DESC"
    rows = await conn.execute_fetchall(
        "SELECT * FROM games WHERE guild_id = ? AND status = ?"
        f" AND (player0_id = ? OR player1_id = ?) ORDER BY {order} LIMIT ?",
        (guild_id, status, member_id, member_id, limit))
    return [GameRow.from_row(row) for row in rows]


async def active_games(conn: Conn) -> list[GameRow]:
    """Every game in progress, in every server."""
    rows = await conn.execute_fetchall("SELECT * FROM games WHERE status = 'active' ORDER BY id")
    return [GameRow.from_row(row) for row in rows]


def set_game_thread_statement(game_id: int, thread_id: int | None) -> Statement:
    return "UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id)


async def set_game_thread(conn: Conn, game_id: int, thread_id: int | None) -> None:
    await conn.execute(*set_game_thread_statement(game_id, thread_id))


def set_last_message_statement(game_id: int, message_id: int) -> Statement:
    return "UPDATE games SET last_message_id = ? WHERE id = ?", (message_id, game_id)


async def set_last_message(conn: Conn, game_id: int, message_id: int) -> None:
    await conn.execute(*set_last_message_statement(game_id, message_id))


def finish_game_statement(game_id: int, *, result: str, winner_seat: int | None,
                          end_reason: str, finished_at: datetime,
                          status: str = "finished") -> Statement:
    """Record the end of an active game (changes no row if it had already ended)."""
    return ("UPDATE games SET status = ?, result = ?, winner_seat = ?, end_reason = ?,"
            " finished_at = ? WHERE id = ? AND status = 'active'",
            (status, result, winner_seat, end_reason, finished_at.isoformat(), game_id))


async def finish_game(conn: Conn, game_id: int, *, result: str, winner_seat: int | None,
                      end_reason: str, finished_at: datetime, status: str = "finished") -> bool:
    """Record the end of an active game; False if it had already ended."""
    cursor = await conn.execute(*finish_game_statement(
        game_id, result=result, winner_seat=winner_seat, end_reason=end_reason,
        finished_at=finished_at, status=status))
    return cursor.rowcount == 1


# -- moves ----------------------------------------------------------------------

def insert_move_statement(*, game_id: int, ply: int, move: str, seat: int, member_id: int,
                          played_at: datetime) -> Statement:
    """Fails with ``sqlite3.IntegrityError`` if that ply of that game is already recorded."""
    return ("INSERT INTO moves (game_id, ply, move, seat, member_id, played_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, ply, move, seat, member_id, played_at.isoformat()))


async def insert_move(conn: Conn, *, game_id: int, ply: int, move: str, seat: int,
                      member_id: int, played_at: datetime) -> None:
    """Raises ``sqlite3.IntegrityError`` if that ply of that game is already recorded."""
    await conn.execute(*insert_move_statement(game_id=game_id, ply=ply, move=move, seat=seat,
                                              member_id=member_id, played_at=played_at))


async def moves_of_game(conn: Conn, game_id: int) -> list[MoveRow]:
    rows = await conn.execute_fetchall("SELECT * FROM moves WHERE game_id = ? ORDER BY ply",
                                       (game_id,))
    return [MoveRow.from_row(row) for row in rows]


def active_games_with_moves(conn: sqlite3.Connection, *, after_id: int, limit: int
                            ) -> tuple[list[GameRow], dict[int, list[str]]]:
    """A page of the games in progress (ids above ``after_id``, in order) and their moves
    by game id (for :meth:`Database.run`: the rows are built in the database's thread)."""
    rows = [GameRow.from_row(row) for row in conn.execute(
        "SELECT * FROM games WHERE status = 'active' AND id > ? ORDER BY id LIMIT ?",
        (after_id, limit))]
    moves: dict[int, list[str]] = {row.id: [] for row in rows}
    if rows:
        for game_id, move in conn.execute(
                "SELECT moves.game_id, moves.move FROM moves JOIN games ON games.id = moves.game_id"
                " WHERE games.status = 'active' AND games.id > ? AND games.id <= ?"
                " ORDER BY moves.game_id, moves.ply", (after_id, rows[-1].id)):
            moves[game_id].append(move)
    return rows, moves


def set_move_message_statement(game_id: int, ply: int, message_id: int) -> Statement:
    return ("UPDATE moves SET message_id = ? WHERE game_id = ? AND ply = ?",
            (message_id, game_id, ply))


async def set_move_message(conn: Conn, game_id: int, ply: int, message_id: int) -> None:
    await conn.execute(*set_move_message_statement(game_id, ply, message_id))
