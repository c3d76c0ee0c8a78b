"""Pointing an unmodified, in-process discord.py client at a FakeDiscord."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from urllib.parse import urlsplit

import discord
import yarl

from .fake import FakeDiscord


def _loopback(url: str) -> str:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError(f"refusing to point discord.py at a non-loopback address: {url}")
    return url


@contextlib.contextmanager
def point_discord_py_at(fake: FakeDiscord) -> Iterator[None]:
    """Within the block, discord.py's REST base and gateway are the fake's (loopback only);
    the previous values come back afterwards."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = _loopback(fake.api_base)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(_loopback(fake.gateway_url))
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
