"""The REST side of the fake: request validation, injected faults, and one
handler per implemented OpenAPI operation (``op_<operationId>``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import limits
from .gateway import DIRECT_MESSAGES, GUILD_MESSAGES, GUILDS
from .interactions import ALLOWED_CALLBACKS, APPLICATION_COMMAND, Interaction
from .models import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    Attachment,
    Channel,
    ChannelType,
    Message,
    iso,
    snowflake,
)

if TYPE_CHECKING:
    from .fake import FakeDiscord

# Operations authenticated by the interaction token in the path, not the bot token.
_TOKEN_AUTH = {
    "create_interaction_response",
    "execute_webhook",
    "get_webhook_by_token",
    "get_original_webhook_message",
    "update_original_webhook_message",
    "delete_original_webhook_message",
    "get_webhook_message",
    "update_webhook_message",
    "delete_webhook_message",
}
_MESSAGE_FLAGS_KEPT = EPHEMERAL | (1 << 2) | (1 << 12) | IS_COMPONENTS_V2


@dataclass
class Upload:
    field: str
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class Req:
    method: str
    path: str
    operation_id: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Upload]

    def id(self, name: str) -> int:
        return int(self.params[name])


def jresp(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response with Discord's bare ``application/json`` content type
    (discord.py decodes a body as JSON only on that exact header)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def error(status: int, code: int, message: str, **extra: Any) -> web.Response:
    return jresp({"message": message, "code": code, **extra}, status=status)


def unknown(what: str, code: int) -> web.Response:
    return error(404, code, f"Unknown {what}")


def no_content() -> web.Response:
    return web.Response(status=204)


def _flag(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


class RestMixin:
    """Mixed into FakeDiscord."""

    # ---- entry points -----------------------------------------------------------------------

    async def _stray(self: FakeDiscord, request: web.Request) -> web.Response:
        self.violation(f"request outside /api/v10: {request.method} {request.path}")
        return error(404, 0, "404: Not Found")

    async def _cdn(self: FakeDiscord, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            return web.Response(status=404)
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    async def _rest(self: FakeDiscord, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        record_errors: list[str] = []
        try:
            body, files, has_body, problem = await _read_body(request)
        except ConnectionResetError:  # the client died mid-request (a killed bot): no request
            return web.Response(status=400)
        op, params, miss = self.spec.match(method, path)
        from .fake import RequestRecord

        rec = RequestRecord(
            method=method,
            path=path,
            operation_id=op.operation_id if op else None,
            body=body,
            files=[(f.field, f.filename, f.data) for f in files],
        )
        self.requests.append(rec)
        try:
            if op is None:
                rec.errors.append(miss or "unknown route")
                self.violation(f"{method} {path}: {miss}")
                rec.status = 404
                return error(404, 0, "404: Not Found")
            fault = next(
                (f for f in self.faults if f.matches(method, op.template, op.operation_id, path)),
                None,
            )
            if fault is not None:
                fault.hits += 1
                if not fault.after:
                    return await self._fail(rec, fault)
            if (
                op.operation_id not in _TOKEN_AUTH
                and request.headers.get("Authorization") != f"Bot {self.token}"
            ):
                self.violation(f"{method} {path}: missing or wrong Authorization header")
                rec.status = 401
                return error(401, 0, "401: Unauthorized")
            if problem:
                record_errors.append(problem)
            record_errors += self.spec.validate(
                op, params, list(request.query.items()), body, has_body
            )
            record_errors += _upload_errors(body, files)
            if not record_errors:
                record_errors += _extra_checks(op.operation_id, body, files)
            if record_errors:
                rec.errors = record_errors
                for e in record_errors:
                    self.violation(f"{method} {op.template} ({op.operation_id}): {e}")
                rec.status = 400
                return error(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={"_errors": [{"code": "INVALID", "message": e} for e in record_errors]},
                )
            refused = self._missing_access(op.operation_id, params)
            if refused is not None:
                rec.status = 403
                return refused
            handler = getattr(self, f"op_{op.operation_id}", None)
            if handler is None:
                self.violation(
                    f"{method} {op.template} ({op.operation_id}) is valid but the "
                    "fake does not implement it: add a handler in rest.py"
                )
                rec.status = 404
                return error(404, 0, "404: Not Found")
            req = Req(
                method=method,
                path=path,
                operation_id=op.operation_id,
                params=params,
                query=dict(request.query),
                body=body,
                files=files,
            )
            try:
                response = await handler(req)
            except Exception as exc:  # a bug of the fake: make it loud, not a silent retry
                self.violation(f"the fake crashed on {method} {path}: {exc!r}")
                raise
            if fault is not None:  # carried out; only the answer fails
                if op.operation_id == "create_interaction_response":
                    answered = self.interactions.get(req.id("interaction_id"))
                    if answered is not None:
                        answered.answer_lost = True
                self._bump()
                return await self._fail(rec, fault)
            rec.status = response.status
            return response
        finally:
            self._bump()

    def _missing_access(
        self: FakeDiscord, operation_id: str, params: dict[str, str]
    ) -> web.Response | None:
        """Discord's refusal of a server the bot is not in, or of a channel it cannot
        see (a group DM, a channel of such a server): 403, Missing Access. What goes by
        an interaction's token (its answers, follow-ups) is not refused."""
        if operation_id in _TOKEN_AUTH:
            return None
        guild = self.guilds.get(int(params["guild_id"])) if "guild_id" in params else None
        channel = self.channels.get(int(params["channel_id"])) if "channel_id" in params else None
        if (guild is not None and not guild.bot_present) or (
            channel is not None and not self.reachable(channel)
        ):
            return error(403, 50001, "Missing Access")
        return None

    async def _fail(self: FakeDiscord, rec: Any, fault: Any) -> web.Response:
        if fault.stall:
            rec.status = -1  # no answer (yet)
            self._bump()
            await fault.released.wait()
        rec.status = fault.status
        return _fault_response(fault)

    # ---- application, user, gateway ---------------------------------------------------------

    async def op_get_my_user(self: FakeDiscord, req: Req) -> web.Response:
        return jresp(
            {
                **self.bot_user.payload(),
                "verified": True,
                "mfa_enabled": False,
                "locale": "en-US",
                "email": None,
            }
        )

    async def op_get_my_oauth2_application(self: FakeDiscord, req: Req) -> web.Response:
        return jresp(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "type": None,
                "bot": self.bot_user.payload(),
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.owner.payload(),
                "team": None,
                "summary": "",
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "guild_id": None,
                "approximate_guild_count": len(self.guilds),
                "integration_types_config": {"0": {}, "1": {}},
            }
        )

    async def op_get_gateway(self: FakeDiscord, req: Req) -> web.Response:
        return jresp({"url": self.gateway_url})

    async def op_get_bot_gateway(self: FakeDiscord, req: Req) -> web.Response:
        return jresp(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def op_get_user(self: FakeDiscord, req: Req) -> web.Response:
        user = self.users.get(req.id("user_id"))
        return jresp(user.payload()) if user else unknown("User", 10013)

    async def op_create_dm(self: FakeDiscord, req: Req) -> web.Response:
        user = self.users.get(int(req.body.get("recipient_id") or 0))
        if user is None:
            return unknown("User", 10013)
        return jresp(self.dm_channel(user).payload())

    # ---- guilds -----------------------------------------------------------------------------

    def _guild(self: FakeDiscord, req: Req) -> Any:
        return self.guilds.get(req.id("guild_id"))

    async def op_get_guild(self: FakeDiscord, req: Req) -> web.Response:
        g = self._guild(req)
        return jresp(g.base_payload()) if g else unknown("Guild", 10004)

    async def op_list_guild_channels(self: FakeDiscord, req: Req) -> web.Response:
        g = self._guild(req)
        if g is None:
            return unknown("Guild", 10004)
        return jresp(
            [c.payload() for c in g.channels.values() if not c.deleted and not c.is_thread]
        )

    async def op_list_guild_roles(self: FakeDiscord, req: Req) -> web.Response:
        g = self._guild(req)
        if g is None:
            return unknown("Guild", 10004)
        return jresp([r.payload() for r in [g.everyone, *g.roles]])

    async def op_get_guild_member(self: FakeDiscord, req: Req) -> web.Response:
        g = self._guild(req)
        m = g.member(req.id("user_id")) if g else None
        return jresp(m.payload()) if m else unknown("Member", 10007)

    async def op_list_guild_members(self: FakeDiscord, req: Req) -> web.Response:
        g = self._guild(req)
        if g is None:
            return unknown("Guild", 10004)
        return jresp([m.payload() for m in g.members.values() if m.present])

    async def op_get_active_guild_threads(self: FakeDiscord, req: Req) -> web.Response:
        g = self._guild(req)
        if g is None:
            return unknown("Guild", 10004)
        threads = [
            c.payload()
            for c in g.channels.values()
            if c.is_thread and not c.deleted and not c.archived
        ]
        return jresp({"threads": threads, "members": []})

    # ---- commands ---------------------------------------------------------------------------

    def _command_list(self: FakeDiscord, req: Req) -> list[dict[str, Any]] | None:
        if str(req.params["application_id"]) != str(self.application_id):
            return None
        if "guild_id" in req.params:
            return self.guild_commands.setdefault(req.id("guild_id"), [])
        return self.global_commands

    def _normalise_command(
        self: FakeDiscord, req: Req, raw: dict[str, Any], existing: list[dict[str, Any]]
    ) -> dict[str, Any]:
        kind = raw.get("type") or 1
        old = next((c for c in existing if c["name"] == raw["name"] and c["type"] == kind), None)
        cmd = {
            "id": old["id"] if old else str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": kind,
            "name": raw["name"],
            "description": raw.get("description") or "",
            "name_localizations": raw.get("name_localizations") or None,
            "description_localizations": raw.get("description_localizations") or None,
            "options": raw.get("options") or [],
            "default_member_permissions": raw.get("default_member_permissions"),
            "dm_permission": raw.get("dm_permission", True),
            "nsfw": bool(raw.get("nsfw")),
            "contexts": raw.get("contexts"),
            "integration_types": raw.get("integration_types") or [0],
        }
        if "guild_id" in req.params:
            cmd["guild_id"] = req.params["guild_id"]
        return cmd

    async def op_bulk_set_application_commands(self: FakeDiscord, req: Req) -> web.Response:
        cmds = self._command_list(req)
        if cmds is None:
            return unknown("Application", 10002)
        names = [(c["name"], c.get("type") or 1) for c in req.body]
        if len(set(names)) != len(names):
            self.violation(f"duplicate command names in bulk overwrite: {names}")
            return error(400, 50035, "Invalid Form Body")
        new = [self._normalise_command(req, raw, cmds) for raw in req.body]
        cmds[:] = new
        return jresp(new)

    op_bulk_set_guild_application_commands = op_bulk_set_application_commands

    async def op_list_application_commands(self: FakeDiscord, req: Req) -> web.Response:
        cmds = self._command_list(req)
        return jresp(cmds) if cmds is not None else unknown("Application", 10002)

    op_list_guild_application_commands = op_list_application_commands

    async def op_create_application_command(self: FakeDiscord, req: Req) -> web.Response:
        cmds = self._command_list(req)
        if cmds is None:
            return unknown("Application", 10002)
        cmd = self._normalise_command(req, req.body, cmds)
        existed = any(c["id"] == cmd["id"] for c in cmds)
        cmds[:] = [c for c in cmds if c["id"] != cmd["id"]] + [cmd]
        return jresp(cmd, status=200 if existed else 201)

    op_create_guild_application_command = op_create_application_command

    # ---- interactions -----------------------------------------------------------------------

    async def op_create_interaction_response(self: FakeDiscord, req: Req) -> web.Response:
        ix = self.interactions.get(req.id("interaction_id"))
        if ix is None or ix.token != req.params["interaction_token"]:
            self.violation(f"callback for an unknown interaction {req.params['interaction_id']}")
            return unknown("interaction", 10062)
        now = self.clock()
        if ix.callbacks:
            if not ix.answer_lost:
                self.violation(f"interaction {ix.name!r} answered twice")
            return error(400, 40060, "Interaction has already been acknowledged.")
        from .fake import RESPONSE_DEADLINE

        delay = now - (ix.sent_at if ix.sent_at is not None else now)
        if delay > RESPONSE_DEADLINE:
            self.violation(
                f"first answer to interaction {ix.name!r} came after {delay:.2f}s "
                f"(Discord allows {RESPONSE_DEADLINE}s)"
            )
            return unknown("interaction", 10062)
        kind = req.body["type"]
        data = req.body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[ix.type]:
            self.violation(f"callback type {kind} is not valid for interaction type {ix.type}")
            return error(400, 50035, "Invalid Form Body")
        if ix.forced_ephemeral and kind in (4, 5):  # external apps off in that server
            data = {**data, "flags": int(data.get("flags") or 0) | EPHEMERAL}
        ix.responded_at = now
        ix.callbacks.append({"type": kind, "data": data, "files": req.files})
        msg: Message | None = None
        if kind == 4:
            msg = self._create_message(
                ix.channel,
                data,
                req.files,
                interaction=ix,
                type=20 if ix.type == APPLICATION_COMMAND else 0,
            )
            ix.original = msg
        elif kind == 5:
            msg = self._new_message(
                ix.channel,
                self.bot_user,
                interaction=ix,
                flags=LOADING | (int(data.get("flags") or 0) & EPHEMERAL),
                type=20 if ix.type == APPLICATION_COMMAND else 0,
            )
            ix.original = msg
        elif kind in (6, 7):
            ix.original = ix.source
            if kind == 7 and ix.source is not None:
                msg = self._edit_message(ix.source, data, req.files)
        if not _flag(req.query.get("with_response")):
            return no_content()
        info: dict[str, Any] = {"id": str(ix.id), "type": ix.type}
        resource: dict[str, Any] | None = None
        if msg is not None:
            info.update(
                response_message_id=str(msg.id),
                response_message_loading=msg.loading,
                response_message_ephemeral=msg.ephemeral,
            )
            resource = {"type": kind, "message": msg.payload()}
        return jresp(
            {"interaction": info, "resource": resource} if resource else {"interaction": info}
        )

    def _webhook_interaction(self: FakeDiscord, req: Req) -> Interaction | web.Response:
        ix = self.interactions_by_token.get(req.params["webhook_token"])
        if ix is None or req.params["webhook_id"] != str(self.application_id):
            self.violation(f"{req.method} {req.path}: unknown webhook/interaction token")
            return unknown("Webhook", 10015)
        from .fake import TOKEN_LIFETIME

        if ix.sent_at is not None and self.clock() - ix.sent_at > TOKEN_LIFETIME:
            return error(401, 50027, "Invalid Webhook Token")
        if not ix.callbacks:
            self.violation(
                f"{req.method} {req.path}: interaction {ix.name!r} used before any initial response"
            )
            return unknown("Webhook", 10015)
        return ix

    async def op_execute_webhook(self: FakeDiscord, req: Req) -> web.Response:
        ix = self._webhook_interaction(req)
        if isinstance(ix, web.Response):
            return ix
        if ix.followup_limit is not None and len(ix.followups) >= ix.followup_limit:
            return error(
                400, 40094, "This interaction has hit the maximum number of follow up messages"
            )
        if ix.forced_ephemeral:
            req.body = {**(req.body or {}), "flags": int((req.body or {}).get("flags") or 0)}
            req.body["flags"] |= EPHEMERAL
        if ix.original is not None and ix.original.loading and not ix.original.deleted:
            # The first followup after a "thinking" deferral replaces the loading message
            # (once that is deleted, a followup is a message of its own, its own flags).
            msg = self._edit_message(ix.original, req.body, req.files)
            msg.flags &= ~LOADING
        else:
            msg = self._create_message(ix.channel, req.body, req.files, interaction=ix)
        ix.followups.append(msg)
        return jresp(msg.payload()) if _flag(req.query.get("wait")) else no_content()

    def _webhook_message(self: FakeDiscord, req: Req) -> tuple[Interaction, Message] | web.Response:
        ix = self._webhook_interaction(req)
        if isinstance(ix, web.Response):
            return ix
        mid = req.params.get("message_id")
        if mid is None:
            target = ix.original
        else:
            target = next(
                (m for m in [ix.original, *ix.followups] if m is not None and m.id == int(mid)),
                None,
            )
        if target is None or target.deleted:
            self.violation(f"{req.method} {req.path}: no such message for {ix.name!r}")
            return unknown("Message", 10008)
        return ix, target

    async def op_get_original_webhook_message(self: FakeDiscord, req: Req) -> web.Response:
        found = self._webhook_message(req)
        return found if isinstance(found, web.Response) else jresp(found[1].payload())

    op_get_webhook_message = op_get_original_webhook_message

    async def op_update_original_webhook_message(self: FakeDiscord, req: Req) -> web.Response:
        found = self._webhook_message(req)
        if isinstance(found, web.Response):
            return found
        ix, msg = found
        self._edit_message(msg, req.body, req.files)
        msg.flags &= ~LOADING
        if msg is ix.original:
            ix.original_edited = True
        return jresp(msg.payload())

    op_update_webhook_message = op_update_original_webhook_message

    async def op_delete_original_webhook_message(self: FakeDiscord, req: Req) -> web.Response:
        found = self._webhook_message(req)
        if isinstance(found, web.Response):
            return found
        self._delete_message(found[1])
        return no_content()

    op_delete_webhook_message = op_delete_original_webhook_message

    # ---- channels and messages --------------------------------------------------------------

    def _channel(self: FakeDiscord, req: Req) -> Channel | None:
        ch = self.channels.get(req.id("channel_id"))
        return ch if ch is not None and not ch.deleted else None

    async def op_get_channel(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        return jresp(ch.payload()) if ch else unknown("Channel", 10003)

    async def op_update_channel(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        if ch is None:
            return unknown("Channel", 10003)
        body = req.body or {}
        if ch.is_thread:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body and body[key] is not None:
                    setattr(ch, key, body[key])
            if "archived" in body:
                ch.archive_timestamp = iso()
        elif "topic" in body:
            ch.topic = body["topic"]
        if body.get("name"):
            ch.name = body["name"]
        self._channel_changed(ch)
        return jresp(ch.payload())

    async def op_delete_channel(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        if ch is None:
            return unknown("Channel", 10003)
        payload = ch.payload()
        self.delete_channel(ch)
        return jresp(payload)

    async def op_list_messages(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        if ch is None:
            return unknown("Channel", 10003)
        msgs = [m for m in ch.visible_messages()]
        if "before" in req.query:
            msgs = [m for m in msgs if m.id < int(req.query["before"])]
        if "after" in req.query:
            msgs = [m for m in msgs if m.id > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        if "after" in req.query:
            msgs = msgs[:limit]
        msgs = list(reversed(msgs))
        return jresp([m.payload() for m in msgs[:limit]])

    async def op_create_message(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        if ch is None:
            return unknown("Channel", 10003)
        if ch.type == ChannelType.DM:
            user = ch.recipient
            # A user the bot shares a server with, or who installed the app to their
            # account, may be sent DMs (unless they closed them).
            shares = (
                any(g.bot_present and g.member(user.id) for g in self.guilds.values())
                if user
                else False
            )
            if user is None or not user.dms_open or not (shares or user.installed):
                return error(403, 50007, "Cannot send messages to this user")
        if ch.is_thread and ch.archived:
            if ch.locked:
                return error(400, 50083, "Thread is archived")
            ch.archived = False  # posting in an archived thread unarchives it
            self._channel_changed(ch)
        body = req.body or {}
        nonce = body.get("nonce")
        key = (self.bot_user.id, str(nonce))
        if nonce is not None and body.get("enforce_nonce"):
            from .fake import NONCE_WINDOW

            earlier = self.nonces.get(key)
            if (
                earlier is not None
                and self.clock() - earlier[1] <= NONCE_WINDOW
                and not earlier[0].deleted
            ):
                return jresp(earlier[0].payload())  # the first message, nothing new
        ref = body.get("message_reference")
        msg = self._create_message(ch, body, req.files, type=19 if ref else 0)
        if nonce is not None:
            msg.nonce = str(nonce)
            if body.get("enforce_nonce"):
                self.nonces[key] = (msg, self.clock())
        return jresp(msg.payload())

    def _message(self: FakeDiscord, req: Req) -> Message | None:
        ch = self._channel(req)
        if ch is None:
            return None
        msg = self.messages.get(req.id("message_id"))
        if msg is None or msg.deleted or msg.channel is not ch or msg.ephemeral:
            return None
        return msg

    async def op_get_message(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        return jresp(msg.payload()) if msg else unknown("Message", 10008)

    async def op_update_message(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        if msg is None:
            return unknown("Message", 10008)
        if msg.author is not self.bot_user and set(req.body or {}) - {"flags"}:
            self.violation("the bot edited a message another user wrote")
            return error(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, req.body or {}, req.files)
        return jresp(msg.payload())

    async def op_delete_message(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        if msg is None:
            return unknown("Message", 10008)
        self._delete_message(msg)
        return no_content()

    async def op_create_pin(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        if msg is None:
            return unknown("Message", 10008)
        msg.pinned = True
        return no_content()

    op_deprecated_create_pin = op_create_pin

    async def op_delete_pin(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        if msg is None:
            return unknown("Message", 10008)
        msg.pinned = False
        return no_content()

    op_deprecated_delete_pin = op_delete_pin

    async def op_add_my_message_reaction(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        if msg is None:
            return unknown("Message", 10008)
        msg.reactions.append(req.params["emoji_name"])
        return no_content()

    async def op_trigger_typing_indicator(self: FakeDiscord, req: Req) -> web.Response:
        return no_content() if self._channel(req) else unknown("Channel", 10003)

    # ---- threads ----------------------------------------------------------------------------

    async def op_create_thread_from_message(self: FakeDiscord, req: Req) -> web.Response:
        msg = self._message(req)
        if msg is None:
            return unknown("Message", 10008)
        if msg.thread is not None:
            return error(400, 160004, "A thread has already been created for this message")
        parent = msg.channel
        thread = Channel(
            id=msg.id,
            type=ChannelType.PUBLIC_THREAD,
            name=req.body["name"],
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot_user.id,
            auto_archive_duration=req.body.get("auto_archive_duration") or 4320,
            thread_members={self.bot_user.id},
        )
        msg.thread = thread
        return self._thread_created(thread)

    async def op_create_thread(self: FakeDiscord, req: Req) -> web.Response:
        parent = self._channel(req)
        if parent is None:
            return unknown("Channel", 10003)
        body = req.body
        thread = Channel(
            id=snowflake(),
            type=body.get("type") or ChannelType.PRIVATE_THREAD,
            name=body["name"],
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot_user.id,
            auto_archive_duration=body.get("auto_archive_duration") or 4320,
            invitable=body.get("invitable", True),
            thread_members={self.bot_user.id},
        )
        return self._thread_created(thread)

    def _thread_created(self: FakeDiscord, thread: Channel) -> web.Response:
        return jresp(self._announce_thread(thread), status=201)

    def _announce_thread(self: FakeDiscord, thread: Channel) -> dict[str, Any]:
        """Registers a new thread and tells the gateway; its payload."""
        self._register_channel(thread)
        payload = thread.payload()
        self.dispatch("THREAD_CREATE", {**payload, "newly_created": True}, intent=GUILDS)
        return payload

    def _thread_and_member(self: FakeDiscord, req: Req) -> tuple[Channel, int] | web.Response:
        ch = self._channel(req)
        if ch is None or not ch.is_thread:
            return unknown("Channel", 10003)
        uid = self.bot_user.id if "user_id" not in req.params else req.id("user_id")
        if ch.guild is None or ch.guild.member(uid) is None:
            return unknown("Member", 10007)
        if ch.archived and req.method != "GET":
            return error(400, 50083, "Thread is archived")
        return ch, uid

    async def op_add_thread_member(self: FakeDiscord, req: Req) -> web.Response:
        found = self._thread_and_member(req)
        if isinstance(found, web.Response):
            return found
        found[0].thread_members.add(found[1])
        return no_content()

    op_join_thread = op_add_thread_member

    async def op_delete_thread_member(self: FakeDiscord, req: Req) -> web.Response:
        found = self._thread_and_member(req)
        if isinstance(found, web.Response):
            return found
        found[0].thread_members.discard(found[1])
        return no_content()

    op_leave_thread = op_delete_thread_member

    async def op_list_thread_members(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        if ch is None or not ch.is_thread:
            return unknown("Channel", 10003)
        return jresp(
            [
                {"id": str(ch.id), "user_id": str(u), "join_timestamp": iso(), "flags": 0}
                for u in sorted(ch.thread_members)
            ]
        )

    async def op_list_public_archived_threads(self: FakeDiscord, req: Req) -> web.Response:
        ch = self._channel(req)
        if ch is None:
            return unknown("Channel", 10003)
        threads = [
            c.payload()
            for c in self.channels.values()
            if c.parent is ch and c.archived and not c.deleted
        ]
        return jresp({"threads": threads, "members": [], "has_more": False})

    # ---- message bookkeeping ----------------------------------------------------------------

    def _create_message(
        self: FakeDiscord,
        channel: Channel,
        body: dict[str, Any],
        files: list[Upload],
        *,
        interaction: Interaction | None = None,
        type: int = 0,
    ) -> Message:
        msg = self._new_message(
            channel,
            self.bot_user,
            interaction=interaction,
            type=type,
            flags=int(body.get("flags") or 0) & _MESSAGE_FLAGS_KEPT,
        )
        if body.get("message_reference"):
            ref = body["message_reference"]
            msg.message_reference = {
                "type": 0,
                "message_id": str(ref.get("message_id")),
                "channel_id": str(channel.id),
            }
        self._apply(msg, body, files, creating=True)
        if not msg.ephemeral:
            self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    def _edit_message(
        self: FakeDiscord, msg: Message, body: dict[str, Any] | None, files: list[Upload]
    ) -> Message:
        self._apply(msg, body or {}, files, creating=False)
        msg.edits += 1
        msg.edited_timestamp = iso()
        if not msg.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", msg)
        return msg

    def _delete_message(self: FakeDiscord, msg: Message) -> None:
        msg.deleted = True
        data = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
        if msg.channel.guild is not None:
            data["guild_id"] = str(msg.channel.guild.id)
        if not msg.ephemeral:
            intent = GUILD_MESSAGES if msg.channel.guild else DIRECT_MESSAGES
            self.dispatch("MESSAGE_DELETE", data, intent=intent)

    def _dispatch_message(self: FakeDiscord, event: str, msg: Message) -> None:
        data = msg.payload()
        guild = msg.channel.guild
        if guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.member(msg.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        self.dispatch(event, data, intent=GUILD_MESSAGES if guild else DIRECT_MESSAGES)

    def _apply(
        self: FakeDiscord,
        msg: Message,
        body: dict[str, Any],
        files: list[Upload],
        *,
        creating: bool,
    ) -> None:
        if "content" in body:
            msg.content = body["content"] or ""
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        if "embeds" in body:
            msg.embeds = [{"type": "rich", **e} for e in body["embeds"] or []]
        if "components" in body:
            msg.components = _number_components(body["components"] or [])
        if not creating and body.get("flags") is not None:
            keep = msg.flags & (EPHEMERAL | LOADING)
            msg.flags = keep | (int(body["flags"]) & _MESSAGE_FLAGS_KEPT & ~EPHEMERAL)
        uploads = {}
        for f in files:
            m = re.fullmatch(r"files\[(\d+)\]", f.field)
            if m:
                uploads[m.group(1)] = f
        if "attachments" in body and body["attachments"] is not None:
            kept: list[Attachment] = []
            used: set[str] = set()
            existing = {str(a.id): a for a in msg.attachments}
            for spec in body["attachments"]:
                key = str(spec.get("id"))
                if key in uploads and key not in existing:
                    kept.append(self._store_attachment(uploads[key], spec))
                    used.add(key)
                elif key in existing:
                    kept.append(existing[key])
            kept += [self._store_attachment(u, {}) for k, u in uploads.items() if k not in used]
            msg.attachments = kept
        elif uploads:
            new = [self._store_attachment(u, {}) for u in uploads.values()]
            msg.attachments = new if creating else msg.attachments + new

    def _store_attachment(self: FakeDiscord, upload: Upload, spec: dict[str, Any]) -> Attachment:
        name = spec.get("filename") or upload.filename
        att = Attachment(
            id=snowflake(),
            filename=name,
            data=upload.data,
            content_type=upload.content_type,
            description=spec.get("description"),
        )
        att.url = f"{self.base_url}/attachments/{att.id}/{name}"
        self.attachments[att.id] = att
        return att


def _number_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord echoes components back with a numeric ``id`` on each."""
    counter = iter(range(1, 10_000))

    def walk(c: dict[str, Any]) -> dict[str, Any]:
        out = {**c}
        out.setdefault("id", next(counter))
        if isinstance(c.get("components"), list):
            out["components"] = [walk(x) for x in c["components"]]
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                out[key] = walk(c[key])
        return out

    return [walk(c) for c in components]


def _fault_response(fault: Any) -> web.Response:
    if fault.status == 429:
        headers = {
            "Retry-After": str(max(1, round(fault.retry_after))),
            "Via": "1.1 google",
            "X-RateLimit-Scope": "global" if fault.is_global else "user",
        }
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        return jresp(
            {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
                "code": 0,
            },
            status=429,
            headers=headers,
        )
    return jresp(
        {"message": f"{fault.status}: Internal Server Error", "code": 0}, status=fault.status
    )


async def _read_body(request: web.Request) -> tuple[Any, list[Upload], bool, str | None]:
    """(body, files, has_body, problem): the JSON body, or a multipart body's
    ``payload_json`` and ``files[n]`` parts."""
    if request.content_type == "multipart/form-data":
        reader = await request.multipart()
        body: Any = None
        files: list[Upload] = []
        problem = None
        while True:
            part = await reader.next()
            if part is None:
                break
            data = bytes(await part.read())  # type: ignore[union-attr]
            name = part.name or ""
            if name == "payload_json":
                try:
                    body = json.loads(data)
                except ValueError:
                    problem = "payload_json is not valid JSON"
            elif re.fullmatch(r"files\[\d+\]", name) or name.startswith("file"):
                files.append(
                    Upload(
                        name,
                        part.filename or "",
                        part.headers.get(  # type: ignore
                            "Content-Type"
                        ),
                        data,
                    )
                )
            else:
                problem = f"unexpected multipart field {name!r}"
        return body, files, True, problem
    raw = await request.read()
    if not raw:
        return None, [], False, None
    if request.content_type != "application/json":
        return None, [], True, f"body sent as {request.content_type}, expected JSON"
    try:
        return json.loads(raw), [], True, None
    except ValueError:
        return None, [], True, "The request body contains invalid JSON (code 50109)"


def _upload_errors(body: Any, files: list[Upload]) -> list[str]:
    errors = []
    for f in files:
        if not re.fullmatch(r"files\[\d\]", f.field):
            errors.append(f"file field {f.field!r}: Discord reads files[0]..files[9]")
        if len(f.data) > limits.MAX_UPLOAD:
            errors.append(f"{f.filename}: {len(f.data)} bytes exceeds the upload limit")
    if files and isinstance(body, dict):
        data = body.get("data") if "type" in body and "data" in body else body
        specs = (data or {}).get("attachments") if isinstance(data, dict) else None
        fields = {f.field for f in files}
        for spec in specs or []:
            key = f"files[{spec.get('id')}]"
            if key not in fields and not str(spec.get("id", "")).isdigit():
                errors.append(f"attachment {spec} refers to no uploaded file")
    return errors


def _extra_checks(operation_id: str, body: Any, files: list[Upload]) -> list[str]:
    n = len(files)
    if operation_id in ("create_message", "execute_webhook"):
        return limits.check_message(body, n, creating=True)
    if operation_id in (
        "update_message",
        "update_original_webhook_message",
        "update_webhook_message",
    ):
        return limits.check_message(body, n, creating=False)
    if operation_id == "create_interaction_response" and isinstance(body, dict):
        kind, data = body.get("type"), body.get("data")
        if kind == 4:
            return limits.check_message(data, n, creating=True)
        if kind == 7:
            return limits.check_message(data, n, creating=False)
        if kind == 8:
            return limits.check_choices(data)
        if kind == 9:
            return limits.check_modal(data)
    return []
