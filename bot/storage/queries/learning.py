"""The AI's analyses of finished games (a row per position) and Explore's sandboxes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.database import Connection, Statement, query
from bot.storage.queries.games import on_shards
from bot.storage.rows import AnalysisRow, SandboxRow, stamp

#: A member keeps this many sandboxes; opening one more drops their oldest.
SANDBOXES_KEPT = 5


def save_analysis_statement(row: AnalysisRow) -> Statement:
    """Stored once: a position analysed already keeps its first estimate."""
    return (
        "INSERT INTO analyses (game_id, ply, chance, best_move, proven, playouts)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, ply) DO NOTHING",
        (row.game_id, row.ply, row.chance, row.best_move, int(row.proven), row.playouts),
    )


@query
async def analyses_of_game(conn: Connection, game_id: int) -> list[AnalysisRow]:
    return [
        AnalysisRow.from_row(row)
        for row in await conn.fetch_all(
            "SELECT * FROM analyses WHERE game_id = ? ORDER BY ply", (game_id,)
        )
    ]


@query
async def games_to_analyse(
    conn: Connection,
    limit: int = 100,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
) -> list[int]:
    """Finished games whose analysis was started and not finished (the bot stopped
    half-way), oldest first; with ``shard_ids`` of ``shard_count``, only those of the
    servers on these shards. (Older games are analysed when someone asks.)"""
    shards, args = on_shards("games.guild_id", shard_count, shard_ids)
    return [
        row[0]
        for row in await conn.fetch_all(
            "SELECT analyses.game_id FROM analyses JOIN games ON games.id = analyses.game_id"
            f" WHERE games.status = 'finished'{shards} GROUP BY analyses.game_id"
            " HAVING COUNT(*) <="
            " (SELECT COUNT(*) FROM moves WHERE moves.game_id = analyses.game_id)"
            " ORDER BY analyses.game_id LIMIT ?",
            (*args, limit),
        )
    ]


def insert_sandbox_statements(
    *,
    member_id: int,
    game: str,
    options: dict[str, Any],
    moves: Sequence[str],
    opened_at: int,
    source_game_id: int | None,
    now: datetime,
) -> list[Statement]:
    """A new sandbox, and the member's oldest ones dropped beyond :data:`SANDBOXES_KEPT`."""
    return [
        (
            "INSERT INTO sandboxes (member_id, game, options, moves, opened_at, source_game_id,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                member_id,
                game,
                json.dumps(options),
                json.dumps(list(moves)),
                opened_at,
                source_game_id,
                stamp(now),
            ),
        ),
        (
            "DELETE FROM sandboxes WHERE member_id = ? AND id NOT IN (SELECT id FROM sandboxes"
            " WHERE member_id = ? ORDER BY id DESC LIMIT ?)",
            (member_id, member_id, SANDBOXES_KEPT),
        ),
    ]


def set_sandbox_moves_statement(
    sandbox_id: int, moves: Sequence[str], expected: Sequence[str]
) -> Statement:
    """Change the moves of a sandbox still at ``expected`` (0 rows: it moved on)."""
    return (
        "UPDATE sandboxes SET moves = ? WHERE id = ? AND moves = ?",
        (json.dumps(list(moves)), sandbox_id, json.dumps(list(expected))),
    )


@query
async def get_sandbox(conn: Connection, sandbox_id: int) -> SandboxRow | None:
    row = await conn.fetch_one("SELECT * FROM sandboxes WHERE id = ?", (sandbox_id,))
    return None if row is None else SandboxRow.from_row(row)


@query
async def latest_sandbox(conn: Connection, member_id: int) -> SandboxRow | None:
    row = await conn.fetch_one(
        "SELECT * FROM sandboxes WHERE member_id = ? ORDER BY id DESC LIMIT 1", (member_id,)
    )
    return None if row is None else SandboxRow.from_row(row)
