"""What the fake Discord holds in memory: users, guilds, channels, threads,
members, messages and attachments, each able to render itself as the JSON
payload Discord would send."""

from __future__ import annotations

import itertools
import re
import struct
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh, increasing snowflake (time in its high bits, as Discord's are)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_on_shard(shard: int, shard_count: int) -> int:
    """A fresh snowflake of a server that Discord serves on ``shard`` of ``shard_count``:
    ``(id >> 22) % shard_count == shard``."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    ms -= (ms - shard) % shard_count
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso(ts: float | None = None) -> str:
    return datetime.fromtimestamp(ts if ts is not None else time.time(), UTC).isoformat()


# Permission bits (https://discord.com/developers/docs/topics/permissions).
class Perm:
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38

    MEMBER = (
        ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT = MEMBER | MANAGE_MESSAGES | MANAGE_THREADS | CREATE_PRIVATE_THREADS


class ChannelType:
    GUILD_TEXT = 0
    DM = 1
    GROUP_DM = 3
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    GUILD_FORUM = 15
    THREADS = (10, 11, 12)


@dataclass(eq=False)
class User:
    id: int
    username: str
    bot: bool = False
    dms_open: bool = True
    #: The app is installed to this user's account (a user install): its commands work
    #: in the bot's DM, in group DMs and in servers without the bot, and the bot may DM
    #: them without a shared server.
    installed: bool = False
    #: The language of the user's Discord (each interaction's ``locale``).
    locale: str = "en-GB"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": None if self.bot else self.username.title(),
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "description": None,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    """A user's membership of a guild; ``present`` turns False when they leave."""

    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)
    present: bool = True

    def __repr__(self) -> str:  # short: the whole world hangs off a member
        return f"Member({self.user.username!r}, guild={self.guild.id})"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def permissions(self) -> int:
        perms = self.guild.everyone.permissions
        for role in self.roles:
            perms |= role.permissions
        return perms

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            out["content_type"] = self.content_type
        if self.description is not None:
            out["description"] = self.description
        dims = png_size(self.data)
        if dims:
            out["width"], out["height"] = dims
        return out


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    seq: int  # creation order over the whole fake, for "posted after" waits
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso)
    edited_timestamp: str | None = None
    interaction: Any = None  # the fake's Interaction record this message answers, if any
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    pinned: bool = False
    edits: int = 0
    thread: Channel | None = None
    reactions: list[str] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None
    nonce: str | None = None

    def __repr__(self) -> str:  # short: a message reaches its channel, guild, members…
        return f"Message(id={self.id}, channel={self.channel.id}, {self.content[:60]!r})"

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred answer not yet filled in ("Bot is thinking…")."""
        return bool(self.flags & LOADING)

    @property
    def mentions(self) -> list[int]:
        return [int(x) for x in re.findall(r"<@!?(\d+)>", self.content)]

    @property
    def pinged(self) -> set[int]:
        """Users this message notifies: mentioned in the content and allowed to be pinged
        by ``allowed_mentions`` (an ephemeral message notifies nobody)."""
        ids = set(self.mentions)
        am = self.allowed_mentions
        if self.ephemeral or not ids:
            return set()
        if am is None or "users" in (am.get("parse") or []):
            return ids
        return ids & {int(u) for u in am.get("users") or []}

    def iter_components(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        stack = list(self.components)
        while stack:
            c = stack.pop(0)
            out.append(c)
            stack[0:0] = list(c.get("components") or [])
            if c.get("accessory"):
                stack.insert(0, c["accessory"])
            if c.get("component"):
                stack.insert(0, c["component"])
        return out

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def button(self, label: str | None = None, custom_id: str | None = None) -> dict[str, Any]:
        for b in self.buttons:
            if (label is None or b.get("label") == label) and (
                custom_id is None or b.get("custom_id") == custom_id
            ):
                return b
        raise LookupError(
            f"no button label={label!r} custom_id={custom_id!r} in message "
            f"{self.id}; buttons: {[b.get('label') for b in self.buttons]}"
        )

    def attachment(self, suffix: str = "") -> Attachment:
        for a in self.attachments:
            if a.filename.endswith(suffix):
                return a
        raise LookupError(f"no attachment ending {suffix!r} in message {self.id}")

    def text(self) -> str:
        """Content and embed text together, for assertions about what a reader sees."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name", ""), f.get("value", "")]
            if e.get("footer"):
                parts.append(e["footer"].get("text", ""))
        for c in self.iter_components():
            if c.get("type") == 10:
                parts.append(c.get("content", ""))
        return "\n".join(p for p in parts if p)

    def payload(self) -> dict[str, Any]:
        ch = self.channel
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(ch.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.interaction is not None:
            data["application_id"] = str(self.interaction.application_id)
            data["webhook_id"] = str(self.interaction.application_id)
            data["interaction_metadata"] = self.interaction.metadata()
        if self.message_reference:
            data["message_reference"] = self.message_reference
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.thread is not None and not self.thread.deleted:
            data["thread"] = self.thread.payload()
        return data


@dataclass(eq=False)
class Channel:
    """A text channel, a forum (type 15), a thread (type 11/12; a forum's posts are
    threads) or a DM channel."""

    id: int
    type: int
    name: str
    guild: Guild | None = None
    parent: Channel | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 10080
    archive_timestamp: str = field(default_factory=iso)
    invitable: bool = True
    topic: str | None = None
    position: int = 0
    recipient: User | None = None
    #: A group DM's members (the bot is never one: it cannot be added to a group DM).
    recipients: list[User] = field(default_factory=list)
    deleted: bool = False
    messages: list[Message] = field(default_factory=list)
    thread_members: set[int] = field(default_factory=set)

    def __repr__(self) -> str:  # short: a channel holds its messages and its guild
        return f"Channel(id={self.id}, type={self.type}, name={self.name!r})"

    @property
    def is_thread(self) -> bool:
        return self.type in ChannelType.THREADS

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def visible_messages(self) -> list[Message]:
        """What anybody opening the channel sees: not deleted, not ephemeral."""
        return [m for m in self.messages if not m.deleted and not m.ephemeral]

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "flags": 0}
        last = next((m for m in reversed(self.messages) if not m.deleted), None)
        data["last_message_id"] = str(last.id) if last else None
        if self.type == ChannelType.DM:
            data["recipients"] = [self.recipient.payload()] if self.recipient else []
            return data
        if self.type == ChannelType.GROUP_DM:
            data.update(
                recipients=[u.payload() for u in self.recipients],
                name=self.name or None,
                icon=None,
                owner_id=str(self.owner_id or self.recipients[0].id),
            )
            return data
        data.update(
            guild_id=str(self.guild.id) if self.guild else None,
            name=self.name,
            rate_limit_per_user=0,
            nsfw=False,
        )
        if self.is_thread:
            data.update(
                parent_id=str(self.parent.id) if self.parent else None,
                owner_id=str(self.owner_id) if self.owner_id else None,
                message_count=len(self.messages),
                total_message_sent=len(self.messages),
                member_count=len(self.thread_members),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.archive_timestamp,
                },
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[],
                parent_id=None,
                topic=self.topic,
                default_auto_archive_duration=10080,
            )
        if self.type == ChannelType.GUILD_FORUM:
            data.update(
                available_tags=[],
                default_reaction_emoji=None,
                default_sort_order=None,
                default_forum_layout=0,
                default_thread_rate_limit_per_user=0,
            )
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    roles: list[Role] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)  # threads included
    #: The bot is a member (installed to the server); False: only members who installed
    #: the app to their account reach it there, by interactions.
    bot_present: bool = True
    #: The server lets members use their own (user-installed) apps; off, Discord makes
    #: such an app's answers ephemeral.
    external_apps: bool = True
    #: The server's language (``guild_locale``, ``preferred_locale``).
    locale: str = "en-US"

    def __repr__(self) -> str:  # short: a guild holds everything in it
        return f"Guild(id={self.id}, name={self.name!r})"

    def member(self, user_id: int) -> Member | None:
        m = self.members.get(user_id)
        return m if m is not None and m.present else None

    def base_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in [self.everyone, *self.roles]],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
        }

    def create_payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: the guild with its members, channels and active threads."""
        members = [m for m in self.members.values() if m.present]
        live = [c for c in self.channels.values() if not c.deleted]
        data = self.base_payload()
        data.update(
            joined_at=iso(),
            large=False,
            unavailable=False,
            member_count=len(members),
            voice_states=[],
            members=[m.payload() for m in members],
            channels=[c.payload() for c in live if not c.is_thread],
            threads=[c.payload() for c in live if c.is_thread and not c.archived],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        return data
