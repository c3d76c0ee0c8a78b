"""Ladders, without Discord: members in places (1 the top), joining at the bottom.

A member challenges one of the (at most) :data:`REACH` places above theirs, with at
most :data:`MOST_OPEN` open ladder challenges each (made or received). The challenge is
an ordinary challenge (its message with Accept and Decline, through the challenges'
service, :class:`~bot.core.players.GameOpener`), tagged with the ladder; its game an
ordinary game. When the game ends (the listener :meth:`Ladders.game_ended`) a
challenger who won takes the defender's place, everyone from there down to the
challenger's old place going one down; otherwise nothing moves. A challenge not
answered by a game within the ladder's ``answer_days`` (declined, expired, or left
alone) counts as a loss for the defender: done by the one process that claims its
expiry (:mod:`bot.claims`, a :class:`~bot.timers.DueTimer`). Every close is one
conditional statement: a result is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.claims import Claims
from bot.core.competing import LADDER_CHALLENGE
from bot.core.game_settings import challenge_settings, game_options
from bot.core.games import game_rules
from bot.core.players import GameOpener
from bot.i18n import _, current_locale
from bot.model import GameUpdate, Member, UserError
from bot.storage import (
    Connection,
    Database,
    LadderChallengeRow,
    LadderRow,
    RungRow,
    queries,
)
from bot.timers import DueTimer, Sleep

log = logging.getLogger(__name__)

#: How many places above their own a member may challenge.
REACH = 3
#: The most open ladder challenges a member may have, made or received.
MOST_OPEN = 2
#: The days a defender may take to answer, as the organiser may set them.
ANSWER_DAYS = (1, 30)


@dataclass(frozen=True, slots=True)
class LadderView:
    """A ladder as it stands: its places, and each member's won and lost ladder games."""

    ladder: LadderRow
    rungs: list[RungRow]
    open: list[LadderChallengeRow]
    won: dict[int, int]
    lost: dict[int, int]


