"""Worker processes that think for the bot, so its event loop never waits on a search.

    pool = AIPool(workers=1)
    await pool.start()          # at boot: the workers start in threads, the loop runs on
    move = await pool.choose("lifeline", {"size": 7}, ["c3 e5"], level="medium")
    await pool.close()          # every worker gone within CLOSE_SECONDS

A position travels as (game name, options, moves) and is rebuilt by replay in
the worker: small to send, and nothing but the record is trusted.

Each worker is a fresh interpreter (``python -m ai.worker``, see :mod:`ai.worker`)
with a thread of its own in this process (a *slot*) that starts it, hands it
jobs from the pool's queue one at a time and waits for its answers, so neither
starting a worker (a second or more on a busy host) nor waiting for one ever
runs on the event loop. No ``multiprocessing`` machinery is involved: no fork
of the bot's threaded process, no fork server, no resource tracker, nothing that
could outlive the bot. A worker dies with the bot however the bot dies (a
parent-death signal on Linux, and a pipe it watches everywhere).

A worker that dies (killed, out of memory) fails the call it was serving with
:class:`AIWorkerError`; its slot starts a new one in the background and the
calls queued meanwhile wait for it. Calls made before :meth:`AIPool.start` (or
while it runs) wait for the workers too: the first call starts them if nobody did.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

import rules
from ai.levels import Budget, Level
from ai.player import Analysis, analyse, analyse_game, choose_move

T = TypeVar("T")
log = logging.getLogger(__name__)

#: How long :meth:`AIPool.close` lets the workers take SIGTERM before it kills them.
TERM_SECONDS = 1.0
#: The most :meth:`AIPool.close` takes, killing included.
CLOSE_SECONDS = 2.0
#: How a worker is started (its three arguments follow; see :mod:`ai.worker`).
WORKER_COMMAND = (sys.executable, "-m", "ai.worker")
#: Failed starts of a worker in a row after which the calls waiting for it fail.
START_ATTEMPTS = 3
#: The wait before starting a worker again after a failure (longer after each, up to 5x).
RETRY_SECONDS = 0.5
#: Where the ``ai`` package lives: the workers import it from there.
SOURCE_ROOT = Path(__file__).resolve().parents[1]


class AIWorkerError(RuntimeError):
    """An AI worker process died while thinking (or the pool closed); the call was not answered."""


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


def _pid() -> int:
    return os.getpid()


@dataclass
class _Job:
    function: Callable[..., Any]
    args: tuple[Any, ...]
    future: concurrent.futures.Future[Any]


class _Worker:
    """One worker process and the two ends this process keeps of it."""

    def __init__(self, alive_reader: int) -> None:
        mine, theirs = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(SOURCE_ROOT), *filter(None, [env.get("PYTHONPATH")])]
        )
        try:
            self.process = subprocess.Popen(
                [
                    *WORKER_COMMAND,
                    str(theirs.fileno()),
                    str(alive_reader),
                    str(os.getpid()),
                ],
                pass_fds=(theirs.fileno(), alive_reader),
                stdin=subprocess.DEVNULL,
                cwd=SOURCE_ROOT,
                env=env,
            )
        finally:
            theirs.close()  # only the worker holds it: its death reads as end-of-file here
        self.connection = Connection(mine.detach())

    def call(self, job: _Job) -> tuple[str, Any, list[logging.LogRecord]]:
        """Send ``job`` and wait for its answer; EOFError/OSError if the worker dies."""
        self.connection.send((job.function, job.args))
        answer: tuple[str, Any, list[logging.LogRecord]] = self.connection.recv()
        return answer

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.close()


class AIPool:
    """``workers`` processes answering :meth:`choose` and :meth:`analyse` concurrently."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.workers = workers
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._slots: list[threading.Thread] = []
        self._running: dict[int, _Worker] = {}  # slot -> its current worker
        self._ready: list[concurrent.futures.Future[None]] = []
        self._lock = threading.Lock()
        self._closed = False
        self._alive_reader, self._alive_writer = -1, -1
        #: Workers started, the first ones included (a replacement makes it grow).
        self.started = 0

    # -- starting and stopping ---------------------------------------------------------

    def _start_slots(self) -> list[concurrent.futures.Future[None]]:
        with self._lock:
            if self._closed:
                raise RuntimeError("this AI pool is closed")
            if not self._slots:
                # The watched pipe: the workers hold its reading end, only we its writing end.
                self._alive_reader, self._alive_writer = os.pipe()
                for slot in range(self.workers):
                    ready: concurrent.futures.Future[None] = concurrent.futures.Future()
                    thread = threading.Thread(
                        target=self._slot, args=(slot, ready), name=f"ai-slot-{slot}", daemon=True
                    )
                    self._ready.append(ready)
                    self._slots.append(thread)
                    thread.start()
            return list(self._ready)

    async def start(self) -> None:
        """Start the worker processes (each in a thread of its own: the event loop runs on)
        and return once every one is ready to think. Calling it again does nothing more."""
        ready = self._start_slots()
        await asyncio.gather(*(asyncio.wrap_future(f) for f in ready))

    def _spawn(self, slot: int) -> _Worker | None:
        with self._lock:
            if self._closed:
                return None
            worker = _Worker(self._alive_reader)
            self._running[slot] = worker
            self.started += 1
            return worker

    def _fail_queued(self, error: Exception) -> None:
        """Fail every call waiting in the queue (no worker can be started to answer it)."""
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job is None:  # closing: leave the stop for a slot
                self._jobs.put(None)
                return
            if job.future.set_running_or_notify_cancel():
                job.future.set_exception(error)

    def _start_worker(self, slot: int, ready: concurrent.futures.Future[None]) -> _Worker | None:
        """A worker that answered its first call, started again after failures (waiting
        longer each time, and failing the calls queued meanwhile); None once closed."""
        failures = 0
        while True:
            worker = None
            try:
                worker = self._spawn(slot)
                if worker is None:
                    return None  # closed
                # The first call answers once the interpreter has loaded the AI.
                worker.call(_Job(_pid, (), concurrent.futures.Future()))
            except (EOFError, OSError) as error:
                if worker is not None:
                    worker.stop()
                if self._closed:
                    return None
                failures += 1
                log.error("an AI worker failed to start (%s), attempt %d", error, failures)
                if failures >= START_ATTEMPTS:
                    failed = AIWorkerError(f"no AI worker could be started ({error!r})")
                    if not ready.done():
                        ready.set_exception(failed)
                    self._fail_queued(failed)
                time.sleep(min(RETRY_SECONDS * failures, 5 * RETRY_SECONDS))
                continue
            if not ready.done():
                ready.set_result(None)
            return worker

    def _slot(self, slot: int, ready: concurrent.futures.Future[None]) -> None:
        """One worker's life, and its replacements': a thread of its own, so the kernel's
        parent-death signal (tied to the thread that started the worker) waits for it."""
        worker = self._start_worker(slot, ready)
        while worker is not None:
            job = self._jobs.get()
            if job is None:
                break
            if not job.future.set_running_or_notify_cancel():
                continue
            try:
                worker.connection.send((job.function, job.args))
            except (EOFError, OSError):
                pass  # the worker is dead: recv says so below
            except Exception as error:  # arguments that do not pickle: the call's fault
                job.future.set_exception(error)
                continue
            try:
                status, value, records = worker.connection.recv()
            except (EOFError, OSError) as error:
                code = worker.process.poll()
                worker.stop()
                if not self._closed:
                    log.warning("an AI worker died (exit status %s); starting another", code)
                job.future.set_exception(
                    AIWorkerError(f"an AI worker process died while thinking ({error!r})")
                )
                worker = self._start_worker(slot, ready)
                continue
            for record in records:  # logged here as if logged here: this process's levels
                logger = logging.getLogger(record.name)
                if logger.isEnabledFor(record.levelno):
                    logger.handle(record)
            if status == "ok":
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        if worker is not None:
            worker.stop()

    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        with self._lock:
            return [w.process.pid for w in self._running.values() if w.process.poll() is None]

    def _stop_processes(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with self._lock:
            workers = list(self._running.values())
            self._running.clear()
        for worker in workers:
            worker.stop()
            if worker.process.poll() is None:
                worker.process.terminate()
        term_deadline = deadline - timeout + min(TERM_SECONDS, timeout / 2)
        for worker in workers:
            try:
                worker.process.wait(max(0.0, term_deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.process.kill()
        for worker in workers:
            try:
                worker.process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.error("AI worker %s did not die", worker.process.pid)
        for fd in (self._alive_writer, self._alive_reader):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._alive_reader = self._alive_writer = -1

    async def close(self) -> None:
        """Stop the workers: a search under way is abandoned, its call fails with
        :class:`AIWorkerError`; every worker is gone within :data:`CLOSE_SECONDS`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        failed = AIWorkerError("the AI pool closed")
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None and job.future.set_running_or_notify_cancel():
                job.future.set_exception(failed)
        for _ in self._slots:
            self._jobs.put(None)
        await asyncio.to_thread(self._stop_processes, CLOSE_SECONDS - 0.2)
        for ready in self._ready:
            if not ready.done():
                ready.set_exception(failed)

    def __del__(self) -> None:  # a pool dropped unclosed: no worker outlives it for long
        if not getattr(self, "_closed", True):
            for worker in list(self._running.values()):
                if worker.process.poll() is None:
                    worker.process.kill()

    async def __aenter__(self) -> AIPool:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- thinking ----------------------------------------------------------------------

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        self._start_slots()  # a no-op once started; never waits here
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._jobs.put(_Job(fn, args, future))
        return await asyncio.wrap_future(future)

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
