"""The real bot as a separate process (``python -m bot``), pointed at a FakeDiscord."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.timing import seconds

from .fake import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
BOOT = Path(__file__).resolve().parent / "boot"  # holds the sitecustomize that repoints discord.py
_DROPPED = (
    "DISCORD_",
    "DEV_GUILD_ID",
    "DATABASE_",
    "SHARD_",
    "PROCESS_LEASE",
    "HEALTH_PORT",
    "LOG_LEVEL",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "http_proxy",
    "https_proxy",
    "PYTHONPATH",
)


class BotProcess:
    """``python -m bot`` in ``workdir`` (its database lives there and survives restarts)."""

    def __init__(self, fake: FakeDiscord, workdir: Path, **settings: str) -> None:
        self.fake = fake
        self.workdir = workdir
        self.settings = settings
        self.proc: asyncio.subprocess.Process | None = None
        self.log_path = workdir / "bot.log"
        self.starts = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(_DROPPED)}
        env.update(
            PYTHONPATH=os.pathsep.join([str(BOOT), str(REPO)]),
            FAKEDISCORD_API_BASE=self.fake.api_base,
            FAKEDISCORD_GATEWAY=self.fake.gateway_url,
            DISCORD_TOKEN=self.fake.token,
            DATABASE_PATH=str(self.workdir / "bot.sqlite3"),
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        env.update(self.settings)  # (DATABASE_PATH too: another process's file, say)
        return env

    async def start(self, *commands: str, timeout: float = seconds(30.0)) -> None:
        """Start the bot and wait until it has synced ``commands`` and is connected."""
        self.starts += 1
        with self.log_path.open("a") as log:
            log.write(f"---- start #{self.starts}\n")
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.workdir,
                env=self.env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        identifies = self.fake.gateway_log.count("identify")
        # Its own shards connected (another process may hold, or have lost, the others).
        mine = [int(s) for s in self.settings.get("SHARD_IDS", "").split(",") if s]

        def connected() -> bool:
            if not mine:
                return self.fake.connected
            return all(
                self.fake.sessions.get(shard) is not None
                and self.fake.sessions[shard].conn is not None
                for shard in mine
            )

        waiter = asyncio.ensure_future(
            self.fake.wait_until(
                lambda: (
                    self.fake.gateway_log.count("identify") > identifies
                    and connected()
                    and self.fake.commands_for(None)
                ),
                timeout,
                "the bot to start, sync its commands and connect",
            )
        )
        exited = asyncio.ensure_future(self.proc.wait())
        done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiter.cancel()
            raise RuntimeError(f"the bot exited with {self.proc.returncode}:\n{self.log()}")
        exited.cancel()
        waiter.result()
        if commands:
            await self.fake.wait_for_commands(*commands, timeout=timeout)

    async def kill(self) -> None:
        """SIGKILL: no goodbye, no clean shutdown."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()

    async def stop(self, timeout: float = seconds(10.0)) -> int | None:
        if self.proc is None or self.proc.returncode is not None:
            return self.proc.returncode if self.proc else None
        self.proc.send_signal(signal.SIGINT)
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            await self.kill()
            return self.proc.returncode

    def log(self, tail: int = 80) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text().splitlines()[-tail:])
