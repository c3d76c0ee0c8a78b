"""Moves and resignations.

A move is checked against the rules (and the move guards: the clock refuses a move
out of time), stored in one transaction with whatever the guards store with it and
with its board (an outbox item: posted even if the bot dies right after the commit),
then its board posted and the listeners told. One lock per game (:meth:`Games.lock`)
serialises moves, resignations and their posts; the ``UNIQUE (game_id, ply)``
constraint backs it up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

import rules
from bot import texts
from bot.core.boards import Boards, Decisions, decisions_of, to_ping
from bot.core.endings import Endings
from bot.core.games import Games, settled, shown
from bot.events import Events
from bot.i18n import _, current_locale, said, speaking
from bot.model import GameUpdate, Member, UserError, not_saved
from bot.storage import Conflict, Database, GameRow, Query, Statement, WriteFailed, queries
from rules import Outcome, State

log = logging.getLogger(__name__)

#: What a move guard may return: the statements to store with the move, from the
#: position after it.
MoveWriter = Callable[[State], list[Statement]]
#: What the last move of a position did besides placing, in words ("" if nothing).
Describer = Callable[[State], str]


class MoveGuard(Protocol):
    def facts(self, game_id: int) -> Query[Any]:
        """The named query of what :meth:`check` needs, read in the same trip to the
        database as the game's row."""

    def check(
        self, row: GameRow, state: State, member: Member, facts: Any, *, conditional: bool
    ) -> MoveWriter | None:
        """Refuse the move with a UserError, or allow it, possibly returning the writer
        of more statements for the move's own transaction. ``conditional``: the move is
        a reply played from the member's conditional moves (decided in advance)."""


