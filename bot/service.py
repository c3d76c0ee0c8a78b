"""What the slash commands and buttons do, without Discord.

Every handler is an async method of :class:`Service` taking plain ids and
:class:`Member` values; it either returns an outcome or raises
:class:`UserError` with a polite message for the member (and then nothing has
changed). What must appear in a game's thread goes through the injected
:class:`Poster`, so tests can watch it and the Discord adapter
(:mod:`bot.poster`) can deal with archived or deleted threads.

Concurrency: one :class:`asyncio.Lock` per game serialises moves, resignations
and their posts; the ``UNIQUE (game_id, ply)`` constraint backs it up.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

import rules
from bot import texts
from bot.model import (
    GameListing,
    GameUpdate,
    Listener,
    Member,
    Post,
    Posted,
    Poster,
    Renderer,
    UserError,
    render_board,
    utc_now,
)
from bot.storage import ChallengeRow, Database, GameRow, queries
from bot.storage.database import Statement
from bot.suggest import Suggestion, suggest_moves
from rules import State

__all__ = ["GameListing", "GameUpdate", "Listener", "Member", "Post", "Posted", "Poster",
           "Renderer", "Service", "UserError", "render_board", "utc_now"]

log = logging.getLogger(__name__)

#: What a move guard may return: the statements to store with the move, from the
#: position after it.
MoveWriter = Callable[[State], list[Statement]]
#: Opening decisions offered as buttons: the choice moves, and the komi range if any.
Decisions = tuple[tuple[str, ...], tuple[int, int] | None]


class MoveGuard(Protocol):
    def read(self, conn: sqlite3.Connection, game_id: int) -> Any:
        """What :meth:`check` needs from the database, read in the same trip to the
        database thread as the game's row (a plain ``sqlite3`` connection)."""

    def check(self, row: GameRow, state: State, member: Member, facts: Any) -> MoveWriter | None:
        """Refuse the move with a UserError, or allow it, possibly returning the writer
        of more statements for the move's own transaction."""

#: Who takes seat 0 (the first player) when a challenge is accepted.
FIRST_PLAYER_CHOICES = ("challenger", "opponent", "random")
#: Opening decisions offered as buttons besides ``/move`` (``komi N`` gets a number field).
CHOICE_MOVES = ("swap", "black", "white", "yellow", "cyan")
FINISHED_LISTED = 10
#: Games read and replayed at a time by the warm-up.
WARM_UP_PAGE = 250


