"""Worker processes that think for the bot, so its event loop never waits on a search.

    pool = AIPool(workers=1)
    move = await pool.choose("lifeline", {"size": 7}, ["c3 e5"], level="medium")
    await pool.close()

A position travels as (game name, options, moves) and is rebuilt by replay in
the worker: small to send, and nothing but the record is trusted. Workers are
started by ``forkserver`` where the platform has it (else ``spawn``), never by a
plain fork of the bot's threaded process. A worker that dies (killed, out of
memory) fails the calls it was serving with :class:`AIWorkerError`, and the
next call gets a fresh pool.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import rules
from ai.levels import Budget, Level
from ai.player import Analysis, analyse, analyse_game, choose_move

T = TypeVar("T")


class AIWorkerError(RuntimeError):
    """An AI worker process died while thinking; the call was not answered."""


def _choose(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    level: str | Level,
    seed: int | None,
) -> str:
    return choose_move(rules.get_game(game).replay(moves, **options), level, seed)


def _analyse(
    game: str, options: Mapping[str, Any], moves: Sequence[str], budget: Budget, seed: int | None
) -> Analysis:
    return analyse(rules.get_game(game).replay(moves, **options), budget, seed)


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class AIPool:
    """``workers`` processes answering :meth:`choose` and :meth:`analyse` concurrently."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    def _pool(self) -> ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("this AI pool is closed")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=_context())
        return self._executor

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        executor = self._pool()
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool as error:
            if self._executor is executor:  # the next call starts afresh
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise AIWorkerError(f"an AI worker process died while thinking ({error})") from error

    async def choose(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: str | Level = "medium",
        seed: int | None = None,
    ) -> str:
        """The AI's move (canonical text) in the position after ``moves``."""
        return await self._run(_choose, game_name, dict(options), list(moves), level, seed)

    async def analyse(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        budget: Budget,
        seed: int | None = None,
    ) -> Analysis:
        """The AI's estimate of the position after ``moves``."""
        return await self._run(_analyse, game_name, dict(options), list(moves), budget, seed)

    async def analyse_game(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        budget: Budget,
        seed: int | None = None,
    ) -> list[Analysis]:
        """An estimate of every position of a game (``budget`` each), in one worker."""
        return await self._run(analyse_game, game_name, dict(options), list(moves), budget, seed)

    async def close(self) -> None:
        """Stop the workers (a search under way is abandoned) and wait for them to exit."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    async def __aenter__(self) -> AIPool:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
