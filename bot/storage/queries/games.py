"""Games: who plays which seat, where the game lives, and how it ended."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.database import Connection, Statement, query
from bot.storage.rows import GameRow
from rules import Termination


def on_shards(
    guild_id: str, shard_count: int | None, shard_ids: Sequence[int] | None
) -> tuple[str, tuple[int, ...]]:
    """`` AND …``: the condition that the server in column ``guild_id`` is on one of
    ``shard_ids`` of ``shard_count`` (Discord's ``(guild_id >> 22) % shard_count``), with
    its arguments; nothing if every shard is meant."""
    if shard_count is None or shard_ids is None:
        return "", ()
    marks = ", ".join("?" * len(shard_ids))
    return (
        f" AND ({guild_id} >> 22) % ? IN ({marks})" if shard_ids else " AND 1 = 0",
        (shard_count, *shard_ids) if shard_ids else (),
    )


def dump(value: dict[str, Any]) -> str:
    """Options and settings as stored: JSON with sorted keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


async def insert_game(
    conn: Connection,
    *,
    guild_id: int,
    channel_id: int,
    challenge_id: int | None,
    challenge_message_id: int | None,
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    player_ids: Sequence[int],
    player_names: Sequence[str],
    created_at: datetime,
    link: str | None = None,
) -> int:
    """A new active game; ``settings["rated"] = False`` (a casual challenge) makes it unrated.
    A game of guild 0 (no server the bot is in) lives in its players' DMs (``place``
    ``dms``); ``link``: where it was made, linked back from its DMs."""
    return await conn.insert(
        "INSERT INTO games (guild_id, channel_id, challenge_id, challenge_message_id, game,"
        " options, settings, player0_id, player0_name, player1_id, player1_name, created_at,"
        " rated, place, link) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            guild_id,
            channel_id,
            challenge_id,
            challenge_message_id,
            game,
            dump(options),
            dump(settings),
            player_ids[0],
            player_names[0],
            player_ids[1],
            player_names[1],
            created_at.isoformat(),
            0 if settings.get("rated") is False else 1,
            "dms" if guild_id == 0 else "server",
            link,
        ),
    )


async def get_game(conn: Connection, game_id: int) -> GameRow | None:
    row = await conn.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
    return GameRow.from_row(row) if row else None


#: :func:`get_game`, prepared for :meth:`Database.read`.
game_by_id = query(get_game)


async def game_in_thread(conn: Connection, guild_id: int, thread_id: int) -> GameRow | None:
    row = await conn.fetch_one(
        "SELECT * FROM games WHERE guild_id = ? AND thread_id = ? ORDER BY id DESC LIMIT 1",
        (guild_id, thread_id),
    )
    return GameRow.from_row(row) if row else None


async def games_of_member(
    conn: Connection, guild_id: int, member_id: int, *, status: str, limit: int = 100
) -> list[GameRow]:
    """A member's games in one server with ``status``, most recent first."""
    order = "id DESC" if status == "active" else "finished_at DESC, id DESC"
    rows = await conn.fetch_all(
        "SELECT * FROM games WHERE guild_id = ? AND status = ?"
        f" AND (player0_id = ? OR player1_id = ?) ORDER BY {order} LIMIT ?",
        (guild_id, status, member_id, member_id, limit),
    )
    return [GameRow.from_row(row) for row in rows]


async def active_games(conn: Connection) -> list[GameRow]:
    """Every game in progress, in every server."""
    rows = await conn.fetch_all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
    return [GameRow.from_row(row) for row in rows]


async def recent_games(conn: Connection, guild_id: int, *, limit: int = 25) -> list[GameRow]:
    """A server's games, newest first (live and finished alike)."""
    rows = await conn.fetch_all(
        "SELECT * FROM games WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit)
    )
    return [GameRow.from_row(row) for row in rows]


@query
async def active_games_with_moves(
    conn: Connection,
    *,
    after_id: int,
    limit: int,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
) -> tuple[list[GameRow], dict[int, list[str]]]:
    """A page of the games in progress (ids above ``after_id``, in order) and their moves
    by game id (on SQLite, the rows are built in the database's thread); with
    ``shard_ids`` of ``shard_count``, only those of the servers on these shards."""
    shards, args = on_shards("guild_id", shard_count, shard_ids)
    rows = [
        GameRow.from_row(row)
        for row in await conn.fetch_all(
            f"SELECT * FROM games WHERE status = 'active' AND id > ?{shards} ORDER BY id LIMIT ?",
            (after_id, *args, limit),
        )
    ]
    moves: dict[int, list[str]] = {row.id: [] for row in rows}
    if rows:
        shards, args = on_shards("games.guild_id", shard_count, shard_ids)
        for game_id, move in await conn.fetch_all(
            "SELECT moves.game_id, moves.move FROM moves JOIN games ON games.id = moves.game_id"
            f" WHERE games.status = 'active' AND games.id > ? AND games.id <= ?{shards}"
            " ORDER BY moves.game_id, moves.ply",
            (after_id, rows[-1].id, *args),
        ):
            moves[game_id].append(move)
    return rows, moves


def set_game_thread_statement(game_id: int, thread_id: int | None) -> Statement:
    return "UPDATE games SET thread_id = ? WHERE id = ?", (thread_id, game_id)


def set_last_message_statement(game_id: int, message_id: int) -> Statement:
    return "UPDATE games SET last_message_id = ? WHERE id = ?", (message_id, game_id)


def finish_game_statement(
    game_id: int,
    *,
    result: str,
    winner_seat: int | None,
    end_reason: Termination,
    finished_at: datetime,
    status: str = "finished",
    at_ply: int | None = None,
) -> Statement:
    """Record the end of an active game (changes no row if it had already ended, or,
    with ``at_ply``, if its stored moves are not that many: a move came first)."""
    sql = (
        "UPDATE games SET status = ?, result = ?, winner_seat = ?, end_reason = ?,"
        " finished_at = ? WHERE id = ? AND status = 'active'"
    )
    args: tuple[object, ...] = (
        status,
        result,
        winner_seat,
        end_reason.value,
        finished_at.isoformat(),
        game_id,
    )
    if at_ply is not None:
        sql += " AND (SELECT COUNT(*) FROM moves WHERE game_id = ?) = ?"
        args += (game_id, at_ply)
    return sql, args
