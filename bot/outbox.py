"""The transactional outbox: nothing that must reach Discord is lost, nothing is doubled.

A change and what it must show (a move and its board, a new game and its thread, its
opening board and its challenge message, an ending and its final board) are stored
in one transaction: the change's statements plus an item of the outbox, made by
:func:`item`. Then one delivery loop sends the items, in the order they were stored
within their *lane* (a game, a challenge), and marks each done once delivered. A
crash anywhere in between leaves the item pending, and every pending item is
delivered again at start-up, before the bot takes new work (:meth:`Outbox.start`).

Delivering again must not deliver twice: each item has a random ``key``, and the
messages sent while delivering it carry nonces made from that key
(:func:`next_nonce`), which Discord honours for minutes; a handler records what it
has done so far in the item's ``result`` (a thread opened, a message posted), so a
repeat goes on from there.

Several bot processes may share the database (PostgreSQL): a lane is delivered by one
process at a time, the one holding its lease (:class:`bot.claims.Lanes`), taken before
its first item and given back once the lane has nothing left. At start-up a process
delivers every lane with items pending that nobody holds, its own from before a crash
included (its leases are in the name of its shards: it takes them again at once); the
lanes of a process that died and did not come back are taken over by the others once
their lease ran out (:meth:`Outbox.sweep`, every ``sweep_every`` seconds).

Handlers are given per kind by the services that stage the items (:meth:`Outbox.handle`).
A handler raises :class:`~bot.model.DeliveryDelayed` when Discord cannot be reached
(the item is tried again later, after a growing pause, and its lane waits; so is an
item whose progress the database could not record); any other error is retried a few
times and then given up, logged.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.claims import Lanes
from bot.i18n import current_locale, speaking
from bot.model import DeliveryDelayed
from bot.storage import Database, OutboxRow, ReadFailed, Statement, WriteFailed, queries
from bot.timers import Sleep

log = logging.getLogger(__name__)

#: A handler delivers one item; what it returns goes to whoever waits for the item.
#: Delivers one item: given it as stored, and what the change that staged it had
#: already worked out for its delivery (None when it is delivered after a restart).
Handler = Callable[[OutboxRow, Any], Awaitable[Any]]

#: Unexpected failures of one item before it is given up.
GIVE_UP_AFTER = 3
#: The longest pause between two tries of an item.
LONGEST_PAUSE = 60.0
#: How long start-up waits for the items left pending by the last run.
START_UP_WAIT = 120.0
#: How long delivered items are kept, and how often the older ones are forgotten.
KEEP_DELIVERED = timedelta(days=7)
PRUNE_EVERY = timedelta(hours=1)
#: Values of delivered items kept for a caller that asks just after a worker delivered.
_REMEMBERED = 256
#: Items waiting this long are looked at by :meth:`Outbox.sweep` (their process may be
#: gone); younger ones are being delivered by the process that staged them.
STUCK = timedelta(seconds=30)


class _LaneLost(Exception):
    """The lane's lease ran out while its item waited: another process delivers it."""


@dataclass(frozen=True, slots=True)
class Staged:
    """An outbox item, ready to be written with the change that causes it."""

    key: str
    lane: str
    statement: Statement
    #: What the change had already worked out for the delivery (a board's position),
    #: kept in memory only: a delivery after a restart works it out again.
    worked_out: Any = None


def item(
    lane: str, kind: str, payload: dict[str, Any], *, now: datetime, worked_out: Any = None
) -> Staged:
    """A new outbox item of ``kind`` in ``lane``: write its ``statement`` in the same
    transaction as the change that causes it, then :meth:`Outbox.deliver` it. It is
    delivered in the language spoken now (stage a thread's post within
    ``speaking(<the server's language>)``: bot.i18n), kept in its payload."""
    key = secrets.token_urlsafe(9)  # 12 characters: a nonce holds 25
    payload = {"locale": current_locale(), **payload}
    return Staged(
        key,
        lane,
        queries.outbox_item_statement(
            key=key, lane=lane, kind=kind, payload=payload, created_at=now
        ),
        worked_out=worked_out,
    )


def game_lane(game_id: int) -> str:
    return f"game:{game_id}"


def challenge_lane(challenge_id: int) -> str:
    return f"challenge:{challenge_id}"


@dataclass(slots=True)
class _Delivering:
    key: str
    sent: int = 0


_delivering: contextvars.ContextVar[_Delivering | None] = contextvars.ContextVar(
    "delivering", default=None
)


