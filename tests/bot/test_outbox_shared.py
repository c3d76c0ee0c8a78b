"""The outbox of several bot processes sharing one database: a lane (a game's items) is
delivered by one process at a time, in order, each item once; a process started again
on the same shards goes on at once with what it owed; what a process that never came
back owed is delivered by another once its lease ran out.

Each "process" here is an Outbox of its own over a connection of its own to the one
database, with the name of its shards, as :func:`bot.app.build` makes it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.claims import LEASE, Lanes
from bot.outbox import STUCK, Outbox, Staged, item
from bot.storage import Database, OutboxRow, open_database
from tests.bot.fakes import FakeClock
from tests.timing import seconds

pytestmark = pytest.mark.both_backends

LANE = "game:1"


class Process:
    """One process's outbox; what it delivered goes to the shared ``log``."""

    def __init__(
        self, name: str, db: Database, clock: FakeClock, log: list[tuple[str, int]]
    ) -> None:
        self.name, self.db, self.log = name, db, log
        self.outbox = Outbox(db, now=clock, owner=name, sleep=self._pause)
        self.outbox.handle("post", self._post)
        #: While cleared, a delivery waits in the middle (Discord slow to answer).
        self.going = asyncio.Event()
        self.going.set()
        self.inside = asyncio.Event()

    async def _pause(self, seconds: float) -> None:
        await asyncio.sleep(0)

    async def _post(self, pending: OutboxRow, worked_out: object) -> int:
        self.inside.set()
        await self.going.wait()
        self.log.append((self.name, pending.payload["n"]))
        return pending.payload["n"]

    async def stage(self, n: int, clock: FakeClock, lane: str = LANE) -> Staged:
        staged = item(lane, "post", {"n": n}, now=clock())
        await self.db.write([staged.statement])
        return staged


@pytest.fixture
async def world(database_url: Path | str) -> AsyncIterator[tuple[FakeClock, list, list]]:
    clock, log, dbs = FakeClock(), [], []

    async def process(name: str) -> Process:
        dbs.append(await open_database(database_url))
        return Process(name, dbs[-1], clock, log)

    yield clock, log, process  # type: ignore[misc]
    for db in dbs:
        await db.close()


async def test_a_lane_is_delivered_by_one_process_at_a_time_in_order(world) -> None:
    clock, log, process = world
    a, b = await process("shards 0 of 2"), await process("shards 1 of 2")
    a.going.clear()
    first = await a.stage(1, clock)
    delivering = asyncio.ensure_future(a.outbox.deliver(first))
    await a.inside.wait()  # a holds the lane, its first post half-way

    assert await b.outbox.start() == 1  # b, starting, sees the item pending ...
    second = await b.stage(2, clock)  # ... and stages one more in the same game
    assert await b.outbox.deliver(second, timeout=seconds(0.1)) == [None]  # a delivers it, not b
    assert log == []

    a.going.set()
    assert await delivering == [1]
    await a.outbox.deliver(second, timeout=seconds(5))
    assert log == [("shards 0 of 2", 1), ("shards 0 of 2", 2)]  # once each, in order
    assert await b.outbox.sweep() == 0  # nothing left anywhere
    await a.outbox.stop()
    await b.outbox.stop()


async def test_what_a_dead_process_owed_is_delivered_once_by_another_after_its_lease(world) -> None:
    clock, log, process = world
    dead, other = await process("shards 0 of 2"), await process("shards 1 of 2")
    await dead.stage(1, clock)
    await dead.stage(2, clock)
    assert await Lanes(dead.db, now=clock, owner=dead.name).take(LANE)  # then SIGKILL

    assert await other.outbox.start() == 1 and log == []  # its lease still runs
    clock.advance(seconds=STUCK.total_seconds() + 1)
    await other.outbox.sweep()
    assert log == []
    clock.advance(seconds=LEASE.total_seconds())
    assert await other.outbox.sweep() == 1
    assert log == [("shards 1 of 2", 1), ("shards 1 of 2", 2)]
    await other.outbox.sweep()
    assert len(log) == 2
    await other.outbox.stop()


async def test_a_process_started_again_on_its_shards_goes_on_at_once(world) -> None:
    clock, log, process = world
    dead, other = await process("shards 0 of 2"), await process("shards 1 of 2")
    await dead.stage(1, clock)
    assert await Lanes(dead.db, now=clock, owner=dead.name).take(LANE)  # then SIGKILL
    await other.outbox.start()

    again = await process("shards 0 of 2")  # the same shards, at once
    assert await again.outbox.start() == 1
    assert log == [("shards 0 of 2", 1)]
    await again.outbox.stop()
    await other.outbox.stop()


async def test_a_lane_is_let_go_only_with_nothing_left_in_it(world) -> None:
    """The holder lets go and another process stages in the lane at the same moment:
    the item staged before the letting go keeps the lane with the holder (whose
    delivery goes on), one staged after finds the lane free."""
    clock, _, process = world
    a, b = await process("shards 0 of 2"), await process("shards 1 of 2")
    lanes_a = Lanes(a.db, now=clock, owner=a.name)
    lanes_b = Lanes(b.db, now=clock, owner=b.name)
    assert await lanes_a.take(LANE)
    await b.stage(1, clock)
    assert not await lanes_b.take(LANE)  # b leaves it to the holder ...
    assert not await lanes_a.release(LANE)  # ... who sees it as it lets go: kept
    await a.outbox.start()  # delivered (a still holds the lane) and let go
    assert await lanes_b.take(LANE)
