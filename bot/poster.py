"""The :class:`~bot.model.Poster` and :class:`~bot.correspondence.notify.Messenger`
for real Discord.

A correspondence game outlives Discord's thread archive timers, so posting is
defensive: an archived thread is unarchived (sending to it does that; a locked
one is unarchived explicitly), a deleted thread is replaced by a new one in
the game's channel, and when no thread can be used at all the post goes to
the channel itself, saying why.

Every call is safe to repeat (the outbox repeats what a crash interrupted, and
discord.py repeats a request Discord answered with a 5xx, which may come after
Discord acted): messages sent while an outbox item is delivered carry a nonce made
from the item (:func:`bot.outbox.next_nonce`, enforced: Discord returns the first
message instead of a second one), and a thread is looked for before it is made
again. Discord out of reach, or failing on its side, is
:class:`~bot.model.DeliveryDelayed`: the outbox tries again later.
"""

from __future__ import annotations

import functools
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar

import aiohttp
import discord

from bot import places, texts
from bot.i18n import _, speaking
from bot.i18n.languages import dm_language
from bot.model import DeliveryDelayed, Post, Posted, automatic_seat
from bot.outbox import next_nonce
from bot.pace import Pace
from bot.storage import ChallengeRow, GameRow

log = logging.getLogger(__name__)

ARCHIVE_AFTER_MINUTES = 10080  # a week, the longest Discord allows
DM_LIMIT = 2000
#: Discord's code for "a thread has already been created for this message".
THREAD_EXISTS = 160004
#: The buttons a post shows (the client puts together those of every area).
Components = Callable[[GameRow, Post], discord.ui.View | None]
#: The buttons of a challenge message, disabled or not.
ChallengeButtons = Callable[[ChallengeRow, bool], discord.ui.View]

P = ParamSpec("P")
T = TypeVar("T")


