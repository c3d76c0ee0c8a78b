"""A stand-in Interaction for the learning area: :class:`tests.bot.support.StandIn`
that can also edit the message its component is on, a click on a dynamic item made
as discord.py makes it after a restart: from its ``custom_id`` alone, and the wait
for a game's analysis."""

from __future__ import annotations

import asyncio
import contextlib
from types import SimpleNamespace
from typing import Any

from bot.learning.analysis import Analyses, GameAnalysis
from bot.learning.views import ITEMS
from bot.storage import queries
from tests.bot.support import StandIn
from tests.timing import seconds


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


async def analysed(analyst: Analyses, game_id: int, *, within: float = 60.0) -> GameAnalysis:
    """The stored analysis of finished game ``game_id`` once ``analyst``'s queue is done
    with it (and with every game queued before it), as the member opening it would see
    it: no polling and no sleeping, a wait on the queue itself, for ``within`` seconds
    at most on a healthy machine."""
    db = analyst.db
    async with db.reading() as conn:
        row = await queries.get_game(conn, game_id)
        moves = tuple(await queries.moves_of_game(conn, game_id))
    assert row is not None and row.status == "finished", row
    with contextlib.suppress(TimeoutError):  # said below, with what is stored
        await asyncio.wait_for(analyst.drained(), timeout=seconds(within))
    found = {known.ply: known for known in await db.read(queries.analyses_of_game(game_id))}
    analysis = GameAnalysis(row, moves, found)
    assert analysis.complete, f"game {game_id}: {len(found)} of {len(moves) + 1} positions analysed"
    return analysis
