"""``python -m bot``: start the bot with the settings of the environment and ``.env``."""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord

from bot.client import DatabaseUnavailable, make_client
from bot.config import ConfigError, Settings, configure_logging, load_settings

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    async with make_client(settings) as client:
        await client.open_database()  # an unusable database stops the bot before Discord
        await client.start(settings.token)


def main() -> int:
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        asyncio.run(run(settings))
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