class Ladders:
    def __init__(
        self,
        db: Database,
        opener: GameOpener,
        *,
        now: Callable[[], datetime],
        claims: Claims,
        sleep: Sleep = asyncio.sleep,
        reread: timedelta | None = None,
    ) -> None:
        self.db = db
        self.opener = opener
        self.now = now
        self.claims = claims
        self.timer = DueTimer(
            "ladder expiries",
            handle_due=self.expire_due,
            next_due=self._next_expiry,
            now=now,
            sleep=sleep,
            reread=reread,
        )

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Member,
        name: str,
        game: str,
        options: Mapping[str, Any] | None = None,
        time_control: str | None = None,
        answer_days: int = 3,
        rated: bool = True,
    ) -> LadderRow:
        rule_set = game_rules(game)
        resolved = game_options(rule_set, options)
        settings = {**challenge_settings(time_control, takebacks=False), "rated": bool(rated)}
        name = " ".join(name.split())
        if not name:
            raise UserError(_("Give the ladder a name."))
        if not ANSWER_DAYS[0] <= answer_days <= ANSWER_DAYS[1]:
            raise UserError(
                _(
                    "A challenge waits {least} to {most} days for an answer, not {count}.",
                    least=ANSWER_DAYS[0],
                    most=ANSWER_DAYS[1],
                    count=answer_days,
                )
            )
        async with self.db.transaction() as tx:
            ladder_id = await queries.insert_ladder(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser.id,
                organiser_name=organiser.name,
                name=name[:80],
                game=rule_set.name,
                options=resolved,
                settings=settings,
                answer_days=answer_days,
                created_at=self.now(),
            )
            made = await queries.get_ladder(tx, ladder_id)
        assert made is not None
        return made

    async def get(self, guild_id: int, ladder_id: int) -> LadderRow:
        async with self.db.reading() as conn:
            found = await queries.get_ladder(conn, ladder_id)
        if found is None or found.guild_id != guild_id:
            raise UserError(_("That ladder doesn't exist."))
        return found

    async def listed(self, guild_id: int) -> list[LadderRow]:
        async with self.db.reading() as conn:
            return await queries.ladders_of_guild(conn, guild_id)

    async def join(self, *, guild_id: int, ladder_id: int, member: Member) -> int:
        """On the ladder, at the bottom: the place."""
        ladder = await self.get(guild_id, ladder_id)
        if member.bot:
            raise UserError(_("Bots can't play on ladders."))
        async with self.db.transaction() as tx:
            if not await queries.add_rung(
                tx, ladder.id, member_id=member.id, member_name=member.name, joined_at=self.now()
            ):
                raise UserError(_("You are already on {name}.", name=ladder.name))
            places = await queries.rungs(tx, ladder.id)
        return next(r.place for r in places if r.member_id == member.id)

    async def leave(self, *, guild_id: int, ladder_id: int, member: Member) -> LadderRow:
        """Off the ladder: those below move up; open challenges are called off."""
        ladder = await self.get(guild_id, ladder_id)
        pending = []
        async with self.db.transaction() as tx:
            if not await queries.remove_rung(tx, ladder.id, member.id):
                raise UserError(_("You are not on {name}.", name=ladder.name))
            for one in await queries.ladder_challenges(tx, ladder.id, open_only=True):
                if member.id in (one.challenger_id, one.defender_id):
                    await queries.close_ladder_challenge(tx, one.id, "cancelled", self.now())
                    if one.game_id is None and one.challenge_id is not None:
                        pending.append(one)
        for one in pending:
            await self._withdraw_challenge(ladder, one)
        return ladder

    # -- challenges ---------------------------------------------------------------------

    async def challenge(
        self, *, guild_id: int, ladder_id: int, member: Member, defender: Member
    ) -> LadderChallengeRow:
        """Challenge ``defender``, up to :data:`REACH` places above: a challenge posted
        in the ladder's channel for them to accept."""
        ladder = await self.get(guild_id, ladder_id)
        if defender.id == member.id:
            raise UserError(_("You can't challenge yourself: pick someone above you."))
        async with self.db.reading() as conn:
            places = {r.member_id: r for r in await queries.rungs(conn, ladder.id)}
            open_now = await queries.ladder_challenges(conn, ladder.id, open_only=True)
        mine, theirs = places.get(member.id), places.get(defender.id)
        if mine is None:
            raise UserError(_("You are not on {name}: `/ladder join` first.", name=ladder.name))
        if theirs is None:
            raise UserError(_("{member} is not on {name}.", member=defender.name, name=ladder.name))
        if not mine.place - REACH <= theirs.place < mine.place:
            raise UserError(
                _(
                    "You are {place}: you may challenge the {count} places above yours, and "
                    "{name} is {theirs}.",
                    place=_ordinal(mine.place),
                    count=REACH,
                    name=defender.name,
                    theirs=_ordinal(theirs.place),
                )
            )
        for who in (member.id, defender.id):
            count = sum(who in (c.challenger_id, c.defender_id) for c in open_now)
            if count >= MOST_OPEN and who == member.id:
                raise UserError(
                    _(
                        "You have {count} open ladder challenges already: finish one first.",
                        count=MOST_OPEN,
                    )
                )
            if count >= MOST_OPEN:
                raise UserError(
                    _(
                        "{name} has {count} open ladder challenges already: finish one first.",
                        name=defender.name,
                        count=MOST_OPEN,
                    )
                )
        if any({c.challenger_id, c.defender_id} == {member.id, defender.id} for c in open_now):
            raise UserError(
                _("You and {name} already have a ladder challenge open.", name=defender.name)
            )
        now = self.now()
        async with self.db.transaction() as tx:
            row_id = await queries.insert_ladder_challenge(
                tx,
                ladder_id=ladder.id,
                challenger_id=member.id,
                defender_id=defender.id,
                created_at=now,
                expires_at=now + timedelta(days=ladder.answer_days),
            )
        settings = {k: v for k, v in ladder.settings.items() if k != "rated"}
        try:
            made = await self.opener.create(
                guild_id=guild_id,
                channel_id=ladder.channel_id,
                challenger=member,
                game=ladder.game,
                options=ladder.options,
                opponent=defender,
                first="random",
                rated=ladder.settings.get("rated", True) is not False,
                settings={**settings, "ladder": ladder.id, LADDER_CHALLENGE: row_id},
            )
        except UserError:
            async with self.db.transaction() as tx:
                await queries.close_ladder_challenge(tx, row_id, "cancelled", self.now())
            raise
        async with self.db.transaction() as tx:
            await queries.link_ladder_challenge(tx, row_id, challenge_id=made.id)
            found = await queries.get_ladder_challenge(tx, row_id)
        assert found is not None
        self.timer.poke()
        return found

    async def game_started(self, update: GameUpdate) -> None:
        row_id = update.game.settings.get(LADDER_CHALLENGE)
        if isinstance(row_id, int):
            async with self.db.transaction() as tx:
                await queries.link_ladder_challenge(tx, row_id, game_id=update.game.id)
            self.timer.poke()

    async def game_ended(self, update: GameUpdate) -> None:
        """A ladder game's end: a challenger who won climbs."""
        row = update.game
        row_id = row.settings.get(LADDER_CHALLENGE)
        if not isinstance(row_id, int):
            return
        async with self.db.transaction() as tx:
            found = await queries.get_ladder_challenge(tx, row_id)
            if found is None or found.status != "open":
                return
            if row.status != "finished" or row.winner_seat is None:
                status = "drawn"
            elif row.player_ids[row.winner_seat] == found.challenger_id:
                status = "won"
            else:
                status = "lost"
            await self._close(tx, found, status)

    async def _close(self, tx: Connection, found: LadderChallengeRow, status: str) -> None:
        if not await queries.close_ladder_challenge(tx, found.id, status, self.now()):
            return
        if status not in ("won", "forfeited"):
            return
        places = {r.member_id: r.place for r in await queries.rungs(tx, found.ladder_id)}
        mine, theirs = places.get(found.challenger_id), places.get(found.defender_id)
        if mine is not None and theirs is not None and theirs < mine:
            await queries.climb(tx, found.ladder_id, found.challenger_id, theirs)

    # -- unanswered challenges ----------------------------------------------------------

    async def start(self) -> None:
        self.timer.start()

    async def stop(self) -> None:
        await self.timer.stop()

    async def _next_expiry(self) -> datetime | None:
        async with self.db.reading() as conn:
            return await queries.next_ladder_expiry(conn)

    async def expire_due(self) -> list[int]:
        """Every challenge unanswered in time: lost by its defender (its challenge
        withdrawn). A challenge accepted meanwhile is left to its game."""
        async with self.db.reading() as conn:
            due = await queries.unanswered_ladder_challenges(conn, self.now())
        forfeited = []
        for one in due:
            async with self.claims.holding("ladder", one.id, one.expires_at) as mine:
                if mine and await self._expire(one):
                    forfeited.append(one.id)
        return forfeited

    async def _expire(self, one: LadderChallengeRow) -> bool:
        async with self.db.reading() as conn:
            ladder = await queries.get_ladder(conn, one.ladder_id)
            challenge = (
                None
                if one.challenge_id is None
                else await queries.get_challenge(conn, one.challenge_id)
            )
        if ladder is None:
            return False
        if challenge is not None and challenge.game_id is not None:  # accepted in time
            async with self.db.transaction() as tx:
                await queries.link_ladder_challenge(tx, one.id, game_id=challenge.game_id)
            return False
        async with self.db.transaction() as tx:
            current = await queries.get_ladder_challenge(tx, one.id)
            if current is None or current.status != "open":
                return False
            await self._close(tx, current, "forfeited")
        log.info("ladder %d: challenge %d unanswered, lost by its defender", ladder.id, one.id)
        if challenge is not None and challenge.status == "pending":
            await self._withdraw_challenge(ladder, one)
        return True

    async def _withdraw_challenge(self, ladder: LadderRow, one: LadderChallengeRow) -> None:
        if one.challenge_id is None:
            return
        async with self.db.reading() as conn:
            challenge = await queries.get_challenge(conn, one.challenge_id)
        if challenge is None:
            return
        with contextlib.suppress(UserError):  # answered or closed meanwhile
            await self.opener.cancel(
                guild_id=ladder.guild_id,
                challenge_id=challenge.id,
                member=Member(challenge.challenger_id, challenge.challenger_name),
            )

    # -- the ladder ---------------------------------------------------------------------

    async def view(self, guild_id: int, ladder_id: int) -> LadderView:
        ladder = await self.get(guild_id, ladder_id)
        async with self.db.reading() as conn:
            places = await queries.rungs(conn, ladder.id)
            every = await queries.ladder_challenges(conn, ladder.id)
        won: dict[int, int] = {}
        lost: dict[int, int] = {}
        for c in every:
            if c.status in ("won", "forfeited"):
                won[c.challenger_id] = won.get(c.challenger_id, 0) + 1
                lost[c.defender_id] = lost.get(c.defender_id, 0) + 1
            elif c.status == "lost":
                won[c.defender_id] = won.get(c.defender_id, 0) + 1
                lost[c.challenger_id] = lost.get(c.challenger_id, 0) + 1
        return LadderView(ladder, places, [c for c in every if c.status == "open"], won, lost)


def _ordinal(n: int) -> str:
    """``3rd`` in English; elsewhere the language's way of saying a place."""
    if current_locale() != "en":
        return _("place {number}", number=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
