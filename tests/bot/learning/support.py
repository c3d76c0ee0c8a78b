"""A stand-in Interaction for the learning area: :class:`tests.bot.support.StandIn`
that can also edit the message its component is on, and a click on a dynamic item
made as discord.py makes it after a restart: from its ``custom_id`` alone."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.learning.views import ITEMS
from tests.bot.support import StandIn


class Reader(StandIn):
    def __init__(self, app: Any, member: Any, **kwargs: Any) -> None:
        super().__init__(app, member, **kwargs)
        self.response.edit_message = self._edit_message
        self.response.send_modal = self._send_modal

    async def _edit_message(self, **kwargs: Any) -> None:
        assert not self._responses(), "answered twice"
        self.calls.append(("defer", {}))  # answered: an edit is the interaction's answer
        self.calls.append(("edit", kwargs))

    async def _send_modal(self, modal: Any) -> None:
        self.calls.append(("modal", {"modal": modal}))

    async def original_response(self) -> Any:
        return SimpleNamespace(id=1)


async def click(
    app: Any,
    member: Any,
    custom_id: str,
    *,
    items: tuple = ITEMS,
    ephemeral: bool = True,
    values: list[str] | None = None,
    item: Any = None,
) -> Reader:
    """``member`` clicks the item with ``custom_id`` on a private (or public) message;
    the item is rebuilt from its ``custom_id`` by the factory that claims it."""
    reader = Reader(app, member, on_message=ephemeral, values=values)
    for factory in items:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match:
            rebuilt = await factory.from_custom_id(
                reader, item or SimpleNamespace(emoji="▶", options=[]), match
            )
            await rebuilt.callback(reader)
            return reader
    raise AssertionError(f"no item claims {custom_id!r}")