def delayable(call: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """Discord out of reach or failing on its side becomes :class:`DeliveryDelayed`;
    each call waits its turn in its poster's :class:`~bot.pace.Pace` (this process's
    share of Discord's global limit)."""

    @functools.wraps(call)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        pace = getattr(args[0], "pace", None) if args else None
        if pace is not None:
            await pace.take()
        try:
            return await call(*args, **kwargs)
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise DeliveryDelayed(f"Discord answered {error.status}") from error
            raise
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            raise DeliveryDelayed(f"Discord is out of reach ({error!r})") from error

    return wrapper


class DiscordPoster:
    def __init__(
        self,
        client: discord.Client,
        components: Components,
        challenge_buttons: ChallengeButtons | None = None,
        *,
        pace: Pace | None = None,
    ) -> None:
        self.client = client
        self.components = components
        self.challenge_buttons = challenge_buttons
        #: This process's share of Discord's global limit (None: no pacing).
        self.pace = pace

    @delayable
    async def open_thread(self, game: GameRow, name: str) -> int | None:
        if game.in_dms:
            return None  # its home is each player's DM with the bot
        channel = await self._fetch(game.channel_id)
        if not _holds_threads(channel):
            return None  # e.g. challenged inside a thread: the game lives there
        try:
            if game.challenge_message_id:
                thread = await self._thread_from(channel, game.challenge_message_id, name)
            else:
                thread = await self._made_before(channel, name) or await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise
            log.warning("game %d: no thread (%s); posting in the channel", game.id, error)
            return None
        return thread.id

    async def _thread_from(self, channel: Any, message_id: int, name: str) -> Any:
        """The thread of a message: made now, or found if it was made before (a thread
        started from a message has the message's id)."""
        try:
            return await channel.get_partial_message(message_id).create_thread(
                name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES
            )
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            thread = await self._fetch(message_id)
            if thread is None:
                raise
            log.info("the thread of message %d was already made: using it", message_id)
            return thread

    async def _made_before(self, channel: Any, name: str) -> Any:
        """Our thread called ``name`` in ``channel``, if an earlier try made it."""
        me = self.client.user.id if self.client.user else None
        for thread in await channel.guild.active_threads():
            if thread.parent_id == channel.id and thread.name == name and thread.owner_id == me:
                return thread
        return None

    @delayable
    async def post(self, game: GameRow, post: Post) -> Posted:
        if game.in_dms:
            return await self._deliver_dms(game, post)
        with texts.in_thread(game):  # its buttons' and the poster's own words
            return await self._deliver(game, post)

    async def _deliver_dms(self, game: GameRow, post: Post) -> Posted:
        """The post in each player's DM with the bot (the bot's own seat aside), with
        the link back to where the game was made. A player the bot can no longer DM is
        skipped (logged); the others get it. Each message carries the item's next
        nonce: a repeat after a crash sends none twice."""
        sent: list[tuple[int, int]] = []
        for seat, player_id in enumerate(game.player_ids):
            if seat == automatic_seat(game):
                continue
            language = dm_language([player_id])
            with speaking(language):  # its words and buttons: each player's own
                fields = self._message(game, replace(post, content=post.text_for(language)))
                fields["content"] = places.with_link(fields["content"], game.link)[:2000]
            try:
                channel = await self.client.create_dm(discord.Object(player_id))
                message = await channel.send(**fields)
            except discord.HTTPException as error:
                if error.status >= 500 or error.status == 429:
                    raise
                log.warning("game %d: no DM to player %d (%s)", game.id, player_id, error)
                continue
            sent.append((channel.id, message.id))
        if not sent:
            return Posted(None, None, None)
        (channel_id, message_id), *others = sent
        return Posted(message_id, None, channel_id, others=tuple(others))

    @delayable
    async def remove_buttons(self, channel_id: int, message_id: int) -> None:
        """Take the buttons off a message; gone or forbidden is done with, anything else
        (Discord out of reach) raises, for a later try."""
        channel = await self._fetch(channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except (discord.NotFound, discord.Forbidden) as error:
            log.info("could not remove the buttons of message %d: %s", message_id, error)

    @delayable
    async def edit_text(self, channel_id: int, message_id: int, text: str) -> None:
        channel = await self._fetch(channel_id)
        if channel is None:
            return
        try:
            await channel.get_partial_message(message_id).edit(
                content=text[:2000], allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.NotFound, discord.Forbidden) as error:
            log.info("could not edit message %d: %s", message_id, error)

    @delayable
    async def post_challenge(self, challenge: ChallengeRow, text: str) -> int | None:
        if challenge.place == "dms":  # the card goes to the opponent's DMs
            found = await self.copy_challenge(challenge, text)
            return None if found is None else found[1]
        if challenge.place == "reply":  # the card is the answer to the command
            return await self._edit_reply(challenge, text, disabled=False, buttons=True)
        channel = await self._fetch(challenge.channel_id)
        # (a forum, the home of a forum post's thread, takes no messages)
        if not callable(getattr(channel, "send", None)) or self.challenge_buttons is None:
            return None
        opponent = [] if challenge.opponent_id is None else [discord.Object(challenge.opponent_id)]
        with texts.in_thread(challenge):  # its buttons, in the server's language
            view = self.challenge_buttons(challenge, False)
        try:
            message = await channel.send(
                content=text[:2000],
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=opponent
                ),
                nonce=_nonce(),
            )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise
            log.warning("challenge %d: cannot post (%s)", challenge.id, error)
            return None
        return message.id

    @delayable
    async def copy_challenge(self, challenge: ChallengeRow, text: str) -> tuple[int, int] | None:
        """The challenge's card, with its buttons, in the opponent's DMs with the bot:
        (channel, message), or None if the bot can't DM them."""
        if challenge.opponent_id is None or self.challenge_buttons is None:
            return None
        try:
            channel = await self.client.create_dm(discord.Object(challenge.opponent_id))
            message = await channel.send(
                content=text[:2000],
                view=self.challenge_buttons(challenge, False),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=_nonce(),  # type: ignore[arg-type]  # None: discord.py picks one
            )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise
            log.info("challenge %d: no DM to its opponent (%s)", challenge.id, error)
            return None
        return channel.id, message.id

    async def _edit_reply(
        self, challenge: ChallengeRow, text: str, *, disabled: bool, buttons: bool
    ) -> int | None:
        """Show the card that answers the challenge's command, through that
        interaction's token while it lives; its message id (None: the token is dead)."""
        now = datetime.now(UTC)
        if challenge.reply_token is None or not places.token_alive(challenge.reply_until, now):
            return None
        view = (
            self.challenge_buttons(challenge, disabled)
            if buttons and self.challenge_buttons is not None
            else None
        )
        # The interaction's own webhook (as discord.py makes ``interaction.followup``).
        webhook: Any = discord.Webhook.from_state(
            {"id": str(self.client.application_id), "type": 3, "token": challenge.reply_token},
            self.client._connection,
        )
        try:
            message = await webhook.edit_message(
                "@original",  # the interaction's answer
                content=text[:2000],
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise
            log.info("challenge %d: its card can't be shown any more (%s)", challenge.id, error)
            return None
        return message.id

    async def _show_elsewhere(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool
    ) -> None:
        """Show a challenge of no server: its reply while the token lives, its card or
        copy in the opponent's DMs always."""
        if challenge.place == "reply":
            await self._edit_reply(challenge, text, disabled=True, buttons=disabled_buttons)
        where = (
            (challenge.dm_channel_id, challenge.dm_message_id)
            if challenge.place == "reply"
            else (None, challenge.message_id)
        )
        if where[1] is None or challenge.opponent_id is None:
            return
        try:
            channel = (
                await self._fetch(where[0])
                if where[0] is not None
                else await self.client.create_dm(discord.Object(challenge.opponent_id))
            )
            if channel is None:
                return
            view = (
                self.challenge_buttons(challenge, True)
                if disabled_buttons and self.challenge_buttons
                else None
            )
            await channel.get_partial_message(where[1]).edit(
                content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise
            log.info("could not show challenge %d in DMs: %s", challenge.id, error)

    @delayable
    async def show_challenge(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool = False
    ) -> None:
        if challenge.place != "server":
            await self._show_elsewhere(challenge, text, disabled_buttons=disabled_buttons)
            return
        if challenge.message_id is None:
            return
        channel = await self._fetch(challenge.channel_id)
        if channel is None:
            return
        with texts.in_thread(challenge):
            view = (
                self.challenge_buttons(challenge, True)
                if disabled_buttons and self.challenge_buttons
                else None
            )
        try:
            await channel.get_partial_message(challenge.message_id).edit(
                content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:  # deleted, or out of reach: nothing to show
            if error.status >= 500 or error.status == 429:
                raise
            log.info("could not show challenge %d as %s: %s", challenge.id, challenge.status, error)

    async def _deliver(self, game: GameRow, post: Post) -> Posted:
        """Send the post where the game lives (or somewhere it can live again)."""
        problem = ""
        if game.thread_id is not None:
            thread = await self._fetch(game.thread_id)
            if thread is None:
                problem = _("its thread was deleted")
            else:
                try:
                    message = await self._send_to_thread(thread, game, post)
                    return Posted(message.id, thread.id, thread.id)
                except discord.NotFound:
                    problem = _("its thread was deleted")
                except discord.Forbidden:
                    problem = _("I can no longer post in its thread")
            log.warning("game %d: %s", game.id, problem)
        channel = await self._fetch(game.channel_id)
        if channel is None:
            raise RuntimeError(f"game {game.id}: neither its thread nor its channel is reachable")
        if problem and _holds_threads(channel):
            try:  # a fresh thread keeps the game in one place again
                starter = await channel.send(
                    content=_(
                        "**{game}** continues here: {problem}.",
                        game=texts.label(game),
                        problem=problem,
                    ),
                    allowed_mentions=discord.AllowedMentions.none(),
                    nonce=_nonce(),
                )
                thread = await self._thread_from(channel, starter.id, texts.thread_name(game))
                message = await thread.send(**self._message(game, post))
                return Posted(message.id, thread.id, thread.id)
            except discord.HTTPException as error:
                if error.status >= 500 or error.status == 429:
                    raise
                log.warning("game %d: no replacement thread (%s)", game.id, error)
        fields = self._message(game, post)
        if problem:
            fields["content"] = (
                _(
                    "*({game}: {problem}, so I'm posting here.)*",
                    game=texts.label(game),
                    problem=problem,
                )
                + "\n"
                + fields["content"]
            )
        message = await channel.send(**fields)
        keep = game.thread_id if problem == _("I can no longer post in its thread") else None
        return Posted(message.id, keep, channel.id)

    async def _send_to_thread(self, thread: Any, game: GameRow, post: Post) -> discord.Message:
        if getattr(thread, "archived", False) and getattr(thread, "locked", False):
            await thread.edit(archived=False)  # a locked thread is not unarchived by sending
        return await thread.send(**self._message(game, post))

    def _message(self, game: GameRow, post: Post) -> dict[str, Any]:
        """Fresh keyword arguments for a send (a File can only be sent once), with the
        nonce of the outbox item being delivered."""
        fields: dict[str, Any] = {
            "content": post.content[:2000],
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(i) for i in post.mentions]
            ),
            "nonce": _nonce(),
        }
        files = (
            [discord.File(io.BytesIO(post.picture), filename=post.filename)]
            if post.picture is not None
            else []
        )
        files += [
            discord.File(io.BytesIO(extra.data), filename=extra.filename)
            for extra in post.attachments
        ]
        if files:
            fields["files"] = files
        view = self.components(game, post)
        if view is not None:
            fields["view"] = view
        return fields

    async def _fetch(self, channel_id: int) -> Any:
        """The channel or thread, from the cache or from Discord; None if it is gone
        or out of reach."""
        channel = self.client.get_channel(channel_id)
        if channel is not None:
            return channel
        try:
            return await self.client.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None


def _nonce() -> str | None:
    """The nonce of the next message: from the outbox item being delivered (the same
    on every repeat of it); else None, and discord.py picks a random one."""
    return next_nonce()


def _holds_threads(channel: Any) -> bool:
    """A text channel, where public threads can be opened (not a thread itself)."""
    return (
        hasattr(channel, "create_thread")
        and not isinstance(channel, discord.Thread)
        and not isinstance(channel, discord.ForumChannel)
    )


class DiscordMessenger:
    """Direct messages to members."""

    def __init__(self, client: discord.Client, *, pace: Pace | None = None) -> None:
        self.client = client
        #: The share of Discord's global limit it takes from (the poster's).
        self.pace = pace

    async def dm(self, member_id: int, text: str) -> bool:
        if self.pace is not None:
            await self.pace.take()
        try:
            user = self.client.get_user(member_id) or await self.client.fetch_user(member_id)
            # discord.py takes nonce=None (its default: a random one); its overloads omit it.
            await user.send(
                text[:DM_LIMIT],
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=_nonce(),  # type: ignore[arg-type]
            )
        except discord.HTTPException as error:
            log.info("no DM to %d (%s): falling back to the thread", member_id, error)
            return False
        return True
