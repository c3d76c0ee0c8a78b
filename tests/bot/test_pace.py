"""Each process keeps to its share of Discord's global limit (about 50 requests a
second for the whole bot): counted on a fake clock, never timed."""

from __future__ import annotations

import pytest

from bot.pace import GLOBAL_LIMIT, Pace, share
from bot.poster import delayable


class Clock:
    """Time that passes only when someone sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_the_share_follows_the_shards() -> None:
    assert share(None, None) == GLOBAL_LIMIT  # one process for the whole bot
    assert share(4, (0, 1)) == pytest.approx(GLOBAL_LIMIT / 2)
    assert share(10, (3,)) == pytest.approx(GLOBAL_LIMIT / 10)


async def test_a_burst_goes_at_once_then_requests_keep_to_the_rate() -> None:
    clock = Clock()
    pace = Pace(10.0, burst=2, clock=clock, sleep=clock.sleep)
    for _ in range(2):
        await pace.take()
    assert clock.slept == []  # the burst: at once
    for _ in range(100):
        await pace.take()
    # 100 more at 10 a second: 10 seconds, and never faster than the rate
    assert clock.now == pytest.approx(10.0)
    assert all(s == pytest.approx(0.1) for s in clock.slept)


async def test_time_spent_elsewhere_counts() -> None:
    clock = Clock()
    pace = Pace(5.0, burst=1, clock=clock, sleep=clock.sleep)
    await pace.take()
    clock.now += 1.0  # the process was busy with something else: no wait owed
    await pace.take()
    assert clock.slept == []
    await pace.take()  # right after: its turn comes a fifth of a second later
    assert clock.slept == [pytest.approx(0.2)]


def test_a_pace_needs_a_rate() -> None:
    with pytest.raises(ValueError, match="positive rate"):
        Pace(0)


class Sender:
    """A poster's shape: its requests to Discord are delayable calls with a pace."""

    def __init__(self, pace: Pace) -> None:
        self.pace = pace
        self.sent = 0

    @delayable
    async def send(self) -> None:
        self.sent += 1


async def test_every_request_of_a_poster_waits_its_turn() -> None:
    clock = Clock()
    sender = Sender(Pace(2.0, burst=1, clock=clock, sleep=clock.sleep))
    for _ in range(5):
        await sender.send()
    assert sender.sent == 5 and clock.now == pytest.approx(2.0)  # 4 turns of half a second
