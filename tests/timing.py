"""The time limits of the tests, scaled to the machine that runs them.

A limit in a test is a ceiling written on a healthy machine ("answered within 3
seconds", "started within 30"); on a machine ten times slower, or a host busy with
other work, the same bot takes ten times as long and is no more wrong. So every limit
is written as :func:`seconds` of its healthy value: that value times :data:`SCALE`.

:data:`SCALE` is ``TEST_TIME_SCALE`` from the environment if set (``TEST_TIME_SCALE=10``
on a known slow machine); otherwise it is measured once, when the tests start: how
long a fixed piece of Python work takes here against the machine the limits were
written on, times how busy the host is (its load per core, above one). Never below
one: a fast machine keeps the limits as written.
"""

from __future__ import annotations

import os
import time

#: The best of a few runs of :func:`_work` on the machine the limits were written on.
REFERENCE = 0.03
#: No test waits more than this many times its written limit.
MOST = 30.0


def _work() -> int:
    return sum(i * i for i in range(300_000))


def _measured() -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        _work()
        best = min(best, time.perf_counter() - started)
    try:
        busy = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this system
        busy = 1.0
    return max(1.0, best / REFERENCE) * max(1.0, busy)


def _scale() -> float:
    given = os.environ.get("TEST_TIME_SCALE")
    if given:
        return max(1.0, float(given))
    return min(MOST, _measured())


SCALE = _scale()


def seconds(limit: float) -> float:
    """``limit`` (seconds on a healthy machine) on this one."""
    return limit * SCALE
