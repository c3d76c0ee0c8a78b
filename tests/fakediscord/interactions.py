"""Interactions a test starts as a member, and what the bot answered to them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.timing import seconds

from .models import Channel, Member, Message, User

if TYPE_CHECKING:
    from .fake import FakeDiscord

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Which callback types Discord accepts for which interaction type.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}


@dataclass(eq=False)
class Interaction:
    """One interaction the fake delivered to the bot, and everything the bot did with it.

    Await ``response()`` for the first callback, ``reply()`` for the message that
    answers it (after a deferral, once filled in), ``followup(n)`` for followups,
    ``choices()`` for autocomplete, ``modal()`` for a modal the bot opened.
    """

    fake: FakeDiscord
    id: int
    token: str
    type: int
    application_id: int
    user: User
    member: Member | None
    channel: Channel
    payload: dict[str, Any]
    source: Message | None = None  # the message whose component was used
    sent_at: float | None = None
    responded_at: float | None = None
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    original_edited: bool = False
    #: The first callback was carried out but answered with an injected failure: the
    #: client cannot know, and may send it again (answered 40060, not a violation).
    answer_lost: bool = False
    #: How many follow-ups Discord takes (None: no limit; 5 for a user install's
    #: interaction in a server without the app, or in a group DM).
    followup_limit: int | None = None
    #: The server turned external apps off: every answer is ephemeral whatever the bot
    #: asks.
    forced_ephemeral: bool = False

    def __repr__(self) -> str:  # short: an interaction reaches the whole world
        return f"Interaction(id={self.id}, {self.name!r})"

    @property
    def name(self) -> str:
        data = self.payload["data"]
        return data.get("name") or data.get("custom_id", "")

    @property
    def response_delay(self) -> float | None:
        if self.sent_at is None or self.responded_at is None:
            return None
        return self.responded_at - self.sent_at

    @property
    def context(self) -> int:
        """0: in a server, 1: in the bot's DM, 2: in a private channel (group DM)."""
        return int(self.payload["context"])

    @property
    def callback_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def messages(self) -> list[Message]:
        first = (
            [self.original]
            if self.original is not None and self.original is not self.source
            else []
        )
        return first + self.followups

    @property
    def ephemeral(self) -> bool:
        """Whether the answer shown to the member is ephemeral."""
        if self.original is not None and self.original is not self.source:
            return self.original.ephemeral
        return False

    def metadata(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": self.payload["authorizing_integration_owners"],
        }
        if self.type == APPLICATION_COMMAND:
            data["name"] = self.name
            data["command_type"] = 1
        if self.source is not None:
            data["interacted_message_id"] = str(self.source.id)
        return data

    async def response(self, timeout: float = seconds(15.0)) -> dict[str, Any]:
        """The first callback (``{"type": ..., "data": ...}``)."""
        await self.fake.wait_until(
            lambda: self.callbacks, timeout, f"a response to interaction {self.name!r}"
        )
        return self.callbacks[0]

    async def reply(self, timeout: float = seconds(15.0)) -> Message:
        """The message showing the answer: the response message (once a deferred one is
        filled in), or for a component update, the updated message."""

        def ready() -> Message | None:
            if not self.callbacks:
                return None
            kind = self.callbacks[0]["type"]
            if kind == 4 or (kind == 5 and self.original and not self.original.loading):
                return self.original
            if kind == 7 or (kind == 6 and self.original_edited):
                return self.source
            return None

        return await self.fake.wait_until(ready, timeout, f"the reply to {self.name!r}")

    async def followup(self, index: int = 0, timeout: float = seconds(15.0)) -> Message:
        await self.fake.wait_until(
            lambda: len(self.followups) > index, timeout, f"followup #{index} to {self.name!r}"
        )
        return self.followups[index]

    async def choices(self, timeout: float = seconds(15.0)) -> list[dict[str, Any]]:
        cb = await self.response(timeout)
        if cb["type"] != 8:
            raise AssertionError(f"expected autocomplete choices, got callback {cb}")
        return list(cb["data"]["choices"])

    async def modal(self, timeout: float = seconds(15.0)) -> dict[str, Any]:
        cb = await self.response(timeout)
        if cb["type"] != 9:
            raise AssertionError(f"expected a modal, got callback {cb}")
        return cb["data"]


