"""A stand-in for discord.py's Interaction that records the answers, and running
commands as the command tree runs them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from discord import app_commands

from bot.core.options import GameKind, GameOfServer, TimeControlOption
from bot.model import UserError
from bot.ui.errors import report
from tests.bot.conftest import CHANNEL, GUILD, Env

OPTIONS = (GameKind, GameOfServer, TimeControlOption)

_ids = itertools.count(7000)


def user(member) -> Any:
    return SimpleNamespace(
        id=member.id, display_name=member.name, bot=member.bot, mention=f"<@{member.id}>"
    )


@dataclass
class Response:
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def is_done(self) -> bool:
        return bool(self.calls)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        assert not self.calls, "answered twice"
        self.calls.append(("send_message", {"content": content, **kwargs}))

    async def defer(self, **kwargs: Any) -> None:
        assert not self.calls, "answered twice"
        self.calls.append(("defer", kwargs))

    async def send_modal(self, modal: Any) -> None:
        assert not self.calls, "answered twice"
        self.calls.append(("send_modal", {"modal": modal}))


@dataclass
class Followup:
    sent: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append({"content": content, **kwargs})


class Interaction:
    def __init__(
        self,
        env: Env,
        member,
        *,
        channel_id: int = CHANNEL,
        guild_id: int = GUILD,
        message_id: int | None = None,
        **namespace: Any,
    ) -> None:
        self.client = SimpleNamespace(services=env.services)
        self.user = user(member)
        self.guild_id = guild_id
        self.channel_id = channel_id
        #: From a server that installed the bot (False: a DM, or only the member's own
        #: install): see bot.ui.context.bot_in_server.
        self.guild_installed = guild_id is not None
        self.namespace = SimpleNamespace(**namespace)
        self.message = SimpleNamespace(id=message_id) if message_id else None
        self.response = Response()
        self.followup = Followup()
        self.edits: list[dict[str, Any]] = []
        self.type = None
        self.command = None
        self.data: dict[str, Any] = {}

    def is_guild_integration(self) -> bool:
        return self.guild_installed

    async def original_response(self) -> Any:
        return SimpleNamespace(id=next(_ids))

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.edits.append(kwargs)

    def answers(self) -> list[str]:
        """Everything said to the member, in order."""
        said = [kw.get("content") for name, kw in self.response.calls if name == "send_message"]
        return [
            *said,
            *(sent["content"] for sent in self.followup.sent),
            *(edit.get("content") for edit in self.edits),
        ]


async def run(call, interaction: Any) -> Any:
    """Invoke like the command tree does: errors go to the central handler."""
    try:
        await call
    except UserError as error:
        await report(interaction, error)
    return interaction


async def invoke(
    command: app_commands.Command, cog: Any, interaction: Any, *values: Any, **named: Any
) -> Any:
    """Run a slash command as the command tree does: its options (``values`` in the
    command's order, or ``named``) passed by name, those of the bot's own kinds
    (:mod:`bot.core.options`) resolved by their transformers first, and a refusal, then
    or from the command, answered by the central handler."""
    try:
        given = dict(zip(command._params, values, strict=False)) | named
        resolved = {}
        for name, value in given.items():
            param = command._params[name]
            if value is not None and isinstance(param._annotation, OPTIONS):
                value = await param.transform(interaction, value)
            resolved[name] = value
        await command.callback(cog, interaction, **resolved)
    except (UserError, app_commands.AppCommandError) as error:
        await report(interaction, error)
    return interaction
