"""Seeks, without Discord: open challenges to anyone from any server (one pool of
players), each posted in the lobby channel of every server that set one.

A seek is stored with one outbox item per lobby (its card, with an Accept button, in
the lane ``seek:<id>``). Accepting claims it in one conditional UPDATE (of two members
accepting at once, exactly one wins; the other is told who did), then starts the game
as a challenge from the seeker to the accepter, accepted at once (the core's
:class:`~bot.core.players.GameOpener`, as tournaments do), and shows its cards as
taken. A crash between the claim and the game is taken up at start-up
(:meth:`Seeks.resume`). Where the game starts (:meth:`Seeks.place`): the lobby channel
of a server both players share with the bot (the one where it was accepted first, then
the seek's own server, then the others), else the channel the seek was made in if
both are members there; else in both players' DMs with the bot (a game of
:data:`bot.places.DMS`, as a challenge made in a DM makes). Unanswered seeks expire (a
claimed timer, as challenges do).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot import places
from bot.claims import Claims
from bot.core.boards import SEND_WAIT
from bot.core.game_settings import game_options
from bot.core.games import game_rules
from bot.core.players import GameOpener
from bot.i18n import _
from bot.model import Member, UserError
from bot.outbox import Outbox, Staged, item
from bot.seeks import texts
from bot.storage import Database, GameRow, SeekRow, apply, queries
from bot.timers import DueTimer, Sleep

log = logging.getLogger(__name__)

#: How long a seek stays open when challenges never expire (CHALLENGE_EXPIRY_DAYS=0).
DEFAULT_DAYS = 7
#: Seeks listed at most by /seek list.
LISTED = 20


class Membership(Protocol):
    async def __call__(self, guild_id: int, member_id: int) -> bool:
        """Whether ``member_id`` is a member of the server ``guild_id``, where the bot
        is too (False for a server without the bot)."""
        ...


def seek_lane(seek_id: int) -> str:
    return f"seek:{seek_id}"


@dataclass(frozen=True, slots=True)
class Place:
    """Where an accepted seek's game starts."""

    guild_id: int
    channel_id: int