def text_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The text inputs of a modal (in action rows or labels), in order."""
    found: list[dict[str, Any]] = []
    for comp in modal.get("components", []):
        children = comp.get("components") or ([comp["component"]] if comp.get("component") else [])
        found += [c for c in children if c.get("type") == 4]
    return found


def command_options(
    command: dict[str, Any],
    given: dict[str, Any],
    path: list[str],
    focused: str | None,
    guild_members: dict[int, Member],
    channels: dict[int, Channel],
    users: dict[int, User] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The ``options`` and ``resolved`` of an interaction, built the way Discord's client
    does from the registered command: subcommand path, typed values, resolved users.
    Raises ValueError for what the Discord client would not let a member send."""
    defs = command.get("options") or []
    for part in path:
        sub = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
        if sub is None:
            raise ValueError(f"/{command['name']} has no subcommand {part!r}")
        defs = sub.get("options") or []
    resolved: dict[str, Any] = {}
    leaf: list[dict[str, Any]] = []
    for name, value in given.items():
        spec = next((o for o in defs if o["name"] == name), None)
        if spec is None:
            raise ValueError(
                f"option {name!r} is not an option of this command: {[o['name'] for o in defs]}"
            )
        opt: dict[str, Any] = {"name": name, "type": spec["type"]}
        kind = spec["type"]
        if name == focused:
            opt["value"] = str(value)
            opt["focused"] = True
        elif kind in (6, 9):  # user / mentionable
            user_id = value.id if hasattr(value, "id") else int(value)
            opt["value"] = str(user_id)
            member = guild_members.get(user_id)
            outsider = (users or {}).get(user_id)
            if member is None and outsider is not None:  # a DM: users, no members
                resolved.setdefault("users", {})[str(user_id)] = outsider.payload()
            if member is not None:
                resolved.setdefault("users", {})[str(user_id)] = member.user.payload()
                if member.present:
                    resolved.setdefault("members", {})[str(user_id)] = member.payload(
                        with_user=False, with_permissions=True
                    )
        elif kind == 7:
            ch = value if isinstance(value, Channel) else channels[int(value)]
            opt["value"] = str(ch.id)
            resolved.setdefault("channels", {})[str(ch.id)] = {
                **{k: ch.payload()[k] for k in ("id", "type", "name")},
                "permissions": "0",
            }
        else:
            if kind == 4 and not isinstance(value, int):
                raise ValueError(f"option {name!r} takes an integer")
            if kind == 3 and not isinstance(value, str):
                raise ValueError(f"option {name!r} takes a string")
            if spec.get("choices") and value not in [c["value"] for c in spec["choices"]]:
                raise ValueError(f"{value!r} is not one of the choices of {name!r}")
            if kind == 3 and not spec.get("min_length", 0) <= len(value) <= spec.get(
                "max_length", 6000
            ):
                raise ValueError(f"option {name!r}: length out of range")
            if kind in (4, 10) and not spec.get("min_value", value) <= value <= spec.get(
                "max_value", value
            ):
                raise ValueError(f"option {name!r}: value out of range")
            opt["value"] = value
        leaf.append(opt)
    if focused is None:
        missing = [o["name"] for o in defs if o.get("required") and o["name"] not in given]
        if missing:
            raise ValueError(f"required options missing: {missing}")
    options = leaf
    for part, kind in reversed(list(zip(path, _path_kinds(command, path), strict=True))):
        options = [{"name": part, "type": kind, "options": options}]
    return options, resolved


def _path_kinds(command: dict[str, Any], path: list[str]) -> list[int]:
    kinds, defs = [], command.get("options") or []
    for part in path:
        sub = next(o for o in defs if o["name"] == part)
        kinds.append(sub["type"])
        defs = sub.get("options") or []
    return kinds
