"""The one place where failures become answers.

A :class:`~bot.model.UserError` is shown to the member, ephemerally, as it is (after
a public deferral too: its placeholder is deleted, see :func:`report`).
Anything else is logged with its traceback and answered with a short apology,
so that no interaction is left to fail silently.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from functools import wraps
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import places
from bot.i18n import N_, _
from bot.model import UserError, not_saved
from bot.storage import ReadFailed, WriteFailed
from bot.ui.answers import reply
from bot.ui.context import answering, custom_id_of

log = logging.getLogger(__name__)

STALE_BUTTON = N_(
    "This button is out of date (it belongs to an older version of this "
    "message): use the game's latest post, or the slash commands."
)
STALE_COMMAND = N_(
    "That command is out of date (your Discord app may show an old list of my "
    "commands): reload Discord (Ctrl+R) and try again."
)
STALE_FORM = N_(
    "This form is out of date (I may have restarted since it was opened): "
    "use the game's latest post, or `/move`."
)
BAD_OPTIONS = N_(
    "One of the options I received is not of the kind this command takes (your Discord "
    "app may show an old version of my commands): reload Discord (Ctrl+R) and try again. "
    "Nothing was changed."
)


class BadOptions(app_commands.AppCommandError):
    """An option of the wrong type (a user option holding no user id, text where a
    number belongs): Discord checks the types, but a client's bug or a command
    changed since a client loaded it may still send one."""


#: The most a message may hold.
MESSAGE_LIMIT = 2000
APOLOGY = N_(
    "Sorry, something went wrong on my side. It has been logged; please try again in a moment."
)


def not_read(failure: ReadFailed) -> str:
    """What a member is told when the database could not be read for their command."""
    return _(
        "That could not be done: {reason}. Nothing changed. The bot's operator "
        "has been told; please try again once they have fixed it.",
        reason=failure.reason,
    )


def message_for(error: BaseException) -> str | None:
    """What to tell the member about ``error``; None for an unexpected failure."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.TransformerError) and isinstance(error.__cause__, UserError):
        error = error.__cause__  # an option's transformer refused it (bot.core.options)
    if isinstance(error, UserError):
        return error.message
    if isinstance(error, WriteFailed):  # logged once, for the operator, where it failed
        return not_saved(_("That"), error)
    if isinstance(error, ReadFailed):  # the same: logged once where it failed
        return not_read(error)
    if isinstance(error, BadOptions):
        return _(BAD_OPTIONS)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return _(STALE_COMMAND)
    if isinstance(error, OverflowError):  # a number from a custom_id or an option, too big
        return _("That number is far too large to be anything of mine.")
    if isinstance(error, app_commands.TransformerError):
        return _(
            "I couldn't make sense of one of the options you gave: please pick it from "
            "the list Discord offers."
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return _(places.SERVER_ONLY)
    if isinstance(error, app_commands.CommandOnCooldown):
        return _(
            "Slow down a little: try again in {seconds} s.", seconds=f"{error.retry_after:.0f}"
        )
    if isinstance(error, app_commands.CheckFailure):
        return _("You can't use this command here.")
    return None


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` with what went wrong (ephemeral)."""
    text = message_for(error)
    if text is None:
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "unexpected error in %s (custom_id %s)",
            command or "a component",
            custom_id_of(interaction),
            exc_info=error,
        )
        text = _(APOLOGY)
    if interaction.type is discord.InteractionType.autocomplete:
        return  # an autocomplete can only answer with choices
    if len(text) > MESSAGE_LIMIT:  # a refusal quoting too much: still answer
        log.warning("a refusal of %d characters was cut: %r…", len(text), text[:100])
        text = text[: MESSAGE_LIMIT - 1] + "…"
    try:
        if interaction.response.is_done():
            await _refuse_after_answer(interaction, text)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not tell the member about an error")


async def _refuse_after_answer(interaction: discord.Interaction, text: str) -> None:
    """A refusal after the first answer, private however that answer was made. A
    "thinking" deferral decided whether its message is public: after a public one
    (``/board public:True``, ``/practice``), the placeholder is deleted and the refusal
    sent as a private followup (which, the deferred message gone, is a message of its
    own, with its own flags); after a private one, the placeholder is filled in."""
    if getattr(interaction.response, "type", None) is (
        discord.InteractionResponseType.deferred_channel_message
    ):
        try:
            public = not (await interaction.original_response()).flags.ephemeral
        except discord.HTTPException:
            public = True  # unknown: deleting it and answering privately is safe either way
        if public:
            await interaction.delete_original_response()
            await interaction.followup.send(text, ephemeral=True)
            return
    await reply(interaction, text, ephemeral=True)


#: Whatever a UI item is (a button, a menu…), and what its callback gives.
ItemT = TypeVar("ItemT")
T = TypeVar("T")


def guarded(
    callback: Callable[[ItemT, discord.Interaction], Awaitable[T]],
) -> Callable[[ItemT, discord.Interaction], Coroutine[Any, Any, T | None]]:
    """For the callbacks of buttons and menus, which the command tree does not cover:
    route their errors to :func:`report` too."""

    @wraps(callback)
    async def wrapper(item: ItemT, interaction: discord.Interaction) -> T | None:
        async with answering(interaction):  # in the member's language
            try:
                return await callback(item, interaction)
            except Exception as error:
                await report(interaction, error)
                return None

    return wrapper
