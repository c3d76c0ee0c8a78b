"""The outbox: what must reach Discord, stored with the change that causes it."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from bot.storage.database import Statement, query
from bot.storage.rows import OutboxRow, stamp


def _dump(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def outbox_item_statement(*, key: str, lane: str, kind: str, payload: dict[str, Any],
                          created_at: datetime) -> Statement:
    return ("INSERT INTO outbox (item_key, lane, kind, payload, created_at) "
            "VALUES (?, ?, ?, ?, ?)", (key, lane, kind, _dump(payload), stamp(created_at)))


@query
def pending_outbox(conn: sqlite3.Connection, lane: str) -> list[OutboxRow]:
    """The lane's items still to deliver, in the order they were stored."""
    rows = conn.execute("SELECT * FROM outbox WHERE status = 'pending' AND lane = ? ORDER BY id",
                        (lane,)).fetchall()
    return [OutboxRow.from_row(row) for row in rows]


@query
def pending_lanes(conn: sqlite3.Connection) -> list[str]:
    """Every lane with something still to deliver, the one waiting longest first."""
    rows = conn.execute("SELECT lane, MIN(id) AS first FROM outbox WHERE status = 'pending' "
                        "GROUP BY lane ORDER BY first").fetchall()
    return [row["lane"] for row in rows]


def outbox_result_statement(item_id: int, result: dict[str, Any]) -> Statement:
    """What delivering the item did so far (a repeated delivery skips it)."""
    return "UPDATE outbox SET result = ? WHERE id = ?", (_dump(result), item_id)


def outbox_attempt_statement(item_id: int) -> Statement:
    return "UPDATE outbox SET attempts = attempts + 1 WHERE id = ?", (item_id,)


def outbox_closed_statement(item_id: int, status: str, done_at: datetime) -> Statement:
    """The item delivered (``done``) or given up (``failed``)."""
    return ("UPDATE outbox SET status = ?, done_at = ? WHERE id = ? AND status = 'pending'",
            (status, stamp(done_at), item_id))


def prune_outbox_statement(before: datetime) -> Statement:
    """Forget the items delivered (or given up) before ``before``."""
    return "DELETE FROM outbox WHERE status <> 'pending' AND done_at < ?", (stamp(before),)
