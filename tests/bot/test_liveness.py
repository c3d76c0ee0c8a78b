"""The liveness endpoint: GET /healthz answers 200 while the gateway is connected, the
database answers and the outbox flows; 503, saying which is not, otherwise."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.liveness import STUCK, CannotListen, Liveness
from bot.outbox import item
from bot.storage import Database, open_database
from tests.bot.fakes import FakeClock
from tests.bot.storage.test_operations import Cable

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def db(database_url: Path | str) -> AsyncIterator[Database]:
    database = await open_database(database_url)
    yield database
    await database.close()


async def healthz(liveness: Liveness) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{liveness.port}/healthz") as response,
    ):
        return response.status, await response.json()


async def test_healthz_says_what_is_wrong(db: Database) -> None:
    clock = FakeClock()
    connected = [True]
    liveness = Liveness(db, port=0, gateway=lambda: connected[0], now=clock, host="127.0.0.1")
    await liveness.start()
    try:
        assert await healthz(liveness) == (
            200,
            {
                "ok": True,
                "gateway": "connected",
                "database": "reachable",
                "oldest_undelivered_seconds": None,
            },
        )
        connected[0] = False
        status, body = await healthz(liveness)
        assert (status, body["ok"], body["gateway"]) == (503, False, "disconnected")

        connected[0] = True
        board = item("game:1", "post", {}, now=clock())
        await db.write([board.statement])
        clock.advance(seconds=90)
        status, body = await healthz(liveness)  # waiting, not stuck
        assert (status, body["oldest_undelivered_seconds"]) == (200, 90.0)
        clock.advance(seconds=STUCK.total_seconds())
        status, body = await healthz(liveness)
        assert (status, body["ok"]) == (503, False)
        assert body["oldest_undelivered_seconds"] == 90.0 + STUCK.total_seconds()

        with pytest.raises(CannotListen, match=f"HEALTH_PORT={liveness.port} cannot be"):
            await Liveness(db, port=liveness.port, gateway=lambda: True, now=clock).start()
    finally:
        await liveness.stop()


async def test_healthz_with_the_database_out_of_reach(postgres_server) -> None:
    cable = Cable(await postgres_server.fresh())
    await cable.connect()
    db = await open_database(cable.url, pool_size=1)
    liveness = Liveness(db, port=0, gateway=lambda: True, now=FakeClock(), host="127.0.0.1")
    await liveness.start()
    try:
        assert (await healthz(liveness))[0] == 200
        await cable.cut()
        status, body = await healthz(liveness)
        assert (status, body["ok"], body["gateway"]) == (503, False, "connected")
        assert "database server" in body["database"], body
    finally:
        await liveness.stop()
        await db.close()
