"""The liveness endpoint: ``GET /healthz`` on ``HEALTH_PORT``, for a service manager,
a container's health check or a load balancer.

It answers 200 when the process is doing its job, 503 when it is not, with a small JSON
body saying what was looked at:

    {"ok": true, "gateway": "connected", "database": "reachable",
     "oldest_undelivered_seconds": 0.8}

- ``gateway``: connected to Discord (every shard of this process), or ``disconnected``;
- ``database``: ``reachable``, or why not, in plain words;
- ``oldest_undelivered_seconds``: how long the oldest outbox item (a board, a thread, a
  final post still to reach Discord) has waited, of every process sharing the database
  (null: nothing waits). Past :data:`STUCK` the outbox is stuck: 503.

Not a page for members, and it says nothing private; it listens on every interface (a
container's port, a load balancer's probe), so keep the port out of the public's reach
anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from aiohttp import web

from bot.storage import Database, ReadFailed, queries

log = logging.getLogger(__name__)

#: An outbox item waiting longer than this means deliveries are stuck.
STUCK = timedelta(minutes=5)
#: Seconds the database has to answer.
DATABASE_WAIT = 5.0


class CannotListen(Exception):
    """``HEALTH_PORT`` cannot be listened on (the message says why, in one line)."""


class Liveness:
    def __init__(
        self,
        db: Database,
        *,
        port: int,
        gateway: Callable[[], bool],
        now: Callable[[], datetime],
        stuck: timedelta = STUCK,
        host: str = "0.0.0.0",  # a probe comes from outside a container
    ) -> None:
        self.db = db
        self.port = port
        self.host = host
        self.gateway = gateway
        self.now = now
        self.stuck = stuck
        self._runner: web.AppRunner | None = None

    async def check(self) -> tuple[int, dict[str, Any]]:
        """The status (200 or 503) and the body of ``/healthz``."""
        connected = self.gateway()
        body: dict[str, Any] = {
            "ok": False,
            "gateway": "connected" if connected else "disconnected",
            "database": "reachable",
            "oldest_undelivered_seconds": None,
        }
        waited: float | None = None
        try:
            oldest = await asyncio.wait_for(
                self.db.read(queries.oldest_undelivered()), DATABASE_WAIT
            )
        except TimeoutError:
            body["database"] = "the database server does not answer"
            reachable = False
        except ReadFailed as failure:
            body["database"] = failure.reason
            reachable = False
        except Exception as error:  # anything else: not reachable either, say what
            body["database"] = f"the database could not be read ({type(error).__name__})"
            reachable = False
        else:
            reachable = True
            if oldest is not None:
                waited = max(0.0, (self.now() - oldest).total_seconds())
                body["oldest_undelivered_seconds"] = round(waited, 1)
        flowing = waited is None or waited <= self.stuck.total_seconds()
        body["ok"] = connected and reachable and flowing
        return (200 if body["ok"] else 503), body

    async def _healthz(self, request: web.Request) -> web.Response:
        status, body = await self.check()
        return web.json_response(body, status=status)

    async def start(self) -> None:
        """Listen on the port (:class:`CannotListen` if it is taken: said at start-up,
        not later)."""
        if self._runner is not None:
            return
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as error:
            await runner.cleanup()
            raise CannotListen(
                f"HEALTH_PORT={self.port} cannot be listened on ({error.strerror or error}): "
                "choose a free port, or leave HEALTH_PORT empty"
            ) from error
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        if self.port == 0:  # any free port (tests): the one given
            self.port = runner.addresses[0][1]
        log.info("liveness at http://%s:%d/healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
