"""The AI's worker processes: answers off the event loop, a clear error when a worker dies."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

import ai.pool
import rules
from ai.levels import Budget, Level
from ai.pool import SOURCE_ROOT, AIPool, AIWorkerError
from ai.worker import NO_PDEATHSIG
from tests.timing import seconds

GAME, OPTIONS, MOVES = "asli", {"size": 5}, ["komi 2", "white", "c3"]


async def test_the_pool_answers_while_the_event_loop_keeps_running() -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.001)
            ticks += 1

    async with AIPool(workers=2) as pool:
        await pool.choose(GAME, OPTIONS, MOVES, Level("warm", Budget(playouts=1)))
        task = asyncio.create_task(ticker())
        # Each search thinks for at least its 0.4 s: the ticker must run meanwhile.
        thinking = Level("test", Budget(seconds=0.4))
        move, analysis = await asyncio.gather(
            pool.choose(GAME, OPTIONS, MOVES, thinking, seed=1),
            pool.analyse(GAME, OPTIONS, MOVES, Budget(seconds=0.4), seed=1),
        )
        task.cancel()
    state = rules.get_game(GAME).replay(MOVES, **OPTIONS)
    assert move in state.legal_moves()
    assert analysis.best_move in state.legal_moves() and analysis.to_move == state.to_move
    assert ticks >= 40


async def test_a_seeded_choice_is_the_same_in_the_pool_as_in_this_process() -> None:
    import ai

    level = Level("test", Budget(playouts=25))
    state = rules.get_game(GAME).replay(MOVES, **OPTIONS)
    async with AIPool() as pool:
        assert await pool.choose(GAME, OPTIONS, MOVES, level, seed=5) == ai.choose_move(
            state, level, seed=5
        )
        analyses = await pool.analyse_game(GAME, OPTIONS, MOVES, Budget(playouts=5), seed=1)
    assert len(analyses) == len(MOVES) + 1


async def test_a_worker_that_dies_fails_its_call_clearly_and_is_replaced() -> None:
    pool = AIPool(workers=1)
    try:
        await pool.start()
        [pid] = pool.pids()
        call = asyncio.create_task(
            pool.choose(GAME, OPTIONS, MOVES, Level("long", Budget(seconds=30)))
        )
        await asyncio.sleep(0)  # the call is queued
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(AIWorkerError, match="died"):
            await asyncio.wait_for(call, timeout=seconds(20))
        move = await pool.choose(GAME, OPTIONS, MOVES, Level("again", Budget(playouts=2)))
        assert move in rules.get_game(GAME).replay(MOVES, **OPTIONS).legal_moves()
        assert pool.started == 2 and pool.pids() != [pid]
    finally:
        await pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        await pool.choose(GAME, OPTIONS, MOVES)


async def test_start_leaves_the_event_loop_running_and_calls_made_meanwhile_wait() -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0)
            ticks += 1

    task = asyncio.create_task(ticker())
    async with AIPool(workers=2) as pool:
        early = asyncio.create_task(
            pool.choose(GAME, OPTIONS, MOVES, Level("t", Budget(playouts=2)))
        )
        await pool.start()
        await pool.start()  # again: nothing more
        assert ticks > 0  # the loop ran while the interpreters started
        assert len(pool.pids()) == 2 and pool.started == 2
        assert await early in rules.get_game(GAME).replay(MOVES, **OPTIONS).legal_moves()
    task.cancel()


async def test_close_stops_a_worker_in_the_middle_of_a_search() -> None:
    pool = AIPool(workers=2)
    await pool.start()
    pids = pool.pids()
    busy = asyncio.create_task(pool.choose(GAME, OPTIONS, MOVES, Level("long", Budget(seconds=60))))
    await asyncio.sleep(0)
    await pool.close()
    with pytest.raises(AIWorkerError):
        await busy
    assert not [pid for pid in pids if alive(pid)]
    assert pool.pids() == []


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


#: A bot in miniature: starts a pool of two, sets one worker thinking for a minute,
#: prints the workers' process ids and waits to be killed.
PARENT = """
import asyncio
from ai.levels import Budget, Level
from ai.pool import AIPool

async def main():
    pool = AIPool(workers=2)
    await pool.start()
    thinking = asyncio.ensure_future(
        pool.choose("asli", {"size": 5}, [], Level("long", Budget(seconds=60)))
    )
    print(*pool.pids(), flush=True)
    await thinking

asyncio.run(main())
"""

#: How long the workers may take to follow their killed parent (generous: a busy host).
DEATH_DEADLINE = 20.0


#: (signal, sent to the whole process group as a terminal's Ctrl-C is, parent-death signal)
ENDINGS = [
    (signal.SIGKILL, False, True),
    (signal.SIGKILL, False, False),
    (signal.SIGTERM, False, True),
    (signal.SIGINT, True, False),
]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    ("ending", "group", "pdeathsig"),
    ENDINGS,
    ids=["sigkill", "sigkill-pipe-only", "sigterm", "ctrl-c-pipe-only"],
)
def test_the_workers_die_with_their_parent_however_it_ends(
    ending: signal.Signals, group: bool, pdeathsig: bool
) -> None:
    env = dict(os.environ, PYTHONPATH=str(SOURCE_ROOT))
    if not pdeathsig:
        env[NO_PDEATHSIG] = "1"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=SOURCE_ROOT,
        start_new_session=True,  # a process group of its own, as a bot started from a shell
    )
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        if group:
            os.killpg(parent.pid, ending)
        else:
            parent.send_signal(ending)
        parent.wait(timeout=DEATH_DEADLINE)
        deadline = time.monotonic() + DEATH_DEADLINE
        while [p for p in pids if alive(p)] and time.monotonic() < deadline:
            time.sleep(0.05)  # polling for the deaths, bounded by the deadline
        assert not [p for p in pids if alive(p)]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


async def test_workers_that_cannot_start_fail_the_calls_instead_of_hanging_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ai.pool, "WORKER_COMMAND", (sys.executable, "-c", "raise SystemExit(3)"))
    monkeypatch.setattr(ai.pool, "RETRY_SECONDS", 0.01)
    async with AIPool() as pool:
        call = asyncio.create_task(pool.choose(GAME, OPTIONS, MOVES))
        with pytest.raises(AIWorkerError, match="no AI worker could be started"):
            await pool.start()
        with pytest.raises(AIWorkerError, match="no AI worker could be started"):
            await asyncio.wait_for(call, timeout=seconds(30))


async def test_arguments_that_do_not_pickle_fail_their_call_and_the_worker_goes_on() -> None:
    async with AIPool() as pool:
        with pytest.raises(Exception, match="pickle"):
            await pool.choose(GAME, OPTIONS, MOVES, Level("t", Budget(playouts=1)), lambda: 1)  # type: ignore[arg-type]
        assert await pool.choose(GAME, OPTIONS, MOVES, Level("t", Budget(playouts=1)))


async def test_a_search_cut_short_in_a_worker_is_logged_in_this_process(
    caplog: pytest.LogCaptureFixture,
) -> None:
    capped = Level("capped", Budget(seconds=0.05, playouts=10**6))
    async with AIPool() as pool:
        with caplog.at_level("INFO", logger="ai"):
            await pool.choose("asli", {"size": 9}, ["komi 2", "white"], capped, seed=1)
    assert "search cut short after" in caplog.text and "seconds=0.05" in caplog.text


async def test_an_illegal_record_is_reported_as_the_engine_reports_it() -> None:
    async with AIPool() as pool:
        with pytest.raises(rules.IllegalMove, match="move 2"):
            await pool.choose(GAME, OPTIONS, ["komi 2", "komi 3"])
