"""Games and their positions: which game a command means, the current position of a
game (replayed from its stored moves and cached), and the lock that serialises every
change to a game.

The cache is bounded: at most :data:`CACHED_POSITIONS` positions, the least recently
used dropped first, and a game's position dropped as soon as it ends (a finished game
is rarely looked at again, and then replayed). Locks live only while someone holds or
waits for them.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Mapping

import rules
from bot import texts
from bot.core.visibility import shown_here
from bot.i18n import _, said
from bot.model import GameListing, Member, UserError
from bot.places import DMS
from bot.shards import EVERY_SHARD, Shards
from bot.storage import Database, GameRow, queries
from rules import Outcome, State, Termination

log = logging.getLogger(__name__)

#: Positions kept in memory at most (a few kilobytes each).
CACHED_POSITIONS = 2000
#: Games read and replayed at a time by the warm-up.
WARM_UP_PAGE = 250
FINISHED_LISTED = 10


class Games:
    def __init__(
        self, db: Database, *, cache_size: int = CACHED_POSITIONS, shards: Shards = EVERY_SHARD
    ) -> None:
        self.db = db
        self.cache_size = cache_size
        #: This process's shards: the warm-up replays their servers' games only.
        self.shards = shards
        self._states: OrderedDict[int, State] = OrderedDict()
        self._replays: dict[int, asyncio.Future[State]] = {}
        #: Warmed-up positions not yet settled (see settled): thousands of legal-move
        #: lists would be listed, and kept, for games nobody may touch for days.
        self._unsettled: set[int] = set()
        self._warming: asyncio.Future[int] | None = None
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    # -- which game --------------------------------------------------------------

    async def find_game(
        self, *, guild_id: int, channel_id: int, member_id: int, ref: str | int | None = None
    ) -> GameRow:
        """The game a command means: ``ref`` (an id, ``#12``) if given; else the game of
        the thread the command was used in; else the member's only active game."""
        if ref is not None and str(ref).strip():
            game_id = parse_game_id(ref)
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
            # a player sees their game from anywhere; others, a game of this server
            if row is None or not shown_here(row, guild_id=guild_id, viewer_id=member_id):
                raise UserError(_("There is no game #{number} in this server.", number=game_id))
            if guild_id == DMS and member_id and row.seat_of(member_id) is None:
                # A game of the DMs is its players' own: shown to nobody else.
                raise UserError(_("Game #{number} is not one of yours.", number=game_id))
            return row
        async with self.db.reading() as conn:
            row = await queries.game_in_thread(conn, guild_id, channel_id)
            if row is not None:
                return row
            active = await queries.games_of_member(conn, guild_id, member_id, status="active")
        if len(active) == 1:
            return active[0]
        if not active:
            raise UserError(
                _(
                    "You have no game in progress here: start one with /challenge, "
                    "or name a game with the `game` option."
                )
            )
        raise UserError(
            _(
                "You have {count} games in progress: say which one with the "
                "`game` option (or use the command in the game's thread).",
                count=len(active),
            )
        )

    async def get_game(self, guild_id: int, game_id: int) -> GameRow:
        return await self.find_game(guild_id=guild_id, channel_id=0, member_id=0, ref=game_id)

    async def list_games(self, *, guild_id: int, member_id: int) -> GameListing:
        async with self.db.reading() as conn:
            active = await queries.games_of_member(conn, guild_id, member_id, status="active")
            finished = await queries.games_of_member(
                conn, guild_id, member_id, status="finished", limit=FINISHED_LISTED
            )
            challenges = await queries.pending_challenges_of(conn, guild_id, member_id)
        return GameListing(
            [(row, await self.state_of(row)) for row in active], finished, challenges
        )

    async def playable(self, row: GameRow, member: Member, *, to_resign: bool = False) -> State:
        """The position of ``row``, refused unless it is in progress and ``member``
        plays in it."""
        if not row.is_active:
            raise UserError(texts.over_text(row))
        if row.seat_of(member.id) is None:
            raise UserError(_("You are not playing in {game}.", game=texts.label(row)))
        state = await self.state_of(row)
        if state.is_over and not to_resign:  # stored as active but over: repair the row
            raise UserError(texts.over_text(row, state))
        return state

    # -- positions ---------------------------------------------------------------

    async def state_of(self, row: GameRow) -> State:
        """The current position: cached, or replayed from the stored moves (one replay
        at a time per game, whoever asks)."""
        state = self._states.get(row.id)
        if state is not None:
            self._states.move_to_end(row.id)
            if row.id in self._unsettled:  # from the warm-up: settle it now, off the loop
                state = await asyncio.to_thread(settled, state)
                self._unsettled.discard(row.id)
            return state
        replay = self._replays.get(row.id)
        if replay is None:
            replay = self._replays[row.id] = asyncio.ensure_future(self._replay(row))
        return await asyncio.shield(replay)

    def cached(self, game_id: int) -> State | None:
        """The cached position of a game, if any (without counting as a use)."""
        return self._states.get(game_id)

    def remember(self, game_id: int, state: State) -> None:
        """Cache the position after a change made here (a move); a finished game's
        position is not kept."""
        self._unsettled.discard(game_id)
        if state.is_over:
            self.forget(game_id)
            return
        self._states[game_id] = state
        self._states.move_to_end(game_id)
        while len(self._states) > self.cache_size:
            oldest, _oldest = self._states.popitem(last=False)
            self._unsettled.discard(oldest)

    def forget(self, game_id: int) -> None:
        """Drop the cached position (after a change made elsewhere, or an ending)."""
        self._states.pop(game_id, None)
        self._replays.pop(game_id, None)
        self._unsettled.discard(game_id)

    async def _replay(self, row: GameRow) -> State:
        me = asyncio.current_task()
        try:
            async with self.db.reading() as conn:
                moves = [move.move for move in await queries.moves_of_game(conn, row.id)]
            state = await asyncio.to_thread(_replayed, row, moves)
            if self._replays.get(row.id) is me and row.is_active:  # not forgotten meanwhile
                self.remember(row.id, state)
            return state
        finally:
            if self._replays.get(row.id) is me:
                del self._replays[row.id]

    async def warm_up(self) -> int:
        """Replay the active games of this process's shards into the cache, as many as it
        holds (at start-up, so that the first command or autocomplete after a restart
        answers quickly; another process's servers are never asked here). Returns
        how many were replayed. Callers share the one warm-up."""
        if self._warming is None:
            self._warming = asyncio.ensure_future(self._warm_up())
        return await self._warming

    async def _warm_up(self) -> int:
        done, last = 0, 0
        while len(self._states) < self.cache_size:  # a page at a time: nothing waits long
            rows, moves = await self.db.read(
                queries.active_games_with_moves(
                    after_id=last,
                    limit=min(WARM_UP_PAGE, self.cache_size),
                    shard_count=self.shards.count,
                    shard_ids=self.shards.ids,
                )
            )
            if not rows:
                break
            states = await asyncio.to_thread(_replay_all, rows, moves)
            for row, state in zip(rows, states, strict=True):
                # A game moved, replayed or forgotten meanwhile has a newer position.
                if (
                    state is not None
                    and row.id not in self._states
                    and row.id not in self._replays
                    and len(self._states) < self.cache_size
                ):
                    self._states[row.id] = state
                    self._unsettled.add(row.id)
            done, last = done + len(rows), rows[-1].id
        return done

    # -- changing a game -----------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: hold it for any change to a game (moves, takebacks, endings)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock


def outcome_of(row: GameRow) -> Outcome | None:
    """How the game ended when it ended off the board (resignation, time, abort), which
    its final position cannot say; None while it is in progress, or when the rules
    ended it (the position says so itself)."""
    termination = row.end_reason
    if row.is_active or termination is None or termination.by_rules:
        return None
    winner = None if termination is Termination.ABORT else row.winner_seat
    return Outcome(winner, termination, row.result or termination.description.capitalize())


def game_rules(name: str) -> rules.Game:
    """The rules of the game called ``name``, or a refusal saying which games there are."""
    try:
        return rules.get_game(name)
    except rules.UnknownGame as error:
        why = texts.echoing(said(error), name)
        raise UserError(texts.sentence(f"{why[0].upper()}{why[1:]}")) from None


def settled(state: State) -> State:
    """``state``, whether it is over (and so who is to move) worked out. For some games
    that means listing the legal moves (Sliglube: up to tens of milliseconds): done here,
    in a worker thread, the answer cached on the state, never on the event loop."""
    state.is_over  # noqa: B018 - computed and cached
    return state


def _replayed(row: GameRow, moves: list[str]) -> State:
    return settled(game_rules(row.game).replay(moves, **row.options))


def _replay_all(rows: list[GameRow], moves: Mapping[int, list[str]]) -> list[State | None]:
    """The positions of ``rows`` (None for a game that cannot be replayed: logged)."""
    states: list[State | None] = []
    for row in rows:
        try:
            states.append(game_rules(row.game).replay(moves.get(row.id, []), **row.options))
        except Exception:
            log.exception("game %d cannot be replayed", row.id)
            states.append(None)
    return states


def parse_game_id(ref: str | int) -> int:
    """``12``, ``#12``, or a label such as ``Lifeline #12 vs Bo`` typed out in full.
    ASCII digits only: ``٣`` looks like no game number to most members, so it is none."""
    text = str(ref).strip()
    found = re.fullmatch(r"#?([0-9]{1,18})", text) or re.search(r"#([0-9]{1,18})(?![0-9])", text)
    if found is None:
        raise UserError(_("{text} is not a game number (like 12 or #12).", text=repr(shown(text))))
    return int(found[1])


#: Member text, made safe to quote in a message (:func:`bot.texts.echo`).
shown = texts.echo
