"""The process registry: the bot processes sharing the database, each holding a lease on
its shards for its whole life and renewing it with a heartbeat (see
:mod:`bot.processes`); and the age of the oldest undelivered outbox item, for the
liveness endpoint."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.storage.database import Connection, Statement, query
from bot.storage.rows import ProcessRow, ShardLeaseRow, stamp


def enter_statements(
    *,
    owner: str,
    shards: str,
    shard_count: int,
    shard_ids: Sequence[int],
    now: datetime,
    lease_until: datetime,
) -> list[Statement]:
    """Register ``owner`` and take the leases of its shards: each statement must change
    a row (a shard whose lease is held by another process changes none)."""
    return [
        (
            "INSERT INTO processes (owner, shards, shard_count, started_at, heartbeat_at,"
            " lease_until) VALUES (?, ?, ?, ?, ?, ?)",
            (owner, shards, shard_count, stamp(now), stamp(now), stamp(lease_until)),
        ),
        *(
            (
                "INSERT INTO shard_leases (shard, owner, lease_until) VALUES (?, ?, ?)"
                " ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner,"
                " lease_until = excluded.lease_until"
                " WHERE shard_leases.owner = excluded.owner OR shard_leases.lease_until <= ?",
                (shard, owner, stamp(lease_until), stamp(now)),
            )
            for shard in shard_ids
        ),
    ]


def heartbeat_statements(*, owner: str, now: datetime, lease_until: datetime) -> list[Statement]:
    """Make ``owner``'s leases longer: the first changes its one row, the second one row
    per shard, unless another process took them over."""
    return [
        (
            "UPDATE processes SET heartbeat_at = ?, lease_until = ? WHERE owner = ?",
            (stamp(now), stamp(lease_until), owner),
        ),
        (
            "UPDATE shard_leases SET lease_until = ? WHERE owner = ?",
            (stamp(lease_until), owner),
        ),
    ]


def leave_statements(owner: str) -> list[Statement]:
    """``owner`` stops: its shards are free at once."""
    return [
        ("DELETE FROM shard_leases WHERE owner = ?", (owner,)),
        ("DELETE FROM processes WHERE owner = ?", (owner,)),
    ]


def take_over_statements(
    *, owner: str, shards: str, now: datetime, dead_only: bool = True
) -> list[Statement]:
    """Forget the process ``owner`` (``dead_only``: if its lease has run out; the first
    statement changes no row otherwise, or if another process took it over first), free
    its shards, give back its claims, and free its lanes (named ``shards``) unless a
    process on the same shards runs again (they are its own)."""
    forget: Statement = (
        ("DELETE FROM processes WHERE owner = ? AND lease_until <= ?", (owner, stamp(now)))
        if dead_only
        else ("DELETE FROM processes WHERE owner = ?", (owner,))
    )
    return [
        forget,
        ("DELETE FROM shard_leases WHERE owner = ?", (owner,)),
        (
            "UPDATE claims SET lease_until = '' WHERE owner = ? AND done_at IS NULL",
            (owner,),
        ),
        (
            "DELETE FROM lane_leases WHERE owner = ? AND NOT EXISTS"
            " (SELECT 1 FROM processes WHERE processes.shards = ? AND processes.lease_until > ?)",
            (shards, shards, stamp(now)),
        ),
    ]


@query
async def processes(conn: Connection) -> list[ProcessRow]:
    """Every process registered, the oldest first (the dead ones not yet taken over too)."""
    rows = await conn.fetch_all("SELECT * FROM processes ORDER BY started_at, owner")
    return [ProcessRow.from_row(row) for row in rows]


@query
async def shard_holders(conn: Connection, shard_ids: Sequence[int]) -> list[ShardLeaseRow]:
    """The leases held on these shards."""
    marks = ", ".join("?" * len(shard_ids))
    rows = await conn.fetch_all(
        f"SELECT * FROM shard_leases WHERE shard IN ({marks}) ORDER BY shard", tuple(shard_ids)
    )
    return [ShardLeaseRow.from_row(row) for row in rows]


@query
async def lanes_held_by(conn: Connection, owner: str) -> list[str]:
    """The outbox's lanes whose lease ``owner`` (a process's shard set) holds."""
    rows = await conn.fetch_all("SELECT lane FROM lane_leases WHERE owner = ?", (owner,))
    return [row["lane"] for row in rows]


@query
async def oldest_undelivered(conn: Connection) -> datetime | None:
    """When the oldest item still to deliver was stored (None: nothing is waiting)."""
    row = await conn.fetch_one(
        "SELECT MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'"
    )
    oldest = None if row is None else row["oldest"]
    return datetime.fromisoformat(oldest) if oldest else None
