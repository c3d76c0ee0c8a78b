"""Work that exactly one bot process does, however many share the database.

Several processes (one per group of Discord shards) may run on one PostgreSQL
database, and each one's timers (:mod:`bot.timers`) wake for the same due work: a
game's reminder or deadline, a member's digest, a challenge's expiry. Before doing
one, a process claims it in the database, under a lease (:data:`LEASE`): the one whose
claim is stored does the work and marks it done; the others skip it. A process that
dies with a claim leaves it to the others once its lease runs out (their timers look
again within :data:`bot.timers.RETRY`); one whose work fails gives it back at once.

A claim names the due moment (a game's clock due at 10:00 is one claim, the same clock
due at 12:00 another), and whoever does the work checks, once it holds the claim, that
it is still due: the work a dead process finished but did not mark done is not done
twice.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta

from bot.storage import Database, queries

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
    def __init__(self, db: Database, *, now: Callable[[], datetime],
                 owner: str | None = None, lease: timedelta = LEASE) -> None:
        self.db = db
        self.now = now
        self.owner = owner or process_name()
        self.lease = lease
        self._forgotten_at: datetime | None = None

    async def claim(self, kind: str, item: int, due_at: datetime) -> bool:
        """Take the work, unless it is done or another process holds it."""
        now = self.now()
        async with self.db.transaction() as tx:
            return await queries.claim(tx, kind, item, due_at, owner=self.owner, now=now,
                                       lease_until=now + self.lease)

    async def done(self, kind: str, item: int, due_at: datetime) -> None:
        async with self.db.transaction() as tx:
            if not await queries.finish_claim(tx, kind, item, due_at, owner=self.owner,
                                              done_at=self.now()):
                log.warning("%s %d due %s was done after its lease ran out", kind, item,
                            due_at)

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
