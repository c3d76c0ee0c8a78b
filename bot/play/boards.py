"""Where a game lives and what it shows: its thread, the board posted after every
change (with the buttons of any decision the player to move faces), notes in its
thread, and the removal of buttons gone stale.

All of it goes through the outbox (:mod:`bot.outbox`), so that nothing is lost to a
crash and nothing is doubled by a repeat: a service stages an item in the same
transaction as the change that causes it (:meth:`Boards.thread`, :meth:`Boards.board`,
:meth:`Boards.note`, :meth:`Boards.clear_buttons`), then :meth:`Boards.send` delivers
it. A board's delivery then tells the listeners what happened (its ``then`` events),
so that what they add to the thread comes under the board.

A post that fails for good (no thread or channel left to post in) is logged, not
raised: the change is safely stored, and the next post (or ``/board``) shows the game
again. A post that fails for now (Discord unreachable) is tried again by the outbox.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot import texts
from bot.events import Event, Events
from bot.model import (
    DeliveryDelayed,
    GameUpdate,
    MentionFilter,
    Post,
    Posted,
    Poster,
    Renderer,
    names,
    utc_now,
)
from bot.outbox import Outbox, Staged, game_lane, item
from bot.play.games import Games, game_rules, settled
from bot.storage import Database, GameRow, OutboxRow, Statement, queries
from rules import State

log = logging.getLogger(__name__)

#: Opening decisions offered as buttons besides ``/move`` (``komi N`` gets a number field).
CHOICE_MOVES = ("swap", "black", "white", "yellow", "cyan")
#: What a board post offers as buttons: the choice moves, and the komi range if any.
Decisions = tuple[tuple[str, ...], tuple[int, int] | None]
#: How long a service waits for its post before answering without it (the outbox
#: goes on trying).
SEND_WAIT = 20.0
#: Buttons that go stale when a game ends (decisions, and requests such as takebacks);
#: a rematch offer's do not.
STALE_AT_THE_END = ("decision", "request")
LASTING_ACTIONS = ("rematch",)


class Boards:
    def __init__(self, db: Database, poster: Poster, *, renderer: Renderer, games: Games,
                 events: Events, outbox: Outbox, mention_filter: MentionFilter | None = None,
                 now: Callable[[], datetime] = utc_now, wait: float = SEND_WAIT) -> None:
        self.db = db
        self.poster = poster
        self.renderer = renderer
        self.games = games
        self.events = events
        self.outbox = outbox
        self.mention_filter = mention_filter
        self.now = now
        self.wait = wait
        #: Positions of boards being sent, by item key (else replayed from the moves).
        self._states: dict[str, State] = {}
        outbox.handle("thread", self._deliver_thread)
        outbox.handle("post", self._deliver_post)
        outbox.handle("clear", self._deliver_clear)

    # -- staging: written with the change that causes it --------------------------------

    def thread(self, row: GameRow) -> Staged:
        """Give a new game its thread (no thread possible: it lives in its channel)."""
        return item(game_lane(row.id), "thread", {"name": texts.thread_name(row)}, now=self.now())

    def board(self, row: GameRow, state: State, content: str, *, mentions: Sequence[int],
              move: str | None = None, move_ply: int | None = None,
              actions: tuple[str, ...] = (), decisions: Decisions | None = None,
              then: Sequence[Event] = ()) -> Staged:
        """Draw and post the board of ``state``, then tell the listeners ``then``.
        ``move_ply``: the move whose board it is (its message is recorded);
        ``decisions``: the state's, if already worked out."""
        post = Post(content=content, mentions=tuple(mentions), ply=state.ply, actions=actions,
                    filename=f"{row.game}-{row.id}-{state.ply}.png")
        return item(game_lane(row.id), "post", {
            "post": _post_json(post), "board": {"ply": state.ply, "move": state.last_move},
            "decisions": None if decisions is None else [list(decisions[0]), decisions[1]],
            "move": move, "move_ply": move_ply, "then": list(then)}, now=self.now())

    def note(self, row: GameRow, post: Post) -> Staged:
        """A message in the game's thread without a board (a takeback request…)."""
        return item(game_lane(row.id), "post", {"post": _post_json(post)}, now=self.now())

    def clear_buttons(self, row: GameRow) -> Staged:
        """Remove the buttons the game's posts still show that its end made stale."""
        return item(game_lane(row.id), "clear", {"kinds": list(STALE_AT_THE_END)},
                    now=self.now())

    async def send(self, *staged: Staged, states: Mapping[str, State] | None = None) -> list[Any]:
        """Deliver items written just now and wait for them (at most :data:`SEND_WAIT`):
        what each delivery gave (a board: the :class:`GameUpdate` its listeners were
        told), None for one not delivered yet. ``states``: the positions of boards by
        item key, to spare a replay."""
        self._states.update(states or {})
        try:
            return await self.outbox.deliver(*staged, timeout=self.wait)
        finally:
            for one in staged:
                self._states.pop(one.key, None)

    async def picture(self, row: GameRow, state: State) -> bytes | None:
        return await self.renderer(state, names(row))

    # -- delivering ----------------------------------------------------------------------

    async def _deliver_thread(self, pending: OutboxRow) -> int | None:
        row = await self._game(pending)
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

    async def _deliver_post(self, pending: OutboxRow) -> GameUpdate | Posted | None:
        row = await self._game(pending)
        if row is None:
            return None
        payload = pending.payload
        board = payload.get("board")
        state = None
        if board is not None:
            state = self._states.get(pending.key) or await self._state_at(row, board)
        if "posted" in pending.result:  # posted before a crash: not again
            done = pending.result["posted"]
            posted = None if done is None else Posted(done[0], done[1], done[2])
        else:
            row, posted = await self._post(pending, row, state)
        if state is None:
            return posted
        update = GameUpdate(row, state, payload.get("move"), posted)
        for event in payload.get("then", ()):
            await self.events.tell(event, update)
        return update

    async def _post(self, pending: OutboxRow, row: GameRow,
                    state: State | None) -> tuple[GameRow, Posted | None]:
        """Post the item's message; record where it went, with the game row, and clear
        the buttons a new board makes stale. Returns the row as it is after."""
        payload = pending.payload
        post = _post_of(payload["post"])
        try:
            if state is not None:
                decisions = payload.get("decisions")
                if not row.is_active:  # resigned, out of time: nothing left to decide
                    choices, komi = (), None
                elif decisions:
                    choices, komi = tuple(decisions[0]), _pair(decisions[1])
                else:
                    choices, komi = await asyncio.to_thread(decisions_of, state)
                post = replace(post, picture=await self.picture(row, state), choices=choices,
                               komi=komi)
            if self.mention_filter is not None:
                post = replace(post, mentions=await self.mention_filter(row, post.mentions))
            posted: Posted | None = await self.poster.post(row, post)
        except DeliveryDelayed:
            raise
        except Exception:
            log.exception("could not post %s of game %d",
                          "the board" if state is not None else "a note", row.id)
            posted = None
        statements: list[Statement] = []
        if posted is not None:
            if posted.thread_id != row.thread_id:
                statements.append(queries.set_game_thread_statement(row.id, posted.thread_id))
                row = replace(row, thread_id=posted.thread_id)
            if posted.message_id is not None and state is not None:
                statements.append(queries.set_last_message_statement(row.id, posted.message_id))
                row = replace(row, last_message_id=posted.message_id)
                if payload.get("move_ply") is not None:
                    statements.append(queries.set_move_message_statement(
                        row.id, payload["move_ply"], posted.message_id))
        if posted is not None and (post.picture is not None or post.asks):
            statements += await self._clear(pending, ("decision",))  # a newer board asks now
        where = None if posted is None else \
            posted.channel_id or posted.thread_id or row.channel_id
        done = None if posted is None else [posted.message_id, posted.thread_id, where]
        statements.append(queries.outbox_result_statement(
            pending.id, {"posted": done}, channel_id=where,
            message_id=None if posted is None else posted.message_id,
            buttons=_buttons(post) if posted is not None else None))
        await self.db.write(statements, durable=False)  # where it went: no wait for the disk
        return row, posted

    async def _deliver_clear(self, pending: OutboxRow) -> None:
        statements = await self._clear(pending, tuple(pending.payload["kinds"]))
        if statements:
            await self.db.write(statements, durable=False)

    async def _clear(self, pending: OutboxRow, kinds: tuple[str, ...]) -> list[Statement]:
        """Remove the buttons of the lane's earlier messages showing buttons of
        ``kinds``; the statements recording it."""
        statements = []
        for earlier in await self.db.read(queries.outbox_with_buttons(pending.lane, kinds)):
            if earlier.id == pending.id or earlier.channel_id is None \
                    or earlier.message_id is None:
                continue
            try:
                await self.poster.clear_buttons(earlier.channel_id, earlier.message_id)
            except Exception as error:  # a stale button refuses politely anyway
                log.info("could not remove the buttons of message %d: %s",
                         earlier.message_id, error)
                continue
            statements.append(queries.outbox_buttons_gone_statement(earlier.id))
        return statements

    async def _game(self, pending: OutboxRow) -> GameRow | None:
        return await self.db.read(queries.game_by_id(int(pending.lane.split(":")[1])))

    async def _state_at(self, row: GameRow, board: Mapping[str, Any]) -> State:
        """The position a board showed: ``ply`` moves in, the last one ``move``."""
        ply, move = board["ply"], board.get("move")
        cached = self.games.cached(row.id)
        if cached is not None and cached.ply == ply and cached.last_move == move:
            return cached
        async with self.db.reading() as conn:
            history = [m.move for m in await queries.moves_of_game(conn, row.id)][:ply]
        if move is not None and (len(history) != ply or history[-1] != move):
            history = [*history[:ply - 1], move]  # taken back since: as it was then
        return await asyncio.to_thread(replayed, row, history)


