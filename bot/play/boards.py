"""Where a game lives and what it shows: its thread, and the board posted after every
change, with the buttons of any decision the player to move faces.

A failure to post is logged, not raised: the change is already safely stored, and the
next post (or ``/board``) shows the game again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot import texts
from bot.model import MentionFilter, Post, Posted, Poster, Renderer, names
from bot.storage import Database, GameRow, queries
from rules import Decision, State

log = logging.getLogger(__name__)

#: What a board post offers as buttons: the decisions of the player to move.
Decisions = tuple[Decision, ...]


class Boards:
    def __init__(self, db: Database, poster: Poster, *, renderer: Renderer,
                 mention_filter: MentionFilter | None = None) -> None:
        self.db = db
        self.poster = poster
        self.renderer = renderer
        self.mention_filter = mention_filter

    async def open_thread(self, row: GameRow) -> GameRow:
        """Give a new game its thread (the row as it is after; no thread: the channel)."""
        try:
            thread_id = await self.poster.open_thread(row, texts.thread_name(row))
        except Exception:
            log.exception("could not open a thread for game %d", row.id)
            thread_id = None
        if thread_id is None:
            return row
        await self.db.write([queries.set_game_thread_statement(row.id, thread_id)])
        return replace(row, thread_id=thread_id)

    async def picture(self, row: GameRow, state: State) -> bytes | None:
        return await self.renderer(state, names(row))

    async def post(self, row: GameRow, state: State, content: str, *,
                   mentions: tuple[int, ...] | list[int], move_ply: int | None = None,
                   actions: tuple[str, ...] = (), decisions: Decisions | None = None
                   ) -> tuple[GameRow, Posted | None]:
        """Draw and post the board; record where it went. Returns the game row as it is
        after the post (where the game lives, its latest board) without reading it back,
        and where the post went (None if it failed). ``decisions``: the state's, if
        already worked out."""
        try:
            if decisions is None:
                decisions = await asyncio.to_thread(decisions_of, state)
            picture = await self.picture(row, state)
            mentions = tuple(mentions)
            if self.mention_filter is not None:
                mentions = await self.mention_filter(row, mentions)
            posted = await self.poster.post(row, Post(
                content=content, picture=picture, mentions=mentions, decisions=decisions,
                ply=state.ply, filename=f"{row.game}-{row.id}-{state.ply}.png",
                actions=actions))
        except Exception:
            log.exception("could not post the board of game %d", row.id)
            return row, None
        statements = []
        if posted.thread_id != row.thread_id:
            statements.append(queries.set_game_thread_statement(row.id, posted.thread_id))
            row = replace(row, thread_id=posted.thread_id)
        if posted.message_id is not None:
            statements.append(queries.set_last_message_statement(row.id, posted.message_id))
            row = replace(row, last_message_id=posted.message_id)
            if move_ply is not None:
                statements.append(queries.set_move_message_statement(row.id, move_ply,
                                                                     posted.message_id))
        if statements:  # where the board went: not worth a wait for the disk
            await self.db.write(statements, durable=False)
        return row, posted


def decisions_of(state: State) -> Decisions:
    """The decisions the player to move would rather click than type (swap, a colour,
    a number…): the game says which (``state.decisions()``)."""
    return () if state.is_over else tuple(state.decisions())


def to_ping(row: GameRow, state: State) -> tuple[int, ...]:
    """Whom a board post mentions: the player to move (nobody once it is over)."""
    return () if state.to_move is None else (row.player_ids[state.to_move],)
