"""The process registry: the bot processes sharing one database know each other.

Each process holds a lease on its shards (:class:`bot.shards.Shards`) for its whole
life, taken at start-up (:meth:`Processes.enter`) and made longer by a heartbeat every
third of the lease (:meth:`Processes.beat`), from the moment it is taken: logging in and
delivering what the last run owed may take longer than a lease. So:

- a second process on shards another one runs (a rolling deploy that starts the new
  process before the old one stopped, a copy started by mistake) is refused at start-up
  (:class:`ShardsTaken`, one line), and so is one whose ``SHARD_COUNT`` differs from
  the others';
- a process restarted after a crash on the same machine takes its shards back at once
  (the process named in the lease is gone: its pid runs no more), and the work its
  predecessor held with them;
- a process that dies without a word (SIGKILL, a machine lost) stops beating: once its
  lease has run out, the next heartbeat of any other process that has started (and can
  go on with the work: :meth:`Processes.watch`) takes over its work at once
  (:meth:`Processes.take_over`): its claims (reminders, deadlines, digests, expiries it
  was doing) are given back, its outbox lanes (boards it owed) freed, and
  the survivor is told (``on_take_over``: the root wakes the clocks and delivers the
  lanes). Its clocks themselves are in the database, due for whoever looks: every
  timer reads what is due at least once a lease (:class:`bot.timers.DueTimer`).

A process that finds its own lease taken (it could not beat for longer than a lease:
the database out of reach, the machine asleep) has been taken over: it is told
(``on_lost``) and should stop. A process that stops cleanly frees its shards at once
(:meth:`Processes.stop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.shards import Shards
from bot.storage import Conflict, Database, ProcessRow, ReadFailed, WriteFailed, queries
from bot.storage.rows import ShardLeaseRow
from bot.timers import Sleep

log = logging.getLogger(__name__)

#: A process's lease on its shards, by default (``PROCESS_LEASE_SECONDS``).
LEASE = timedelta(seconds=30)


class ShardsTaken(Exception):
    """Another process runs these shards (the message says which, in one line)."""


@dataclass(frozen=True, slots=True)
class TakenOver:
    """A dead process whose work this one took over: its shard set, the outbox lanes it
    held, and the servers it served (None: not known, its shards already run again), in
    which the survivor goes on with its owed work (the AI's moves in practice games, the
    analyses it left half-way)."""

    owner: str
    shards: str
    lanes: tuple[str, ...]
    servers: Shards | None = None


def shard_numbers(shards: Shards) -> tuple[int, ...]:
    """The shards a process runs: every one of ``count`` when ``ids`` is None; shard 0
    of 1 when not sharded."""
    if shards.count is None:
        return (0,)
    return tuple(range(shards.count)) if shards.ids is None else shards.ids


def gone(owner: str, *, host: str | None = None) -> bool:
    """Whether the process named ``owner`` (``host/pid/tag``, :func:`bot.claims.
    process_name`) is surely dead: it ran on this machine and its pid runs no more, or
    is this very process's (a restart that got the same pid: in a container, say)."""
    where, _, rest = owner.partition("/")
    pid_text = rest.partition("/")[0]
    if where != (host or socket.gethostname()) or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists (another user's): alive
        return False
    return False


class Processes:
    def __init__(
        self,
        db: Database,
        *,
        shards: Shards,
        owner: str,
        now: Callable[[], datetime],
        lease: timedelta = LEASE,
        sleep: Sleep = asyncio.sleep,
        on_take_over: Callable[[TakenOver], Awaitable[object]] | None = None,
        on_lost: Callable[[], object] | None = None,
        is_gone: Callable[[str], bool] = gone,
    ) -> None:
        self.db = db
        self.shards = shards
        self.owner = owner
        self.now = now
        self.lease = lease
        self._sleep = sleep
        self.on_take_over = on_take_over
        self.on_lost = on_lost
        self._is_gone = is_gone
        self._task: asyncio.Task[None] | None = None
        self.entered = False
        #: Whether the heartbeat also takes over the processes found dead.
        self.watching = False
        self._beat_failed = False

    @property
    def numbers(self) -> tuple[int, ...]:
        return shard_numbers(self.shards)

    # -- start-up -----------------------------------------------------------------------

    async def enter(self) -> None:
        """Take the lease of this process's shards, or raise :class:`ShardsTaken`. The
        leases of a predecessor that died on this machine are taken over at once."""
        if self.entered:
            return
        count = self.shards.count or 1
        for attempt in range(2):
            now = self.now()
            others = [
                p
                for p in await self.db.read(queries.processes())
                if p.owner != self.owner and p.lease_until > now and not self._is_gone(p.owner)
            ]
            for other in others:
                if other.shard_count != count:
                    raise ShardsTaken(
                        f"another process ({other.owner}, {other.shards}) runs with "
                        f"SHARD_COUNT={other.shard_count}, this one with "
                        f"SHARD_COUNT={count}: every process sharing the database must "
                        "have the same SHARD_COUNT"
                    )
            statements = queries.enter_statements(
                owner=self.owner,
                shards=self.shards.name,
                shard_count=count,
                shard_ids=self.numbers,
                now=now,
                lease_until=now + self.lease,
            )
            try:
                await self.db.write(statements, required=range(len(statements)))
            except Conflict:
                holders = await self.db.read(queries.shard_holders(self.numbers))
                dead = {h.owner for h in holders if h.owner != self.owner}
                if attempt == 0 and dead and all(self._is_gone(owner) for owner in dead):
                    for owner in sorted(dead):  # our predecessor, killed: it is gone
                        await self.take_over(owner, dead_only=False)
                    continue
                raise self._refusal(holders, now) from None
            self.entered = True
            log.info(
                "holding %s (lease %.0f s, as %s)",
                self.shards.name,
                self.lease.total_seconds(),
                self.owner,
            )
            return

    def _refusal(self, holders: list[ShardLeaseRow], now: datetime) -> ShardsTaken:
        held = [h for h in holders if h.owner != self.owner and h.lease_until > now]
        if not held:  # freed meanwhile: the next start gets them
            return ShardsTaken(
                f"{self.shards.name}: another process was taking the same shards at the same "
                "moment; start this one again"
            )
        owners = list(dict.fromkeys(h.owner for h in held))
        by = (
            f"another process ({owners[0]})"
            if len(owners) == 1
            else f"other processes ({', '.join(owners)})"
        )
        shards = ",".join(str(h.shard) for h in held)
        until = max(h.lease_until for h in held)
        return ShardsTaken(
            f"shard{'s' if len(held) > 1 else ''} {shards} of {self.shards.count or 1} "
            f"{'are' if len(held) > 1 else 'is'} run by {by}: stop "
            f"{'it' if len(owners) == 1 else 'them'} before starting this one (if "
            f"{'it' if len(owners) == 1 else 'they'} died, the lease runs out in "
            f"{max(0.0, (until - now).total_seconds()):.0f} s)"
        )

    # -- while running ---------------------------------------------------------------------

    def start(self) -> None:
        """Beat every third of the lease, keeping it while the process starts."""
        if self._task is None:
            self._task = asyncio.create_task(self._beat_forever(), name="process heartbeat")

    def watch(self) -> None:
        """Beat, and from now on take over the processes found dead: this process has
        started and can go on with their work."""
        self.watching = True
        self.start()

    async def _beat_forever(self) -> None:
        while True:
            await self._sleep(self.lease.total_seconds() / 3)
            try:
                await self.beat(take_over=self.watching)
            except asyncio.CancelledError:
                raise
            except ReadFailed:  # logged by the database; the next beat tries again
                pass
            except Exception:  # the next beat tries again
                log.exception("the heartbeat of %s failed", self.shards.name)

    async def beat(self, *, take_over: bool = True) -> list[TakenOver]:
        """Make this process's lease longer, then (``take_over``) take over the processes
        whose lease ran out; returns what was taken over."""
        now = self.now()
        try:
            beat, shards = await self.db.write(
                queries.heartbeat_statements(
                    owner=self.owner, now=now, lease_until=now + self.lease
                ),
                durable=False,
            )
        except WriteFailed as failure:
            if not self._beat_failed:  # one line, not one a beat
                log.error(
                    "the heartbeat of %s could not be written (%s): the other processes take "
                    "its work over if this lasts %.0f s",
                    self.shards.name,
                    failure.reason,
                    self.lease.total_seconds(),
                )
            self._beat_failed = True
            return []
        if self._beat_failed:
            log.info("the heartbeat of %s is written again", self.shards.name)
            self._beat_failed = False
        if self.entered and (beat != 1 or shards != len(self.numbers)):
            log.critical(
                "%s was taken over by another process (no heartbeat for %.0f s): stopping",
                self.shards.name,
                self.lease.total_seconds(),
            )
            self.entered = False
            if self.on_lost is not None:
                self.on_lost()  # (it stops the process: not from inside its heartbeat)
            return []
        if not take_over:
            return []
        taken = []
        for process in await self.db.read(queries.processes()):
            if process.owner != self.owner and process.lease_until <= now:
                one = await self.take_over(process.owner, process=process)
                if one is not None:
                    taken.append(one)
        return taken

    async def take_over(
        self, owner: str, *, process: ProcessRow | None = None, dead_only: bool = True
    ) -> TakenOver | None:
        """Take over the work of the process ``owner`` (``dead_only``: if its lease ran
        out, and no other process took it over first; None otherwise)."""
        if process is None:
            process = next(
                (p for p in await self.db.read(queries.processes()) if p.owner == owner), None
            )
        shards = process.shards if process is not None else ""
        lanes = tuple(await self.db.read(queries.lanes_held_by(shards))) if shards else ()
        servers = await self._servers_of(owner, process)
        now = self.now()
        try:
            await self.db.write(
                queries.take_over_statements(
                    owner=owner, shards=shards, now=now, dead_only=dead_only
                ),
                required=[0] if dead_only else (),
            )
        except Conflict:
            return None  # alive again, or taken over by another process
        if process is not None:
            log.warning(
                "%s (%s) stopped %s ago: taking over its clocks, claims and %d lanes",
                process.shards,
                owner,
                f"{(now - process.heartbeat_at).total_seconds():.0f} s",
                len(lanes),
            )
        taken = TakenOver(owner, shards, lanes, servers)
        if self.on_take_over is not None:
            try:
                await self.on_take_over(taken)
            except Exception:
                log.exception("could not go on with the work of %s", shards)
        return taken

    async def _servers_of(self, owner: str, process: ProcessRow | None) -> Shards | None:
        """The servers of the shards ``owner`` still holds (None: it holds none)."""
        if process is None:
            return None
        count = process.shard_count
        holders = await self.db.read(queries.shard_holders(tuple(range(count))))
        held = tuple(h.shard for h in holders if h.owner == owner)
        return Shards(count, held) if held else None

    async def stop(self) -> None:
        """Stop beating and free this process's shards at once."""
        self.watching = False
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.entered:
            self.entered = False
            with contextlib.suppress(WriteFailed):  # else its lease runs out by itself
                await self.db.write(queries.leave_statements(self.owner), durable=False)
