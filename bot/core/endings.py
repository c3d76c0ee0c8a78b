"""The end of a game, however it comes: by the rules (a move ends it: :mod:`bot.core.moves`
stages :meth:`Endings.final` with the move) or off the board (resignation, time, abort:
an :class:`~rules.Outcome` the caller makes, :meth:`Endings.end_game`). The ending is
stored once (a game that already ended is refused), together with its one post (an
outbox item, :mod:`bot.outbox`): the final board (which says how the game ended), the
result, the summary and rating changes, the replay and the record as files, and the
Rematch button; then the listeners are told ``game_ended``. The post is composed when
it is delivered, so a crash in between loses none of it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from bot import texts
from bot.core.boards import Boards, Facts
from bot.core.games import Games
from bot.events import Event, Events
from bot.i18n import _, speaking
from bot.model import Attachment, Finale, GameUpdate, Post, Posted, UserError, members_of
from bot.outbox import Staged
from bot.storage import Database, GameRow, OutboxRow, RatingChangeRow, apply, queries
from rules import Outcome, State, Termination

log = logging.getLogger(__name__)


class Rater(Protocol):
    """Who rates a finished game, for its last post (the ratings)."""

    async def rate_game(self, row: GameRow, *, moves: int) -> RatingChangeRow | None:
        """Rate ``row`` (``moves`` long); the change, or None when it does not count or
        was rated already."""
        ...

    async def rating_change(self, game_id: int) -> RatingChangeRow | None:
        """The change the game made, if it was rated."""
        ...

    def change_line(self, row: GameRow, change: RatingChangeRow) -> str:
        """The change in words."""
        ...


class Endings:
    def __init__(
        self,
        db: Database,
        games: Games,
        boards: Boards,
        events: Events,
        *,
        now: Callable[[], datetime],
        finale: Finale | None = None,
    ) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.now = now
        #: What the final post says and carries besides the board (see bot.model.Finale).
        self.finale = finale
        boards.outbox.handle("final", self._deliver_final)

    async def end_game(
        self,
        *,
        game_id: int,
        outcome: Callable[[GameRow, State], Outcome],
        expected_ply: int | None = None,
    ) -> GameUpdate:
        """End an active game off the board (timeout, abort…) with the ``outcome`` made
        from its row and position: store it, post the final board. ``expected_ply``
        refuses if a move was played since the caller looked."""
        async with self.games.lock(game_id):
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
            if row is None or not row.is_active:
                raise UserError(_("That game is not in progress."))
            state = await self.games.state_of(row)
            if expected_ply is not None and state.ply != expected_ply:
                raise UserError(_("{game} has moved on in the meantime.", game=texts.label(row)))
            return await self.finish(row, state, outcome(row, state), at_ply=expected_ply)

    async def finish(
        self, row: GameRow, state: State, outcome: Outcome, *, at_ply: int | None = None
    ) -> GameUpdate:
        """:meth:`end_game` for a caller holding the game's lock. ``at_ply``: only if
        the stored game has that many moves (another process may have moved it)."""
        status = "aborted" if outcome.termination is Termination.ABORT else "finished"
        now = self.now()
        ended = replace(
            row,
            status=status,
            result=outcome.text,
            winner_seat=outcome.winner,
            end_reason=outcome.termination,
            finished_at=now,
        )
        final = self.final(ended, state, f"**{texts.label(ended)}**", then=("game_ended",))
        async with self.db.transaction() as tx:
            (changed,) = await apply(
                tx,
                [
                    queries.finish_game_statement(
                        row.id,
                        result=outcome.text,
                        winner_seat=outcome.winner,
                        end_reason=outcome.termination,
                        finished_at=now,
                        status=status,
                        at_ply=at_ply,
                    )
                ],
            )
            if not changed:
                self.games.forget(row.id)
                raise UserError(
                    _("{game} is already over.", game=texts.label(row))
                    if at_ply is None
                    else _("{game} has moved on or ended in the meantime.", game=texts.label(row))
                )
            await apply(tx, [final.statement])  # its post, even if the bot dies now
        self.games.forget(row.id)
        (update,) = await self.boards.send(final)
        return update or GameUpdate(ended, state, None, None)

    def final(
        self,
        row: GameRow,
        state: State,
        head: str,
        *,
        move: str | None = None,
        move_ply: int | None = None,
        then: Sequence[Event] = (),
        text_by_locale: Mapping[str, str] | None = None,
    ) -> Staged:
        """The one post of a game's end (``row`` as stored over), to write with the
        ending: ``head`` (the last move, or the game's name), the result, the final words
        of the finale, the board with the replay and the record attached, the Rematch
        button (not after an abort), and the players mentioned (not the bot). The buttons of the
        game's earlier posts go. Composed when delivered (:meth:`_deliver_final`).
        ``text_by_locale``: a game of the DMs' ``head`` in each reader's language (by
        default composed here: the game's name)."""
        if text_by_locale is None:
            head, text_by_locale = texts.for_readers(row, lambda: head)
        return self.boards.board(
            row,
            state,
            head,
            mentions=members_of(row),
            move=move,
            move_ply=move_ply,
            then=then,
            kind="final",
            text_by_locale=text_by_locale,
        )

    async def _deliver_final(
        self, pending: OutboxRow, worked_out: Facts | None
    ) -> GameUpdate | Posted | None:
        row = await self.boards.game_of(pending)
        if row is None:
            return None
        state = await self.boards.state_of(pending, row, worked_out)
        assert state is not None
        post = None
        if "posted" not in pending.result:
            words: list[str] = []
            files: tuple[Attachment, ...] = ()
            if self.finale is not None:
                try:
                    words, files = await self.finale.final_words(row, state)
                except Exception:  # the board and the result matter more
                    log.exception("no final words for game %d", row.id)
            staged = pending.payload["post"]
            by_locale: dict[str, str] = {}
            for language, head in staged.get("by_locale", {}).items():
                with speaking(language):  # a game of the DMs: each reader's words
                    by_locale[language] = texts.final_post(
                        row, head, await self._words_in(row, state, words), state
                    )
            post = Post(
                content=texts.final_post(row, staged["content"], words, state),
                text_by_locale=by_locale,
                mentions=members_of(row),
                ply=state.ply,
                filename=pending.payload["post"]["filename"],
                actions=("rematch",) if row.status == "finished" else (),
                attachments=files,
            )
        return await self.boards.deliver(pending, row, state, post)

    async def _words_in(self, row: GameRow, state: State, words: list[str]) -> list[str]:
        """The final words again in the language spoken now (``words``: as they were
        said for everyone, kept when the finale fails)."""
        if self.finale is None:
            return words
        try:
            found, _files = await self.finale.final_words(row, state, files=False)
        except Exception:
            log.exception("no final words for game %d", row.id)
            return words
        return found
