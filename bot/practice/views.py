"""The bot's typing indicator in a practice game's thread while it thinks."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import discord

from bot.practice.service import Typing
from bot.storage import GameRow
from bot.ui.areas import AreaHost


def thread_typing(client: AreaHost) -> Typing:
    """The typing indicator in a game's thread while the bot thinks (nothing if the
    thread is out of reach)."""

    @contextlib.asynccontextmanager
    async def typing(row: GameRow) -> AsyncIterator[None]:
        channel = client.get_channel(row.where_id)
        indicator = channel.typing() if isinstance(channel, discord.abc.Messageable) else None
        if indicator is not None:
            try:
                await indicator.__aenter__()
            except discord.HTTPException:
                indicator = None
        try:
            yield
        finally:
            if indicator is not None:
                with contextlib.suppress(Exception):
                    await indicator.__aexit__(None, None, None)

    return typing
