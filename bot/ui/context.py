"""Who is asking, and where, for the commands and buttons of every area; and the
services they reach (``interaction.client.services``, built by :mod:`bot.app`)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import discord

from bot.i18n import catalogue_locale, speaking
from bot.i18n.languages import Languages
from bot.model import Member
from bot.places import DMS
from bot.services import Services

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A database row id (game, challenge, takeback) in a ``custom_id``: at most 19 digits
#: (SQLite's integers; one above 2**63 - 1 is refused as out of range, see bot.ui.errors).
ROW_ID = "[0-9]{1,19}"
#: A ply or a number in a ``custom_id``.
SMALL = "[0-9]{1,6}"
#: A member's id (a snowflake; only compared, never stored).
SNOWFLAKE = "[0-9]{1,20}"


def service(interaction: discord.Interaction, kind: type[T]) -> T:
    """The bot's service of type ``kind``."""
    # discord.py types the client as a plain Client; ours (bot.client) carries them.
    services: Services = interaction.client.services  # type: ignore[attr-defined]
    return services.get(kind)


def has_service(interaction: discord.Interaction, kind: type[Any]) -> bool:
    """Whether the bot built a service of type ``kind`` (what only the client adds, say:
    the buttons the areas put on posts)."""
    services: Services = interaction.client.services  # type: ignore[attr-defined]
    return kind in services


def custom_id_of(interaction: discord.Interaction) -> str | None:
    """The ``custom_id`` of the component or form used; None for a command."""
    found = interaction.data.get("custom_id") if interaction.data is not None else None
    return None if found is None else str(found)


def selected_values(interaction: discord.Interaction) -> list[str]:
    """What the member picked in a select menu (nothing for anything else)."""
    found = interaction.data.get("values") if interaction.data is not None else None
    return [str(value) for value in found] if isinstance(found, list) else []


def member_of(user: discord.abc.User) -> Member:
    return Member(user.id, user.display_name, user.bot)


def bot_in_server(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a server that installed the bot (where it
    may post); not in DMs, group DMs, or a server where only members installed it."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def in_bot_dm(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from the member's DM with the bot."""
    context = getattr(interaction, "context", None)
    return interaction.guild_id is None and context is not None and bool(context.dm_channel)


def answers_only(interaction: discord.Interaction) -> bool:
    """Whether the bot can only answer where the interaction comes from (a group DM, a
    server where only the member installed it): no posting there, 5 follow-ups and a
    15-minute token; what comes later goes to the players' DMs."""
    return not bot_in_server(interaction) and not in_bot_dm(interaction)


def guild_of(interaction: discord.Interaction) -> int:
    """The scope of the games and challenges the interaction means: its server's id in
    a server that installed the bot, else :data:`bot.places.DMS` (0): the games that
    live in the members' DMs (server-only commands never get here: the command tree
    refuses them elsewhere)."""
    return interaction.guild_id if bot_in_server(interaction) else DMS  # type: ignore[return-value]


def channel_of(interaction: discord.Interaction) -> int:
    return interaction.channel_id or 0


def _locale_of(value: object) -> str | None:
    """A Discord locale's code ("de", "pt-BR"), from discord.py's enum or a string."""
    code = getattr(value, "value", value)
    return code if isinstance(code, str) and code else None


async def answer_locale(interaction: discord.Interaction) -> str:
    """The catalogue of the answers to this member: their ``/settings language``, else
    their Discord's. Remembers their locale (for their DMs) and the server's (for its
    threads' posts) on the way."""
    locale = _locale_of(getattr(interaction, "locale", None))
    if not has_service(interaction, Languages):
        return catalogue_locale(locale)
    languages = service(interaction, Languages)
    await languages.guild_seen(
        interaction.guild_id, _locale_of(getattr(interaction, "guild_locale", None))
    )
    return await languages.member_seen(interaction.user.id, locale)


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Speak the member's language within the block (:func:`answer_locale`): where an
    interaction is dispatched, so that every text of its answer is theirs."""
    try:
        locale = await answer_locale(interaction)
    except Exception:  # never let the language stop an answer
        log.exception("the language of interaction %s", getattr(interaction, "id", "?"))
        locale = "en"
    with speaking(locale):
        yield
