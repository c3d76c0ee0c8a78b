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
from bot.core.competing import in_competition
from bot.core.endings import Endings
from bot.core.games import Games
from bot.correspondence.clocks import Clocks
from bot.events import Events
from bot.i18n import N_, _
from bot.model import GameUpdate, Member, Post, UserError
from bot.storage import Database, GameRow, TakebackRow, apply, queries
from rules import State

NO_SUCH_TAKEBACK = N_("That takeback request doesn't exist (any more).")


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
                    _(
                        "Takebacks are off in {game} (chosen at the challenge).",
                        game=texts.label(row),
                    )
                )
            opponent = row.opponent_name(member.id)
            async with self.db.reading() as conn:
                moves = await queries.moves_of_game(conn, game_id)
            if not any(move.member_id == member.id for move in moves):
                raise UserError(
                    _(
                        "You haven't moved yet in {game}: there is nothing of yours to take back.",
                        game=texts.label(row),
                    )
                )
            last = moves[-1]
            if last.member_id != member.id:
                raise UserError(
                    _(
                        "{name} has moved since your last move: a move can only "
                        "be taken back until your opponent has moved.",
                        name=opponent,
                    )
                )
            other = row.player_ids[1 - row.player_seat(member.id)]
            async with self.db.transaction() as tx:
                earlier = await queries.takebacks_of_ply(tx, game_id, last.ply)
                if any(t.status == "pending" for t in earlier):
                    raise UserError(
                        _("You have already asked: waiting for {name}'s answer.", name=opponent)
                    )
                if any(t.status == "declined" for t in earlier):
                    raise UserError(
                        _("{name} has already declined taking back this move.", name=opponent)
                    )
                takeback_id = await queries.insert_takeback(
                    tx, game_id, last.ply, member.id, self.now()
                )
                takeback = await queries.get_takeback(tx, takeback_id)
                assert takeback is not None  # inserted just now
                # the thread's language (in the DMs: each reader's)
                asked, askeds = texts.for_readers(
                    row,
                    lambda: _(
                        "**{game}**: {name} asks to take back `{move}` (move {number}). "
                        "{member}, do you accept?",
                        game=texts.label(row),
                        name=member.name,
                        move=last.move,
                        number=last.ply,
                        member=texts.mention(other),
                    ),
                )
                question = self.boards.note(
                    row,
                    Post(  # asked even if the bot dies now
                        content=asked,
                        mentions=(other,),
                        actions=(f"takeback:{takeback_id}",),
                        text_by_locale=askeds,
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
            raise UserError(_(NO_SUCH_TAKEBACK))
        if member.id == takeback.requester_id:
            raise UserError(_("This is your own request: it's up to your opponent to answer."))
        if row.seat_of(member.id) is None:
            raise UserError(
                _("Only the players of {game} can answer this request.", game=texts.label(row))
            )
        async with self.games.lock(row.id):
            async with self.db.reading() as conn:
                takeback = await queries.get_takeback(conn, takeback_id)
                moves = await queries.moves_of_game(conn, row.id)
                row = await queries.get_game(conn, row.id)
            assert takeback is not None and row is not None  # read above; never deleted
            if takeback.status != "pending":
                raise UserError(
                    _(
                        "This request was already {status}.",
                        status=texts.status_word(takeback.status),
                    )
                )
            if not row.is_active:
                raise UserError(texts.over_text(row))
            last = moves[-1] if moves else None
            if last is None or last.ply != takeback.ply or last.member_id != takeback.requester_id:
                raise UserError(
                    _("The game has moved on since this request: it no longer applies.")
                )
            board = None
            if accept:  # the position before the move, and its board, stored with it
                state = await asyncio.to_thread(replayed, row, [m.move for m in moves[:-1]])
                requester = row.player_names[row.player_seat(takeback.requester_id)]

                def accepted() -> str:
                    said = _(
                        "**{game}** · {name} accepted: {requester} took back `{move}` "
                        "(move {number}).",
                        game=texts.label(row),
                        name=member.name,
                        requester=requester,
                        move=last.move,
                        number=takeback.ply,
                    )
                    return f"{said}\n{texts.turn_line(row, state)}"

                # the thread's language (in the DMs: each reader's)
                said_back, said_backs = texts.for_readers(row, accepted)
                board = self.boards.board(
                    row,
                    state,
                    said_back,
                    mentions=to_ping(row, state),
                    then=("move_taken_back",),
                    text_by_locale=said_backs,
                )
            async with self.db.transaction() as tx:
                await queries.answer_takeback(
                    tx, takeback_id, "accepted" if accept else "declined", self.now()
                )
                if accept and not await queries.delete_last_move(tx, row.id, takeback.ply):
                    raise UserError(_("The game has moved on since this request."))
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
        if in_competition(row):
            raise UserError(
                _(
                    "{game} is a competition game: its result counts, so it cannot be "
                    "aborted (you can resign).",
                    game=texts.label(row),
                )
            )
        async with self.db.reading() as conn:
            moves = await queries.moves_of_game(conn, game_id)
        if len({move.seat for move in moves}) >= 2:
            raise UserError(
                _(
                    "Both players have moved in {game}: it's too late to abort (you can resign).",
                    game=texts.label(row),
                )
            )
        # stored in English (the record's words); shown in each reader's language
        text = f"Aborted by {member.name} before both players had moved"
        return await self.endings.end_game(
            game_id=game_id,
            expected_ply=len(moves),
            outcome=lambda row, state: replace(rules.outcome.aborted(state), text=text),
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
            raise UserError(_("You are not playing in {game}.", game=texts.label(row)))
        return row
