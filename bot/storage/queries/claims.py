"""Claims: work that exactly one process does, held under a lease while it is done."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Connection
from bot.storage.rows import stamp


async def claim(conn: Connection, kind: str, item: int, due_at: datetime, *, owner: str,
                now: datetime, lease_until: datetime) -> bool:
    """Take the work (``kind``, ``item``, ``due_at``) for ``owner`` until ``lease_until``:
    False if it is done, or held by a lease still running."""
    return await conn.change(
        "INSERT INTO claims (kind, item, due_at, owner, lease_until) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, item, due_at) DO UPDATE SET owner = excluded.owner,"
        " lease_until = excluded.lease_until"
        " WHERE claims.done_at IS NULL AND claims.lease_until <= ?",
        (kind, item, stamp(due_at), owner, stamp(lease_until), stamp(now))) == 1


async def finish_claim(conn: Connection, kind: str, item: int, due_at: datetime, *,
                       owner: str, done_at: datetime | None) -> bool:
    """Mark the claim done (``done_at``), or give it up at once (None); False if
    ``owner`` no longer held it."""
    if done_at is None:
        return await conn.change(
            "UPDATE claims SET lease_until = '' WHERE kind = ? AND item = ? AND due_at = ?"
            " AND owner = ? AND done_at IS NULL", (kind, item, stamp(due_at), owner)) == 1
    return await conn.change(
        "UPDATE claims SET done_at = ? WHERE kind = ? AND item = ? AND due_at = ?"
        " AND owner = ?", (stamp(done_at), kind, item, stamp(due_at), owner)) == 1


async def forget_claims(conn: Connection, before: datetime) -> int:
    """Delete the claims of work done and due before ``before``; how many."""
    return await conn.change("DELETE FROM claims WHERE due_at < ? AND done_at IS NOT NULL",
                             (stamp(before),))
