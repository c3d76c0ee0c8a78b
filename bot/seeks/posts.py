"""A seek's cards in the lobbies, through the outbox (lane ``seek:<id>``): each card
posted with its Accept button (``seek_post``, one item per lobby), and all of them
shown closed once the seek is taken, cancelled or expired (``seek_shown``).

They go through the games' :class:`~bot.model.Poster` as tournament posts do: a card
is posted as if the seek were a game living in the lobby channel (:func:`place`; its
button the post action ``seek:<id>``), and shown closed by editing its message as a
challenge message is edited (:func:`as_message`). Each delivery is safe to repeat.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from bot.i18n import speaking
from bot.i18n.languages import guild_language
from bot.model import DeliveryDelayed, Post, Poster
from bot.outbox import Outbox
from bot.seeks import texts
from bot.storage import ChallengeRow, Database, GameRow, OutboxRow, SeekRow, queries

log = logging.getLogger(__name__)

#: The post action naming a seek card's Accept button (built by the area's views).
SEEK_ACTION = "seek"


def place(seek: SeekRow, guild_id: int, channel_id: int) -> GameRow:
    """Where a card goes, as the poster takes it: the lobby channel. The id is negative:
    no game's."""
    return GameRow(
        id=-seek.id,
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=None,
        challenge_id=None,
        challenge_message_id=None,
        last_message_id=None,
        game=seek.game,
        options=seek.options,
        settings={"seek": seek.id},
        player_ids=(0, 0),
        player_names=("", ""),
        status="finished",  # no clock, no deadline line
        result=None,
        winner_seat=None,
        end_reason=None,
        created_at=seek.created_at,
        finished_at=None,
    )


def as_message(seek: SeekRow, channel_id: int, message_id: int) -> ChallengeRow:
    """A card as the poster edits a challenge message (its id negative: no challenge's)."""
    return ChallengeRow(
        id=-seek.id,
        guild_id=seek.guild_id or 0,
        channel_id=channel_id,
        message_id=message_id,
        challenger_id=seek.seeker_id,
        challenger_name=seek.seeker_name,
        opponent_id=None,
        opponent_name=None,
        game=seek.game,
        options=seek.options,
        settings=seek.settings,
        status=seek.status,
        game_id=seek.game_id,
        created_at=seek.created_at,
        closed_at=seek.closed_at,
    )


class SeekPosts:
    def __init__(
        self, db: Database, poster: Poster, outbox: Outbox, *, now: Callable[[], datetime]
    ) -> None:
        self.db = db
        self.poster = poster
        self.now = now
        outbox.handle("seek_post", self._post)
        outbox.handle("seek_shown", self._shown)

    async def _post(self, pending: OutboxRow, worked_out: object) -> int | None:
        guild_id, channel_id = pending.payload["guild_id"], pending.payload["channel_id"]
        seek = await self.db.read(queries.seek_by_id(pending.payload["seek_id"]))
        if seek is None or seek.status != "open" or "posted" in pending.result:
            return None  # taken before its card went out: nothing to offer
        try:
            with speaking(guild_language(guild_id)):  # a lobby's card: its server's words
                card = texts.card_text(seek)
            posted = await self.poster.post(
                place(seek, guild_id, channel_id),
                Post(card, actions=(f"{SEEK_ACTION}:{seek.id}",)),
            )
        except DeliveryDelayed:
            raise  # Discord out of reach: the outbox tries again later
        except Exception as error:  # the lobby is gone, or closed to the bot: no card
            log.warning("seek %d: no card in server %d (%r)", seek.id, guild_id, error)
            return None
        if posted.message_id is None:
            return None
        await self.db.write(
            [
                queries.outbox_result_statement(pending.id, {"posted": posted.message_id}),
                queries.set_seek_post_statement(seek.id, guild_id, posted.message_id),
            ]
        )
        return posted.message_id

    async def _shown(self, pending: OutboxRow, worked_out: object) -> None:
        seek_id = pending.payload["seek_id"]
        seek, cards = await self.db.read_many(
            queries.seek_by_id(seek_id), queries.seek_posts_of(seek_id)
        )
        if seek is None:
            return
        game = None
        if seek.game_id is not None:
            async with self.db.reading() as conn:
                game = await queries.get_game(conn, seek.game_id)
        for card in cards:
            if card.message_id is not None:
                with speaking(guild_language(card.guild_id)):  # each lobby in its own words
                    text = texts.closed_card_text(seek, game)
                await self.poster.show_challenge(
                    as_message(seek, card.channel_id, card.message_id), text
                )
