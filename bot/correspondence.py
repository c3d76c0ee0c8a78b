"""Correspondence courtesies: takebacks, rematches, aborts, the challenge's clock
options, and the list of games waiting for a member.

* A player may ask to take back their last move until the opponent has moved
  (and not twice for the same move once declined). The opponent answers with
  buttons; accepted, the move's row is deleted and the board re-posted, and
  the requester's turn starts afresh. A challenge can forbid takebacks.
* After a finished game, a Rematch button offers the same game, same options,
  to the same opponent, with the seats swapped.
* Before both players have moved, either may abort: the game ends as aborted
  and counts for nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot import texts, timecontrol
from bot.model import GameUpdate, Member, Post, Posted, Poster, UserError
from bot.storage import ChallengeRow, GameRow, queries
from bot.storage import correspondence as store
from bot.storage.correspondence import TakebackRow
from rules import State

if TYPE_CHECKING:
    from bot.clocks import Clocks
    from bot.service import Service

log = logging.getLogger(__name__)

#: The time controls offered by the challenge's autocomplete (any other is typed out).
TIME_CONTROL_CHOICES = (
    ("3 days per move (default)", "3d"), ("1 day per move", "1d"), ("2 days per move", "2d"),
    ("5 days per move", "5d"), ("7 days per move", "7d"), ("14 days per move", "14d"),
    ("bank: 3 days, +1 day per move, up to 7 days", "3d+1d/7d"),
    ("bank: 7 days, +2 days per move, up to 14 days", "7d+2d/14d"),
    ("no time limit", "none"))


def challenge_settings(time_control: str | None = None, takebacks: bool | None = None,
                       vacation: bool | None = None) -> dict[str, Any]:
    """The challenge's clock options, checked: refused with a UserError if unreadable."""
    try:
        control = timecontrol.parse_time_control(time_control or "3d")
    except timecontrol.TimeControlError as error:
        raise UserError(f"That time control can't be used: {error}. Examples: 3d (days per "
                        "move: 1, 2, 3, 5, 7 or 14), 3d+1d/7d (a bank), none.") from None
    return {"time_control": timecontrol.format_time_control(control),
            "takebacks": takebacks is not False, "vacation": vacation is not False}


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting for a member's move."""

    game: GameRow
    state: State
    deadline: datetime | None


