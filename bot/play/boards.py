"""Where a game lives and what it shows: its thread, and the board posted after every
change, with the buttons of any decision the player to move faces.

A failure to post is logged, not raised: the change is already safely stored, and the
next post (or ``/board``) shows the game again.

The posts whose buttons act on the game's play (a decision, a takeback request) are
stored, and their buttons removed once they no longer apply: when a newer board is
posted, and when the game ends, however it ends (:meth:`Boards.remove_buttons`; at
start-up :meth:`Boards.remove_ended_buttons` does it for games that ended while the
bot was down).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

from bot import texts
from bot.model import (
    DEFAULT_THEME,
    Attachment,
    MentionFilter,
    Post,
    Posted,
    Poster,
    Renderer,
    names,
)
from bot.play.games import outcome_of
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

    async def picture(self, row: GameRow, state: State, *,
                      theme: str = DEFAULT_THEME) -> bytes | None:
        """The board of ``row`` at ``state``; a finished game's says how it ended."""
        return await self.renderer(state, names(row), theme=theme,
                                   outcome=outcome_of(row))

    async def post(self, row: GameRow, state: State, content: str, *,
                   mentions: tuple[int, ...] | list[int], move_ply: int | None = None,
                   actions: tuple[str, ...] = (), decisions: Decisions | None = None,
                   attachments: tuple[Attachment, ...] = ()) -> tuple[GameRow, Posted | None]:
        """Draw and post the board; record where it went, and take the buttons off the
        game's earlier posts. Returns the game row as it is after the post (where the
        game lives, its latest board) without reading it back, and where the post went
        (None if it failed). ``decisions``: the state's, if already worked out."""
        try:
            if not row.is_active:  # over, even if the position is not: nothing to decide
                decisions = ()
            elif decisions is None:
                decisions = await asyncio.to_thread(decisions_of, state)
            picture = await self.picture(row, state)
            mentions = tuple(mentions)
            if self.mention_filter is not None:
                mentions = await self.mention_filter(row, mentions)
            posted = await self.poster.post(row, Post(
                content=content, picture=picture, mentions=mentions, decisions=decisions,
                ply=state.ply, filename=f"{row.game}-{row.id}-{state.ply}.png",
                actions=actions, attachments=attachments))
        except Exception:
            log.exception("could not post the board of game %d", row.id)
            if not row.is_active:
                await self.remove_buttons(row.id)
            return row, None
        statements = []
        if decisions and posted.message_id is not None:
            statements.append(queries.add_button_post_statement(
                row.id, _channel(row, posted), posted.message_id))
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
        await self.remove_buttons(row.id, keep=posted.message_id)
        return row, posted

    async def note(self, row: GameRow, post: Post) -> Posted:
        """Post a note without a board (a takeback request…); its buttons, if it has any
        but a rematch, are removed with the game's others (the board's stay)."""
        posted = await self.poster.post(row, post)
        if posted.message_id is not None and any(not action.startswith("rematch")
                                                 for action in post.actions):
            await self.db.write([queries.add_button_post_statement(
                row.id, _channel(row, posted), posted.message_id)], durable=False)
        return posted

    async def remove_buttons(self, game_id: int, *, keep: int | None = None) -> int:
        """Take the buttons off the game's posts that act on its play (but ``keep``):
        after a newer board, and at the game's end. Returns how many posts lost them.
        (The one place where buttons are removed, for an outbox to take over.)"""
        stale = [(channel_id, message_id) for channel_id, message_id
                 in await self.db.read(queries.button_posts_of_game(game_id))
                 if message_id != keep]
        return sum([await self._remove(game_id, channel_id, message_id)
                    for channel_id, message_id in stale])

    async def remove_ended_buttons(self) -> int:
        """At start-up: the buttons of games that ended while the bot was down, or whose
        removal failed (Discord out of reach: kept for the next start). Returns how many
        posts lost them."""
        done, after = 0, 0
        while found := await self.db.read(queries.button_posts_of_ended_games(after)):
            for game_id, channel_id, message_id in found:
                done += await self._remove(game_id, channel_id, message_id)
            after = found[-1][2]
        return done

    async def _remove(self, game_id: int, channel_id: int, message_id: int) -> bool:
        try:
            await self.poster.remove_buttons(channel_id, message_id)
        except Exception:  # Discord out of reach: kept, for the next start-up
            log.exception("could not remove the buttons of game %d's post %d", game_id,
                          message_id)
            return False
        await self.db.write([queries.drop_button_post_statement(message_id)], durable=False)
        return True


def decisions_of(state: State) -> Decisions:
    """The decisions the player to move would rather click than type (swap, a colour,
    a number…): the game says which (``state.decisions()``)."""
    return () if state.is_over else tuple(state.decisions())


def _channel(row: GameRow, posted: Posted) -> int:
    """The channel or thread a post went to."""
    return posted.channel_id or posted.thread_id or row.channel_id


def to_ping(row: GameRow, state: State) -> tuple[int, ...]:
    """Whom a board post mentions: the player to move (nobody once it is over)."""
    return () if state.to_move is None else (row.player_ids[state.to_move],)