class Moves:
    def __init__(
        self,
        db: Database,
        games: Games,
        boards: Boards,
        events: Events,
        endings: Endings,
        *,
        now: Callable[[], datetime],
        guards: Sequence[MoveGuard] = (),
        describe: Describer | None = None,
    ) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.endings = endings
        self.now = now
        #: Asked under the game's lock before a move is checked and stored (the clock
        #: refuses moves out of time, and stores its next turn with the move).
        self.guards = tuple(guards)
        #: The words of the move post for what the move did ("removed 19 white stones").
        self.describe = describe

    async def check_turn(
        self, *, guild_id: int, game_id: int, member: Member, expected_ply: int | None = None
    ) -> tuple[GameRow, State]:
        """Refuse, as :meth:`play_move` would, unless it is ``member``'s turn (before
        opening a form for a move, say)."""
        row = await self.games.get_game(guild_id, game_id)
        state = await self.games.playable(row, member)
        _check_turn(row, state, member, expected_ply)
        return row, state

    async def check_player(
        self, *, guild_id: int, game_id: int, member: Member
    ) -> tuple[GameRow, State]:
        """Refuse, as :meth:`resign` would, unless ``member`` plays this active game."""
        row = await self.games.get_game(guild_id, game_id)
        return row, await self.games.playable(row, member, to_resign=True)

    async def preview(
        self, *, guild_id: int, game_id: int, member: Member, text: str
    ) -> tuple[GameRow, State, State]:
        """The position ``text`` would lead to, refused as :meth:`play_move` would refuse
        it, and nothing stored (a move to confirm): the game, its position, and after."""
        row, state = await self.check_turn(guild_id=guild_id, game_id=game_id, member=member)
        try:
            after = await asyncio.to_thread(state.play, text)
        except rules.IllegalMove as error:
            raise UserError(
                _("`{move}` can't be played: {why}.", move=shown(text), why=said(error))
            ) from None
        return row, state, after

    async def play_move(
        self,
        *,
        guild_id: int,
        game_id: int,
        member: Member,
        text: str,
        expected_ply: int | None = None,
        conditional: bool = False,
    ) -> GameUpdate:
        """Play ``text`` for ``member``. ``expected_ply``: refuse if the game has moved
        on since (a button of an older board). ``conditional``: played on the member's
        behalf from their conditional moves (stored so, and its post says so)."""
        async with self.games.lock(game_id):
            row, *facts = await self.db.read_many(
                queries.game_by_id(game_id), *(guard.facts(game_id) for guard in self.guards)
            )
            if row is None or row.guild_id != guild_id:
                raise UserError(_("There is no game #{number} in this server.", number=game_id))
            state = await self.games.playable(row, member)
            seat = _check_turn(row, state, member, expected_ply)
            writers = [
                guard.check(row, state, member, fact, conditional=conditional)
                for guard, fact in zip(self.guards, facts, strict=True)
            ]
            try:
                with texts.in_thread(row):  # what the move did, in its post's words
                    after, decisions, did = await asyncio.to_thread(
                        _play, state, text, self.describe
                    )
            except rules.IllegalMove as error:
                why = texts.echoing(said(error), text)
                raise UserError(
                    _("`{move}` can't be played: {why}.", move=shown(text), why=why)
                ) from None
            # a game of the DMs: what it did in each of its readers' words too
            dids = {
                language: await asyncio.to_thread(_described_in, language, after, self.describe)
                for language in texts.readers(row)
            }
            move = after.history[-1]
            now = self.now()
            statements = [
                queries.insert_move_statement(
                    game_id=game_id,
                    ply=after.ply,
                    move=move,
                    seat=seat,
                    member_id=member.id,
                    played_at=now,
                    conditional=conditional,
                )
            ]
            outcome = after.outcome
            if outcome is not None:
                row = replace(
                    row,
                    status="finished",
                    result=outcome.text,
                    winner_seat=outcome.winner,
                    end_reason=outcome.termination,
                    finished_at=now,
                )
                statements.append(
                    queries.finish_game_statement(
                        game_id,
                        result=outcome.text,
                        winner_seat=outcome.winner,
                        end_reason=outcome.termination,
                        finished_at=now,
                    )
                )
            for writer in writers:
                if writer is not None:
                    statements += writer(after)

            # Its post in the same transaction: posted even if the bot dies right after
            # the commit (at the end, the game's one final post, composed when sent).
            def move_line() -> str:
                line = texts.move_line(row, after, seat, move, dids.get(current_locale(), did))
                if conditional:
                    line = _("{line} (conditional move).", line=line.removesuffix("."))
                return line

            def board_text() -> str:
                return "\n".join(filter(None, [move_line(), texts.turn_line(row, after)]))

            with texts.in_thread(row):  # the post is for everyone in the thread
                if after.is_over:
                    head, heads = texts.for_readers(row, move_line)
                    board = self.endings.final(
                        row,
                        after,
                        head,
                        move=move,
                        move_ply=after.ply,
                        then=("move_played", "game_ended"),
                        text_by_locale=heads,
                    )
                else:
                    content, contents = texts.for_readers(row, board_text)
                    board = self.boards.board(
                        row,
                        after,
                        content,
                        mentions=to_ping(row, after),
                        move=move,
                        move_ply=after.ply,
                        then=("move_played",),
                        decisions=decisions,
                        text_by_locale=contents,
                    )
            try:
                # the move, what goes with it and its post, or nothing (a move stored
                # elsewhere since the position was read: the insert changes no row)
                await self.db.write([*statements, board.statement], required=(0,))
            except Conflict:
                self.games.forget(game_id)
                raise UserError(
                    _("Another move for this turn was saved just before yours.")
                ) from None
            except WriteFailed as failure:
                raise UserError(not_saved(_("Your move `{move}`", move=move), failure)) from None
            self.games.remember(game_id, after)
            (update,) = await self.boards.send(board)
            return update or GameUpdate(row, after, move, None)

    async def resign(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        async with self.games.lock(game_id):
            row = await self.games.get_game(guild_id, game_id)
            state = await self.games.playable(row, member, to_resign=True)
            return await self.endings.finish(
                row, state, resignation(row, state, row.player_seat(member.id))
            )


def _play(state: State, text: str, describe: Describer | None) -> tuple[State, Decisions, str]:
    """The move played, what the board post after it offers as buttons, and what the
    move did in words."""
    after = settled(state.play(text))
    return after, decisions_of(after), _described(after, describe)


def _described(after: State, describe: Describer | None) -> str:
    """What the last move of ``after`` did in words ("" when not known)."""
    if describe is None:
        return ""
    try:
        return describe(after)
    except Exception:  # words are a nicety: the move stands without them
        log.exception("no words for the move %r", after.history[-1])
        return ""


def _described_in(language: str, after: State, describe: Describer | None) -> str:
    """:func:`_described` in ``language`` (a reader's of a game of the DMs)."""
    with speaking(language):
        return _described(after, describe)


def _check_turn(row: GameRow, state: State, member: Member, expected_ply: int | None) -> int:
    """The seat to move, refused unless it is ``member``'s."""
    if expected_ply is not None and state.ply != expected_ply:
        raise UserError(_("That button is out of date: the game has moved on since."))
    seat = state.to_move
    if seat is None:  # over (Games.playable refuses it first)
        raise UserError(texts.over_text(row, state))
    if row.player_ids[seat] != member.id:
        waiting = row.player_names[seat]
        raise UserError(
            _(
                "It's not your turn in {game}: waiting for {name}.",
                game=texts.label(row),
                name=waiting,
            )
        )
    return seat


def resignation(row: GameRow, state: State, loser: int) -> Outcome:
    """``loser`` resigned: "Yellow wins: Cyan resigned", or with the players' names while
    the colours are undecided."""
    outcome = rules.outcome.resigned(state, loser)
    if state.color_of(0) and state.color_of(1):
        return outcome
    return replace(
        outcome, text=f"{row.player_names[1 - loser]} wins: {row.player_names[loser]} resigned"
    )