def next_nonce() -> str | None:
    """The nonce for the next message sent while an item is delivered (the same ones,
    in the same order, every time it is delivered again); None outside a delivery."""
    current = _delivering.get()
    if current is None:
        return None
    current.sent += 1
    return f"{current.key}.{current.sent}"


@dataclass(eq=False)
class Outbox:
    db: Database
    now: Callable[[], datetime]
    sleep: Sleep = asyncio.sleep
    #: This process to the others sharing the database (its lanes' leases are in this
    #: name): the same after a restart.
    owner: str = "every shard"
    #: Seconds between two :meth:`sweep` s (None: none; tests sweep themselves).
    sweep_every: float | None = None
    _lanes: Lanes = field(init=False)
    _sweeper: asyncio.Task[None] | None = None
    _handlers: dict[str, Handler] = field(default_factory=dict)
    _workers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    _again: set[str] = field(default_factory=set)
    _waiting: dict[str, list[asyncio.Future[Any]]] = field(default_factory=dict)
    _delivered: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    #: What the changes being delivered worked out, by item key (see Staged).
    _worked_out: dict[str, Any] = field(default_factory=dict)
    _stopping: bool = False
    _pruned_at: datetime | None = None

    def __post_init__(self) -> None:
        self._lanes = Lanes(self.db, now=self.now, owner=self.owner)

    def handle(self, kind: str, handler: Handler) -> None:
        """Deliver items of ``kind`` with ``handler`` (the composition root's call)."""
        self._handlers[kind] = handler

    # -- the loop ---------------------------------------------------------------------

    async def start(self) -> int:
        """Deliver every item left pending by the last run (before new work), but in the
        lanes another process is delivering; returns how many lanes had some."""
        await self._prune()
        lanes = await self.db.read(queries.pending_lanes())
        if lanes:
            log.info("delivering what %d games and challenges still owed Discord", len(lanes))
            await self._deliver_lanes(lanes, START_UP_WAIT)
        if self.sweep_every is not None and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="outbox sweep")
        return len(lanes)

    async def sweep(self) -> int:
        """Deliver the lanes whose items have waited longer than :data:`STUCK`, unless
        another process holds them: those of a process that died (once its leases ran
        out). Returns how many lanes were looked at."""
        lanes = [
            lane
            for lane in await self.db.read(queries.pending_lanes(created_before=self.now() - STUCK))
            if lane not in self._workers
        ]
        await self._deliver_lanes(lanes, START_UP_WAIT)
        return len(lanes)

    async def _sweep_forever(self) -> None:
        assert self.sweep_every is not None
        while not self._stopping:
            await asyncio.sleep(self.sweep_every)
            try:
                await self.sweep()
            except Exception:  # the database out of reach, say: the next sweep tries again
                log.exception("could not look for lanes left undelivered")

    async def _deliver_lanes(self, lanes: list[str], timeout: float) -> None:
        for lane in lanes:
            self.kick(lane)
        workers = [self._workers[lane] for lane in lanes if lane in self._workers]
        if workers:
            _, late = await asyncio.wait(workers, timeout=timeout)
            if late:
                log.warning("%d lanes are still being delivered; going on", len(late))

    async def stop(self) -> None:
        self._stopping = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        await self._lanes.let_go()

    def kick(self, lane: str) -> None:
        """Deliver the lane's pending items (a worker per lane, while it has some)."""
        if self._stopping:
            return
        if lane in self._workers:
            self._again.add(lane)  # the worker looks again before it stops
        else:
            self._workers[lane] = asyncio.create_task(self._work(lane), name=f"outbox {lane}")

    async def deliver(self, *staged: Staged, timeout: float | None = None) -> list[Any]:
        """Deliver these items (already written) now, and wait until they are: what
        their handlers returned, in order (None for an item given up, or still being
        tried when ``timeout`` seconds have passed)."""
        futures = []
        for one in staged:
            if one.worked_out is not None:
                self._worked_out[one.key] = one.worked_out
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            if one.key in self._delivered:
                future.set_result(self._delivered[one.key])
            else:
                self._waiting.setdefault(one.key, []).append(future)
            futures.append(future)
        for lane in dict.fromkeys(one.lane for one in staged):
            self.kick(lane)
        if futures:
            await asyncio.wait(futures, timeout=timeout)
        for one, future in zip(staged, futures, strict=True):
            self._worked_out.pop(one.key, None)
            waiting = self._waiting.get(one.key)
            if waiting and future in waiting:
                waiting.remove(future)
                if not waiting:
                    del self._waiting[one.key]
        return [future.result() if future.done() else None for future in futures]

    async def _work(self, lane: str) -> None:
        try:
            while not self._stopping:
                if not await self._take(lane):
                    return  # another process delivers it (or will, once its lease ran out)
                await self._deliver_held(lane)
                if lane not in self._again:  # (kicked while letting go: take it again)
                    return
        except asyncio.CancelledError:
            raise
        except _LaneLost:
            log.warning("the delivery of %s was taken over by another process", lane)
        except Exception:  # the loop itself must not die silently
            log.exception("the delivery of %s stopped; it resumes with the next change", lane)
        finally:
            if self._workers.get(lane) is asyncio.current_task():
                del self._workers[lane]

    async def _deliver_held(self, lane: str) -> None:
        """Deliver the lane's items, while this process holds it, until it is let go
        with nothing left in it."""
        kept = False  # the last letting go failed
        while not self._stopping:
            self._again.discard(lane)
            items = await self.db.read(queries.pending_outbox(lane))
            if items:
                for pending in items:
                    if not await self._lanes.keep(lane):
                        raise _LaneLost(lane)
                    await self._deliver(pending)
            elif kept:  # it failed with nothing pending: the lease was no longer ours
                return
            elif lane not in self._again:
                kept = not await self._lanes.release(lane)
                if not kept:
                    return
                continue  # staged meanwhile (maybe by another process, which left it to us)
            kept = False

    async def _take(self, lane: str) -> bool:
        while True:
            try:
                return await self._lanes.take(lane)
            except WriteFailed:  # the database refuses writes: wait for it
                await self.sleep(LONGEST_PAUSE)
                if self._stopping:
                    raise asyncio.CancelledError from None

    async def _deliver(self, pending: OutboxRow) -> None:
        handler = self._handlers.get(pending.kind)
        attempts = pending.attempts
        while True:
            if handler is None:
                log.error(
                    "no handler for outbox items of kind %r: item %d given up",
                    pending.kind,
                    pending.id,
                )
                await self._close(pending, "failed", None)
                return
            token = _delivering.set(_Delivering(pending.key))
            try:
                with speaking(pending.payload.get("locale")):  # as it was staged
                    value = await handler(pending, self._worked_out.get(pending.key))
            except (DeliveryDelayed, WriteFailed, ReadFailed) as delay:  # for now: try again
                attempts += 1
                pause = min(LONGEST_PAUSE, 2.0 ** min(attempts, 10) / 4)
                log.warning(
                    "%s item %d of %s delayed (%s): trying again in %.1f s",
                    pending.kind,
                    pending.id,
                    pending.lane,
                    delay,
                    pause,
                )
            except Exception:
                attempts += 1
                log.exception(
                    "%s item %d of %s failed (try %d of %d)",
                    pending.kind,
                    pending.id,
                    pending.lane,
                    attempts,
                    GIVE_UP_AFTER,
                )
                if attempts >= GIVE_UP_AFTER:
                    await self._close(pending, "failed", None)
                    return
                pause = min(LONGEST_PAUSE, 2.0**attempts / 4)
            else:
                await self._close(pending, "done", value)
                return
            finally:
                _delivering.reset(token)
            await self._try(queries.outbox_attempt_statement(pending.id))
            await self.sleep(pause)
            if self._stopping:
                raise asyncio.CancelledError
            if not await self._lanes.keep(pending.lane):
                raise _LaneLost(pending.lane)
            pending = await self._reread(pending)

    async def _reread(self, pending: OutboxRow) -> OutboxRow:
        """The item as stored now (its handler may have recorded progress)."""
        for fresh in await self.db.read(queries.pending_outbox(pending.lane)):
            if fresh.id == pending.id:
                return fresh
        return pending

    async def _close(self, pending: OutboxRow, status: str, value: Any) -> None:
        while not await self._try(queries.outbox_closed_statement(pending.id, status, self.now())):
            await self.sleep(LONGEST_PAUSE)  # the database refuses writes: wait for it
            if self._stopping:
                raise asyncio.CancelledError
        if self._pruned_at is None or self.now() - self._pruned_at > PRUNE_EVERY:
            await self._prune()
        self._delivered[pending.key] = value
        while len(self._delivered) > _REMEMBERED:
            self._delivered.popitem(last=False)
        for future in self._waiting.pop(pending.key, []):
            if not future.done():
                future.set_result(value)

    async def _prune(self) -> None:
        """Forget what was delivered long ago."""
        self._pruned_at = self.now()
        await self._try(queries.prune_outbox_statement(self.now() - KEEP_DELIVERED))

    async def _try(self, statement: Statement) -> bool:
        try:
            await self.db.write([statement], durable=False)
        except WriteFailed:
            return False  # logged by the database
        return True
