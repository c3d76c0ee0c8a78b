"""Ending a game outside its rules: resignation, time, abort. The ending is stored
once (a game that already ended is refused), the final board posted, and the
listeners told ``game_ended``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from bot import texts
from bot.events import Events
from bot.model import GameUpdate, UserError
from bot.play.boards import Boards
from bot.play.games import Games
from bot.storage import Database, GameRow, apply, queries
from rules import State


class Endings:
    def __init__(self, db: Database, games: Games, boards: Boards, events: Events, *,
                 now: Callable[[], datetime]) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.now = now

    async def end_game(self, *, game_id: int, winner_seat: int | None, reason: str,
                       result: str, expected_ply: int | None = None) -> GameUpdate:
        """End an active game outside the rules (timeout, abort…): store it, post the
        final board. ``expected_ply`` refuses if a move was played since the caller
        looked."""
        async with self.games.lock(game_id):
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
            if row is None or not row.is_active:
                raise UserError("That game is not in progress.")
            state = await self.games.state_of(row)
            if expected_ply is not None and state.ply != expected_ply:
                raise UserError(f"{texts.label(row)} has moved on in the meantime.")
            return await self.finish(row, state, winner_seat=winner_seat, reason=reason,
                                     result=result)

    async def finish(self, row: GameRow, state: State, *, winner_seat: int | None,
                     reason: str, result: str) -> GameUpdate:
        """:meth:`end_game` for a caller holding the game's lock."""
        status = "aborted" if reason == "abort" else "finished"
        now = self.now()
        ended = replace(row, status=status, result=result, winner_seat=winner_seat,
                        end_reason=reason, finished_at=now)
        content = f"**{texts.label(ended)}**\n" + texts.end_line(ended, result, winner_seat)
        # The final board and the removal of stale buttons, stored with the ending.
        board = self.boards.board(ended, state, content, mentions=ended.player_ids,
                                  then=("game_ended",))
        staged = [board, self.boards.clear_buttons(ended)]
        async with self.db.transaction() as tx:
            (changed,) = await apply(tx, [queries.finish_game_statement(
                row.id, result=result, winner_seat=winner_seat, end_reason=reason,
                finished_at=now, status=status)])
            if not changed:
                raise UserError(f"{texts.label(row)} is already over.")
            await apply(tx, [one.statement for one in staged])
        self.games.forget(row.id)
        update, _ = await self.boards.send(*staged, states={board.key: state})
        return update or GameUpdate(ended, state, None, None)
