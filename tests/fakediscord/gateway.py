"""The gateway side of the fake: HELLO, IDENTIFY/READY, RESUME, heartbeats and
dispatches, in uncompressed JSON text frames (discord.py decodes text frames
as they are, whatever ``compress`` it asked for in the URL).

Sharding as Discord does it: an IDENTIFY may name its shard (``"shard": [id, count]``);
each shard has its own session, and an event of a server goes to the session of the
server's shard, ``(guild_id >> 22) % count`` (events of no server, DMs, to shard 0).
Several bot processes may hold a shard each."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .fake import FakeDiscord

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12


@dataclass(eq=False)
class Connection:
    ws: web.WebSocketResponse
    request: web.Request
    queue: asyncio.Queue[tuple[str, Callable[[], None] | None]] = field(
        default_factory=asyncio.Queue
    )
    sender: asyncio.Task[None] | None = None

    async def send_loop(self) -> None:
        while True:
            frame, on_sent = await self.queue.get()
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return
            if on_sent is not None:
                on_sent()


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    shard: int = 0
    seq: int = 0
    buffer: list[tuple[int, str, Callable[[], None] | None]] = field(default_factory=list)
    conn: Connection | None = None
    resumable: bool = True


class GatewayMixin:
    """Mixed into FakeDiscord: the websocket endpoint and event dispatch."""

    heartbeat_interval_ms: int = 41250

    def _init_gateway(self: FakeDiscord) -> None:
        #: The session of each shard (shard 0 alone when the bot does not shard).
        self.sessions: dict[int, Session] = {}
        self.shard_count = 1
        self.gateway_log: list[str] = []  # "identify", "resume", "invalid_session", "drop"
        self._connections: set[Connection] = set()

    @property
    def session(self: FakeDiscord) -> Session | None:
        """Shard 0's session: the bot's one session when it does not shard."""
        return self.sessions.get(0)

    def shard_of(self: FakeDiscord, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    async def _gateway(self: FakeDiscord, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoclose=False, max_msg_size=0)
        await ws.prepare(request)
        if request.query.get("v") != "10" or request.query.get("encoding") != "json":
            self.violation(
                f"gateway connected with v={request.query.get('v')!r} "
                f"encoding={request.query.get('encoding')!r}, expected v=10 json"
            )
        conn = Connection(ws=ws, request=request)
        conn.sender = asyncio.create_task(conn.send_loop())
        self._connections.add(conn)
        self._send(
            conn,
            {
                "op": 10,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-gateway"]},
            },
        )
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_gateway_message(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    self.violation("the client sent a binary gateway frame")
                elif msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.ERROR):
                    break
        finally:
            self._connections.discard(conn)
            for session in self.sessions.values():
                if session.conn is conn:
                    session.conn = None
            conn.sender.cancel()
            if not ws.closed:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 1.0)
            self._bump()
        return ws

    def _send(
        self, conn: Connection, frame: dict[str, Any], on_sent: Callable[[], None] | None = None
    ) -> None:
        frame.setdefault("s", None)
        frame.setdefault("t", None)
        conn.queue.put_nowait((json.dumps(frame), on_sent))

    async def _on_gateway_message(self: FakeDiscord, conn: Connection, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:
            self._send(conn, {"op": 11})
        elif op == 2:
            if not isinstance(d, dict) or d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard, count = d.get("shard") or (0, 1)
            if not (isinstance(shard, int) and isinstance(count, int) and 0 <= shard < count):
                self.violation(f"IDENTIFY with shard {d.get('shard')!r}")
                return
            if count != self.shard_count and any(
                s.conn is not None and s.shard != shard for s in self.sessions.values()
            ):
                self.violation(
                    f"IDENTIFY with {count} shards while other sessions have {self.shard_count}"
                )
            self.shard_count = count
            session = Session(
                id=secrets.token_hex(16), intents=int(d.get("intents") or 0), shard=shard, conn=conn
            )
            self.sessions[shard] = session
            self.gateway_log.append("identify")
            self.dispatch("READY", self._ready_payload(session), shard=shard)
            for guild in self.guilds.values():
                if self.shard_of(guild.id) == shard and guild.bot_present:
                    self.dispatch("GUILD_CREATE", guild.create_payload())
        elif op == 6:
            s = next(
                (
                    s
                    for s in self.sessions.values()
                    if isinstance(d, dict) and s.id == d.get("session_id")
                ),
                None,
            )
            ok = (
                isinstance(d, dict)
                and s is not None
                and s.resumable
                and d.get("session_id") == s.id
                and d.get("token") == self.token
            )
            if not ok:
                self.gateway_log.append("invalid_session")
                self._send(conn, {"op": 9, "d": False})
                return
            assert s is not None
            self.gateway_log.append("resume")
            s.conn = conn
            last = d.get("seq") or 0
            for seq, frame, on_sent in s.buffer:
                if seq > last:
                    conn.queue.put_nowait((frame, on_sent))
            self.dispatch("RESUMED", {"_trace": ["fake-gateway"]}, shard=s.shard)
        elif op == 8:
            if isinstance(d, dict):
                guild = self.guilds.get(int(d.get("guild_id", 0)))
                if guild is not None:
                    members = [m.payload() for m in guild.members.values() if m.present]
                    self.dispatch(
                        "GUILD_MEMBERS_CHUNK",
                        {
                            "guild_id": str(guild.id),
                            "members": members,
                            "chunk_index": 0,
                            "chunk_count": 1,
                            "nonce": d.get("nonce"),
                            "not_found": [],
                        },
                    )
        elif op in (3, 4):
            pass
        else:
            self.violation(f"unexpected gateway opcode {op}")
        self._bump()

    def _ready_payload(self: FakeDiscord, session: Session) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "user_settings": {},
            "guilds": [
                {"id": str(g.id), "unavailable": True}
                for g in self.guilds.values()
                if self.shard_of(g.id) == session.shard and g.bot_present
            ],
            "shard": [session.shard, self.shard_count],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "application": {"id": str(self.application_id), "flags": 0},
            "_trace": ["fake-gateway"],
        }

    def dispatch(
        self: FakeDiscord,
        event: str,
        data: dict[str, Any],
        *,
        intent: int | None = None,
        on_sent: Callable[[], None] | None = None,
        shard: int | None = None,
    ) -> bool:
        """Send a DISPATCH event to the session of its server's shard (buffered for
        RESUME). Returns False when that shard has no session or did not ask for that
        intent."""
        if shard is None:
            guild_id = (
                data.get("id")
                if event.startswith("GUILD_") and "guild_id" not in data
                else data.get("guild_id")
            )
            shard = 0 if guild_id is None else self.shard_of(int(guild_id))
            guild = None if guild_id is None else self.guilds.get(int(guild_id))
            if guild is not None and not guild.bot_present and event != "INTERACTION_CREATE":
                return False  # the bot is not in that server: it hears nothing of it
        s = self.sessions.get(shard)
        if s is None or (intent is not None and not s.intents & intent):
            return False
        s.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": s.seq, "d": data})
        s.buffer.append((s.seq, frame, on_sent))
        if s.conn is not None:
            s.conn.queue.put_nowait((frame, on_sent))
        return True

    @property
    def connected(self: FakeDiscord) -> bool:
        """Every shard the bot identified holds a live connection."""
        return bool(self.sessions) and all(s.conn is not None for s in self.sessions.values())

    async def drop_gateway(
        self: FakeDiscord,
        *,
        code: int = 4000,
        invalidate: bool = False,
        abrupt: bool = False,
        shard: int = 0,
    ) -> None:
        """Close the bot's gateway connection (of ``shard``). With ``invalidate`` its next
        RESUME is refused (op 9), so it must IDENTIFY afresh; ``abrupt`` cuts the TCP
        connection without a close frame."""
        s = self.sessions.get(shard)
        if s is None or s.conn is None:
            raise RuntimeError("the bot is not connected to the gateway")
        conn = s.conn
        s.conn = None
        if invalidate:
            s.resumable = False
        self.gateway_log.append("drop")
        conn.sender.cancel() if conn.sender else None
        if abrupt:
            transport = conn.request.transport
            if transport is not None:
                transport.close()
        else:
            task = asyncio.create_task(conn.ws.close(code=code, message=b"fake drop"))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        self._bump()

    async def _close_gateway(self: FakeDiscord) -> None:
        for conn in list(self._connections):
            if conn.sender:
                conn.sender.cancel()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=1001), 1.0)
