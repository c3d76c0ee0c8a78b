"""Pacing requests to Discord: its global limit (about 50 requests a second for the
whole bot) is shared by every process of the bot, so each keeps to its share, in
proportion to the shards it runs."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

#: Discord's global limit for a bot, in requests a second (answers to interactions,
#: which it does not count, aside).
GLOBAL_LIMIT = 50.0


def share(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's share of the global limit: all of it unsharded, else in
    proportion to its shards."""
    if shard_count is None or shard_ids is None:
        return GLOBAL_LIMIT
    return GLOBAL_LIMIT * len(shard_ids) / shard_count


class Pace:
    """At most ``rate`` requests a second on average, with bursts of up to ``burst``
    (a token bucket): :meth:`take` waits, if it must, for the next request's turn."""

    def __init__(
        self,
        rate: float,
        *,
        burst: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("a pace needs a positive rate")
        self.rate = rate
        self.burst = burst if burst is not None else max(1.0, rate / 5)
        self.clock = clock
        self.sleep = sleep
        self._tokens = self.burst
        self._at = clock()
        self._lock = asyncio.Lock()

    async def take(self) -> None:
        async with self._lock:  # in turn: one waiter at a time takes the next token
            now = self.clock()
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
            self._at = now
            if self._tokens < 1:
                wait = (1 - self._tokens) / self.rate
                await self.sleep(wait)
                self._at = self.clock()
                self._tokens = 1.0
            self._tokens -= 1
