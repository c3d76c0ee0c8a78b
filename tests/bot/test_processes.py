"""The process registry (bot/processes.py): each process holds a lease on its shards for
its life; a second one on the same shards is refused; a dead one's work (claims, outbox
lanes) is taken over by the first survivor whose heartbeat finds its lease run out."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.claims import Claims, Lanes
from bot.processes import Processes, ShardsTaken, TakenOver, gone
from bot.shards import Shards
from bot.storage import Database, open_database, queries
from bot.timers import DueTimer
from tests.bot.fakes import FakeClock
from tests.timing import seconds

pytestmark = pytest.mark.both_backends

LEASE = timedelta(seconds=30)


@pytest.fixture
async def db(database_url: Path | str) -> AsyncIterator[Database]:
    database = await open_database(database_url)
    yield database
    await database.close()


def process(
    db: Database,
    clock: FakeClock,
    name: str,
    count: int | None = 3,
    ids: tuple[int, ...] | None = None,
    *,
    dead: frozenset[str] = frozenset(),
) -> Processes:
    """A process named ``name`` (as ``host/pid/tag``: never this machine's); the owners in
    ``dead`` are known gone (their pid runs no more on this machine)."""
    return Processes(
        db,
        shards=Shards(count, ids),
        owner=f"elsewhere/{name}/x",
        now=clock,
        lease=LEASE,
        is_gone=lambda owner: owner in dead,
    )


async def test_a_second_process_on_the_same_shards_is_refused(db: Database) -> None:
    clock = FakeClock()
    first = process(db, clock, "1", 3, (0, 1))
    await first.enter()
    for ids in ((0, 1), (1,), (1, 2)):
        with pytest.raises(ShardsTaken, match=r"run by another process \(elsewhere/1/x\)"):
            await process(db, clock, "2", 3, ids).enter()
    with pytest.raises(ShardsTaken, match="SHARD_COUNT=3, this one with SHARD_COUNT=4"):
        await process(db, clock, "3", 4, (3,)).enter()
    other = process(db, clock, "4", 3, (2,))
    await other.enter()  # the shard nobody runs
    with pytest.raises(
        ShardsTaken,
        match=r"shards 0,1,2 of 3 are run by other processes \(elsewhere/1/x, elsewhere/4/x\)",
    ):
        await process(db, clock, "5", 3, None).enter()  # every shard: 2 is taken
    await first.stop()  # a clean stop frees its shards at once
    await process(db, clock, "2", 3, (0, 1)).enter()


async def test_a_process_that_left_without_a_word_is_refused_until_its_lease_ran_out(
    db: Database,
) -> None:
    clock = FakeClock()
    await process(db, clock, "1", None).enter()  # not sharded: shard 0 of 1
    with pytest.raises(ShardsTaken, match=r"if it died, the lease runs out in 30 s"):
        await process(db, clock, "2", None).enter()
    clock.advance(seconds=31)
    await process(db, clock, "2", None).enter()


async def test_a_restart_after_a_crash_on_this_machine_takes_its_shards_back_at_once(
    db: Database,
) -> None:
    clock = FakeClock()
    crashed = process(db, clock, "1", 2, (0,))
    await crashed.enter()
    claims = Claims(db, now=clock, owner=crashed.owner)
    due = clock()
    assert await claims.claim("clock", 7, due)
    lanes = Lanes(db, now=clock, owner=Shards(2, (0,)).name)
    assert await lanes.take("game:7")

    again = process(db, clock, "2", 2, (0,), dead=frozenset({crashed.owner}))
    await again.enter()  # its predecessor's pid runs no more: no wait
    # The claim it held is free at once (not in Claims' two minutes).
    assert await Claims(db, now=clock, owner=again.owner).claim("clock", 7, due)
    assert [p.owner for p in await db.read(queries.processes())] == [again.owner]


async def test_survivors_take_over_a_dead_process_once_its_lease_ran_out(db: Database) -> None:
    clock = FakeClock()
    told: dict[str, list[TakenOver]] = {"2": [], "3": []}
    lost: list[str] = []
    procs = {name: process(db, clock, name, 3, (int(name) - 1,)) for name in ("1", "2", "3")}
    for name in ("2", "3"):
        procs[name].on_take_over = lambda dead, name=name: _record(told[name], dead)
    procs["1"].on_lost = lambda: lost.append("1")
    for one in procs.values():
        await one.enter()
    dying = procs["1"]
    due = clock()
    assert await Claims(db, now=clock, owner=dying.owner).claim("expiry", 3, due)
    lanes = Lanes(db, now=clock, owner=dying.shards.name)
    assert await lanes.take("game:12") and await lanes.take("challenge:4")

    clock.advance(seconds=20)  # the others beat; the first is silent
    assert await procs["2"].beat() == [] and await procs["3"].beat() == []
    assert not await Claims(db, now=clock, owner="someone").claim("expiry", 3, due)

    clock.advance(seconds=11)  # its lease ran out; the others' not
    taken = await asyncio.gather(procs["2"].beat(), procs["3"].beat())
    assert sorted(len(t) for t in taken) == [0, 1]  # taken over once, by one of them
    [dead] = told["2"] + told["3"]
    assert (dead.owner, dead.shards) == (dying.owner, "shards 0 of 3")
    assert sorted(dead.lanes) == ["challenge:4", "game:12"]
    # Its claim and its lanes are free for the survivors, at once.
    assert await Claims(db, now=clock, owner=procs["2"].owner).claim("expiry", 3, due)
    assert await Lanes(db, now=clock, owner=procs["2"].shards.name).take("game:12")
    # Its shard too: a process may start on it.
    await process(db, clock, "4", 3, (0,)).enter()

    assert await dying.beat() == []  # it wakes up: it was taken over, and stops
    assert lost == ["1"]
    assert sorted(p.owner for p in await db.read(queries.processes())) == [
        "elsewhere/2/x",
        "elsewhere/3/x",
        "elsewhere/4/x",
    ]


class Beats:
    """A heartbeat's sleep that passes when the test says, the clock moving on by what
    was slept."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.asleep = 0  # sleeps begun
        self.passed = 0  # sleeps let pass
        self._go = asyncio.Semaphore(0)
        self._changed = asyncio.Condition()

    async def sleep(self, seconds: float) -> None:
        async with self._changed:
            self.asleep += 1
            self._changed.notify_all()
        await self._go.acquire()
        self.clock.advance(seconds=seconds)

    async def beat(self) -> None:
        """Let one sleep pass, and wait for the heartbeat after it (it sleeps again)."""
        self.passed += 1
        self._go.release()
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self.asleep > self.passed), seconds(10.0)
            )


