"""The AI's worker processes: answers off the event loop, a clear error when a worker dies."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

import rules
from ai.levels import Budget, Level
from ai.pool import AIPool, AIWorkerError
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


async def test_a_worker_that_dies_fails_its_call_clearly_and_the_next_call_works() -> None:
    pool = AIPool(workers=1)
    try:
        await pool.choose(GAME, OPTIONS, MOVES, Level("warm", Budget(playouts=1)))
        executor = pool._executor
        assert executor is not None
        pids = list(executor._processes)  # the worker this test started
        call = asyncio.create_task(
            pool.choose(GAME, OPTIONS, MOVES, Level("long", Budget(seconds=30)))
        )
        await asyncio.sleep(0)  # the call is handed to the executor
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(AIWorkerError, match="died"):
            await asyncio.wait_for(call, timeout=seconds(20))
        move = await pool.choose(GAME, OPTIONS, MOVES, Level("again", Budget(playouts=2)))
        assert move in rules.get_game(GAME).replay(MOVES, **OPTIONS).legal_moves()
    finally:
        await pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        await pool.choose(GAME, OPTIONS, MOVES)


async def test_an_illegal_record_is_reported_as_the_engine_reports_it() -> None:
    async with AIPool() as pool:
        with pytest.raises(rules.IllegalMove, match="move 2"):
            await pool.choose(GAME, OPTIONS, ["komi 2", "komi 3"])