def decisions_of(state: State) -> Decisions:
    """Opening decisions that are not cells, offered as buttons."""
    if state.is_over:
        return (), None
    legal = state.legal_moves()
    choices = tuple(move for move in legal if move in CHOICE_MOVES)
    komi = [int(move.split()[1]) for move in legal
            if move.startswith("komi ") and move.split()[1].isdigit()]
    return choices, (min(komi), max(komi)) if komi else None


def to_ping(row: GameRow, state: State) -> tuple[int, ...]:
    """Whom a board post mentions: the player to move (nobody once it is over)."""
    return () if state.to_move is None else (row.player_ids[state.to_move],)


def replayed(row: GameRow, moves: list[str]) -> State:
    """The position of ``row`` after ``moves`` (slow for long games: in a thread)."""
    return settled(game_rules(row.game).replay(moves, **row.options))


def _buttons(post: Post) -> str | None:
    """Which kind of buttons a delivered post shows (see :data:`STALE_AT_THE_END`)."""
    if post.asks:
        return "decision"
    if not post.actions:
        return None
    lasting = all(action.partition(":")[0] in LASTING_ACTIONS for action in post.actions)
    return "lasting" if lasting else "request"


def _post_json(post: Post) -> dict[str, Any]:
    """A post as stored in an outbox item (its picture is drawn at delivery)."""
    fields = {f.name: getattr(post, f.name) for f in dataclasses.fields(post)}
    fields.pop("picture")
    return {name: list(value) if isinstance(value, tuple) else value
            for name, value in fields.items()}


def _post_of(stored: Mapping[str, Any]) -> Post:
    known = {f.name for f in dataclasses.fields(Post)}
    return Post(**{name: tuple(value) if isinstance(value, list) else value
                   for name, value in stored.items() if name in known})


def _pair(value: Any) -> tuple[int, int] | None:
    return None if value is None else (int(value[0]), int(value[1]))