async def test_a_process_keeps_its_lease_while_it_starts_and_takes_over_once_started(
    db: Database,
) -> None:
    """Logging in and delivering what the last run owed may take longer than a lease: the
    heartbeat begins with the lease, and the process is not taken for dead meanwhile; it
    takes over the dead only once it has started and can go on with their work."""
    clock = FakeClock()
    beats = Beats(clock)
    told: list[TakenOver] = []
    starting = Processes(
        db,
        shards=Shards(2, (0,)),
        owner="elsewhere/1/x",
        now=clock,
        lease=LEASE,
        sleep=beats.sleep,
        on_take_over=lambda dead: _record(told, dead),
        is_gone=lambda owner: False,
    )
    dying = process(db, clock, "2", 2, (1,))
    await starting.enter()
    await dying.enter()
    starting.start()
    try:
        for _ in range(4):  # 40 s, longer than a lease: the dying one's ran out
            await beats.beat()
        with pytest.raises(ShardsTaken, match=r"run by another process \(elsewhere/1/x\)"):
            await process(db, clock, "3", 2, (0,)).enter()
        assert told == []  # still starting: the dead one waits
        assert len(await db.read(queries.processes())) == 2

        starting.watch()
        await beats.beat()
        assert [dead.owner for dead in told] == ["elsewhere/2/x"]
        assert [p.owner for p in await db.read(queries.processes())] == ["elsewhere/1/x"]
    finally:
        await starting.stop()


async def _record(into: list[TakenOver], dead: TakenOver) -> None:
    into.append(dead)


def test_a_process_is_gone_when_its_pid_runs_no_more_on_this_machine() -> None:
    import os

    assert not gone("elsewhere/1/x", host="here")
    assert gone(f"here/{os.getpid()}/x", host="here")  # a restart that got the same pid
    assert not gone(f"here/{os.getppid()}/x", host="here")  # pytest's parent runs
    assert gone("here/999999999/x", host="here")


async def test_a_timer_reads_what_is_due_again_at_least_once_a_lease() -> None:
    """Another process's new deadline is never poked here: the timer finds it anyway."""
    clock = FakeClock()
    reads: list[object] = []
    sleeps: list[float] = []
    gate = asyncio.Event()

    async def next_due() -> None:
        reads.append(clock())
        return None  # nothing due, as far as this process knows

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if len(sleeps) >= 3:
            gate.set()
            await asyncio.Event().wait()  # sleeps until cancelled

    async def handle_due() -> None:
        pass

    timer = DueTimer(
        "clocks", handle_due=handle_due, next_due=next_due, now=clock, sleep=sleep, reread=LEASE
    )
    timer.start()
    await asyncio.wait_for(gate.wait(), 10)
    await timer.stop()
    assert sleeps == [30.0, 30.0, 30.0] and len(reads) == 3
