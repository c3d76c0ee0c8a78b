"""Claims: work that exactly one process does, held under a lease while it is done; and
the leases of the outbox's lanes, each delivered by one process at a time."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Connection, Statement
from bot.storage.rows import stamp


async def claim(
    conn: Connection,
    kind: str,
    item: int,
    due_at: datetime,
    *,
    owner: str,
    now: datetime,
    lease_until: datetime,
) -> bool:
    """Take the work (``kind``, ``item``, ``due_at``) for ``owner`` until ``lease_until``:
    False if it is done, or held by a lease still running."""
    return (
        await conn.change(
            "INSERT INTO claims (kind, item, due_at, owner, lease_until) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, item, due_at) DO UPDATE SET owner = excluded.owner,"
            " lease_until = excluded.lease_until"
            " WHERE claims.done_at IS NULL AND claims.lease_until <= ?",
            (kind, item, stamp(due_at), owner, stamp(lease_until), stamp(now)),
        )
        == 1
    )


async def finish_claim(
    conn: Connection,
    kind: str,
    item: int,
    due_at: datetime,
    *,
    owner: str,
    done_at: datetime | None,
) -> bool:
    """Mark the claim done (``done_at``), or give it up at once (None); False if
    ``owner`` no longer held it."""
    if done_at is None:
        return (
            await conn.change(
                "UPDATE claims SET lease_until = '' WHERE kind = ? AND item = ? AND due_at = ?"
                " AND owner = ? AND done_at IS NULL",
                (kind, item, stamp(due_at), owner),
            )
            == 1
        )
    return (
        await conn.change(
            "UPDATE claims SET done_at = ? WHERE kind = ? AND item = ? AND due_at = ?"
            " AND owner = ?",
            (stamp(done_at), kind, item, stamp(due_at), owner),
        )
        == 1
    )


async def forget_claims(conn: Connection, before: datetime) -> int:
    """Delete the claims of work done and due before ``before``; how many."""
    return await conn.change(
        "DELETE FROM claims WHERE due_at < ? AND done_at IS NOT NULL", (stamp(before),)
    )


# -- the outbox's lanes -------------------------------------------------------------


def take_lane_statement(
    lane: str, *, owner: str, now: datetime, lease_until: datetime
) -> Statement:
    """Hold ``lane`` for ``owner`` until ``lease_until`` (or hold it longer): changes a
    row if the lane was free, its lease had run out, or ``owner`` held it already."""
    return (
        "INSERT INTO lane_leases (lane, owner, lease_until) VALUES (?, ?, ?)"
        " ON CONFLICT (lane) DO UPDATE SET owner = excluded.owner,"
        " lease_until = excluded.lease_until"
        " WHERE lane_leases.owner = excluded.owner OR lane_leases.lease_until <= ?",
        (lane, owner, stamp(lease_until), stamp(now)),
    )


def drop_lane_statement(lane: str, *, owner: str) -> Statement:
    """Let ``lane`` go at once, whatever is left in it (a process stopping)."""
    return "DELETE FROM lane_leases WHERE lane = ? AND owner = ?", (lane, owner)


def release_lane_statement(lane: str, *, owner: str) -> Statement:
    """Let ``lane`` go, if ``owner`` holds it and nothing is left to deliver in it (no
    row changed: an item came meanwhile, the holder delivers it too; in one statement,
    so that an item staged by another process whose own take failed is never left)."""
    return (
        "DELETE FROM lane_leases WHERE lane = ? AND owner = ? AND NOT EXISTS"
        " (SELECT 1 FROM outbox WHERE outbox.status = 'pending' AND outbox.lane = ?)",
        (lane, owner, lane),
    )
