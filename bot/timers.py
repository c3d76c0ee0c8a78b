"""One task that sleeps until the next due moment, handles what is due, and sleeps
again: the shape of every timer the bot keeps in its database (game clocks,
challenge expiry). Nothing polls. Whatever can move the next due time in this process calls
:meth:`DueTimer.poke`, which wakes the task to read it again; what fell due while
the bot was down is handled in the first round. Other processes sharing the database
change it too, unseen: with ``reread``, the task reads it again at least that often
(a process's lease, :mod:`bot.processes`: what a dead process left due is done
within one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

log = logging.getLogger(__name__)

#: Never sleep longer than this at once (guards against wall-clock jumps).
LONGEST_SLEEP = timedelta(days=1)
#: After a round whose handling failed, try again this much later (seconds).
RETRY = 60.0

Sleep = Callable[[float], Awaitable[object]]


class DueTimer:
    """``handle_due()`` handles everything due by now; ``next_due()`` reads the next
    due time from the database (None: nothing is scheduled, sleep until poked)."""

    def __init__(
        self,
        name: str,
        *,
        handle_due: Callable[[], Awaitable[object]],
        next_due: Callable[[], Awaitable[datetime | None]],
        now: Callable[[], datetime],
        sleep: Sleep = asyncio.sleep,
        reread: timedelta | None = None,
    ) -> None:
        self.name = name
        #: Read the next due time again at least this often (None: only when poked).
        self.reread = reread
        self._handle_due = handle_due
        self._next_due = next_due
        self._now = now
        self._sleep = sleep
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def poke(self) -> None:
        """Something due may have moved: read the next due time again."""
        self._wake.set()

    async def run(self) -> None:
        """Forever: handle what is due, then sleep until the next due time or a poke."""
        while True:
            try:
                self._wake.clear()
                await self._handle_due()
                due = await self._next_due()
                longest = min(LONGEST_SLEEP, self.reread or LONGEST_SLEEP)
                if due is None:
                    if self.reread is None:
                        await self._wake.wait()
                    else:
                        await self._sleep_or_wake(longest.total_seconds())
                    continue
                delay = min(due - self._now(), longest).total_seconds()
                # Still due right after a round: its handling failed (or another process
                # holds it); retry later.
                retry = min(RETRY, longest.total_seconds())
                await self._sleep_or_wake(delay if delay > 0 else retry)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed; retrying in a minute", self.name)
                await self._sleep_or_wake(
                    min(RETRY, (self.reread or LONGEST_SLEEP).total_seconds())
                )

    async def _sleep_or_wake(self, seconds: float) -> None:
        if self._wake.is_set():
            return
        sleeper = asyncio.ensure_future(self._sleep(seconds))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait((sleeper, waker), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeper, waker):
                task.cancel()
