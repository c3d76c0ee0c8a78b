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
from bot.storage import Database, GameRow, queries
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
                                     result=result, at_ply=expected_ply)

    async def finish(self, row: GameRow, state: State, *, winner_seat: int | None,
                     reason: str, result: str, at_ply: int | None = None) -> GameUpdate:
        """:meth:`end_game` for a caller holding the game's lock. ``at_ply``: only if
        the stored game has that many moves (another process may have moved it)."""
        status = "aborted" if reason == "abort" else "finished"
        now = self.now()
        (changed,) = await self.db.write([queries.finish_game_statement(
            row.id, result=result, winner_seat=winner_seat, end_reason=reason, finished_at=now,
            status=status, at_ply=at_ply)])
        if not changed:
            self.games.forget(row.id)
            raise UserError(f"{texts.label(row)} is already over." if at_ply is None else
                            f"{texts.label(row)} has moved on or ended in the meantime.")
        self.games.forget(row.id)
        row = replace(row, status=status, result=result, winner_seat=winner_seat,
                      end_reason=reason, finished_at=now)
        content = f"**{texts.label(row)}**\n" + texts.end_line(row, result, winner_seat)
        row, posted = await self.boards.post(row, state, content, mentions=row.player_ids)
        update = GameUpdate(row, state, None, posted)
        await self.events.tell("game_ended", update)
        return update