class Correspondence:
    def __init__(self, service: Service, clocks: Clocks) -> None:
        self.service = service
        self.db = service.db
        self.clocks = clocks
        service.listeners.append(self)

    # -- takebacks --------------------------------------------------------------------

    async def request_takeback(self, *, guild_id: int, game_id: int,
                               member: Member) -> TakebackRow:
        """Ask the opponent to take back ``member``'s last move; posts the question."""
        async with self.service.lock(game_id):
            row = await self._playing(guild_id, game_id, member)
            if row.settings.get("takebacks") is False:
                raise UserError(f"Takebacks are off in {texts.label(row)} (chosen at the "
                                "challenge).")
            opponent = row.player_names[1 - row.seat_of(member.id)]
            async with self.db.reading() as conn:
                moves = await queries.moves_of_game(conn, game_id)
            if not any(move.member_id == member.id for move in moves):
                raise UserError(f"You haven't moved yet in {texts.label(row)}: there is "
                                "nothing of yours to take back.")
            last = moves[-1]
            if last.member_id != member.id:
                raise UserError(f"{opponent} has moved since your last move: a move can only "
                                "be taken back until your opponent has moved.")
            async with self.db.transaction() as tx:
                earlier = await store.takebacks_of_ply(tx, game_id, last.ply)
                if any(t.status == "pending" for t in earlier):
                    raise UserError(f"You have already asked: waiting for {opponent}'s answer.")
                if any(t.status == "declined" for t in earlier):
                    raise UserError(f"{opponent} has already declined taking back this move.")
                takeback_id = await store.insert_takeback(tx, game_id, last.ply, member.id,
                                                          self.service.now())
                takeback = await store.get_takeback(tx, takeback_id)
            other = row.player_ids[1 - row.seat_of(member.id)]
            await self.service.poster.post(row, Post(
                content=f"**{texts.label(row)}**: {member.name} asks to take back "
                        f"`{last.move}` (move {last.ply}). {texts.mention(other)}, do you "
                        "accept?",
                mentions=(other,), actions=(f"takeback:{takeback_id}",)))
            return takeback

    async def answer_takeback(self, *, guild_id: int, takeback_id: int, member: Member,
                              accept: bool) -> TakebackRow:
        """The opponent's answer. Accepted: the move is removed and the board re-posted."""
        async with self.db.reading() as conn:
            takeback = await store.get_takeback(conn, takeback_id)
        if takeback is None:
            raise UserError("That takeback request doesn't exist (any more).")
        row = await self.service.get_game(guild_id, takeback.game_id)
        if member.id == takeback.requester_id:
            raise UserError("This is your own request: it's up to your opponent to answer.")
        if row.seat_of(member.id) is None:
            raise UserError(f"Only the players of {texts.label(row)} can answer this request.")
        async with self.service.lock(row.id):
            async with self.db.reading() as conn:
                takeback = await store.get_takeback(conn, takeback_id)
                moves = await queries.moves_of_game(conn, row.id)
                row = await queries.get_game(conn, row.id)
            if takeback.status != "pending":
                raise UserError(f"This request was already {takeback.status}.")
            if not row.is_active:
                raise UserError(f"{texts.label(row)} is over: {row.result}")
            last = moves[-1] if moves else None
            if last is None or last.ply != takeback.ply or \
                    last.member_id != takeback.requester_id:
                raise UserError("The game has moved on since this request: it no longer applies.")
            async with self.db.transaction() as tx:
                await store.answer_takeback(tx, takeback_id, "accepted" if accept else "declined",
                                            self.service.now())
                if accept and not await store.delete_last_move(tx, row.id, takeback.ply):
                    raise UserError("The game has moved on since this request.")
            if accept:
                requester = row.player_names[row.seat_of(takeback.requester_id)]
                await self._taken_back(row, last.move, takeback.ply, member, requester)
        async with self.db.reading() as conn:
            return await store.get_takeback(conn, takeback_id)

    async def _taken_back(self, row: GameRow, move: str, ply: int, by: Member,
                          requester: str) -> None:
        """Under the game's lock, with the move deleted: re-post, restart the turn."""
        self.service.forget(row.id)
        state = await self.service.state_of(row)
        await self.clocks.restart_turn(row, state)
        content = (f"**{texts.label(row)}** · {by.name} accepted: {requester} took back "
                   f"`{move}` (move {ply}).\n{texts.turn_line(row, state)}")
        to_move = () if state.to_move is None else (row.player_ids[state.to_move],)
        posted = await self.service.post_board(row, state, content, mentions=to_move)
        async with self.db.reading() as conn:
            fresh = await queries.get_game(conn, row.id)
        update = GameUpdate(fresh, state, None, posted)
        for listener in self.service.listeners:
            handler = getattr(listener, "move_taken_back", None)
            if handler is not None:
                try:
                    await handler(update)
                except Exception:
                    log.exception("listener %r failed on a takeback in game %d", listener, row.id)

    # -- abort and rematch ----------------------------------------------------------------

    async def abort(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        """End a game before both players have moved; it counts for nothing."""
        row = await self._playing(guild_id, game_id, member)
        async with self.db.reading() as conn:
            moves = await queries.moves_of_game(conn, game_id)
        if len({move.seat for move in moves}) >= 2:
            raise UserError(f"Both players have moved in {texts.label(row)}: it's too late to "
                            "abort (you can resign).")
        return await self.service.end_game(
            game_id=game_id, winner_seat=None, reason="abort", expected_ply=len(moves),
            result=f"Aborted by {member.name} before both players had moved")

    async def rematch(self, *, guild_id: int, game_id: int, member: Member) -> ChallengeRow:
        """A challenge to the same opponent: same game, options and clock; seats swapped."""
        row = await self.service.get_game(guild_id, game_id)
        seat = row.seat_of(member.id)
        if seat is None:
            raise UserError(f"Only the players of {texts.label(row)} can ask for a rematch.")
        if row.is_active:
            raise UserError(f"{texts.label(row)} is still in progress.")
        opponent = Member(row.player_ids[1 - seat], row.player_names[1 - seat])
        async with self.db.reading() as conn:
            theirs = await queries.find_pending_challenge(
                conn, guild_id=guild_id, challenger_id=opponent.id, opponent_id=member.id,
                game=row.game)
        if theirs is not None:
            raise UserError(f"{opponent.name} has already challenged you to a rematch "
                            f"(challenge #{theirs.id}): accept it there.")
        settings = {k: v for k, v in row.settings.items() if k not in ("first", "rated")}
        return await self.service.create_challenge(
            guild_id=guild_id, channel_id=row.channel_id, challenger=member, game=row.game,
            options=row.options, opponent=opponent,
            first="opponent" if seat == 0 else "challenger",
            rated=row.settings.get("rated", True) is not False, settings=settings)

    async def game_ended(self, update: GameUpdate) -> None:
        """Offer a rematch under a finished game (not an aborted one)."""
        row = update.game
        if row.status != "finished":
            return
        await self.service.poster.post(row, Post(
            content=f"**{texts.label(row)}**: a rematch, with the seats swapped?",
            actions=("rematch",)))

    # -- looking ---------------------------------------------------------------------------

    async def my_turn(self, *, guild_id: int, member_id: int) -> list[Waiting]:
        """The games waiting for the member's move, the most urgent first."""
        listing = await self.service.list_games(guild_id=guild_id, member_id=member_id)
        waiting = [Waiting(row, state, await self.clocks.deadline_of(row))
                   for row, state in listing.active
                   if state.to_move is not None and row.player_ids[state.to_move] == member_id]
        return sorted(waiting, key=lambda w: (w.deadline is None,
                                              w.deadline.timestamp() if w.deadline else 0,
                                              w.game.id))

    async def _playing(self, guild_id: int, game_id: int, member: Member) -> GameRow:
        row = await self.service.get_game(guild_id, game_id)
        if not row.is_active:
            raise UserError(f"{texts.label(row)} is over: {row.result}")
        if row.seat_of(member.id) is None:
            raise UserError(f"You are not playing in {texts.label(row)}.")
        return row


class DeadlinePoster:
    """The bot's :class:`~bot.model.Poster`, adding to each board post of a game in
    progress when the player to move runs out of time (nothing without a limit).

    The clock of a move's new turn is stored with the move, before the board is
    posted; only the opening board comes before its clock (the clocks arm it when
    told the game started), so for it the clock is started here, a moment early."""

    def __init__(self, poster: Poster, clocks: Clocks | None = None) -> None:
        self.poster = poster
        self.clocks = clocks  # set once the clocks exist (they need the service first)

    async def open_thread(self, game: GameRow, name: str) -> int | None:
        return await self.poster.open_thread(game, name)

    async def post(self, game: GameRow, post: Post) -> Posted:
        if post.picture is not None and game.is_active and self.clocks is not None:
            try:
                line = await self.deadline_line(game, post.ply)
            except Exception:  # the board matters more than its deadline line
                log.exception("no deadline for the board of game %d", game.id)
                line = ""
            if line:
                post = replace(post, content=f"{post.content}\n{line}")
        return await self.poster.post(game, post)

    async def deadline_line(self, game: GameRow, ply: int) -> str:
        """The line for the board at ``ply``; "" without a time limit."""
        assert self.clocks is not None
        async with self.clocks.db.reading() as conn:
            clock = await store.get_clock(conn, game.id)
        if clock is None and ply == 0:  # the opening board: its turn starts now
            await self.clocks.restart_turn(game, await self.clocks.service.state_of(game))
            async with self.clocks.db.reading() as conn:
                clock = await store.get_clock(conn, game.id)
        if clock is None or clock.turn_seat is None or clock.turn_ply != ply:
            return ""  # not this board's turn (the clock is behind): better nothing than wrong
        deadline = await self.clocks.deadline_of(game)
        return texts.deadline_line(game.player_names[clock.turn_seat], deadline) \
            if deadline else ""
