"""Where a game lives and what it shows: its thread, the board posted after every
change (with the buttons of any decision the player to move faces), and notes in
its thread.

All of it goes through the outbox (:mod:`bot.outbox`), so that nothing is lost to a
crash and nothing is doubled by a repeat: a service stages an item in the same
transaction as the change that causes it (:meth:`Boards.thread`, :meth:`Boards.board`,
:meth:`Boards.note`), then :meth:`Boards.send` delivers it. A board's delivery then
tells the listeners what happened (its ``then`` events). A post that fails for good
(no thread or channel left to post in) is logged, not raised: the change is safely
stored, and the next post (or ``/board``) shows the game again; one that fails for
now (Discord out of reach) is tried again by the outbox.

The posts whose buttons act on the game's play (a decision, a takeback request) are
stored, and their buttons removed once they no longer apply: when a newer board is
posted, and when the game ends, however it ends (:meth:`Boards.remove_buttons`; at
start-up :meth:`Boards.remove_ended_buttons` does it for games whose removal could not
be done).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot import texts
from bot.core.games import Games, game_rules, outcome_of, settled
from bot.core.plans import PlannedTurns
from bot.events import Event, Events
from bot.model import (
    DEFAULT_THEME,
    DeliveryDelayed,
    GameUpdate,
    MentionFilter,
    Post,
    Posted,
    Poster,
    Renderer,
    automatic_seat,
    names,
    utc_now,
)
from bot.outbox import Outbox, Staged, game_lane, item
from bot.shards import EVERY_SHARD, Shards
from bot.storage import Database, GameRow, OutboxRow, Statement, queries
from rules import Decision, State

log = logging.getLogger(__name__)

#: What a board post offers as buttons: the decisions of the player to move.
Decisions = tuple[Decision, ...]
#: How long a service waits for its post before answering without it (the outbox
#: goes on trying).
SEND_WAIT = 20.0


class Boards:
    def __init__(
        self,
        db: Database,
        poster: Poster,
        *,
        renderer: Renderer,
        games: Games,
        events: Events,
        outbox: Outbox,
        mention_filter: MentionFilter | None = None,
        planned: PlannedTurns | None = None,
        now: Callable[[], datetime] = utc_now,
        wait: float = SEND_WAIT,
    ) -> None:
        self.db = db
        self.poster = poster
        self.renderer = renderer
        self.games = games
        self.events = events
        self.outbox = outbox
        self.mention_filter = mention_filter
        #: Who is not pinged for a turn their conditional moves answer at once.
        self.planned = planned
        self.now = now
        self.wait = wait
        outbox.handle("thread", self._deliver_thread)
        outbox.handle("post", self._deliver_post)

    # -- staging: written with the change that causes it --------------------------------

    def thread(self, row: GameRow) -> Staged:
        """Give a new game its thread (no thread possible: it lives in its channel)."""
        with texts.in_thread(row):
            name = texts.thread_name(row)
            return item(game_lane(row.id), "thread", {"name": name}, now=self.now())

    def board(
        self,
        row: GameRow,
        state: State,
        content: str,
        *,
        mentions: Sequence[int],
        move: str | None = None,
        move_ply: int | None = None,
        actions: tuple[str, ...] = (),
        then: Sequence[Event] = (),
        decisions: Decisions | None = None,
        kind: str = "post",
        text_by_locale: Mapping[str, str] | None = None,
        **more: Any,
    ) -> Staged:
        """Draw and post the board of ``state``, then tell the listeners ``then``.
        ``move_ply``: the move whose board it is (its message is recorded).
        ``decisions``: those of the player to move, if worked out already. ``kind``
        and ``more``: for a service that composes the post itself (the end of a game).
        ``text_by_locale``: a game of the DMs' ``content`` in each reader's language
        (:func:`bot.texts.for_readers`).
        The position (and decisions) travel with the item to its delivery, in memory:
        one delivered after a restart replays them."""
        post = Post(
            content=content,
            mentions=tuple(mentions),
            ply=state.ply,
            actions=actions,
            filename=f"{row.game}-{row.id}-{state.ply}.png",
            text_by_locale=dict(text_by_locale or {}),
        )
        with texts.in_thread(row):  # delivered (and a final post composed) in its language
            return item(
                game_lane(row.id),
                kind,
                {
                    "post": _post_json(post),
                    "board": {"ply": state.ply, "move": state.last_move},
                    "move": move,
                    "move_ply": move_ply,
                    "then": list(then),
                    **more,
                },
                now=self.now(),
                worked_out=Facts(state, decisions),
            )

    def note(self, row: GameRow, post: Post) -> Staged:
        """A message in the game's thread without a board (a takeback request…); its
        buttons, if it has any but a rematch, are removed with the game's others."""
        with texts.in_thread(row):
            return item(game_lane(row.id), "post", {"post": _post_json(post)}, now=self.now())

    async def send(self, *staged: Staged) -> list[Any]:
        """Deliver items written just now and wait for them (at most :data:`SEND_WAIT`):
        what each delivery gave (a board: the :class:`GameUpdate` its listeners were
        told; a note: where it went), None for one not delivered yet."""
        return await self.outbox.deliver(*staged, timeout=self.wait)

    async def picture(
        self, row: GameRow, state: State, *, theme: str = DEFAULT_THEME, preview: bool = False
    ) -> bytes | None:
        """The board of ``row`` at ``state``; a finished game's says how it ended; a
        ``preview`` shows a move not played yet."""
        return await self.renderer(
            state, names(row), theme=theme, outcome=outcome_of(row), preview=preview
        )

    # -- delivering ----------------------------------------------------------------------

    async def _deliver_thread(self, pending: OutboxRow, worked_out: object) -> int | None:
        row = await self.game_of(pending)
        if row is None or row.thread_id is not None or "opened" in pending.result:
            return None if row is None else row.thread_id
        try:
            thread_id = await self.poster.open_thread(row, pending.payload["name"])
        except DeliveryDelayed:
            raise
        except Exception:
            log.exception("could not open a thread for game %d", row.id)
            thread_id = None
        statements = [queries.outbox_result_statement(pending.id, {"opened": thread_id})]
        if thread_id is not None:
            statements.append(queries.set_game_thread_statement(row.id, thread_id))
        await self.db.write(statements, durable=False)
        return thread_id

    async def _deliver_post(
        self, pending: OutboxRow, worked_out: Facts | None
    ) -> GameUpdate | Posted | None:
        row = await self.game_of(pending)
        if row is None:
            return None
        state = await self.state_of(pending, row, worked_out)
        decisions = None if worked_out is None else worked_out.decisions
        post = _post_of(pending.payload["post"])
        return await self.deliver(pending, row, state, post, decisions=decisions)

    async def deliver(
        self,
        pending: OutboxRow,
        row: GameRow,
        state: State | None,
        post: Post | None,
        *,
        decisions: Decisions | None = None,
    ) -> GameUpdate | Posted | None:
        """Deliver a post item (``post``: what to post, composed; None if the item was
        posted already): post it unless a try before a crash did, then tell the
        listeners. What the delivery gives (see :meth:`send`)."""
        if "posted" in pending.result:  # posted before a crash: not again
            done = pending.result["posted"]
            others = tuple((c, m) for c, m in done[3]) if done and len(done) > 3 else ()
            posted = None if done is None else Posted(done[0], done[1], done[2], others)
            if state is not None and posted is not None:  # it may not have got this far
                await self.remove_buttons(
                    row.id, keep=posted.message_id, kept=[m for _, m in posted.others]
                )
        else:
            assert post is not None
            row, posted = await self._post(pending, row, state, post, decisions)
        if state is None:
            return posted
        update = GameUpdate(row, state, pending.payload.get("move"), posted)
        for event in pending.payload.get("then", ()):
            await self.events.tell(event, update)
        return update

    async def _unanswered(
        self, row: GameRow, state: State, mentions: tuple[int, ...]
    ) -> tuple[int, ...]:
        """``mentions`` without the members whose conditional reply to this board's move
        follows at once (a failure to tell pings them all: better twice than never)."""
        if self.planned is None or not row.is_active:
            return mentions
        try:
            answered = await self.planned.answered(row, state)
        except Exception:
            log.exception("game %d: who a plan answers is not known", row.id)
            return mentions
        return tuple(m for m in mentions if m not in answered)

    async def _post(
        self,
        pending: OutboxRow,
        row: GameRow,
        state: State | None,
        post: Post,
        decisions: Decisions | None,
    ) -> tuple[GameRow, Posted | None]:
        """Post the item's message; record where it went, with the game row, and take
        the buttons off the game's earlier posts after a board. Returns the row as it
        is after."""
        payload = pending.payload
        try:
            if state is not None:
                if not row.is_active:  # over, even if the position is not: nothing to decide
                    decisions = ()
                elif decisions is None:
                    decisions = await asyncio.to_thread(decisions_of, state)
                post = replace(post, picture=await self.picture(row, state), decisions=decisions)
            if state is not None and post.mentions:
                post = replace(post, mentions=await self._unanswered(row, state, post.mentions))
            if self.mention_filter is not None:
                post = replace(post, mentions=await self.mention_filter(row, post.mentions))
            posted: Posted | None = await self.poster.post(row, post)
        except DeliveryDelayed:
            raise
        except Exception:
            log.exception(
                "could not post %s of game %d",
                "the board" if state is not None else "a note",
                row.id,
            )
            posted = None
        statements: list[Statement] = []
        if posted is not None:
            if posted.message_id is not None and _has_play_buttons(post):
                statements.append(
                    queries.add_button_post_statement(
                        row.id, _channel(row, posted), posted.message_id
                    )
                )
                statements += [  # the same post in the other player's DMs
                    queries.add_button_post_statement(row.id, channel_id, message_id)
                    for channel_id, message_id in posted.others
                ]
            if posted.thread_id != row.thread_id:
                statements.append(queries.set_game_thread_statement(row.id, posted.thread_id))
                row = replace(row, thread_id=posted.thread_id)
            if posted.message_id is not None and state is not None:
                statements.append(queries.set_last_message_statement(row.id, posted.message_id))
                row = replace(row, last_message_id=posted.message_id)
                if payload.get("move_ply") is not None:
                    statements.append(
                        queries.set_move_message_statement(
                            row.id, payload["move_ply"], posted.message_id
                        )
                    )
        done = (
            None
            if posted is None
            else [
                posted.message_id,
                posted.thread_id,
                _channel(row, posted),
                [list(other) for other in posted.others],
            ]
        )
        statements.append(queries.outbox_result_statement(pending.id, {"posted": done}))
        await self.db.write(statements, durable=False)  # where it went: no wait for the disk
        if state is not None and (posted is not None or not row.is_active):
            await self.remove_buttons(
                row.id,
                keep=None if posted is None else posted.message_id,
                kept=() if posted is None else tuple(m for _, m in posted.others),
            )
        return row, posted

    async def game_of(self, pending: OutboxRow) -> GameRow | None:
        """The game of an item of a game's lane, as stored now."""
        return await self.db.read(queries.game_by_id(int(pending.lane.split(":")[1])))

    async def state_of(
        self, pending: OutboxRow, row: GameRow, worked_out: Facts | None = None
    ) -> State | None:
        """The position a board item shows (None for a note): ``ply`` moves in, the last
        one ``move``; the one in memory when it was just sent, else replayed."""
        board = pending.payload.get("board")
        if board is None:
            return None
        if worked_out is not None:
            return worked_out.state
        ply, move = board["ply"], board.get("move")
        cached = self.games.cached(row.id)
        if cached is not None and cached.ply == ply and cached.last_move == move:
            return cached
        async with self.db.reading() as conn:
            history = [m.move for m in await queries.moves_of_game(conn, row.id)][:ply]
        if move is not None and (len(history) != ply or history[-1] != move):
            history = [*history[: ply - 1], move]  # taken back since: as it was then
        return await asyncio.to_thread(replayed, row, history)

    # -- buttons that no longer apply -----------------------------------------------------

    async def remove_buttons(
        self, game_id: int, *, keep: int | None = None, kept: Sequence[int] = ()
    ) -> int:
        """Take the buttons off the game's posts that act on its play (but ``keep``, and
        ``kept``: the same board in the other player's DMs): after a newer board, and at
        the game's end. Returns how many posts lost them."""
        stale = [
            (channel_id, message_id)
            for channel_id, message_id in await self.db.read(queries.button_posts_of_game(game_id))
            if message_id != keep and message_id not in kept
        ]
        return sum(
            [
                await self._remove(game_id, channel_id, message_id)
                for channel_id, message_id in stale
            ]
        )

    async def remove_ended_buttons(self, shards: Shards = EVERY_SHARD) -> int:
        """At start-up: the buttons of games that ended while their removal could not be
        done (Discord out of reach: kept for the next start), in the servers of this
        process's ``shards``. Returns how many posts lost them."""
        done, after = 0, 0
        while found := await self.db.read(
            queries.button_posts_of_ended_games(
                after, shard_count=shards.count, shard_ids=shards.ids
            )
        ):
            for game_id, channel_id, message_id in found:
                done += await self._remove(game_id, channel_id, message_id)
            after = found[-1][2]
        return done

    async def _remove(self, game_id: int, channel_id: int, message_id: int) -> bool:
        try:
            await self.poster.remove_buttons(channel_id, message_id)
        except Exception:  # Discord out of reach: kept, for the next start-up
            log.exception("could not remove the buttons of game %d's post %d", game_id, message_id)
            return False
        await self.db.write([queries.drop_button_post_statement(message_id)], durable=False)
        return True


