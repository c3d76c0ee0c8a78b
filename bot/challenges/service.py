"""Challenges, without Discord: a pending challenge, then a game when it is accepted.

Accepting stores the game, closes the challenge and stores what each
:class:`GameStarter` adds to a new game (its clock) in one transaction, together with
all the new game must show (outbox items, :mod:`bot.outbox`): its thread, the challenge
message saying so, its opening board. Then they are delivered, in that order, and the
listeners are told ``game_started``; a crash in between leaves none of it undone.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot import places, texts
from bot.core.boards import SEND_WAIT, Boards, to_ping
from bot.core.game_settings import game_options
from bot.core.games import Games, game_rules
from bot.events import Events
from bot.i18n import _
from bot.model import GameUpdate, Member, Poster, UserError
from bot.outbox import Outbox, Staged, challenge_lane, game_lane, item
from bot.storage import (
    ChallengeRow,
    Database,
    GameRow,
    OutboxRow,
    Query,
    Statement,
    apply,
    queries,
)
from rules import State

log = logging.getLogger(__name__)

#: Who takes seat 0 (the first player) when a challenge is accepted.
FIRST_PLAYER_CHOICES = ("challenger", "opponent", "random")


class GameStarter(Protocol):
    def starting_facts(self, player_ids: tuple[int, int]) -> Query[Any]:
        """The named query of what :meth:`opening` needs, read before the game is stored."""

    def opening(self, row: GameRow, state: State, facts: Any) -> list[Statement]:
        """What to store with the new game ``row``, in its own transaction."""


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """Where the card of a challenge of no server the bot is in goes: ``dms`` (made in
    the bot's DM: the card is sent to the opponent's DMs) or ``reply`` (made in a group
    DM or a server without the bot: the card is the answer to the command, shown through
    the interaction's ``token`` until ``until``, with a copy in the opponent's DMs).
    ``link``: the channel where it was made (its card's link, once posted)."""

    place: str
    token: str | None = None
    until: datetime | None = None
    link: str | None = None

    def columns(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "reply_token": self.token,
            "reply_until": self.until,
            "link": self.link,
        }


class Challenges:
    def __init__(
        self,
        db: Database,
        games: Games,
        boards: Boards,
        events: Events,
        *,
        now: Callable[[], datetime],
        rng: random.Random | None = None,
        starters: Sequence[GameStarter] = (),
        messages: ChallengeMessages | None = None,
    ) -> None:
        self.db = db
        self.games = games
        self.boards = boards
        self.events = events
        self.now = now
        self.rng = rng or random.Random()
        self.starters = tuple(starters)
        #: The challenge messages' new states, through the boards' outbox.
        self.messages = messages or ChallengeMessages(db, boards.poster, boards.outbox, now=now)

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger: Member,
        game: str,
        options: Mapping[str, Any] | None = None,
        opponent: Member | None = None,
        first: str = "challenger",
        rated: bool = True,
        settings: Mapping[str, Any] | None = None,
        post: bool = True,
        where: Elsewhere | None = None,
    ) -> ChallengeRow:
        """A pending challenge, and (``post``) its message in ``channel_id``: stored
        with it in the outbox, so that a crash before it reaches Discord only delays it,
        and waited for (at most a few seconds). The challenge as it is then: with its
        ``message_id`` once posted. A message that can never be posted there (no such
        channel, or one the bot cannot write in) cancels the challenge: a UserError.
        ``rated=False``: a casual game, which never changes ratings. ``settings``: more
        of the bot's own choices for the game (time control…), already checked.
        ``post=False``: no message (a challenge the bot accepts itself at once).
        ``where``: a challenge of no server the bot is in (``guild_id`` is
        :data:`bot.places.DMS`): its card is sent to the opponent's DMs, or is the
        answer to the command (see :class:`Elsewhere`)."""
        rule_set = game_rules(game)
        if opponent is not None and opponent.id == challenger.id:
            raise UserError(
                _(
                    "You can't challenge yourself: pick another member, or leave "
                    "the opponent empty for an open challenge."
                )
            )
        if opponent is not None and opponent.bot:
            raise UserError(
                _("{name} is a bot and can't play: challenge a person.", name=opponent.name)
            )
        resolved = game_options(rule_set, options)
        if first not in FIRST_PLAYER_CHOICES:
            raise UserError(
                _(
                    "Who plays first must be one of {choices}.",
                    choices=", ".join(FIRST_PLAYER_CHOICES),
                )
            )
        async with self.db.transaction() as tx:
            existing = await queries.find_pending_challenge(
                tx,
                guild_id=guild_id,
                challenger_id=challenger.id,
                opponent_id=opponent.id if opponent else None,
                game=rule_set.name,
            )
            if existing is not None:
                raise UserError(
                    _(
                        "You already have a pending {game} challenge to {name}: "
                        "cancel it or wait for an answer first.",
                        game=rule_set.title,
                        name=existing.opponent_name,
                    )
                    if opponent
                    else _(
                        "You already have a pending {game} challenge open to anyone: "
                        "cancel it or wait for an answer first.",
                        game=rule_set.title,
                    )
                )
            challenge_id = await queries.insert_challenge(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger.id,
                challenger_name=challenger.name,
                opponent_id=opponent.id if opponent else None,
                opponent_name=opponent.name if opponent else None,
                game=rule_set.name,
                options=resolved,
                settings={**(settings or {}), "first": first, "rated": bool(rated)},
                created_at=self.now(),
                **({} if where is None else where.columns()),
            )
            staged = self.messages.posted(challenge_id) if post else None
            if staged is not None:
                await apply(tx, [staged.statement])
            created = await queries.get_challenge(tx, challenge_id)
        assert created is not None  # inserted just now
        if staged is None:
            return created
        await self.messages.send(staged)
        after = await self.db.read(queries.challenge_by_id(challenge_id))
        assert after is not None
        if after.status == "cancelled" and after.message_id is None:
            if after.place == "dms" and opponent is not None:
                raise UserError(places.no_dm_to(opponent.name))
            raise UserError(
                _(
                    "I can't post in {channel}: use `/challenge` in a channel where I can.",
                    channel=f"<#{channel_id}>",
                )
            )
        return after

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        async with self.db.transaction() as tx:
            await queries.set_challenge_message(tx, challenge_id, message_id)

    async def get(self, guild_id: int, challenge_id: int) -> ChallengeRow:
        async with self.db.reading() as conn:
            challenge = await queries.get_challenge(conn, challenge_id)
        if challenge is None or challenge.guild_id != guild_id:
            raise UserError(_("That challenge doesn't exist (any more)."))
        return challenge

    async def accept(
        self, *, guild_id: int, challenge_id: int, member: Member, message_id: int | None = None
    ) -> GameUpdate:
        """Start the game: seats, what the starters store with it (the clock), a thread,
        the opening board, the first ping. ``message_id``: the challenge message the
        button was on, in case it was clicked before :meth:`set_message` stored it."""
        challenge = await self._pending(guild_id, challenge_id)
        if member.id == challenge.challenger_id:
            raise UserError(_("You can't accept your own challenge (use Cancel to withdraw it)."))
        if challenge.opponent_id is not None and member.id != challenge.opponent_id:
            raise UserError(
                _("This challenge is for {name}, not you.", name=challenge.opponent_name)
            )
        if member.bot:
            raise UserError(_("Bots can't play."))
        challenger = Member(challenge.challenger_id, challenge.challenger_name)
        first = challenge.settings.get("first", "challenger")
        if first == "random":
            first = self.rng.choice(("challenger", "opponent"))
        seats = (challenger, member) if first == "challenger" else (member, challenger)
        state = game_rules(challenge.game).new(**challenge.options)
        player_ids = (seats[0].id, seats[1].id)
        facts = await self.db.read_many(*(s.starting_facts(player_ids) for s in self.starters))
        async with self.db.transaction() as tx:
            game_id = await queries.insert_game(
                tx,
                guild_id=guild_id,  # DMS: the game lives in both players' DMs
                link=challenge.link,
                channel_id=challenge.channel_id,
                challenge_id=challenge.id,
                challenge_message_id=challenge.message_id or message_id,
                game=challenge.game,
                options=challenge.options,
                settings=challenge.settings,
                player_ids=player_ids,
                player_names=[seat.name for seat in seats],
                created_at=self.now(),
            )
            if not await queries.close_challenge(
                tx, challenge.id, status="accepted", closed_at=self.now(), game_id=game_id
            ):
                current = await queries.get_challenge(tx, challenge.id)
                assert current is not None  # challenges are never deleted
                raise UserError(beaten_to_it(current))
            row = await queries.get_game(tx, game_id)
            assert row is not None  # inserted just now
            await apply(
                tx,
                [
                    statement
                    for starter, fact in zip(self.starters, facts, strict=True)
                    for statement in starter.opening(row, state, fact)
                ],
            )
            # All the game must show, stored with it: its thread, the challenge message
            # saying so, its opening board (then the listeners are told it started).
            # the opening post is for everyone in the thread (in the DMs: each reader's)
            opening, openings = texts.for_readers(row, lambda: texts.opening_post(row, state))
            board = self.boards.board(
                row,
                state,
                opening,
                mentions=to_ping(row, state),
                then=("game_started",),
                text_by_locale=openings,
            )
            staged = [
                self.boards.thread(row),
                self.messages.shown(challenge, member.name, lane=game_lane(game_id)),
                board,
            ]
            await apply(tx, [one.statement for one in staged])
        self.games.remember(game_id, state)
        async with self.games.lock(game_id):
            *_sent, update = await self.boards.send(*staged)
        return update or GameUpdate(row, state, None, None)

    async def decline(self, *, guild_id: int, challenge_id: int, member: Member) -> ChallengeRow:
        challenge = await self._pending(guild_id, challenge_id)
        if challenge.opponent_id is None:
            raise UserError(
                _(
                    "An open challenge can't be declined: simply leave it "
                    "(the challenger can cancel it)."
                )
            )
        if member.id != challenge.opponent_id:
            raise UserError(
                _("Only {name} can decline this challenge.", name=challenge.opponent_name)
            )
        return await self._close(challenge, "declined", member)

    async def cancel(self, *, guild_id: int, challenge_id: int, member: Member) -> ChallengeRow:
        challenge = await self._pending(guild_id, challenge_id)
        if member.id != challenge.challenger_id:
            raise UserError(
                _("Only {name} can cancel this challenge.", name=challenge.challenger_name)
            )
        return await self._close(challenge, "cancelled", member)

    async def rematch(self, *, guild_id: int, game_id: int, member: Member) -> ChallengeRow:
        """A challenge to the same opponent: same game, options and clock; seats swapped."""
        row = await self.games.get_game(guild_id, game_id)
        seat = row.seat_of(member.id)
        if seat is None:
            raise UserError(
                _("Only the players of {game} can ask for a rematch.", game=texts.label(row))
            )
        if row.is_active:
            raise UserError(_("{game} is still in progress.", game=texts.label(row)))
        opponent = Member(row.player_ids[1 - seat], row.player_names[1 - seat])
        async with self.db.reading() as conn:
            theirs = await queries.find_pending_challenge(
                conn,
                guild_id=guild_id,
                challenger_id=opponent.id,
                opponent_id=member.id,
                game=row.game,
            )
        if theirs is not None:
            raise UserError(
                _(
                    "{name} has already challenged you to a rematch "
                    "(challenge #{number}): accept it there.",
                    name=opponent.name,
                    number=theirs.id,
                )
            )
        settings = {k: v for k, v in row.settings.items() if k not in ("first", "rated")}
        return await self.create(
            guild_id=guild_id,
            channel_id=row.channel_id,
            challenger=member,
            game=row.game,
            options=row.options,
            opponent=opponent,
            first="opponent" if seat == 0 else "challenger",
            rated=row.settings.get("rated", True) is not False,
            settings=settings,
            where=Elsewhere("dms") if row.in_dms else None,  # its card to the opponent's DMs
        )

    async def _pending(self, guild_id: int, challenge_id: int) -> ChallengeRow:
        challenge = await self.get(guild_id, challenge_id)
        if challenge.status != "pending":
            where = ""
            if challenge.place != "server" and challenge.game_id is not None:
                game = await self.db.read(queries.game_by_id(challenge.game_id))
                where = " " + places.lives_in_dms(None if game is None else game.link)
            already = _(
                "This challenge was already {status}.",
                status=texts.status_word(challenge.status),
            )
            raise UserError(already + where)
        return challenge

    async def _close(self, challenge: ChallengeRow, status: str, by: Member) -> ChallengeRow:
        async with self.db.transaction() as tx:
            if not await queries.close_challenge(
                tx, challenge.id, status=status, closed_at=self.now()
            ):
                current = await queries.get_challenge(tx, challenge.id)
                assert current is not None  # challenges are never deleted
                raise UserError(
                    _(
                        "This challenge was already {status}.",
                        status=texts.status_word(current.status),
                    )
                )
            shown = self.messages.shown(challenge, by.name)  # its message says so
            await apply(tx, [shown.statement])
            closed = await queries.get_challenge(tx, challenge.id)
        assert closed is not None  # challenges are never deleted
        await self.messages.send(shown)
        return closed


