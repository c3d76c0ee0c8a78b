"""FakeDiscord: a loopback Discord (REST API v10 + gateway) for end-to-end tests.

A test builds a guild, starts the fake, points a discord.py client (or the bot's
process) at ``api_base``/``gateway_url`` and then acts as members: run slash
commands, ask for autocomplete, click buttons, submit modals, and reads what the
bot posted. Every REST request is validated against Discord's OpenAPI
description; whatever Discord would reject is answered with Discord's error and
recorded in ``violations``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import web

from tests.timing import seconds

from .gateway import GatewayMixin
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    command_options,
)
from .models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    Perm,
    Role,
    User,
    snowflake,
    snowflake_on_shard,
)
from .rest import RestMixin
from .spec import OpenAPISpec, load_spec

T = TypeVar("T")

#: Seconds Discord gives for the first answer to an interaction, on a healthy machine: the
#: bot under test runs on this one, slower or busier perhaps (tests/timing.py).
RESPONSE_DEADLINE = seconds(3.0)
NONCE_WINDOW = 5 * 60  # "the past few minutes" in which an enforced nonce returns its message
TOKEN_LIFETIME = 15 * 60
#: Follow-ups an interaction may have when the app reaches it only through a user's
#: install (a server without the bot, a group DM): Discord refuses the sixth.
FOLLOWUP_LIMIT = 5


@dataclass(eq=False)
class Fault:
    """A failure injected on a route: the next ``times`` matching requests get it.

    ``after``: Discord carries the request out first and fails only in answering it
    (a 5xx after the action, which clients then send again). ``stall``: the request
    gets no answer at all until :meth:`release` (a process killed meanwhile never sees
    one); with ``after`` it is carried out first, else not at all."""

    route: str  # "METHOD /template" from the spec, or an operationId
    status: int
    times: int = 1
    retry_after: float = 0.1
    is_global: bool = False
    after: bool = False
    stall: bool = False
    #: Only requests whose path holds this (a channel's id, say); "": any.
    where: str = ""
    hits: int = 0
    released: asyncio.Event = field(default_factory=asyncio.Event)

    def release(self) -> None:
        """Let stalled requests go (answered with ``status``)."""
        self.released.set()

    def matches(self, method: str, template: str, operation_id: str, path: str = "") -> bool:
        return (
            self.hits < self.times
            and self.route in (f"{method} {template}", operation_id)
            and self.where in path
        )


@dataclass
class RequestRecord:
    method: str
    path: str
    operation_id: str | None
    body: Any
    files: list[tuple[str, str, bytes]]
    status: int = 0
    errors: list[str] = field(default_factory=list)


class FakeDiscord(GatewayMixin, RestMixin):
    def __init__(
        self, *, clock: Callable[[], float] = time.monotonic, spec: OpenAPISpec | None = None
    ) -> None:
        self.clock = clock
        self.spec = spec or load_spec()
        self.application_id = snowflake()
        # Shaped like a real bot token (base64 user id . timestamp . HMAC): bots check it.
        self.token = ".".join(
            [
                base64.urlsafe_b64encode(str(self.application_id).encode()).decode().rstrip("="),
                secrets.token_urlsafe(5),
                secrets.token_urlsafe(28),
            ]
        )
        self.bot_user = User(id=self.application_id, username="boardbot", bot=True)
        self.owner = User(id=snowflake(), username="owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.violations: list[str] = []
        self.requests: list[RequestRecord] = []
        self.faults: list[Fault] = []
        #: (author id, nonce) -> (message, when): Discord's memory of enforced nonces.
        self.nonces: dict[tuple[int, str], tuple[Message, float]] = {}
        self.port = 0
        self._seq = 0
        self._changed = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self._init_gateway()

    # ---- lifecycle -------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be (a yarl.URL of it)."""
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", "/{tail:.*}", self._stray)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        await self._close_gateway()
        for task in list(self._background):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- world building --------------------------------------------------------------------

    def add_guild(
        self, name: str = "Test Guild", *, shard: int | None = None, with_bot: bool = True
    ) -> Guild:
        """A new server (on ``shard`` of the bot's :attr:`shard_count`, if given).
        ``with_bot=False``: a server that never installed the bot; the bot hears
        nothing of it and may not post there (403, Missing Access), but members who
        installed the app to their account use its commands there (interactions)."""
        everyone_id = snowflake() if shard is None else snowflake_on_shard(shard, self.shard_count)
        guild = Guild(
            id=everyone_id,
            name=name,
            owner_id=self.owner.id,
            everyone=Role(id=everyone_id, name="@everyone", permissions=Perm.MEMBER),
            bot_present=with_bot,
        )
        self.guilds[guild.id] = guild
        guild.members[self.owner.id] = Member(user=self.owner, guild=guild)
        if not with_bot:
            return guild
        bot_role = Role(
            id=snowflake(), name="boardbot", permissions=Perm.BOT, position=1, managed=True
        )
        guild.roles.append(bot_role)
        guild.members[self.bot_user.id] = Member(user=self.bot_user, guild=guild, roles=[bot_role])
        self.dispatch("GUILD_CREATE", guild.create_payload())
        return guild

    def add_user(self, username: str, *, installed: bool = True) -> User:
        """A Discord user in no server yet; ``installed``: who installed the app to their
        account (the bot may then DM them, and its commands work in DMs)."""
        user = User(id=snowflake(), username=username, installed=installed)
        self.users[user.id] = user
        return user

    def join(self, guild: Guild, user: User) -> Member:
        """An existing user (of :meth:`add_user`, or a member elsewhere) joins ``guild``."""
        member = Member(user=user, guild=guild)
        guild.members[user.id] = member
        from .gateway import GUILD_MEMBERS

        payload = {**member.payload(), "guild_id": str(guild.id)}
        self.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)
        return member

    def dm_channel(self, user: User | Member) -> Channel:
        """The DM channel between ``user`` and the bot (the same one the bot opens with
        POST /users/@me/channels)."""
        user = user.user if isinstance(user, Member) else user
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(id=snowflake(), type=ChannelType.DM, name="", recipient=user)
            self.dm_channels[user.id] = ch
            self._register_channel(ch)
        return ch

    def group_dm(self, *users: User | Member, name: str = "") -> Channel:
        """A group DM of these users: a private channel the bot is never in."""
        people = [u.user if isinstance(u, Member) else u for u in users]
        ch = Channel(
            id=snowflake(),
            type=ChannelType.GROUP_DM,
            name=name,
            recipients=people,
            owner_id=people[0].id,
        )
        self._register_channel(ch)
        return ch

    def reachable(self, channel: Channel) -> bool:
        """Whether the bot may use ``channel`` through the REST API: one of a server it
        is in, or its own DM (a group DM never: the bot is not in it)."""
        if channel.type == ChannelType.GROUP_DM:
            return False
        return channel.guild is None or channel.guild.bot_present

    def add_member(self, guild: Guild, username: str) -> Member:
        user = User(id=snowflake(), username=username)
        self.users[user.id] = user
        member = Member(user=user, guild=guild)
        guild.members[user.id] = member
        payload = {**member.payload(), "guild_id": str(guild.id)}
        from .gateway import GUILD_MEMBERS

        self.dispatch("GUILD_MEMBER_ADD", payload, intent=GUILD_MEMBERS)
        return member

    def add_text_channel(
        self, guild: Guild, name: str, channel_type: int = ChannelType.GUILD_TEXT
    ) -> Channel:
        """A new channel of the server: a text channel, or another ``channel_type`` (a forum)."""
        ch = Channel(
            id=snowflake(), type=channel_type, name=name, guild=guild, position=len(guild.channels)
        )
        self._register_channel(ch)
        from .gateway import GUILDS

        self.dispatch("CHANNEL_CREATE", ch.payload(), intent=GUILDS)
        return ch

    def add_forum_post(self, guild: Guild, forum_name: str, title: str, author: Member) -> Channel:
        """A forum channel with one post by ``author``: the post is a thread of the forum,
        which itself takes no messages."""
        forum = self.add_text_channel(guild, forum_name, ChannelType.GUILD_FORUM)
        post = Channel(
            id=snowflake(),
            type=ChannelType.PUBLIC_THREAD,
            name=title,
            guild=guild,
            parent=forum,
            owner_id=author.id,
            thread_members={author.id},
        )
        self._announce_thread(post)
        return post

    def _register_channel(self, ch: Channel) -> None:
        self.channels[ch.id] = ch
        if ch.guild is not None:
            ch.guild.channels[ch.id] = ch

    # ---- faults on demand -----------------------------------------------------------------

    def inject(
        self,
        route: str,
        status: int = 429,
        *,
        times: int = 1,
        retry_after: float = 0.1,
        is_global: bool = False,
        after: bool = False,
        stall: bool = False,
        where: str = "",
    ) -> Fault:
        """Make the next ``times`` requests on ``route`` ("POST /channels/{channel_id}/messages"
        as in the spec, or an operationId such as "create_message") fail with ``status``
        (429 with Retry-After and Discord's JSON body, or 500/502/...). ``after=True``:
        the request is carried out, and only its answer is the failure (the fault after
        the action). ``stall=True``: no answer until ``fault.release()``. ``where``: only
        requests whose path holds it (e.g. a channel's id)."""
        fault = Fault(
            route=route,
            status=status,
            times=times,
            retry_after=retry_after,
            is_global=is_global,
            after=after,
            stall=stall,
            where=where,
        )
        self.faults.append(fault)
        return fault

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Discord's auto-archive (or a moderator) archives the thread."""
        thread.archived = True
        thread.locked = locked
        self._channel_changed(thread)

    def delete_channel(self, channel: Channel) -> None:
        channel.deleted = True
        from .gateway import GUILDS

        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        data = (
            channel.payload()
            if not channel.is_thread
            else {
                "id": str(channel.id),
                "guild_id": str(channel.guild.id) if channel.guild else None,
                "parent_id": str(channel.parent.id) if channel.parent else None,
                "type": channel.type,
            }
        )
        self.dispatch(event, data, intent=GUILDS)
        self._bump()

    def remove_member(self, member: Member) -> None:
        """The member leaves the guild."""
        member.present = False
        from .gateway import GUILD_MEMBERS

        self.dispatch(
            "GUILD_MEMBER_REMOVE",
            {"guild_id": str(member.guild.id), "user": member.user.payload()},
            intent=GUILD_MEMBERS,
        )
        self._bump()

    def _channel_changed(self, ch: Channel) -> None:
        from .gateway import GUILDS

        self.dispatch(
            "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE", ch.payload(), intent=GUILDS
        )
        self._bump()

    # ---- violations and waiting -----------------------------------------------------------

    def violation(self, message: str) -> None:
        self.violations.append(message)
        self._bump()

    def _bump(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T], timeout: float, what: str) -> T:
        """Wait (on the fake's state changes, no polling) until ``predicate()`` is truthy."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                hint = f"; violations so far: {self.violations}" if self.violations else ""
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}{hint}")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def wait_until_ready(self, timeout: float = seconds(20.0)) -> None:
        """Until the bot has identified (or resumed) and holds a live gateway connection."""
        await self.wait_until(lambda: self.connected, timeout, "the bot's gateway connection")

    async def wait_for_commands(
        self, *names: str, timeout: float = seconds(20.0), guild: Guild | None = None
    ) -> list[dict[str, Any]]:
        """Until the bot has registered (synced) commands with all these names."""

        def synced() -> list[dict[str, Any]] | None:
            cmds = self.commands_for(guild)
            have = {c["name"] for c in cmds}
            return cmds if cmds and all(n in have for n in names) else None

        return await self.wait_until(synced, timeout, f"command sync of {names or 'any'}")

    def commands_for(self, guild: Guild | None) -> list[dict[str, Any]]:
        cmds = list(self.global_commands)
        if guild is not None:
            cmds += self.guild_commands.get(guild.id, [])
        return cmds

    def mark(self) -> int:
        """A point in time: pass it as ``after=`` to only see messages posted later."""
        return self._seq

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        after: int | None = None,
        timeout: float = seconds(15.0),
        include_ephemeral: bool = False,
    ) -> Message:
        """The first message in ``channel`` (posted after the ``mark()`` ``after``) that
        satisfies ``predicate``, waiting for it if needed."""

        def find() -> Message | None:
            for m in channel.messages:
                if m.deleted or (m.ephemeral and not include_ephemeral):
                    continue
                if after is not None and m.seq <= after:
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_until(find, timeout, f"a message in #{channel.name}")

    def posts(self, channel: Channel, *, after: int | None = None) -> list[Message]:
        """Public messages in the channel (posted after the mark ``after``)."""
        return [m for m in channel.visible_messages() if after is None or m.seq > after]

    # ---- acting as a member ----------------------------------------------------------------

    async def run_command(
        self,
        member: Member | User,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        channel: Channel,
    ) -> Interaction:
        """The member runs ``/name`` (``"game new"`` for a subcommand) with these options."""
        return self._command_interaction(member, name, options or {}, channel, focused=None)

    async def run_command_raw(
        self, member: Member | User, name: str, options: list[dict[str, Any]], *, channel: Channel
    ) -> Interaction:
        """The member runs ``/name`` with ``options`` sent as they are (``{"name",
        "type", "value"}``, nothing resolved): what a buggy client, or a command changed
        since the member's client loaded it, may send; Discord's checks of the types are
        not made."""
        command = next((c for c in self.commands_for(channel.guild) if c["name"] == name), None)
        if command is None:
            raise ValueError(f"/{name} is not registered")
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": options}
        return self._deliver(APPLICATION_COMMAND, member, channel, data)

    async def autocomplete(
        self,
        member: Member | User,
        name: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel: Channel,
        timeout: float = seconds(15.0),
    ) -> list[dict[str, Any]]:
        """The member types into option ``focused``; returns the choices the bot offers."""
        ix = self._command_interaction(member, name, options, channel, focused=focused)
        return await ix.choices(timeout)

    def _command_interaction(
        self,
        member: Member | User,
        name: str,
        given: dict[str, Any],
        channel: Channel,
        focused: str | None,
    ) -> Interaction:
        guild = channel.guild
        if channel.deleted:
            raise ValueError("the channel was deleted")
        if channel.is_thread and channel.archived and focused is None:
            raise ValueError("application commands cannot be used in an archived thread")
        top, *path = name.split()
        command = next(
            (c for c in self.commands_for(guild) if c["name"] == top and c.get("type", 1) == 1),
            None,
        )
        if command is None:
            raise ValueError(
                f"/{top} is not registered; registered: "
                f"{[c['name'] for c in self.commands_for(guild)]}"
            )
        user = member.user if isinstance(member, Member) else member
        context, owners = self._context(user, channel)
        if not self._offered(command, context, owners):
            raise ValueError(
                f"/{top} is not offered here (context {context}, installs {sorted(owners)}; "
                f"the command allows contexts {command.get('contexts')} and installs "
                f"{command.get('integration_types')})"
            )
        options, resolved = command_options(
            command,
            given,
            path,
            focused,
            guild.members if guild is not None else {},
            self.channels,
            self.users,
        )
        data: dict[str, Any] = {"id": command["id"], "name": top, "type": 1, "options": options}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        kind = AUTOCOMPLETE if focused else APPLICATION_COMMAND
        return self._deliver(kind, member, channel, data)

    async def click(
        self,
        member: Member | User,
        message: Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> Interaction:
        """The member clicks a button of ``message`` (found by label or custom_id)."""
        button = message.button(label=label, custom_id=custom_id)
        if button.get("disabled"):
            raise ValueError(f"button {button.get('label')!r} is disabled")
        if button.get("style") == 5:
            raise ValueError("a link button sends no interaction")
        if message.deleted:
            raise ValueError("the message was deleted")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return self._deliver(MESSAGE_COMPONENT, member, message.channel, data, source=message)

    async def select(
        self,
        member: Member | User,
        message: Message,
        values: list[str],
        *,
        custom_id: str | None = None,
    ) -> Interaction:
        """The member picks ``values`` in a string select menu of ``message``."""
        menus = [
            c
            for c in message.iter_components()
            if c.get("type") == 3 and (custom_id is None or c.get("custom_id") == custom_id)
        ]
        if not menus:
            raise LookupError("no such select menu")
        menu = menus[0]
        offered = {o["value"] for o in menu.get("options", [])}
        if not set(values) <= offered:
            raise ValueError(f"{values} not among the options {sorted(offered)}")
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values}
        return self._deliver(MESSAGE_COMPONENT, member, message.channel, data, source=message)

    async def submit_modal(
        self, member: Member | User, opened_by: Interaction, values: dict[str, str]
    ) -> Interaction:
        """The member fills in and submits the modal the bot opened in answer to
        ``opened_by``; ``values`` maps each text input's custom_id to its text."""
        modal = await opened_by.modal()
        rows: list[dict[str, Any]] = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                inputs = [
                    {
                        "type": 4,
                        "id": c.get("id", 0),
                        "custom_id": c["custom_id"],
                        "value": values.get(c["custom_id"], c.get("value") or ""),
                    }
                    for c in comp.get("components", [])
                    if c.get("type") == 4
                ]
                rows.append({"type": 1, "id": comp.get("id", 0), "components": inputs})
            elif comp.get("type") == 18 and comp.get("component", {}).get("type") == 4:
                c = comp["component"]
                rows.append(
                    {
                        "type": 18,
                        "id": comp.get("id", 0),
                        "component": {
                            "type": 4,
                            "id": c.get("id", 0),
                            "custom_id": c["custom_id"],
                            "value": values.get(c["custom_id"], c.get("value") or ""),
                        },
                    }
                )
        data = {"custom_id": modal["custom_id"], "components": rows}
        return self._deliver(MODAL_SUBMIT, member, opened_by.channel, data, source=opened_by.source)

    def _context(self, user: User, channel: Channel) -> tuple[int, dict[str, str]]:
        """Where an interaction happens (0: a server, 1: the bot's DM, 2: a private
        channel) and its ``authorizing_integration_owners``: the installs it goes
        through (``"0"``: the server's; ``"1"``: the user's own)."""
        owners: dict[str, str] = {}
        if channel.type == ChannelType.DM:
            if any(g.bot_present and g.member(user.id) for g in self.guilds.values()):
                owners["0"] = "0"  # a server install reaches the bot's DM
            if user.installed:
                owners["1"] = str(user.id)
            return 1, owners
        if channel.type == ChannelType.GROUP_DM:
            return 2, {"1": str(user.id)} if user.installed else {}
        guild = channel.guild
        if guild is not None and guild.bot_present:
            owners["0"] = str(guild.id)
        if user.installed:
            owners["1"] = str(user.id)
        return 0, owners

    @staticmethod
    def _offered(command: dict[str, Any], context: int, owners: dict[str, str]) -> bool:
        """Whether Discord's client offers ``command`` there: its contexts name this one
        and it is installed by one of the installs that reach it."""
        contexts = command.get("contexts")
        if contexts is not None and context not in contexts:
            return False
        kinds = command.get("integration_types") or [0]
        return any(int(owner) in kinds for owner in owners)

    def _deliver(
        self,
        kind: int,
        member: Member | User,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None = None,
    ) -> Interaction:
        if isinstance(member, Member) and not member.present:
            raise ValueError(f"{member.user.username} has left the guild")
        user = member.user if isinstance(member, Member) else member
        guild = channel.guild
        if guild is not None and not isinstance(member, Member):
            found = guild.member(user.id)
            if found is None:
                raise ValueError(f"{user.username} is not a member of {guild.name}")
            member = found
        context, owners = self._context(user, channel)
        if not owners:
            raise ValueError(f"{user.username} cannot reach the app in {channel.name!r}")
        ix_id = snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(60)
        payload: dict[str, Any] = {
            "id": str(ix_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "app_permissions": str(Perm.BOT),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": owners,
            "context": context,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is not None and isinstance(member, Member):
            payload.update(
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_id=str(guild.id),
                channel={**channel.payload(), "permissions": str(member.permissions)},
                member=member.payload(with_permissions=True),
                guild_locale=guild.locale,
            )
        else:
            payload.update(channel=channel.payload(), user=user.payload())
        user_only = "0" not in owners
        if source is not None:
            payload["message"] = source.payload()
        ix = Interaction(
            fake=self,
            id=ix_id,
            token=token,
            type=kind,
            application_id=self.application_id,
            user=user,
            member=member if isinstance(member, Member) else None,
            channel=channel,
            payload=payload,
            source=source,
            # Discord's limits on an app the server never installed (a user install).
            followup_limit=FOLLOWUP_LIMIT if user_only and context != 1 else None,
            forced_ephemeral=bool(user_only and guild is not None and not guild.external_apps),
        )
        self.interactions[ix_id] = ix
        self.interactions_by_token[token] = ix

        def sent() -> None:
            if ix.sent_at is None:
                ix.sent_at = self.clock()

        if not self.dispatch("INTERACTION_CREATE", payload, on_sent=sent):
            raise RuntimeError("the bot has no gateway session")
        self._bump()
        return ix

    # ---- message bookkeeping shared by REST handlers ---------------------------------------

    def _new_message(self, channel: Channel, author: User, **fields: Any) -> Message:
        self._seq += 1
        msg = Message(id=snowflake(), channel=channel, author=author, seq=self._seq, **fields)
        channel.messages.append(msg)
        self.messages[msg.id] = msg
        return msg
