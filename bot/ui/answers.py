"""Answering interactions safely when Discord answers a request with a 5xx after it
had acted on it, and discord.py sends the request again.

- A deferral (or any first answer) sent again is refused with 40060 "Interaction has
  already been acknowledged": the first one worked, so the command goes on
  (:func:`tolerate_repeated_answers`, installed once by the client).
- A followup sent again is a second message; filling in the deferred message is an
  edit, the same however often it is sent (:func:`reply`).
"""

from __future__ import annotations

import functools
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

#: Discord's code for "Interaction has already been acknowledged".
ALREADY_ACKNOWLEDGED = 40060


def deferral_type(
    interaction: discord.Interaction, thinking: bool
) -> discord.InteractionResponseType:
    """What ``interaction.response.defer(thinking=…)`` answers (as discord.py decides)."""
    if (
        interaction.type
        in (discord.InteractionType.component, discord.InteractionType.modal_submit)
        and not thinking
    ):
        return discord.InteractionResponseType.deferred_message_update
    return discord.InteractionResponseType.deferred_channel_message


#: The first answers of an interaction, and what discord.py records once each is made.
_FIRST_ANSWERS = {
    "send_message": discord.InteractionResponseType.channel_message,
    "edit_message": discord.InteractionResponseType.message_update,
    "send_modal": discord.InteractionResponseType.modal,
}


def tolerate_repeated_answers() -> None:
    """Make every first answer of the bot (a deferral, a message, an update, a form)
    take 40060 for the success it reports: an earlier try of the same request made it.
    Once per process."""
    for name in ("defer", *_FIRST_ANSWERS):
        _tolerate(name)


def _tolerate(name: str) -> None:
    answer = getattr(discord.InteractionResponse, name)
    if getattr(answer, "tolerates_repeats", False):
        return

    @functools.wraps(answer)
    async def answered(self: discord.InteractionResponse, *args: Any, **kwargs: Any) -> Any:
        try:
            return await answer(self, *args, **kwargs)
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED or self.is_done():
                raise
            interaction: discord.Interaction = self._parent
            log.info(
                "the first answer to interaction %d was made by an earlier try", interaction.id
            )
            # What discord.py records after the answer, so that the rest follows it up.
            self._response_type = _FIRST_ANSWERS.get(name) or deferral_type(
                interaction, kwargs.get("thinking", False)
            )
            return None

    answered.tolerates_repeats = True  # type: ignore[attr-defined]  # a mark on a function
    setattr(discord.InteractionResponse, name, answered)


async def reply(
    interaction: discord.Interaction, content: str | None = None, **fields: Any
) -> None:
    """The answer after a "thinking" deferral: the deferred message filled in, an edit
    that is safe to repeat (a followup sent twice is two messages). After any other
    answer, a followup."""
    kind = getattr(interaction.response, "type", None)
    if kind is not discord.InteractionResponseType.deferred_channel_message:
        if content is None:  # a message of embeds or files alone
            await interaction.followup.send(**fields)
        else:
            await interaction.followup.send(content, **fields)
        return
    fields.pop("ephemeral", None)  # the deferral decided it
    if "file" in fields:
        fields["attachments"] = [fields.pop("file")]
    await interaction.edit_original_response(content=content, **fields)
