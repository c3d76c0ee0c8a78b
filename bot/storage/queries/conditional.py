"""Conditional moves (a player's plan of replies in a game) and private notes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.database import Connection, Statement, query
from bot.storage.queries.games import on_shards
from bot.storage.rows import PlanRow, stamp


@query
async def plans_of_game(conn: Connection, game_id: int) -> list[PlanRow]:
    """The players' plans in a game (none, one or two)."""
    return [
        PlanRow.from_row(row)
        for row in await conn.fetch_all(
            "SELECT * FROM conditional_plans WHERE game_id = ? ORDER BY member_id", (game_id,)
        )
    ]


@query
async def plans_of_active_games(
    conn: Connection, shard_count: int | None = None, shard_ids: Sequence[int] | None = None
) -> list[PlanRow]:
    """The plans in games in progress (of the servers on ``shard_ids`` of ``shard_count``)."""
    shards, args = on_shards("games.guild_id", shard_count, shard_ids)
    return [
        PlanRow.from_row(row)
        for row in await conn.fetch_all(
            "SELECT conditional_plans.* FROM conditional_plans"
            " JOIN games ON games.id = conditional_plans.game_id"
            f" WHERE games.status = 'active'{shards}"
            " ORDER BY conditional_plans.game_id, conditional_plans.member_id",
            args,
        )
    ]


def save_plan_statement(
    game_id: int, member_id: int, ply: int, tree: dict[str, Any], now: datetime
) -> Statement:
    """The member's plan in the game, replacing any."""
    return (
        "INSERT INTO conditional_plans (game_id, member_id, ply, tree, updated_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, member_id) DO UPDATE"
        " SET ply = excluded.ply, tree = excluded.tree, updated_at = excluded.updated_at",
        (game_id, member_id, ply, json.dumps(tree), stamp(now)),
    )


def drop_plan_statement(game_id: int, member_id: int | None = None) -> Statement:
    """A member's plan in a game gone; with no member, both players'."""
    if member_id is None:
        return ("DELETE FROM conditional_plans WHERE game_id = ?", (game_id,))
    return (
        "DELETE FROM conditional_plans WHERE game_id = ? AND member_id = ?",
        (game_id, member_id),
    )


@query
async def game_note(conn: Connection, game_id: int, member_id: int) -> str | None:
    row = await conn.fetch_one(
        "SELECT note FROM game_notes WHERE game_id = ? AND member_id = ?", (game_id, member_id)
    )
    return None if row is None else str(row["note"])


def save_note_statement(game_id: int, member_id: int, note: str, now: datetime) -> Statement:
    return (
        "INSERT INTO game_notes (game_id, member_id, note, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, member_id) DO UPDATE"
        " SET note = excluded.note, updated_at = excluded.updated_at",
        (game_id, member_id, note, stamp(now)),
    )


def drop_note_statement(game_id: int, member_id: int) -> Statement:
    return (
        "DELETE FROM game_notes WHERE game_id = ? AND member_id = ?",
        (game_id, member_id),
    )


@query
async def plan_notice(conn: Connection, game_id: int, member_id: int) -> str | None:
    """The member's private notice about their conditional moves in the game that no DM
    carried (None: none)."""
    row = await conn.fetch_one(
        "SELECT notice FROM plan_notices WHERE game_id = ? AND member_id = ?",
        (game_id, member_id),
    )
    return None if row is None else str(row["notice"])


def save_plan_notice_statement(
    game_id: int, member_id: int, notice: str, now: datetime
) -> Statement:
    """The member's notice not seen yet, replacing an older one."""
    return (
        "INSERT INTO plan_notices (game_id, member_id, notice, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, member_id) DO UPDATE"
        " SET notice = excluded.notice, created_at = excluded.created_at",
        (game_id, member_id, notice, stamp(now)),
    )


def drop_plan_notice_statement(
    game_id: int, member_id: int | None = None, notice: str | None = None
) -> Statement:
    """A member's notice seen (only if it is still ``notice``, when given); with no
    member, both players' notices in the game gone."""
    if member_id is None:
        return ("DELETE FROM plan_notices WHERE game_id = ?", (game_id,))
    if notice is None:
        return (
            "DELETE FROM plan_notices WHERE game_id = ? AND member_id = ?",
            (game_id, member_id),
        )
    return (
        "DELETE FROM plan_notices WHERE game_id = ? AND member_id = ? AND notice = ?",
        (game_id, member_id, notice),
    )
