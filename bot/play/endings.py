"""Ending a game off the board: resignation, time, abort (an :class:`~rules.Outcome`
the caller makes). The ending is stored once (a game that already ended is refused),
the final board posted, and the listeners told ``game_ended``."""

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
from rules import Outcome, State, Termination


class Endings:
    def __init__(self, db: Database, games: Games, boards: Boards, events: Events, *,
                 now: Callable[[], datetime]) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.now = now

    async def end_game(self, *, game_id: int, outcome: Callable[[GameRow, State], Outcome],
                       expected_ply: int | None = None) -> GameUpdate:
        """End an active game off the board (timeout, abort…) with the ``outcome`` made
        from its row and position: store it, post the final board. ``expected_ply``
        refuses if a move was played since the caller looked."""
        async with self.games.lock(game_id):
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
            if row is None or not row.is_active:
                raise UserError("That game is not in progress.")
            state = await self.games.state_of(row)
            if expected_ply is not None and state.ply != expected_ply:
                raise UserError(f"{texts.label(row)} has moved on in the meantime.")
            return await self.finish(row, state, outcome(row, state))

    async def finish(self, row: GameRow, state: State, outcome: Outcome) -> GameUpdate:
        """:meth:`end_game` for a caller holding the game's lock."""
        status = "aborted" if outcome.termination is Termination.ABORT else "finished"
        now = self.now()
        (changed,) = await self.db.write([queries.finish_game_statement(
            row.id, result=outcome.text, winner_seat=outcome.winner,
            end_reason=outcome.termination, finished_at=now, status=status)])
        if not changed:
            raise UserError(f"{texts.label(row)} is already over.")
        self.games.forget(row.id)
        row = replace(row, status=status, result=outcome.text, winner_seat=outcome.winner,
                      end_reason=outcome.termination, finished_at=now)
        content = f"**{texts.label(row)}**\n" + texts.end_line(row, outcome.text, outcome.winner)
        row, posted = await self.boards.post(row, state, content, mentions=row.player_ids)
        update = GameUpdate(row, state, None, posted)
        await self.events.tell("game_ended", update)
        return update
