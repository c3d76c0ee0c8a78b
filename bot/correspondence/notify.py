"""Telling a member it is their turn: in the game's thread (the default), by
direct message, or in a daily digest of the games waiting for them.

Board posts mention the player to move; for a member who chose DMs or the
digest, that mention does not notify (the boards' mention filter drops
them), and a DM goes out instead (DM members only). A DM that cannot be
delivered (closed DMs, no shared server) falls back to a mention in the thread.
Reminders of a deadline and the end of a game reach DM and digest members by
DM too: a digest member must not lose on time unwarned.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from bot import texts
from bot.claims import Claims
from bot.core.members import NOTIFY_CHOICES
from bot.core.plans import PlannedTurns
from bot.i18n import _, said, speaking
from bot.i18n.languages import guild_language, member_language
from bot.model import GameUpdate, Post, Poster, UserError
from bot.storage import Database, GameRow, queries

log = logging.getLogger(__name__)

DIGEST_EVERY = timedelta(days=1)


class Messenger(Protocol):
    async def dm(self, member_id: int, text: str) -> bool:
        """Send a direct message; False if it cannot be delivered."""


class Notifier:
    """A listener of the games' events: DMs for the members who asked for them, digests,
    reminders; and the boards' mention filter (:meth:`filter_mentions`)."""

    def __init__(
        self,
        db: Database,
        messenger: Messenger,
        poster: Poster,
        *,
        now: Callable[[], datetime],
        planned: PlannedTurns | None = None,
    ) -> None:
        self.db = db
        self.messenger = messenger
        self.poster = poster
        self.now = now
        #: Who is not told of a turn their conditional moves answer at once.
        self.planned = planned
        self._preferences: dict[int, str] = {}

    async def preference(self, member_id: int) -> str:
        """How the member wants to hear of their turn. Every move asks (twice): the
        answers are kept, and :meth:`set_preference`, the only writer, keeps them true."""
        how = self._preferences.get(member_id)
        if how is None:
            async with self.db.reading() as conn:
                how = self._preferences[member_id] = await queries.get_notify(conn, member_id)
        return how

    async def set_preference(self, member_id: int, how: str) -> str:
        if how not in NOTIFY_CHOICES:
            raise UserError(_("Choose one of: {choices}.", choices=", ".join(NOTIFY_CHOICES)))
        due = self.now() + DIGEST_EVERY if how == "digest" else None
        self._preferences.pop(member_id, None)
        async with self.db.transaction() as tx:
            await queries.set_notify(tx, member_id, how, due)
        self._preferences[member_id] = how
        return how

    async def filter_mentions(self, row: GameRow, mentions: tuple[int, ...]) -> tuple[int, ...]:
        if row.in_dms:  # each board is in its player's own DMs: it is the notice
            return mentions
        return tuple([m for m in mentions if await self.preference(m) == "thread"])

    # -- the listener ------------------------------------------------------------

    async def game_started(self, update: GameUpdate) -> None:
        await self._your_turn(update)

    async def move_played(self, update: GameUpdate) -> None:
        if not update.state.is_over:
            await self._your_turn(update)

    async def game_ended(self, update: GameUpdate) -> None:
        row = update.game
        if row.in_dms:
            return  # its final post went to both players' DMs
        for member_id in row.player_ids:
            if await self.preference(member_id) != "thread":
                with speaking(await member_language(member_id)):  # a DM: their language
                    text = _(
                        "**{game}** is over: {result}. {url}",
                        game=texts.label(row),
                        result=texts.result_text(row, update.state),
                        url=self._link(row),
                    )
                await self.tell(row, member_id, text)

    async def _your_turn(self, update: GameUpdate) -> None:
        row, state = update.game, update.state
        if state.to_move is None:
            return
        member_id = row.player_ids[state.to_move]
        if row.in_dms or await self.preference(member_id) != "dm":
            return  # the board post's mention does it; digest members wait for the digest
        if self.planned is not None and member_id in await self.planned.answered(row, state):
            return  # their conditional reply follows at once
        opponent = row.player_names[1 - state.to_move]
        with speaking(await member_language(member_id)):  # a DM: their language
            game, url = texts.label(row), self._link(row)
            text = (
                _(
                    "Your turn in **{game}** against {name}: {prompt}. {url}",
                    game=game,
                    name=opponent,
                    prompt=said(state.prompt),
                    url=url,
                )
                if state.prompt
                else _(
                    "Your turn in **{game}** against {name}. {url}",
                    game=game,
                    name=opponent,
                    url=url,
                )
            )
        await self.tell(row, member_id, text)

    # -- reminders and digests ----------------------------------------------------------

    async def remind(self, row: GameRow, seat: int, deadline: datetime) -> None:
        member_id = row.player_ids[seat]
        when = texts.relative(deadline)
        # a game of the DMs has no thread: the reminder is a DM, in the member's language
        thread = not row.in_dms and await self.preference(member_id) == "thread"
        locale = guild_language(row.guild_id) if thread else await member_language(member_id)
        with speaking(locale):
            text = _(
                "Reminder: your move in **{game}** against {name}. Your time runs out {when}.",
                game=texts.label(row),
                name=row.player_names[1 - seat],
                when=when,
            )
        if thread:
            await self.in_thread(row, member_id, text)
        else:
            await self.tell(row, member_id, f"{text} {self._link(row)}")

    async def send_digests(self, now: datetime, claims: Claims | None = None) -> int:
        """Send every daily digest due by ``now`` (each one ``claims`` gives this process,
        if given); returns how many were sent."""
        async with self.db.reading() as conn:
            due = await queries.digests_due(conn, now)
        sent = 0
        for member_id, due_at in due:
            if claims is None:
                sent += await self._send_digest(member_id, due_at, now)
                continue
            async with claims.holding("digest", member_id, due_at) as mine:
                if mine:
                    sent += await self._send_digest(member_id, due_at, now)
        return sent

    async def _send_digest(self, member_id: int, due_at: datetime, now: datetime) -> int:
        async with self.db.reading() as conn:
            if await queries.get_digest_due(conn, member_id) != due_at:
                return 0  # sent meanwhile, or no longer wanted
        waiting = await self._waiting(member_id)
        if waiting:
            with speaking(await member_language(member_id)):  # a DM: their language
                lines = [_("Games waiting for your move ({count}):", count=len(waiting))]
                lines += [
                    _(
                        "- **{game}** against {name}: {url}",
                        game=texts.label(row),
                        name=row.opponent_name(member_id),
                        url=self._link(row),
                    )
                    for row in waiting
                ]
            if not await self.messenger.dm(member_id, "\n".join(lines)):
                for row in waiting:
                    # the game's thread, or (a game of the DMs) the member's own DM
                    own = await member_language(member_id) if row.in_dms else None
                    with speaking(own) if own else texts.in_thread(row):
                        text = _("your move in **{game}** is waiting.", game=texts.label(row))
                    await self.in_thread(row, member_id, text)
        following = due_at + DIGEST_EVERY
        while following <= now:
            following += DIGEST_EVERY
        async with self.db.transaction() as tx:
            await queries.set_digest_due(tx, member_id, following, was=due_at)
        return 1

    async def _waiting(self, member_id: int) -> list[GameRow]:
        waiting = []
        async with self.db.reading() as conn:
            for clock in await queries.clocks_of_member(conn, member_id):
                if clock.turn_seat is None:
                    continue
                row = await queries.get_game(conn, clock.game_id)
                if row is not None and row.player_ids[clock.turn_seat] == member_id:
                    waiting.append(row)
        return waiting

    # -- delivery -----------------------------------------------------------------------

    async def tell(self, row: GameRow, member_id: int, text: str) -> None:
        """A DM, or a mention in the game's thread when the DM cannot be delivered."""
        if not await self.messenger.dm(member_id, text):
            await self.in_thread(row, member_id, text)

    async def in_thread(self, row: GameRow, member_id: int, text: str) -> None:
        # English starts its sentence lower case after the mention; other languages keep it
        first = text[0].lower() if text[:1].isupper() and text[1:2].islower() else text[:1]
        content = f"{texts.mention(member_id)}, {first}{text[1:]}"
        try:
            await self.poster.post(row, Post(content=content, mentions=(member_id,)))
        except Exception:
            log.exception("could not mention %d in game %d", member_id, row.id)

    @staticmethod
    def _link(row: GameRow) -> str:
        return texts.jump_url(row.guild_id, row.where_id, row.last_message_id)
