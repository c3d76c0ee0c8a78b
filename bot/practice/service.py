"""Practice games against the bot itself, without Discord.

A practice game is an ordinary game (a challenge accepted at once, a thread, the
same moves, clocks, endings) whose settings say ``practice: <level>`` and
``untimed_player: <the bot's id>`` (its clock never runs out, see
:mod:`bot.correspondence.deadlines`), and never ``rated``. Whenever it becomes the
bot's turn (the game started, a move, a takeback, or the bot started with such a
game waiting), one task per game asks the :class:`ai.pool.AIPool` for a move, off
the event loop, and plays it through :class:`~bot.core.moves.Moves` like a
member's, with the same guards: the move names the ply it answers, so a second
trigger for the same turn is refused, and ``UNIQUE (game_id, ply)`` backs that up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import ai
import rules
from bot import texts
from bot.core.boards import Boards, replayed, to_ping
from bot.core.game_settings import game_options
from bot.core.games import Games, game_rules
from bot.core.moves import Moves
from bot.core.players import UNTIMED, GameOpener, LevelRecord, TurnClock
from bot.events import Events
from bot.i18n import _
from bot.model import GameUpdate, Member, UserError
from bot.shards import EVERY_SHARD, Shards
from bot.storage import Database, GameRow, apply, queries

log = logging.getLogger(__name__)

#: The AI's move in a position: (game, options, moves so far, level) -> move text.
MoveChooser = Callable[[str, Mapping[str, Any], Sequence[str], ai.Level], Awaitable[str]]
#: Shows that the bot is thinking where the game lives (Discord's typing indicator).
Typing = Callable[[GameRow], AbstractAsyncContextManager[Any]]


def _not_typing(row: GameRow) -> AbstractAsyncContextManager[Any]:
    return contextlib.nullcontext()


def practice_level(row: GameRow) -> str | None:
    """The level of a practice game; None for a game between members."""
    level = row.settings.get("practice")
    return str(level) if level else None


def levels(test_playouts: int | None = None) -> dict[str, ai.Level]:
    """The levels offered; with ``test_playouts``, each one that many playouts, no more
    (tests keep the search tiny and repeatable)."""
    if not test_playouts:
        return dict(ai.LEVELS)
    return {name: level.uncapped(test_playouts) for name, level in ai.LEVELS.items()}


class Practice:
    def __init__(
        self,
        db: Database,
        games: Games,
        boards: Boards,
        events: Events,
        challenges: GameOpener,
        moves: Moves,
        clocks: TurnClock,
        *,
        think: MoveChooser,
        levels: Mapping[str, ai.Level],
        typing: Typing = _not_typing,
        shards: Shards = EVERY_SHARD,
    ) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.challenges = challenges
        self.moves = moves
        self.clocks = clocks
        self.think = think
        self.levels = dict(levels)
        self.typing = typing
        #: Whose games' owed moves :meth:`resume` makes: those of this process's servers.
        self.shards = shards
        #: The bot's own member (set by the client once logged in; None: no practice).
        self.me: Member | None = None
        self._thinking: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        #: The (server, member) pairs whose practice game is being set up: a second
        #: /practice meanwhile (a double submission) is refused, not half-started.
        self._starting: set[tuple[int, int]] = set()

    @property
    def level_names(self) -> list[str]:
        return list(self.levels)

    def plays_in(self, row: GameRow) -> bool:
        return practice_level(row) is not None

    # -- starting ------------------------------------------------------------------------

    def check_level(self, level: str | None) -> str:
        chosen = (level or "easy").lower()
        if chosen not in self.levels:
            raise UserError(
                _(
                    "There is no level {level}: pick one of {levels}.",
                    level=repr(level),
                    levels=", ".join(_(name) for name in self.levels),
                )
            )
        return chosen

    def check(self, game: str, options: Mapping[str, Any] | None, level: str | None) -> str:
        """Refuse now what :meth:`start_game` would refuse (before a public answer);
        returns the level."""
        self._me()
        game_options(game_rules(game), options)
        return self.check_level(level)

    async def start_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        member: Member,
        game: str,
        options: Mapping[str, Any] | None = None,
        level: str | None = None,
        first: str = "challenger",
        settings: Mapping[str, Any] | None = None,
    ) -> GameUpdate:
        """A practice game of ``member`` against the bot: accepted at once, never rated.
        One at a time per member: another asked for while one is set up is refused (a
        member's commands in a server reach one process: its shard's)."""
        me = self._me()
        chosen = self.check_level(level)
        key = (guild_id, member.id)
        if key in self._starting:
            raise UserError(
                _(
                    "I'm already setting up a practice game for you: it appears in a moment. "
                    "Ask again once it is there if you'd like another."
                )
            )
        self._starting.add(key)
        try:
            return await self._start_game(
                guild_id, channel_id, member, me, game, options, chosen, first, settings
            )
        finally:
            self._starting.discard(key)

    async def _start_game(
        self,
        guild_id: int,
        channel_id: int,
        member: Member,
        me: Member,
        game: str,
        options: Mapping[str, Any] | None,
        chosen: str,
        first: str,
        settings: Mapping[str, Any] | None,
    ) -> GameUpdate:
        # The bot is a member like any other here: it accepts its own challenge.
        opponent = Member(me.id, me.name)
        made = await self.challenges.create(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger=member,
            game=game,
            options=options,
            opponent=opponent,
            first=first,
            rated=False,
            settings={**(settings or {}), "practice": chosen, UNTIMED: me.id},
            post=False,  # accepted at once: no message to answer
        )
        return await self.challenges.accept(
            guild_id=guild_id, challenge_id=made.id, member=opponent
        )

    async def rematch(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        """The same practice game again (game, options, level, clock), seats swapped."""
        row = await self.games.get_game(guild_id, game_id)
        seat = row.seat_of(member.id)
        if seat is None or practice_level(row) is None:
            raise UserError(
                _("Only the player of {game} can ask for a rematch.", game=texts.label(row))
            )
        if row.is_active:
            raise UserError(_("{game} is still in progress.", game=texts.label(row)))
        kept = {
            k: v
            for k, v in row.settings.items()
            if k not in ("first", "rated", "practice", UNTIMED)
        }
        return await self.start_game(
            guild_id=guild_id,
            channel_id=row.channel_id,
            member=member,
            game=row.game,
            options=row.options,
            level=practice_level(row),
            first="opponent" if seat == 0 else "challenger",
            settings=kept,
        )

    # -- the listener: the bot's turn ----------------------------------------------------

    async def game_started(self, update: GameUpdate) -> None:
        self._maybe_think(update)

    async def move_played(self, update: GameUpdate) -> None:
        self._maybe_think(update)

    async def move_taken_back(self, update: GameUpdate) -> None:
        self._maybe_think(update)

    async def resume(self, servers: Shards | None = None) -> int:
        """Give their move to the practice games where it is the bot's turn (after a
        restart), in this process's servers (another process serves the others'; were
        two to think for one game, the move guard would store one move); ``servers``:
        in those of a process that died thinking (:mod:`bot.processes`). Returns how
        many were started."""
        if self.me is None:
            return 0
        shards = servers or self.shards
        async with self.db.reading() as conn:
            rows = [
                row
                for row in await queries.active_games(conn)
                if practice_level(row) and shards.holds(row.guild_id)
            ]
        started = 0
        for row in rows:
            try:
                state = await self.games.state_of(row)
            except Exception:
                log.exception("practice game %d cannot be replayed", row.id)
                continue
            if self._bot_to_move(row, state.to_move):
                self.poke(row.id)
                started += 1
        return started

    def _maybe_think(self, update: GameUpdate) -> None:
        if (
            practice_level(update.game)
            and update.game.is_active
            and self._bot_to_move(update.game, update.state.to_move)
        ):
            self.poke(update.game.id)

    def _bot_to_move(self, row: GameRow, seat: int | None) -> bool:
        return self.me is not None and seat is not None and row.player_ids[seat] == self.me.id

    def poke(self, game_id: int) -> None:
        """Think for game ``game_id`` if it is the bot's turn; one task per game."""
        task = self._thinking.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)  # it looks again when done
            return
        self._thinking[game_id] = asyncio.create_task(
            self._play(game_id), name=f"the bot's move in game {game_id}"
        )

    async def stop(self) -> None:
        for task in self._thinking.values():
            task.cancel()
        await asyncio.gather(*self._thinking.values(), return_exceptions=True)
        self._thinking.clear()

    async def _play(self, game_id: int) -> None:
        while True:
            self._again.discard(game_id)
            try:
                await self._move(game_id)
            except asyncio.CancelledError:
                raise
            except UserError as error:  # a move for this turn came first, the game ended…
                log.info("game %d: the bot's move was refused (%s)", game_id, error.message)
            except Exception:
                log.exception("game %d: the bot could not move", game_id)
            if game_id not in self._again:
                return

    async def _move(self, game_id: int) -> None:
        me = self._me()
        async with self.db.reading() as conn:
            row = await queries.get_game(conn, game_id)
        if row is None or not row.is_active or not practice_level(row):
            return
        state = await self.games.state_of(row)
        if not self._bot_to_move(row, state.to_move):
            return
        level = self.levels[practice_level(row) or "easy"]
        async with self.typing(row):
            text = await self.think(row.game, row.options, list(state.history), level)
        await self.moves.play_move(
            guild_id=row.guild_id,
            game_id=game_id,
            member=Member(me.id, me.name),
            text=text,
            expected_ply=state.ply,
        )

    # -- takebacks: granted at once ------------------------------------------------------

    async def take_back(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        """Take back ``member``'s last move, and the bot's answer to it if it has
        answered: the member is to move again where they were."""
        me = self._me()
        async with self.games.lock(game_id):
            row = await self.games.get_game(guild_id, game_id)
            if not row.is_active:
                raise UserError(texts.over_text(row))
            if row.seat_of(member.id) is None or member.id == me.id:
                raise UserError(_("You are not playing in {game}.", game=texts.label(row)))
            async with self.db.reading() as conn:
                moves = await queries.moves_of_game(conn, game_id)
            mine = [move.ply for move in moves if move.member_id == member.id]
            if not mine:
                raise UserError(
                    _(
                        "You haven't moved yet in {game}: there is nothing of yours to take back.",
                        game=texts.label(row),
                    )
                )
            gone = [move for move in moves if move.ply >= mine[-1]]
            state = await asyncio.to_thread(
                replayed, row, [move.move for move in moves if move.ply < mine[-1]]
            )
            taken = ", ".join(f"`{move.move}`" for move in gone)

            # Its board stored with it (an outbox item): posted even after a crash.
            def took_back() -> str:
                said = _(
                    "**{game}** · {name} took back {moves}.",
                    game=texts.label(row),
                    name=member.name,
                    moves=taken,
                )
                return f"{said}\n{texts.turn_line(row, state)}"

            # the thread's post (in the DMs: each reader's)
            said_back, said_backs = texts.for_readers(row, took_back)
            board = self.boards.board(
                row,
                state,
                said_back,
                mentions=to_ping(row, state),
                then=("move_taken_back",),
                text_by_locale=said_backs,
            )
            async with self.db.transaction() as tx:
                for move in reversed(gone):
                    if not await queries.delete_last_move(tx, game_id, move.ply):
                        raise UserError(_("The game has moved on: try again."))
                await apply(tx, [board.statement])
            self.games.forget(game_id)
            self.games.remember(game_id, state)
            await self.clocks.restart_turn(row, state)
            (update,) = await self.boards.send(board)
        return update or GameUpdate(row, state, None, None)

    # -- looking -------------------------------------------------------------------------

    async def record(self, *, guild_id: int, member_id: int) -> list[LevelRecord]:
        """``member_id``'s finished practice games, by level (levels played only)."""
        async with self.db.reading() as conn:
            rows = await queries.games_of_member(
                conn, guild_id, member_id, status="finished", limit=100_000
            )
        tally: dict[str, Counter[str]] = {}
        for row in rows:
            level = practice_level(row)
            seat = row.seat_of(member_id)
            if level is None or seat is None or row.end_reason == rules.Termination.ABORT:
                continue
            result = (
                "draws"
                if row.winner_seat is None
                else "wins"
                if row.winner_seat == seat
                else "losses"
            )
            tally.setdefault(level, Counter())[result] += 1
        order = list(self.levels)
        return [
            LevelRecord(level, c["wins"], c["losses"], c["draws"])
            for level, c in sorted(
                tally.items(),
                key=lambda item: order.index(item[0]) if item[0] in order else len(order),
            )
        ]

    async def own_record(self, *, guild_id: int) -> list[LevelRecord]:
        """The bot's own finished practice games against every member here, by level
        (its wins, its losses); none before it is logged in."""
        if self.me is None:
            return []
        return await self.record(guild_id=guild_id, member_id=self.me.id)

    def _me(self) -> Member:
        if self.me is None:
            raise UserError(_("I'm not ready to play yet: try again in a moment."))
        return self.me
