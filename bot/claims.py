"""Work that exactly one bot process does, however many share the database.

Several processes (one per group of Discord shards) may run on one PostgreSQL
database, and each one's timers (:mod:`bot.timers`) wake for the same due work: a
game's reminder or deadline, a member's digest, a challenge's expiry. Before doing
one, a process claims it in the database, under a lease (:data:`LEASE`): the one whose
claim is stored does the work and marks it done; the others skip it. A process that
dies with a claim leaves it to the others once its lease runs out (their timers look
again within :data:`bot.timers.RETRY`), or sooner: when the process registry
(:mod:`bot.processes`) finds it dead, its claims are given back at once; one whose
work fails gives it back at once.

A claim names the due moment (a game's clock due at 10:00 is one claim, the same clock
due at 12:00 another), and whoever does the work checks, once it holds the claim, that
it is still due: the work a dead process finished but did not mark done is not done
twice.

The outbox's lanes (:mod:`bot.outbox`) are leased the same way (:class:`Lanes`): a lane
is delivered by the one process holding its lease, given back when the lane has
nothing left. Their holder is named by its shards (:attr:`bot.shards.Shards.name`), not
by its pid: a process started again on the same shards goes on at once with what it
was delivering when it died; another process takes a lane over once its lease ran out.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta

from bot.storage import Database, WriteFailed, queries

log = logging.getLogger(__name__)

#: How long a claim holds without its process marking it done (longer than any one
#: piece of work: a post to Discord and a write).
LEASE = timedelta(minutes=2)
#: Claims of work done are kept this long, then forgotten.
KEPT = timedelta(days=7)


def process_name() -> str:
    """This process, as its claims name it: host, pid and a random tag (a restarted
    process with the same pid is another owner)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"


class Claims:
    def __init__(
        self,
        db: Database,
        *,
        now: Callable[[], datetime],
        owner: str | None = None,
        lease: timedelta = LEASE,
    ) -> None:
        self.db = db
        self.now = now
        self.owner = owner or process_name()
        self.lease = lease
        self._forgotten_at: datetime | None = None

    async def claim(self, kind: str, item: int, due_at: datetime) -> bool:
        """Take the work, unless it is done or another process holds it."""
        now = self.now()
        async with self.db.transaction() as tx:
            return await queries.claim(
                tx, kind, item, due_at, owner=self.owner, now=now, lease_until=now + self.lease
            )

    async def done(self, kind: str, item: int, due_at: datetime) -> None:
        async with self.db.transaction() as tx:
            if not await queries.finish_claim(
                tx, kind, item, due_at, owner=self.owner, done_at=self.now()
            ):
                log.warning("%s %d due %s was done after its lease ran out", kind, item, due_at)

    async def give_back(self, kind: str, item: int, due_at: datetime) -> None:
        async with self.db.transaction() as tx:
            await queries.finish_claim(tx, kind, item, due_at, owner=self.owner, done_at=None)

    @asynccontextmanager
    async def holding(self, kind: str, item: int, due_at: datetime) -> AsyncIterator[bool]:
        """``async with claims.holding(kind, item, due_at) as mine: if mine: …`` the work
        is marked done when the block ends, or given back if it raises."""
        if not await self.claim(kind, item, due_at):
            yield False
            return
        try:
            yield True
        except BaseException:
            await self.give_back(kind, item, due_at)
            raise
        await self.done(kind, item, due_at)

    async def forget_old(self) -> int:
        """Forget the claims of work done long ago (at most once an hour); how many."""
        now = self.now()
        if self._forgotten_at is not None and now - self._forgotten_at < timedelta(hours=1):
            return 0
        self._forgotten_at = now
        async with self.db.transaction() as tx:
            return await queries.forget_claims(tx, now - KEPT)


class Lanes:
    """The leases of the outbox's lanes held by this process (``owner``)."""

    def __init__(
        self, db: Database, *, now: Callable[[], datetime], owner: str, lease: timedelta = LEASE
    ) -> None:
        self.db = db
        self.now = now
        self.owner = owner
        self.lease = lease
        self._taken_at: dict[str, datetime] = {}

    async def take(self, lane: str) -> bool:
        """Hold the lane (or hold it longer), unless another process holds it."""
        now = self.now()
        (taken,) = await self.db.write(
            [
                queries.take_lane_statement(
                    lane, owner=self.owner, now=now, lease_until=now + self.lease
                )
            ],
            durable=False,
        )
        if taken:
            self._taken_at[lane] = now
        else:
            self._taken_at.pop(lane, None)
        return bool(taken)

    async def keep(self, lane: str) -> bool:
        """Before more work in the lane: hold it longer once a third of the lease has
        passed. False if it is no longer ours (held too long without a word: another
        process took it over), or cannot be made longer (the database refuses writes)."""
        taken_at = self._taken_at.get(lane)
        if taken_at is not None and self.now() - taken_at < self.lease / 3:
            return True
        try:
            return await self.take(lane)
        except WriteFailed:
            return False

    async def release(self, lane: str) -> bool:
        """Let the lane go if nothing is left to deliver in it; False: an item came
        meanwhile (the lane is still ours: deliver it)."""
        try:
            (released,) = await self.db.write(
                [queries.release_lane_statement(lane, owner=self.owner)], durable=False
            )
        except WriteFailed:  # its lease runs out by itself
            released = 1
        if released:
            self._taken_at.pop(lane, None)
        return bool(released)

    async def let_go(self) -> None:
        """Let every lane held go at once, whatever is left in them (the process is
        stopping: another may go on with them now)."""
        lanes, self._taken_at = list(self._taken_at), {}
        if lanes:
            with contextlib.suppress(WriteFailed):  # else their leases run out by themselves
                await self.db.write(
                    [queries.drop_lane_statement(lane, owner=self.owner) for lane in lanes],
                    durable=False,
                )
