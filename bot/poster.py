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
from typing import Any, ParamSpec, TypeVar

import aiohttp
import discord

from bot import texts
from bot.i18n import _
from bot.model import DeliveryDelayed, Post, Posted
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
        with texts.in_thread(game):  # its buttons' and the poster's own words
            return await self._deliver(game, post)

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
    async def post_challenge(self, challenge: ChallengeRow, text: str) -> int | None:
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
    async def show_challenge(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool = False
    ) -> None:
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
