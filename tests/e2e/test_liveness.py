"""The real bot with HEALTH_PORT set: /healthz answers 200 once it is connected."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp

from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_healthz_of_a_running_bot(fake: FakeDiscord, tmp_path: Path) -> None:
    fake.add_guild("Board Games")
    port = free_port()
    proc = BotProcess(fake, tmp_path, HEALTH_PORT=str(port))
    try:
        await proc.start("challenge")
        body: dict[str, object] = {}
        async with aiohttp.ClientSession() as session:
            for _ in range(150):  # ready once the gateway's first events are in
                async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                    body = await response.json()
                    if response.status == 200:
                        break
                    assert response.status == 503 and body["gateway"] == "disconnected", body
                await asyncio.sleep(0.1)
            assert body == {
                "ok": True,
                "gateway": "connected",
                "database": "reachable",
                "oldest_undelivered_seconds": None,
            }
    finally:
        await proc.stop()
        print(proc.log())
