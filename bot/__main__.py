"""``python -m bot``: start the bot with the settings of the environment and ``.env``."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import aiohttp
import discord

from bot.client import DatabaseUnavailable, make_client
from bot.config import ConfigError, Settings, configure_logging, load_settings
from bot.liveness import CannotListen
from bot.processes import ShardsTaken

log = logging.getLogger("bot")


async def run(settings: Settings) -> int:
    async with make_client(settings) as client:
        # A service manager's stop (SIGTERM) and Ctrl-C (SIGINT) close the bot: its work
        # stopped, its AI workers ended, its shards let go. Not by cancelling the main
        # task, as asyncio.run does on SIGINT: once in a suite's run that cancellation
        # was lost (most likely in a wait ending at the same moment, where Python 3.11's
        # wait_for drops it) and the bot ran on. A second Ctrl-C interrupts as usual.
        loop = asyncio.get_running_loop()
        stopping: set[asyncio.Task[None]] = set()

        def stop(signum: signal.Signals) -> None:
            if signum == signal.SIGINT:
                loop.remove_signal_handler(signal.SIGINT)
            if not stopping:  # one close, whichever signal came first
                stopping.add(asyncio.ensure_future(client.close()))

        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop, signum)
        # An unusable database, or shards another process runs, stop the bot before Discord.
        await client.enter()
        await client.start(settings.token)
        if client.lost:  # another process took its shards over
            return 1
    return 0


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        return asyncio.run(run(settings))
    except (ShardsTaken, CannotListen) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "error: Discord rejected DISCORD_TOKEN: reset the token in the developer portal "
            "(Bot → Reset Token) and put the new one in .env",
            file=sys.stderr,
        )
        return 2
    except DatabaseUnavailable as error:
        print(f"error: {' '.join(str(error).split())}", file=sys.stderr)  # on one line
        return 1
    except (aiohttp.ClientError, OSError) as error:
        print(f"error: cannot reach Discord: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
