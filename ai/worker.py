"""One AI worker process: ``python -m ai.worker JOBS ALIVE PARENT``, started by :mod:`ai.pool`.

It answers jobs ``(function, args)`` read from the connection on file descriptor
``JOBS`` with ``("ok", result, logs)`` or ``("error", exception, logs)``, where
``logs`` are the records the job logged (the pool logs them again in the bot's
process, so a search cut short by its time caps shows in the bot's log).

It never outlives the process that started it (``PARENT``), however that one dies:

* on Linux the kernel kills it when its parent goes (``PR_SET_PDEATHSIG``);
* everywhere a thread watches ``ALIVE``, a pipe whose other end only the parent
  holds: when the parent dies the pipe reads end-of-file and the worker exits at
  once, even in the middle of a search;
* a parent already gone before either was in place is noticed by ``getppid()``.

It ignores SIGINT (a Ctrl-C reaches the whole process group: the bot stops it
itself, and a traceback from every worker tells nothing) and dies of SIGTERM.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import threading
from multiprocessing.connection import Connection
from typing import Any

#: prctl's option that asks for a signal when the parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: Set in the environment, the worker does without the parent-death signal (the tests
#: use it to check that the watched pipe alone is enough).
NO_PDEATHSIG = "AI_WORKER_NO_PDEATHSIG"


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere nothing)."""
    if sys.platform.startswith("linux") and not os.environ.get(NO_PDEATHSIG):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the pipe watch still holds
            pass
    if os.getppid() != parent:  # the parent died before we asked
        os._exit(1)


def watch(alive: int) -> None:
    """Exit this process as soon as ``alive`` reads end-of-file (its writer, the parent, died)."""

    def wait() -> None:
        try:
            while os.read(alive, 64):
                pass
        except OSError:
            pass
        os._exit(1)

    threading.Thread(target=wait, name="ai-parent-watch", daemon=True).start()


class _Collect(logging.Handler):
    """Keeps the records a job logs, to send them back with its answer."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        record.msg, record.args = record.getMessage(), None
        record.exc_info = record.exc_text = None
        self.records.append(record)


def serve(jobs: Connection) -> None:
    """Answer jobs until the connection closes or brings None."""
    collect = _Collect()
    logger = logging.getLogger("ai")
    logger.addHandler(collect)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    while True:
        try:
            job = jobs.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        function, args = job
        collect.records = []
        answer: tuple[Any, ...]
        try:
            answer = ("ok", function(*args), collect.records)
        except Exception as error:  # the caller gets it, as if the call were local
            answer = ("error", error, collect.records)
        try:
            jobs.send(answer)
        except (EOFError, OSError):
            return
        except Exception as error:  # an answer that does not pickle
            jobs.send(("error", RuntimeError(f"unsendable AI answer: {error!r}"), []))


def main(argv: list[str]) -> None:
    jobs_fd, alive_fd, parent = (int(a) for a in argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    watch(alive_fd)
    import ai.pool  # noqa: F401  (the jobs' functions: imported before the first job)

    serve(Connection(jobs_fd))


if __name__ == "__main__":
    main(sys.argv[1:])
