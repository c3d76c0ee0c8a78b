"""Correspondence courtesies: takebacks, aborts, the
list of games waiting for a member, and the offer of a rematch.

* A player may ask to take back their last move until the opponent has moved
  (and not twice for the same move once declined). The opponent answers with
  buttons; accepted, the move's row is deleted and the board re-posted, and
  the requester's turn starts afresh. A challenge can forbid takebacks.
* A finished game's last post has a Rematch button (see :mod:`bot.core.endings`):
  the same game, same options, to the same opponent, with the seats swapped
  (:meth:`Challenges.rematch`).
* Before both players have moved, either may abort: the game ends as aborted
  and counts for nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

import rules
from bot import texts
from bot.core.boards import Boards, replayed, to_ping
from bot.core.endings import Endings
from bot.core.games import Games
from bot.correspondence.clocks import Clocks
from bot.events import Events
from bot.model import GameUpdate, Member, Post, UserError
from bot.storage import Database, GameRow, TakebackRow, apply, queries
from rules import State

NO_SUCH_TAKEBACK = "That takeback request doesn't exist (any more)."


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting for a member's move."""

    game: GameRow
    state: State
    deadline: datetime | None


class Correspondence:
    def __init__(
        self,
        db: Database,
        games: Games,
        boards: Boards,
        events: Events,
        endings: Endings,
        clocks: Clocks,
        *,
        now: Callable[[], datetime],
    ) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.endings = endings
        self.clocks = clocks
        self.now = now

    # -- takebacks --------------------------------------------------------------------

    async def request_takeback(self, *, guild_id: int, game_id: int, member: Member) -> TakebackRow:
        """Ask the opponent to take back ``member``'s last move; posts the question."""
        async with self.games.lock(game_id):
            row = await self._playing(guild_id, game_id, member)
            if row.settings.get("takebacks") is False:
                raise UserError(
                    f"Takebacks are off in {texts.label(row)} (chosen at the challenge)."
                )
            opponent = row.opponent_name(member.id)
            async with self.db.reading() as conn:
                moves = await queries.moves_of_game(conn, game_id)
            if not any(move.member_id == member.id for move in moves):
                raise UserError(
                    f"You haven't moved yet in {texts.label(row)}: there is "
                    "nothing of yours to take back."
                )
            last = moves[-1]
            if last.member_id != member.id:
                raise UserError(
                    f"{opponent} has moved since your last move: a move can only "
                    "be taken back until your opponent has moved."
                )
            other = row.player_ids[1 - row.player_seat(member.id)]
            async with self.db.transaction() as tx:
                earlier = await queries.takebacks_of_ply(tx, game_id, last.ply)
                if any(t.status == "pending" for t in earlier):
                    raise UserError(f"You have already asked: waiting for {opponent}'s answer.")
                if any(t.status == "declined" for t in earlier):
                    raise UserError(f"{opponent} has already declined taking back this move.")
                takeback_id = await queries.insert_takeback(
                    tx, game_id, last.ply, member.id, self.now()
                )
                takeback = await queries.get_takeback(tx, takeback_id)
                assert takeback is not None  # inserted just now
                question = self.boards.note(
                    row,
                    Post(  # asked even if the bot dies now
                        content=f"**{texts.label(row)}**: {member.name} asks to take back "
                        f"`{last.move}` (move {last.ply}). {texts.mention(other)}, do you "
                        "accept?",
                        mentions=(other,),
                        actions=(f"takeback:{takeback_id}",),
                    ),
                )
                await apply(tx, [question.statement])
            await self.boards.send(question)
            return takeback

    async def answer_takeback(
        self, *, guild_id: int, takeback_id: int, member: Member, accept: bool
    ) -> TakebackRow:
        """The opponent's answer. Accepted: the move is removed and the board re-posted."""
        async with self.db.reading() as conn:
            takeback = await queries.get_takeback(conn, takeback_id)
            row = None if takeback is None else await queries.get_game(conn, takeback.game_id)
        if takeback is None or row is None or row.guild_id != guild_id:
            # Another server's request (a forged button) looks like no request at all.
            raise UserError(NO_SUCH_TAKEBACK)
        if member.id == takeback.requester_id:
            raise UserError("This is your own request: it's up to your opponent to answer.")
        if row.seat_of(member.id) is None:
            raise UserError(f"Only the players of {texts.label(row)} can answer this request.")
        async with self.games.lock(row.id):
            async with self.db.reading() as conn:
                takeback = await queries.get_takeback(conn, takeback_id)
                moves = await queries.moves_of_game(conn, row.id)
                row = await queries.get_game(conn, row.id)
            assert takeback is not None and row is not None  # read above; never deleted
            if takeback.status != "pending":
                raise UserError(f"This request was already {takeback.status}.")
            if not row.is_active:
                raise UserError(texts.over_text(row))
            last = moves[-1] if moves else None
            if last is None or last.ply != takeback.ply or last.member_id != takeback.requester_id:
                raise UserError("The game has moved on since this request: it no longer applies.")
            board = None
            if accept:  # the position before the move, and its board, stored with it
                state = await asyncio.to_thread(replayed, row, [m.move for m in moves[:-1]])
                requester = row.player_names[row.player_seat(takeback.requester_id)]
                board = self.boards.board(
                    row,
                    state,
                    f"**{texts.label(row)}** · {member.name} accepted: {requester} "
                    f"took back `{last.move}` (move {takeback.ply}).\n"
                    f"{texts.turn_line(row, state)}",
                    mentions=to_ping(row, state),
                    then=("move_taken_back",),
                )
            async with self.db.transaction() as tx:
                await queries.answer_takeback(
                    tx, takeback_id, "accepted" if accept else "declined", self.now()
                )
                if accept and not await queries.delete_last_move(tx, row.id, takeback.ply):
                    raise UserError("The game has moved on since this request.")
                if board is not None:
                    await apply(tx, [board.statement])
            if board is not None:
                self.games.forget(row.id)
                self.games.remember(row.id, state)
                await self.clocks.restart_turn(row, state)
                await self.boards.send(board)
        async with self.db.reading() as conn:
            answered = await queries.get_takeback(conn, takeback_id)
        assert answered is not None  # read above; never deleted
        return answered

    # -- abort ----------------------------------------------------------------------------

    async def abort(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        """End a game before both players have moved; it counts for nothing."""
        row = await self._playing(guild_id, game_id, member)
        async with self.db.reading() as conn:
            moves = await queries.moves_of_game(conn, game_id)
        if len({move.seat for move in moves}) >= 2:
            raise UserError(
                f"Both players have moved in {texts.label(row)}: it's too late to "
                "abort (you can resign)."
            )
        said = f"Aborted by {member.name} before both players had moved"
        return await self.endings.end_game(
            game_id=game_id,
            expected_ply=len(moves),
            outcome=lambda row, state: replace(rules.outcome.aborted(state), text=said),
        )

    # -- looking ---------------------------------------------------------------------------

    async def my_turn(self, *, guild_id: int, member_id: int) -> list[Waiting]:
        """The games waiting for the member's move, the most urgent first."""
        listing = await self.games.list_games(guild_id=guild_id, member_id=member_id)
        waiting = [
            Waiting(row, state, await self.clocks.deadline_of(row))
            for row, state in listing.active
            if state.to_move is not None and row.player_ids[state.to_move] == member_id
        ]
        return sorted(
            waiting,
            key=lambda w: (
                w.deadline is None,
                w.deadline.timestamp() if w.deadline else 0,
                w.game.id,
            ),
        )

    async def _playing(self, guild_id: int, game_id: int, member: Member) -> GameRow:
        row = await self.games.get_game(guild_id, game_id)
        if not row.is_active:
            raise UserError(texts.over_text(row))
        if row.seat_of(member.id) is None:
            raise UserError(f"You are not playing in {texts.label(row)}.")
        return row
