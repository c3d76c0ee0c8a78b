"""Moves and resignations.

A move is checked against the rules (and the move guards: the clock refuses a move
out of time), stored in one transaction with whatever the guards store with it, its
board posted, and the listeners told. One lock per game (:meth:`Games.lock`)
serialises moves, resignations and their posts; the ``UNIQUE (game_id, ply)``
constraint backs it up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

import rules
from bot import texts
from bot.events import Events
from bot.model import GameUpdate, Member, UserError, not_saved
from bot.play.boards import Boards, Decisions, decisions_of, to_ping
from bot.play.endings import Endings
from bot.play.games import Games, settled, shown
from bot.storage import Conflict, Database, GameRow, Query, Statement, WriteFailed, queries
from rules import State

#: What a move guard may return: the statements to store with the move, from the
#: position after it.
MoveWriter = Callable[[State], list[Statement]]


class MoveGuard(Protocol):
    def facts(self, game_id: int) -> Query[Any]:
        """The named query of what :meth:`check` needs, read in the same trip to the
        database as the game's row."""

    def check(self, row: GameRow, state: State, member: Member, facts: Any) -> MoveWriter | None:
        """Refuse the move with a UserError, or allow it, possibly returning the writer
        of more statements for the move's own transaction."""


class Moves:
    def __init__(self, db: Database, games: Games, boards: Boards, events: Events,
                 endings: Endings, *, now: Callable[[], datetime],
                 guards: Sequence[MoveGuard] = ()) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.endings = endings
        self.now = now
        #: Asked under the game's lock before a move is checked and stored (the clock
        #: refuses moves out of time, and stores its next turn with the move).
        self.guards = tuple(guards)

    async def check_turn(self, *, guild_id: int, game_id: int, member: Member,
                         expected_ply: int | None = None) -> tuple[GameRow, State]:
        """Refuse, as :meth:`play_move` would, unless it is ``member``'s turn (before
        opening a form for a move, say)."""
        row = await self.games.get_game(guild_id, game_id)
        state = await self.games.playable(row, member)
        _check_turn(row, state, member, expected_ply)
        return row, state

    async def check_player(self, *, guild_id: int, game_id: int,
                           member: Member) -> tuple[GameRow, State]:
        """Refuse, as :meth:`resign` would, unless ``member`` plays this active game."""
        row = await self.games.get_game(guild_id, game_id)
        return row, await self.games.playable(row, member, to_resign=True)

    async def play_move(self, *, guild_id: int, game_id: int, member: Member, text: str,
                        expected_ply: int | None = None) -> GameUpdate:
        """Play ``text`` for ``member``. ``expected_ply``: refuse if the game has moved
        on since (a button of an older board)."""
        async with self.games.lock(game_id):
            row, *facts = await self.db.read_many(
                queries.game_by_id(game_id), *(guard.facts(game_id) for guard in self.guards))
            if row is None or row.guild_id != guild_id:
                raise UserError(f"There is no game #{game_id} in this server.")
            state = await self.games.playable(row, member)
            _check_turn(row, state, member, expected_ply)
            writers = [guard.check(row, state, member, fact)
                       for guard, fact in zip(self.guards, facts, strict=True)]
            seat = state.to_move
            try:
                after, decisions = await asyncio.to_thread(_play, state, text)
            except rules.IllegalMove as error:
                raise UserError(f"`{shown(text)}` can't be played: "
                                f"{texts.echoing(str(error), text)}.") from None
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
            # Its board (and, at the end, the removal of stale buttons) in the same
            # transaction: posted even if the bot dies right after the commit.
            content = texts.move_post(row, after, seat, move)
            mentions = row.player_ids if after.is_over else to_ping(row, after)
            board = self.boards.board(
                row, after, content, mentions=mentions, move=move, move_ply=after.ply,
                decisions=decisions,
                then=("move_played", "game_ended") if after.is_over else ("move_played",))
            staged = [board, self.boards.clear_buttons(row)] if after.is_over else [board]
            try:
                await self.db.write([*statements, *(one.statement for one in staged)])
            except Conflict:
                self.games.forget(game_id)
                raise UserError("Another move for this turn was saved just before yours.") \
                    from None
            except WriteFailed as failure:
                raise UserError(not_saved(f"Your move `{move}`", failure)) from None
            self.games.remember(game_id, after)
            update, *_ = await self.boards.send(*staged, states={board.key: after})
            return update or GameUpdate(row, after, move, None)

    async def resign(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        async with self.games.lock(game_id):
            row = await self.games.get_game(guild_id, game_id)
            state = await self.games.playable(row, member, to_resign=True)
            winner = 1 - row.seat_of(member.id)
            return await self.endings.finish(row, state, winner_seat=winner,
                                             reason="resignation",
                                             result=_resignation(row, state, winner))


def _play(state: State, text: str) -> tuple[State, Decisions]:
    """The move played, and what the board post after it offers as buttons."""
    after = settled(state.play(text))
    return after, decisions_of(after)


def _check_turn(row: GameRow, state: State, member: Member, expected_ply: int | None) -> None:
    if expected_ply is not None and state.ply != expected_ply:
        raise UserError("That button is out of date: the game has moved on since.")
    if row.player_ids[state.to_move] != member.id:
        waiting = row.player_names[state.to_move]
        raise UserError(f"It's not your turn in {texts.label(row)}: waiting for {waiting}.")


def _resignation(row: GameRow, state: State, winner: int) -> str:
    loser = 1 - winner
    winner_color, loser_color = state.color_of(winner), state.color_of(loser)
    if winner_color and loser_color:
        return f"{winner_color.capitalize()} wins: {loser_color.capitalize()} resigned"
    return f"{row.player_names[winner]} wins: {row.player_names[loser]} resigned"
