"""Pending challenges expire: an open or direct challenge nobody answers within
``CHALLENGE_EXPIRY_DAYS`` is closed as expired, its message says so and its buttons
are disabled (0 days: challenges never expire).

Every challenge lives equally long, so the oldest pending one is always the next to
expire: one task sleeps until then, expires whatever is due, and sleeps again. A new
challenge wakes it (it may be the only one). What expired while the bot was down is
expired when the task starts; a click that beats the task to it is refused and
expires the challenge on the spot. Where several processes share the database, the
one that claims a challenge's expiry (:mod:`bot.claims`) does it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.challenges.service import ChallengeMessages
from bot.claims import Claims
from bot.i18n import _
from bot.model import UserError
from bot.storage import ChallengeRow, Database, apply, queries
from bot.timers import DueTimer, Sleep

log = logging.getLogger(__name__)

Expired = Callable[[ChallengeRow], Awaitable[None]]


class ChallengeExpiry:
    def __init__(
        self,
        db: Database,
        *,
        now: Callable[[], datetime],
        days: int,
        on_expired: Expired | None = None,
        sleep: Sleep = asyncio.sleep,
        messages: ChallengeMessages | None = None,
        claims: Claims | None = None,
        reread: timedelta | None = None,
    ) -> None:
        self.db = db
        self.claims = claims or Claims(db, now=now)
        self.now = now
        self.lifetime = timedelta(days=days) if days > 0 else None
        #: Told that a challenge expired, after its message is shown so.
        self.on_expired = on_expired
        #: The challenge messages: each expired one shown so, through the outbox.
        self.messages = messages
        self.timer = DueTimer(
            "challenge expiry",
            handle_due=self.expire_due,
            next_due=self._next_due,
            now=now,
            sleep=sleep,
            # Other processes add and answer challenges: read again at least this often.
            reread=reread,
        )

    def expires_at(self, challenge: ChallengeRow) -> datetime | None:
        return None if self.lifetime is None else challenge.created_at + self.lifetime

    def is_due(self, challenge: ChallengeRow) -> bool:
        expires = self.expires_at(challenge)
        return challenge.status == "pending" and expires is not None and expires <= self.now()

    # -- the task -------------------------------------------------------------------

    async def start(self) -> None:
        if self.lifetime is not None:
            self.timer.start()

    async def stop(self) -> None:
        await self.timer.stop()

    def poke(self) -> None:
        """A challenge was created: it may be the next to expire."""
        self.timer.poke()

    async def _next_due(self) -> datetime | None:
        async with self.db.reading() as conn:
            oldest = await queries.oldest_pending_challenge(conn)
        return self.expires_at(oldest) if oldest is not None else None

    async def expire_due(self) -> list[ChallengeRow]:
        """Expire every pending challenge whose time is up; returns them."""
        if self.lifetime is None:
            return []
        async with self.db.reading() as conn:
            due = await queries.pending_challenges_created_by(conn, self.now() - self.lifetime)
        expired = []
        for challenge in due:
            expires = self.expires_at(challenge)
            assert expires is not None
            async with self.claims.holding("expiry", challenge.id, expires) as mine:
                closed = await self._expire(challenge) if mine else None
            if closed is not None:
                expired.append(closed)
        return expired

    # -- on a click ---------------------------------------------------------------------

    async def refuse_if_expired(self, challenge: ChallengeRow) -> None:
        """Refuse an answer to a challenge whose time is up (expiring it now, if the
        task has not yet)."""
        if self.is_due(challenge):
            await self._expire(challenge)
            raise UserError(expired_refusal(challenge))

    async def _expire(self, challenge: ChallengeRow) -> ChallengeRow | None:
        async with self.db.transaction() as tx:
            if not await queries.close_challenge(
                tx, challenge.id, status="expired", closed_at=self.now()
            ):
                return None  # answered meanwhile
            shown = None if self.messages is None else self.messages.shown(challenge, "")
            if shown is not None:  # its message says so, even after a crash
                await apply(tx, [shown.statement])
            closed = await queries.get_challenge(tx, challenge.id)
        assert closed is not None  # challenges are never deleted
        log.info("challenge %d expired", challenge.id)
        if shown is not None and self.messages is not None:
            await self.messages.send(shown)
        if self.on_expired is not None:
            try:
                await self.on_expired(closed)
            except Exception:
                log.exception("could not show that challenge %d expired", challenge.id)
        return closed


def expired_refusal(challenge: ChallengeRow) -> str:
    return _(
        "This challenge has expired: nobody answered it in time. Start a new one with /challenge."
    )
