"""Points an unmodified ``python -m bot`` at a FakeDiscord, for end-to-end tests only.

The tests start the bot with this directory first on ``PYTHONPATH`` and the fake's
loopback addresses in ``FAKEDISCORD_API_BASE`` / ``FAKEDISCORD_GATEWAY``; Python
imports ``sitecustomize`` at start-up, before the bot, and this module repoints
discord.py's REST base and gateway there. Anything but a loopback address is
refused, so the token can never be sent elsewhere through this path.
"""

import os
from urllib.parse import urlsplit

_API = os.environ.get("FAKEDISCORD_API_BASE")
_GATEWAY = os.environ.get("FAKEDISCORD_GATEWAY")

if _API and _GATEWAY:
    for _url in (_API, _GATEWAY):
        if urlsplit(_url).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit(f"sitecustomize: refusing a non-loopback Discord address {_url!r}")
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = _API
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(_GATEWAY)
