"""The one fan-out of what happens to games: started, a move played, a move taken
back, ended. The services that change games tell :class:`Events`; the listeners
(ratings, the clocks, notifications…) are subscribed once, in an order stated by
the composition root (:mod:`bot.app`), and told in that order."""

from __future__ import annotations

import logging
from typing import Literal

from bot.model import GameUpdate, Listener

log = logging.getLogger(__name__)

Event = Literal["game_started", "move_played", "move_taken_back", "game_ended"]


class Events:
    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    @property
    def listeners(self) -> tuple[Listener, ...]:
        return tuple(self._listeners)

    def subscribe(self, *listeners: Listener) -> None:
        """Add listeners, told after those already there (the composition root's call)."""
        self._listeners += listeners

    async def tell(self, event: Event, update: GameUpdate) -> None:
        """Tell every listener that has a handler for ``event``; a failing listener is
        logged and the others are still told."""
        for listener in self._listeners:
            handler = getattr(listener, event, None)
            if handler is None:
                continue
            try:
                await handler(update)
            except Exception:
                log.exception(
                    "listener %r failed on %s of game %d", listener, event, update.game.id
                )