def beaten_to_it(challenge: ChallengeRow) -> str:
    """What an Accept that lost a race is told: what really happened just before."""
    if challenge.status == "accepted":
        return _("Someone else accepted this challenge just before you.")
    if challenge.status == "declined":
        return _(
            "This challenge was declined by {name} just before you clicked Accept.",
            name=challenge.opponent_name,
        )
    if challenge.status == "cancelled":
        return _(
            "This challenge was cancelled by {name} just before you clicked Accept.",
            name=challenge.challenger_name,
        )
    return _(
        "This challenge was {status} just before you clicked Accept.",
        status=texts.status_word(challenge.status),
    )


class ChallengeMessages:
    """A challenge message's new state (accepted, declined, cancelled, expired), staged
    in the transaction that closes the challenge and delivered through the outbox: a
    crash in between no longer leaves an Accept button that answers "already
    accepted"."""

    def __init__(
        self,
        db: Database,
        poster: Poster,
        outbox: Outbox,
        *,
        now: Callable[[], datetime],
        expiry_days: int = 0,
    ) -> None:
        self.db = db
        self.poster = poster
        self.outbox = outbox
        self.now = now
        #: How long a challenge waits for an answer (its message says until when).
        self.lifetime = timedelta(days=expiry_days) if expiry_days > 0 else None
        outbox.handle("challenge", self._deliver)
        outbox.handle("challenge_post", self._post)

    def posted(self, challenge_id: int) -> Staged:
        """Post the new challenge's message (every challenge message is posted so:
        a new challenge, a rematch)."""
        return item(
            challenge_lane(challenge_id),
            "challenge_post",
            {"challenge_id": challenge_id},
            now=self.now(),
        )

    async def _post(self, pending: OutboxRow, worked_out: object) -> int | None:
        challenge = await self.db.read(queries.challenge_by_id(pending.payload["challenge_id"]))
        if challenge is None or "posted" in pending.result:
            return None if challenge is None else challenge.message_id
        if challenge.message_id is not None or challenge.status != "pending":
            return challenge.message_id  # posted by an earlier try, or answered since
        expires = None if self.lifetime is None else challenge.created_at + self.lifetime
        with texts.in_thread(challenge):  # the channel's message, in the server's language
            text = texts.challenge_text(challenge, expires)
            if challenge.place == "reply":
                text += "\n" + places.reply_card_note(challenge.opponent_name)
        message_id = await self.poster.post_challenge(challenge, text)
        statements = [queries.outbox_result_statement(pending.id, {"posted": message_id})]
        if challenge.place == "reply":  # and a copy in the opponent's DMs, always
            copy = await self.poster.copy_challenge(challenge, text)
            link = challenge.link if message_id is None else f"{challenge.link}/{message_id}"
            statements.append(
                queries.set_challenge_card_statement(
                    challenge.id,
                    link=link,
                    dm_channel_id=None if copy is None else copy[0],
                    dm_message_id=None if copy is None else copy[1],
                )
            )
            if message_id is None and copy is not None:
                message_id = copy[1]  # the card that can still be answered
        if message_id is None:  # nowhere it can ever be posted: nobody could answer it
            log.info("challenge %d: no message could be posted; cancelled", challenge.id)
            statements.append(queries.cancel_unposted_challenge_statement(challenge.id))
        else:
            statements.append(queries.set_challenge_message_statement(challenge.id, message_id))
        await self.db.write(statements)
        return message_id

    def shown(self, challenge: ChallengeRow, by: str, *, lane: str | None = None) -> Staged:
        """Show the challenge as it is once this transaction commits; ``by``: who
        answered. ``lane``: the new game's, when accepted (the message names its thread)."""
        return item(
            lane or challenge_lane(challenge.id),
            "challenge",
            {"challenge_id": challenge.id, "by": by},
            now=self.now(),
        )

    async def send(self, *staged: Staged) -> None:
        await self.outbox.deliver(*staged, timeout=SEND_WAIT)

    async def _deliver(self, pending: OutboxRow, worked_out: object) -> None:
        async with self.db.reading() as conn:
            challenge = await queries.get_challenge(conn, pending.payload["challenge_id"])
            game = (
                None
                if challenge is None or challenge.game_id is None
                else await queries.get_game(conn, challenge.game_id)
            )
        if challenge is None:
            return
        # Accepted before its message's id was stored: the game has it from the button.
        message_id = challenge.message_id or (game.challenge_message_id if game else None)
        if message_id is None and challenge.dm_message_id is None:
            return  # never posted: nothing to show
        challenge = replace(challenge, message_id=message_id)
        expired = challenge.status == "expired"
        with texts.in_thread(challenge):
            text = (
                texts.challenge_expired_text(challenge)
                if expired
                else texts.challenge_closed_text(challenge, pending.payload["by"], game)
            )
        await self.poster.show_challenge(challenge, text, disabled_buttons=expired)