@dataclass(frozen=True, slots=True)
class Facts:
    """What a change worked out of the board it stages: its position and the
    decisions of the player to move (None: not worked out)."""

    state: State
    decisions: Decisions | None = None


def decisions_of(state: State) -> Decisions:
    """The decisions the player to move would rather click than type (swap, a colour,
    a number…): the game says which (``state.decisions()``)."""
    return () if state.is_over else tuple(state.decisions())


def to_ping(row: GameRow, state: State) -> tuple[int, ...]:
    """Whom a board post mentions: the player to move (nobody once it is over, nor when
    the bot is to move: its typing indicator says it is thinking)."""
    seat = state.to_move
    return () if seat is None or seat == automatic_seat(row) else (row.player_ids[seat],)


def replayed(row: GameRow, moves: list[str]) -> State:
    """The position of ``row`` after ``moves`` (slow for long games: in a thread)."""
    return settled(game_rules(row.game).replay(moves, **row.options))


def _has_play_buttons(post: Post) -> bool:
    """Buttons that act on the game's play (a decision, a takeback request), which go
    when a newer board comes or the game ends; a rematch offer's stay."""
    return post.asks or any(not action.startswith("rematch") for action in post.actions)


def _channel(row: GameRow, posted: Posted) -> int:
    """The channel or thread a post went to."""
    return posted.channel_id or posted.thread_id or row.channel_id


def _post_json(post: Post) -> dict[str, Any]:
    """A post as stored in an outbox item: its words, whom it mentions and its actions
    (the picture, the decisions and the files are made at delivery); a game of the
    DMs' also its text in each reader's language."""
    stored: dict[str, Any] = {
        "content": post.content,
        "mentions": list(post.mentions),
        "ply": post.ply,
        "filename": post.filename,
        "actions": list(post.actions),
    }
    if post.text_by_locale:
        stored["by_locale"] = dict(post.text_by_locale)
    return stored


def _post_of(stored: Mapping[str, Any]) -> Post:
    return Post(
        content=stored["content"],
        mentions=tuple(stored.get("mentions", ())),
        ply=stored.get("ply", 0),
        filename=stored.get("filename", "board.png"),
        actions=tuple(stored.get("actions", ())),
        text_by_locale=dict(stored.get("by_locale", {})),
    )
