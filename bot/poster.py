"""The :class:`~bot.model.Poster` and :class:`~bot.correspondence.notify.Messenger`
for real Discord.

A correspondence game outlives Discord's thread archive timers, so posting is
defensive: an archived thread is unarchived (sending to it does that; a locked
one is unarchived explicitly), a deleted thread is replaced by a new one in
the game's channel, and when no thread can be used at all the post goes to
the channel itself, saying why.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot import texts
from bot.model import Post, Posted
from bot.storage import GameRow

log = logging.getLogger(__name__)

ARCHIVE_AFTER_MINUTES = 10080  # a week, the longest Discord allows
DM_LIMIT = 2000
#: The buttons a post shows (the client puts together those of every area).
Components = Callable[[GameRow, Post], discord.ui.View | None]


class DiscordPoster:
    def __init__(self, client: discord.Client, components: Components) -> None:
        self.client = client
        self.components = components

    async def open_thread(self, game: GameRow, name: str) -> int | None:
        channel = await self._fetch(game.channel_id)
        if not _holds_threads(channel):
            return None  # e.g. challenged inside a thread: the game lives there
        try:
            if game.challenge_message_id:
                message = channel.get_partial_message(game.challenge_message_id)
                thread = await message.create_thread(
                    name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES)
            else:
                thread = await channel.create_thread(
                    name=name, type=discord.ChannelType.public_thread,
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES)
        except discord.HTTPException as error:
            log.warning("game %d: no thread (%s); posting in the channel", game.id, error)
            return None
        return thread.id

    async def post(self, game: GameRow, post: Post) -> Posted:
        posted, where = await self._deliver(game, post)
        return Posted(posted.message_id, posted.thread_id, where)

    async def _deliver(self, game: GameRow, post: Post) -> tuple[Posted, int]:
        """Send the post; also returns the id of the channel or thread it went to."""
        problem = ""
        if game.thread_id is not None:
            thread = await self._fetch(game.thread_id)
            if thread is None:
                problem = "its thread was deleted"
            else:
                try:
                    message = await self._send_to_thread(thread, game, post)
                    return Posted(message.id, thread.id), thread.id
                except discord.NotFound:
                    problem = "its thread was deleted"
                except discord.Forbidden:
                    problem = "I can no longer post in its thread"
            log.warning("game %d: %s", game.id, problem)
        channel = await self._fetch(game.channel_id)
        if channel is None:
            raise RuntimeError(f"game {game.id}: neither its thread nor its channel is reachable")
        if problem and _holds_threads(channel):
            try:  # a fresh thread keeps the game in one place again
                starter = await channel.send(
                    content=f"**{texts.label(game)}** continues here: {problem}.",
                    allowed_mentions=discord.AllowedMentions.none())
                thread = await starter.create_thread(
                    name=texts.thread_name(game), auto_archive_duration=ARCHIVE_AFTER_MINUTES)
                message = await thread.send(**self._message(game, post))
                return Posted(message.id, thread.id), thread.id
            except discord.HTTPException as error:
                log.warning("game %d: no replacement thread (%s)", game.id, error)
        fields = self._message(game, post)
        if problem:
            fields["content"] = f"*({texts.label(game)}: {problem}, so I'm posting here.)*\n" \
                                + fields["content"]
        message = await channel.send(**fields)  # type: ignore[union-attr]
        keep = game.thread_id if problem == "I can no longer post in its thread" else None
        return Posted(message.id, keep), channel.id

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

    async def _send_to_thread(self, thread: Any, game: GameRow, post: Post) -> discord.Message:
        if getattr(thread, "archived", False) and getattr(thread, "locked", False):
            await thread.edit(archived=False)  # a locked thread is not unarchived by sending
        return await thread.send(**self._message(game, post))

    def _message(self, game: GameRow, post: Post) -> dict[str, Any]:
        """Fresh keyword arguments for a send (a File can only be sent once)."""
        fields: dict[str, Any] = {
            "content": post.content[:2000],
            "allowed_mentions": discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(i) for i in post.mentions]),
        }
        files = [discord.File(io.BytesIO(post.picture), filename=post.filename)] \
            if post.picture is not None else []
        files += [discord.File(io.BytesIO(extra.data), filename=extra.filename)
                  for extra in post.attachments]
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


def _holds_threads(channel: Any) -> bool:
    """A text channel, where public threads can be opened (not a thread itself)."""
    return hasattr(channel, "create_thread") and not isinstance(channel, discord.Thread) \
        and not isinstance(channel, discord.ForumChannel)


class DiscordMessenger:
    """Direct messages to members."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def dm(self, member_id: int, text: str) -> bool:
        try:
            user = self.client.get_user(member_id) or await self.client.fetch_user(member_id)
            await user.send(text[:DM_LIMIT], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.info("no DM to %d (%s): falling back to the thread", member_id, error)
            return False
        return True