class Service:
    def __init__(self, db: Database, poster: Poster, *, now: Callable[[], datetime] = utc_now,
                 renderer: Renderer = render_board, rng: random.Random | None = None) -> None:
        self.db = db
        self.poster = poster
        self.now = now
        self.renderer = renderer
        self.rng = rng or random.Random()
        self._states: dict[int, State] = {}
        self._replays: dict[int, asyncio.Future[State]] = {}
        #: Warmed-up positions not yet settled (see _settled): thousands of legal-move
        #: lists would be listed, and kept, for games nobody may touch for days.
        self._unsettled: set[int] = set()
        self._warming: asyncio.Future[int] | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self.listeners: list[Listener] = []
        #: Asked under the game's lock before a move is checked and stored (the clock
        #: refuses moves out of time, and stores its next turn with the move).
        self.move_guards: list[MoveGuard] = []
        #: Narrows who a post notifies (members who asked for DMs instead of pings).
        self.mention_filter: Callable[[GameRow, tuple[int, ...]],
                                      Awaitable[tuple[int, ...]]] | None = None

    # -- challenges ----------------------------------------------------------

    async def create_challenge(self, *, guild_id: int, channel_id: int, challenger: Member,
                               game: str, options: Mapping[str, Any] | None = None,
                               opponent: Member | None = None,
                               first: str = "challenger", rated: bool = True,
                               settings: Mapping[str, Any] | None = None) -> ChallengeRow:
        """A pending challenge; the caller posts it and calls :meth:`set_challenge_message`.
        ``rated=False``: a casual game, which never changes ratings. ``settings``: more
        of the bot's own choices for the game (time control…), already checked."""
        rule_set = _game(game)
        if opponent is not None and opponent.id == challenger.id:
            raise UserError("You can't challenge yourself: pick another member, or leave "
                            "the opponent empty for an open challenge.")
        if opponent is not None and opponent.bot:
            raise UserError(f"{opponent.name} is a bot and can't play: challenge a person.")
        given = {name: value for name, value in (options or {}).items() if value is not None}
        try:
            resolved = rule_set.resolve_options(**given)
        except rules.OptionError as error:
            raise UserError(f"{rule_set.title} can't be played like that: {error}.") from None
        if first not in FIRST_PLAYER_CHOICES:
            raise UserError(f"Who plays first must be one of {', '.join(FIRST_PLAYER_CHOICES)}.")
        async with self.db.transaction() as tx:
            existing = await queries.find_pending_challenge(
                tx, guild_id=guild_id, challenger_id=challenger.id,
                opponent_id=opponent.id if opponent else None, game=rule_set.name)
            if existing is not None:
                whom = f"to {existing.opponent_name}" if opponent else "open to anyone"
                raise UserError(f"You already have a pending {rule_set.title} challenge {whom} "
                                f"(#{existing.id}): cancel it or wait for an answer first.")
            challenge_id = await queries.insert_challenge(
                tx, guild_id=guild_id, channel_id=channel_id, challenger_id=challenger.id,
                challenger_name=challenger.name, opponent_id=opponent.id if opponent else None,
                opponent_name=opponent.name if opponent else None, game=rule_set.name,
                options=resolved,
                settings={**(settings or {}), "first": first, "rated": bool(rated)},
                created_at=self.now())
            return await queries.get_challenge(tx, challenge_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        async with self.db.transaction() as tx:
            await queries.set_challenge_message(tx, challenge_id, message_id)

    async def get_challenge(self, guild_id: int, challenge_id: int) -> ChallengeRow:
        async with self.db.reading() as conn:
            challenge = await queries.get_challenge(conn, challenge_id)
        if challenge is None or challenge.guild_id != guild_id:
            raise UserError("That challenge doesn't exist (any more).")
        return challenge

    async def accept_challenge(self, *, guild_id: int, challenge_id: int, member: Member,
                               message_id: int | None = None) -> GameUpdate:
        """Start the game: seats, a thread, the opening board, the first ping.
        ``message_id``: the challenge message the button was on, in case it was
        clicked before :meth:`set_challenge_message` stored it."""
        challenge = await self._pending(guild_id, challenge_id)
        if member.id == challenge.challenger_id:
            raise UserError("You can't accept your own challenge (use Cancel to withdraw it).")
        if challenge.opponent_id is not None and member.id != challenge.opponent_id:
            raise UserError(f"This challenge is for {challenge.opponent_name}, not you.")
        if member.bot:
            raise UserError("Bots can't play.")
        challenger = Member(challenge.challenger_id, challenge.challenger_name)
        first = challenge.settings.get("first", "challenger")
        if first == "random":
            first = self.rng.choice(("challenger", "opponent"))
        seats = (challenger, member) if first == "challenger" else (member, challenger)
        rule_set = _game(challenge.game)
        state = rule_set.new(**challenge.options)
        async with self.db.transaction() as tx:
            game_id = await queries.insert_game(
                tx, guild_id=guild_id, channel_id=challenge.channel_id,
                challenge_id=challenge.id,
                challenge_message_id=challenge.message_id or message_id,
                game=challenge.game, options=challenge.options, settings=challenge.settings,
                player_ids=[seat.id for seat in seats], player_names=[seat.name for seat in seats],
                created_at=self.now())
            if not await queries.close_challenge(tx, challenge.id, status="accepted",
                                                 closed_at=self.now(), game_id=game_id):
                raise UserError("Someone else accepted this challenge just before you.")
            row = await queries.get_game(tx, game_id)
        self._states[game_id] = state
        async with self.lock(game_id):
            try:
                thread_id = await self.poster.open_thread(row, texts.thread_name(row))
            except Exception:
                log.exception("could not open a thread for game %d", game_id)
                thread_id = None
            if thread_id is not None:
                await self.db.write([queries.set_game_thread_statement(game_id, thread_id)])
                row = replace(row, thread_id=thread_id)
            row, posted = await self._post_board(row, state, texts.opening_post(row, state),
                                                 mentions=_to_ping(row, state))
            update = GameUpdate(row, state, None, posted)
            await self._tell("game_started", update)
        return update

    async def decline_challenge(self, *, guild_id: int, challenge_id: int,
                                member: Member) -> ChallengeRow:
        challenge = await self._pending(guild_id, challenge_id)
        if challenge.opponent_id is None:
            raise UserError("An open challenge can't be declined: simply leave it "
                            "(the challenger can cancel it).")
        if member.id != challenge.opponent_id:
            raise UserError(f"Only {challenge.opponent_name} can decline this challenge.")
        return await self._close(challenge, "declined")

    async def cancel_challenge(self, *, guild_id: int, challenge_id: int,
                               member: Member) -> ChallengeRow:
        challenge = await self._pending(guild_id, challenge_id)
        if member.id != challenge.challenger_id:
            raise UserError(f"Only {challenge.challenger_name} can cancel this challenge.")
        return await self._close(challenge, "cancelled")

    async def _pending(self, guild_id: int, challenge_id: int) -> ChallengeRow:
        challenge = await self.get_challenge(guild_id, challenge_id)
        if challenge.status != "pending":
            raise UserError(f"This challenge was already {challenge.status}.")
        return challenge

    async def _close(self, challenge: ChallengeRow, status: str) -> ChallengeRow:
        async with self.db.transaction() as tx:
            if not await queries.close_challenge(tx, challenge.id, status=status,
                                                 closed_at=self.now()):
                current = await queries.get_challenge(tx, challenge.id)
                raise UserError(f"This challenge was already {current.status}.")
            return await queries.get_challenge(tx, challenge.id)

    # -- finding games ---------------------------------------------------------

    async def find_game(self, *, guild_id: int, channel_id: int, member_id: int,
                        ref: str | int | None = None) -> GameRow:
        """The game a command means: ``ref`` (an id, ``#12``) if given; else the game of
        the thread the command was used in; else the member's only active game."""
        if ref is not None and str(ref).strip():
            game_id = _parse_game_id(ref)
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
            if row is None or row.guild_id != guild_id:
                raise UserError(f"There is no game #{game_id} in this server.")
            return row
        async with self.db.reading() as conn:
            row = await queries.game_in_thread(conn, guild_id, channel_id)
            if row is not None:
                return row
            active = await queries.games_of_member(conn, guild_id, member_id, status="active")
        if len(active) == 1:
            return active[0]
        if not active:
            raise UserError("You have no game in progress here: start one with /challenge, "
                            "or name a game with the `game` option.")
        raise UserError(f"You have {len(active)} games in progress: say which one with the "
                        "`game` option (or use the command in the game's thread).")

    async def get_game(self, guild_id: int, game_id: int) -> GameRow:
        return await self.find_game(guild_id=guild_id, channel_id=0, member_id=0, ref=game_id)

    async def state_of(self, row: GameRow) -> State:
        """The current position: cached, or replayed from the stored moves (one replay
        at a time per game, whoever asks)."""
        state = self._states.get(row.id)
        if state is not None:
            if row.id in self._unsettled:  # from the warm-up: settle it now, off the loop
                state = await asyncio.to_thread(_settled, state)
                self._unsettled.discard(row.id)
            return state
        replay = self._replays.get(row.id)
        if replay is None:
            replay = self._replays[row.id] = asyncio.ensure_future(self._replay(row))
        return await asyncio.shield(replay)

    async def _replay(self, row: GameRow) -> State:
        me = asyncio.current_task()
        try:
            async with self.db.reading() as conn:
                moves = [move.move for move in await queries.moves_of_game(conn, row.id)]
            state = await asyncio.to_thread(_replayed, row, moves)
            if self._replays.get(row.id) is me:  # not forgotten meanwhile
                self._states[row.id] = state
            return state
        finally:
            if self._replays.get(row.id) is me:
                del self._replays[row.id]

    async def warm_up(self) -> int:
        """Replay every active game into the cache (at start-up, so that the first
        command or autocomplete after a restart answers quickly). Returns how many.
        Callers share the one warm-up."""
        if self._warming is None:
            self._warming = asyncio.ensure_future(self._warm_up())
        return await self._warming

    async def _warm_up(self) -> int:
        done, last = 0, 0
        while True:  # a page at a time: neither the database nor the event loop waits long
            rows, moves = await self.db.run(functools.partial(
                queries.active_games_with_moves, after_id=last, limit=WARM_UP_PAGE))
            if not rows:
                return done
            states = await asyncio.to_thread(_replay_all, rows, moves)
            for row, state in zip(rows, states, strict=True):
                # A game moved, replayed or forgotten meanwhile has a newer position.
                if state is not None and row.id not in self._states \
                        and row.id not in self._replays:
                    self._states[row.id] = state
                    self._unsettled.add(row.id)
            done, last = done + len(rows), rows[-1].id

    def forget(self, game_id: int) -> None:
        """Drop the cached position (after a change made outside :meth:`play_move`)."""
        self._states.pop(game_id, None)
        self._replays.pop(game_id, None)
        self._unsettled.discard(game_id)

    # -- playing ---------------------------------------------------------------

    async def check_turn(self, *, guild_id: int, game_id: int, member: Member,
                         expected_ply: int | None = None) -> tuple[GameRow, State]:
        """Refuse, as :meth:`play_move` would, unless it is ``member``'s turn (before
        opening a form for a move, say)."""
        row = await self.get_game(guild_id, game_id)
        state = await self._playable(row, member)
        _check_turn(row, state, member, expected_ply)
        return row, state

    async def check_player(self, *, guild_id: int, game_id: int,
                           member: Member) -> tuple[GameRow, State]:
        """Refuse, as :meth:`resign` would, unless ``member`` plays this active game."""
        row = await self.get_game(guild_id, game_id)
        return row, await self._playable(row, member, to_resign=True)

    async def play_move(self, *, guild_id: int, game_id: int, member: Member, text: str,
                        expected_ply: int | None = None) -> GameUpdate:
        """Play ``text`` for ``member``. ``expected_ply`` (from a button) refuses the
        move if the game has moved on since the button was posted."""
        async with self.lock(game_id):
            guards = list(self.move_guards)
            row, facts = await self.db.run(lambda conn: (
                queries.game_by_id(conn, game_id), [guard.read(conn, game_id) for guard in guards]))
            if row is None or row.guild_id != guild_id:
                raise UserError(f"There is no game #{game_id} in this server.")
            state = await self._playable(row, member)
            _check_turn(row, state, member, expected_ply)
            writers = [guard.check(row, state, member, fact)
                       for guard, fact in zip(guards, facts, strict=True)]
            seat = state.to_move
            try:
                after, decisions = await asyncio.to_thread(_play, state, text)
            except rules.IllegalMove as error:
                raise UserError(f"`{_shown(text)}` can't be played: {error}.") from None
            move = after.history[-1]
            now = self.now()
            statements = [queries.insert_move_statement(
                game_id=game_id, ply=after.ply, move=move, seat=seat, member_id=member.id,
                played_at=now)]
            if after.is_over:
                row = replace(row, status="finished", result=after.result or "",
                              winner_seat=after.winner, end_reason="rules", finished_at=now)
                statements.append(queries.finish_game_statement(
                    game_id, result=row.result, winner_seat=row.winner_seat, end_reason="rules",
                    finished_at=now))
            for writer in writers:
                if writer is not None:
                    statements += writer(after)
            try:
                await self.db.write(statements)  # the move and what goes with it, or nothing
            except sqlite3.IntegrityError:
                self.forget(game_id)
                raise UserError("Another move for this turn was saved just before yours.") \
                    from None
            self._states[game_id] = after
            self._unsettled.discard(game_id)
            content = texts.move_post(row, after, seat, move)
            mentions = row.player_ids if after.is_over else _to_ping(row, after)
            row, posted = await self._post_board(row, after, content, mentions=mentions,
                                                 move_ply=after.ply, decisions=decisions)
            update = GameUpdate(row, after, move, posted)
            await self._tell("move_played", update)
            if after.is_over:
                await self._tell("game_ended", update)
            return update

    async def resign(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        async with self.lock(game_id):
            row = await self.get_game(guild_id, game_id)
            state = await self._playable(row, member, to_resign=True)
            loser = row.seat_of(member.id)
            winner = 1 - loser
            result = _resignation(row, state, winner)
            return await self._end(row, state, winner_seat=winner, reason="resignation",
                                   result=result)

    async def end_game(self, *, game_id: int, winner_seat: int | None, reason: str,
                       result: str, expected_ply: int | None = None) -> GameUpdate:
        """End an active game outside the rules (timeout, abort…): store it, post the
        final board. For the clock and other later features. ``expected_ply`` refuses
        if a move was played since the caller looked."""
        async with self.lock(game_id):
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
            if row is None or not row.is_active:
                raise UserError("That game is not in progress.")
            state = await self.state_of(row)
            if expected_ply is not None and state.ply != expected_ply:
                raise UserError(f"{texts.label(row)} has moved on in the meantime.")
            return await self._end(row, state, winner_seat=winner_seat, reason=reason,
                                   result=result)

    async def _end(self, row: GameRow, state: State, *, winner_seat: int | None, reason: str,
                   result: str) -> GameUpdate:
        status = "aborted" if reason == "abort" else "finished"
        now = self.now()
        (changed,) = await self.db.write([queries.finish_game_statement(
            row.id, result=result, winner_seat=winner_seat, end_reason=reason, finished_at=now,
            status=status)])
        if not changed:
            raise UserError(f"{texts.label(row)} is already over.")
        row = replace(row, status=status, result=result, winner_seat=winner_seat,
                      end_reason=reason, finished_at=now)
        content = f"**{texts.label(row)}**\n" + texts.end_line(row, result, winner_seat)
        row, posted = await self._post_board(row, state, content, mentions=row.player_ids)
        update = GameUpdate(row, state, None, posted)
        await self._tell("game_ended", update)
        return update

    async def _playable(self, row: GameRow, member: Member, *, to_resign: bool = False) -> State:
        if not row.is_active:
            raise UserError(f"{texts.label(row)} is over: {row.result}")
        if row.seat_of(member.id) is None:
            raise UserError(f"You are not playing in {texts.label(row)}.")
        state = await self.state_of(row)
        if state.is_over and not to_resign:  # stored as active but over: repair the row
            raise UserError(f"{texts.label(row)} is over: {state.result}")
        return state

    # -- looking ---------------------------------------------------------------

    async def board(self, *, guild_id: int, game_id: int) -> tuple[GameRow, State, bytes | None]:
        """The game, its position and a fresh picture of it."""
        row = await self.get_game(guild_id, game_id)
        state = await self.state_of(row)
        return row, state, await self.renderer(state, _names(row))

    async def list_games(self, *, guild_id: int, member_id: int) -> GameListing:
        async with self.db.reading() as conn:
            active = await queries.games_of_member(conn, guild_id, member_id, status="active")
            finished = await queries.games_of_member(conn, guild_id, member_id,
                                                     status="finished", limit=FINISHED_LISTED)
        return GameListing([(row, await self.state_of(row)) for row in active], finished)

    async def move_suggestions(self, *, guild_id: int, channel_id: int, member_id: int,
                               typed: str, ref: str | None = None) -> list[Suggestion]:
        """Autocomplete for ``/move``: never raises, may be empty."""
        try:
            row = await self.find_game(guild_id=guild_id, channel_id=channel_id,
                                       member_id=member_id, ref=ref)
        except UserError:
            return []
        if not row.is_active:
            return []
        state = await self.state_of(row)
        if state.to_move is None or row.player_ids[state.to_move] != member_id:
            return []  # only the player to move gets suggestions
        legal = await asyncio.to_thread(state.legal_moves)
        return suggest_moves(legal, typed)

    async def game_suggestions(self, *, guild_id: int, member_id: int,
                               typed: str) -> list[Suggestion]:
        """Autocomplete for a ``game`` option: the member's active games, theirs to move first."""
        listing = await self.list_games(guild_id=guild_id, member_id=member_id)
        needle = typed.strip().lstrip("#").lower()
        mine, theirs = [], []
        for row, state in listing.active:
            opponent = row.player_names[1 - row.seat_of(member_id)]
            my_turn = state.to_move is not None and row.player_ids[state.to_move] == member_id
            name = f"{texts.label(row)} vs {opponent} · " + ("your turn" if my_turn else
                                                              "their turn")
            if needle and needle not in name.lower():
                continue
            (mine if my_turn else theirs).append(Suggestion(name[:100], str(row.id)))
        return (mine + theirs)[:25]

    # -- internals ---------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: hold it for any change to a game (moves, takebacks, endings)."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _tell(self, event: str, update: GameUpdate) -> None:
        for listener in self.listeners:
            handler = getattr(listener, event, None)
            if handler is None:
                continue
            try:
                await handler(update)
            except Exception:
                log.exception("listener %r failed on %s of game %d", listener, event,
                              update.game.id)

    async def post_board(self, row: GameRow, state: State, content: str, *,
                         mentions: tuple[int, ...] | list[int],
                         move_ply: int | None = None,
                         actions: tuple[str, ...] = ()) -> Posted | None:
        """Draw and post the board; record where it went. A failure to post is
        logged, not raised: the move is already safely stored."""
        return (await self._post_board(row, state, content, mentions=mentions,
                                       move_ply=move_ply, actions=actions))[1]

    async def _post_board(self, row: GameRow, state: State, content: str, *,
                          mentions: tuple[int, ...] | list[int], move_ply: int | None = None,
                          actions: tuple[str, ...] = (), decisions: Decisions | None = None
                          ) -> tuple[GameRow, Posted | None]:
        """:meth:`post_board`, also giving the game row as it is after the post (where
        the game lives, its latest board), without reading it back. ``decisions``: the
        state's, if already worked out."""
        try:
            choices, komi = decisions or await asyncio.to_thread(_decisions, state)
            picture = await self.renderer(state, _names(row))
            mentions = tuple(mentions)
            if self.mention_filter is not None:
                mentions = await self.mention_filter(row, mentions)
            posted = await self.poster.post(row, Post(
                content=content, picture=picture, mentions=mentions, choices=choices,
                komi=komi, ply=state.ply, filename=f"{row.game}-{row.id}-{state.ply}.png",
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


def _game(name: str) -> rules.Game:
    try:
        return rules.get_game(name)
    except rules.UnknownGame as error:
        raise UserError(f"{str(error)[0].upper()}{str(error)[1:]}.") from None


def _settled(state: State) -> State:
    """``state``, whether it is over (and so who is to move) worked out. For some games
    that means listing the legal moves (Sliglube: up to tens of milliseconds): done here,
    in a worker thread, the answer cached on the state, never on the event loop."""
    _ = state.is_over
    return state


def _play(state: State, text: str) -> tuple[State, Decisions]:
    """The move played, and what the board post after it offers as buttons."""
    after = _settled(state.play(text))
    return after, _decisions(after)


def _replayed(row: GameRow, moves: list[str]) -> State:
    return _settled(_game(row.game).replay(moves, **row.options))


def _replay_all(rows: list[GameRow], moves: Mapping[int, list[str]]) -> list[State | None]:
    """The positions of ``rows`` (None for a game that cannot be replayed: logged)."""
    states: list[State | None] = []
    for row in rows:
        try:
            states.append(_game(row.game).replay(moves.get(row.id, []), **row.options))
        except Exception:
            log.exception("game %d cannot be replayed", row.id)
            states.append(None)
    return states


def _parse_game_id(ref: str | int) -> int:
    """``12``, ``#12``, or a label such as ``Lifeline #12 vs Bo`` typed out in full."""
    text = str(ref).strip()
    found = re.fullmatch(r"#?(\d{1,18})", text) or re.search(r"#(\d{1,18})\b", text)
    if found is None:
        raise UserError(f"{_shown(text)!r} is not a game number (like 12 or #12).")
    return int(found[1])


def _shown(text: str) -> str:
    """User text, made safe to quote in a message."""
    cleaned = " ".join(str(text).split()).replace("`", "'")
    return cleaned if len(cleaned) <= 40 else cleaned[:39] + "…"


def _check_turn(row: GameRow, state: State, member: Member, expected_ply: int | None) -> None:
    if expected_ply is not None and state.ply != expected_ply:
        raise UserError("That button is out of date: the game has moved on since.")
    if row.player_ids[state.to_move] != member.id:
        waiting = row.player_names[state.to_move]
        raise UserError(f"It's not your turn in {texts.label(row)}: waiting for {waiting}.")


def _names(row: GameRow) -> dict[int, str]:
    return {0: row.player_names[0], 1: row.player_names[1]}


def _to_ping(row: GameRow, state: State) -> tuple[int, ...]:
    return () if state.to_move is None else (row.player_ids[state.to_move],)


def _decisions(state: State) -> Decisions:
    """Opening decisions that are not cells, offered as buttons."""
    if state.is_over:
        return (), None
    legal = state.legal_moves()
    choices = tuple(move for move in legal if move in CHOICE_MOVES)
    komi = [int(move.split()[1]) for move in legal
            if move.startswith("komi ") and move.split()[1].isdigit()]
    return choices, (min(komi), max(komi)) if komi else None


def _resignation(row: GameRow, state: State, winner: int) -> str:
    loser = 1 - winner
    winner_color, loser_color = state.color_of(winner), state.color_of(loser)
    if winner_color and loser_color:
        return f"{winner_color.capitalize()} wins: {loser_color.capitalize()} resigned"
    return f"{row.player_names[winner]} wins: {row.player_names[loser]} resigned"
