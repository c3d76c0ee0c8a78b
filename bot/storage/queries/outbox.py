"""The outbox: what must reach Discord, stored with the change that causes it."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.storage.database import Connection, Statement, query
from bot.storage.rows import OutboxRow, stamp


def _dump(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def outbox_item_statement(
    *, key: str, lane: str, kind: str, payload: dict[str, Any], created_at: datetime
) -> Statement:
    return (
        "INSERT INTO outbox (item_key, lane, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
        (key, lane, kind, _dump(payload), stamp(created_at)),
    )


@query
async def pending_outbox(conn: Connection, lane: str) -> list[OutboxRow]:
    """The lane's items still to deliver, in the order they were stored."""
    rows = await conn.fetch_all(
        "SELECT * FROM outbox WHERE status = 'pending' AND lane = ? ORDER BY id", (lane,)
    )
    return [OutboxRow.from_row(row) for row in rows]


@query
async def pending_lanes(conn: Connection, created_before: datetime | None = None) -> list[str]:
    """Every lane with something still to deliver, the one waiting longest first (with
    ``created_before``: only lanes with an item waiting since before then)."""
    having, params = (
        ("", ())
        if created_before is None
        else (" HAVING MIN(created_at) < ?", (stamp(created_before),))
    )
    rows = await conn.fetch_all(
        "SELECT lane, MIN(id) AS first FROM outbox"
        f" WHERE status = 'pending' GROUP BY lane{having} ORDER BY first",
        params,
    )
    return [row["lane"] for row in rows]


def outbox_result_statement(item_id: int, result: dict[str, Any]) -> Statement:
    """What delivering the item did so far (a repeated delivery skips it)."""
    return "UPDATE outbox SET result = ? WHERE id = ?", (_dump(result), item_id)


def outbox_attempt_statement(item_id: int) -> Statement:
    return "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (item_id,)


def outbox_closed_statement(item_id: int, status: str, done_at: datetime) -> Statement:
    """The item delivered (``done``) or given up (``failed``)."""
    return (
        "UPDATE outbox SET status = ?, done_at = ? WHERE id = ? AND status = 'pending'",
        (status, stamp(done_at), item_id),
    )


def prune_outbox_statement(before: datetime) -> Statement:
    """Forget the items delivered (or given up) before ``before``."""
    return "DELETE FROM outbox WHERE status <> 'pending' AND done_at < ?", (stamp(before),)