class Seeks:
    def __init__(
        self,
        db: Database,
        opener: GameOpener,
        outbox: Outbox,
        *,
        now: Callable[[], datetime],
        days: int = DEFAULT_DAYS,
        claims: Claims | None = None,
        sleep: Sleep = asyncio.sleep,
        reread: timedelta | None = None,
        in_dms: Callable[[], Any] | None = None,
    ) -> None:
        self.db = db
        #: Where a challenge of a game in DMs lives, as the opener takes it (its
        #: ``where``); None: no games in DMs (accepting without a shared server is
        #: refused).
        self.in_dms = in_dms
        self.opener = opener
        self.outbox = outbox
        self.now = now
        self.lifetime = timedelta(days=days if days > 0 else DEFAULT_DAYS)
        self.claims = claims or Claims(db, now=now)
        self.timer = DueTimer(
            "seek expiry",
            handle_due=self.expire_due,
            next_due=self._next_due,
            now=now,
            sleep=sleep,
            reread=reread,
        )

    # -- lobbies ----------------------------------------------------------------------

    async def set_lobby(self, guild_id: int, channel_id: int | None, *, by: Member) -> None:
        """Set (None: clear) the server's lobby channel; open seeks appear there as new
        ones are made."""
        async with self.db.transaction() as tx:
            await queries.set_lobby(tx, guild_id, channel_id, by=by.id, at=self.now())

    # -- seeking ----------------------------------------------------------------------

    async def create(
        self,
        *,
        seeker: Member,
        game: str,
        options: Mapping[str, Any] | None = None,
        settings: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> tuple[SeekRow, list[Staged]]:
        """A new open seek and its cards (staged with it, being delivered); refused if
        the seeker already has one open for that game. ``settings``: the clock, rated,
        who plays first, already checked."""
        if seeker.bot:
            raise UserError(_(texts.BOTS))
        rule_set = game_rules(game)
        resolved = game_options(rule_set, options)
        now = self.now()
        async with self.db.transaction() as tx:
            existing = await queries.open_seek_of(tx, seeker.id, rule_set.name)
            if existing is not None:
                raise UserError(texts.already_open(existing))
            seek_id = await queries.insert_seek(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                seeker_id=seeker.id,
                seeker_name=seeker.name,
                game=rule_set.name,
                options=resolved,
                settings=dict(settings or {}),
                created_at=now,
                expires_at=now + self.lifetime,
            )
            staged = []
            for lobby_guild, lobby_channel in await queries.all_lobbies(tx):
                staged.append(
                    item(
                        seek_lane(seek_id),
                        "seek_post",
                        {"seek_id": seek_id, "guild_id": lobby_guild, "channel_id": lobby_channel},
                        now=now,
                    )
                )
                await apply(
                    tx, [queries.add_seek_post_statement(seek_id, lobby_guild, lobby_channel)]
                )
            await apply(tx, [one.statement for one in staged])
            seek = await queries.get_seek(tx, seek_id)
        assert seek is not None  # inserted just now
        self.timer.poke()  # it may be the next to expire
        await self.outbox.deliver(*staged, timeout=SEND_WAIT)
        return seek, staged

    async def open(self, limit: int = LISTED) -> list[SeekRow]:
        async with self.db.reading() as conn:
            return await queries.open_seeks(conn, limit=limit)

    async def get(self, seek_id: int) -> SeekRow:
        async with self.db.reading() as conn:
            seek = await queries.get_seek(conn, seek_id)
        if seek is None:
            raise UserError(_(texts.NO_SEEK))
        return seek

    async def cancel(self, *, member: Member, seek_id: int | None = None) -> list[SeekRow]:
        """Withdraw the member's open seek ``seek_id`` (None: all of theirs)."""
        async with self.db.reading() as conn:
            mine = await queries.open_seeks_of(conn, member.id)
        chosen = [s for s in mine if seek_id is None or s.id == seek_id]
        if not chosen:
            if seek_id is not None:
                seek = await self.get(seek_id)
                if seek.seeker_id != member.id:
                    raise UserError(texts.not_yours(seek))
                raise UserError(texts.closed_refusal(seek))
            raise UserError(_(texts.NOTHING_TO_CANCEL))
        closed = [s for s in chosen if await self._close(s, "cancelled")]
        if not closed:
            raise UserError(texts.closed_refusal(await self.get(chosen[0].id)))
        return closed

    # -- accepting --------------------------------------------------------------------

    async def accept(
        self,
        *,
        seek_id: int,
        member: Member,
        shares: Membership,
        here: int | None = None,
    ) -> GameRow:
        """``member`` takes the seek and its game starts (see :meth:`place`); ``here``:
        the server it was accepted in (its lobby first)."""
        seek = await self.get(seek_id)
        if seek.status != "open":
            raise UserError(texts.closed_refusal(seek))
        if seek.expires_at <= self.now():
            await self._close(seek, "expired")
            raise UserError(texts.closed_refusal(await self.get(seek_id)))
        if member.id == seek.seeker_id:
            raise UserError(_(texts.OWN_SEEK))
        if member.bot:
            raise UserError(_(texts.BOTS))
        place = await self.place(seek, member.id, shares, here=here)
        if place is None:
            raise UserError(texts.no_shared_server(seek))
        async with self.db.transaction() as tx:
            if not await queries.take_seek(
                tx,
                seek.id,
                accepter_id=member.id,
                accepter_name=member.name,
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                at=self.now(),
            ):
                current = await queries.get_seek(tx, seek.id)
                assert current is not None  # seeks are never deleted
                raise UserError(texts.beaten_to_it(current))
        return await self._start(await self.get(seek.id))

    async def place(
        self, seek: SeekRow, member_id: int, shares: Membership, *, here: int | None = None
    ) -> Place | None:
        """Where the game of ``seek`` accepted by ``member_id`` starts: the lobby of a
        server both share with the bot (``here`` first, then the seek's server, then
        the others by id), else the channel the seek was made in if both are members
        of its server, else their DMs (:data:`bot.places.DMS`); None: nowhere."""
        async with self.db.reading() as conn:
            lobbies = dict(await queries.all_lobbies(conn))
        order = sorted(lobbies, key=lambda g: (g != here, g != seek.guild_id, g))
        for guild_id in order:
            if await shares(guild_id, seek.seeker_id) and await shares(guild_id, member_id):
                return Place(guild_id, lobbies[guild_id])
        if (
            seek.guild_id is not None
            and seek.channel_id is not None
            and await shares(seek.guild_id, seek.seeker_id)
            and await shares(seek.guild_id, member_id)
        ):
            return Place(seek.guild_id, seek.channel_id)
        if self.in_dms is not None:
            return Place(places.DMS, 0)  # no server in common: both players' DMs
        return None

    async def _start(self, seek: SeekRow) -> GameRow:
        """The game of an accepted seek: a challenge from the seeker to the accepter in
        its place, accepted at once; then its cards say it was taken. Safe to repeat
        (after a crash): it goes on from what was done."""
        assert seek.accepter_id is not None and seek.accepter_name is not None
        assert seek.game_guild_id is not None and seek.game_channel_id is not None
        accepter = Member(seek.accepter_id, seek.accepter_name)
        challenge_id = seek.challenge_id
        if challenge_id is None:
            settings = {k: v for k, v in seek.settings.items() if k not in ("first", "rated")}
            dms = seek.game_guild_id == places.DMS and self.in_dms is not None
            try:
                challenge = await self.opener.create(
                    guild_id=seek.game_guild_id,
                    channel_id=seek.game_channel_id,
                    challenger=Member(seek.seeker_id, seek.seeker_name),
                    game=seek.game,
                    options=seek.options,
                    opponent=accepter,
                    first=seek.settings.get("first", "challenger"),
                    rated=seek.settings.get("rated", True) is not False,
                    settings=settings,
                    post=False,
                    **({"where": self.in_dms()} if dms and self.in_dms else {}),
                )
            except UserError:
                await self._reopen(seek)  # no game: the seek is open again
                raise
            challenge_id = challenge.id
            async with self.db.transaction() as tx:
                await queries.set_seek_challenge(tx, seek.id, challenge_id)
        try:
            update = await self.opener.accept(
                guild_id=seek.game_guild_id, challenge_id=challenge_id, member=accepter
            )
            game = update.game
        except UserError:
            async with self.db.reading() as conn:
                challenge_row = await queries.get_challenge(conn, challenge_id)
                found = (
                    None
                    if challenge_row is None or challenge_row.game_id is None
                    else await queries.get_game(conn, challenge_row.game_id)
                )
            if found is None:
                raise
            game = found  # accepted before a crash
        game_id = game.id
        async with self.db.transaction() as tx:
            await queries.set_seek_game(tx, seek.id, game_id)
            shown = self._shown(seek.id)
            await apply(tx, [shown.statement])
        await self.outbox.deliver(shown, timeout=SEND_WAIT)
        return game

    async def _reopen(self, seek: SeekRow) -> None:
        async with self.db.transaction() as tx:
            await tx.change(*queries.reopen_seek_statement(seek.id))

    async def resume(self) -> int:
        """At start-up: the games of seeks accepted just before a crash, started."""
        async with self.db.reading() as conn:
            waiting = await queries.seeks_without_game(conn)
        for seek in waiting:
            try:
                await self._start(seek)
            except Exception:
                log.exception("seek %d: its game could not be started", seek.id)
        return len(waiting)

    # -- closing ----------------------------------------------------------------------

    def _shown(self, seek_id: int) -> Staged:
        return item(seek_lane(seek_id), "seek_shown", {"seek_id": seek_id}, now=self.now())

    async def _close(self, seek: SeekRow, status: str) -> bool:
        async with self.db.transaction() as tx:
            if not await queries.close_seek(tx, seek.id, status=status, at=self.now()):
                return False
            shown = self._shown(seek.id)
            await apply(tx, [shown.statement])
        log.info("seek %d %s", seek.id, status)
        await self.outbox.deliver(shown, timeout=SEND_WAIT)
        return True

    # -- expiry -----------------------------------------------------------------------

    async def start(self) -> None:
        await self.resume()
        self.timer.start()

    async def stop(self) -> None:
        await self.timer.stop()

    async def _next_due(self) -> datetime | None:
        async with self.db.reading() as conn:
            return await queries.next_seek_expiry(conn)

    async def expire_due(self) -> list[SeekRow]:
        """Expire every open seek whose time is up (the one process claiming each)."""
        async with self.db.reading() as conn:
            due = await queries.seeks_due(conn, self.now())
        expired = []
        for seek in due:
            async with self.claims.holding("seek_expiry", seek.id, seek.expires_at) as mine:
                if mine and await self._close(seek, "expired"):
                    expired.append(seek)
        return expired
