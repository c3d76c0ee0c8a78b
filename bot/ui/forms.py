"""Forms (modals) that survive restarts. discord.py keeps a modal only in memory, so a
form opened before a restart would otherwise fail: each form's ``custom_id`` carries
the ids it needs, the instance is stopped before it is sent (discord.py then does not
keep it at all), and every submission is answered here from the ``custom_id`` alone,
by the area whose pattern it matches."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.i18n import _
from bot.model import UserError
from bot.ui.context import answering, custom_id_of
from bot.ui.errors import STALE_FORM, report

#: A form's ``custom_id`` pattern, and what answers its submission (given the match).
FormHandler = Callable[[discord.Interaction, re.Match[str]], Awaitable[None]]
Form = tuple[re.Pattern[str], FormHandler]


def form_values(data: Any) -> dict[str, str]:
    """The text inputs of a modal submission, by ``custom_id`` (in action rows or labels)."""
    values: dict[str, str] = {}
    for row in (data or {}).get("components") or []:
        children = row.get("components") or ([row["component"]] if row.get("component") else [])
        for child in children:
            if child.get("custom_id") is not None:
                values[str(child["custom_id"])] = str(child.get("value") or "")
    return values


async def submit_form(interaction: discord.Interaction, forms: Sequence[Form]) -> None:
    """Answer a modal submission with the handler of the form it matches, and a polite
    refusal for a form the bot does not know, in the member's language."""
    async with answering(interaction):
        try:
            custom_id = custom_id_of(interaction) or ""
            for pattern, handler in forms:
                found = pattern.fullmatch(custom_id)
                if found is not None:
                    await handler(interaction, found)
                    return
            raise UserError(_(STALE_FORM))
        except Exception as error:
            await report(interaction, error)
