"""The correspondence buttons (takeback answers, rematch), restart-proof like those
of :mod:`bot.views`: the ids they need are in the ``custom_id``, the state in the
database. A :class:`~bot.model.Post` asks for them by name in ``actions``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot import texts
from bot.errors import guarded
from bot.interactions import ROW_ID, expiry_of, guild_of, member_of, service_of

if TYPE_CHECKING:
    from bot.client import BoardBot
    from bot.correspondence import Correspondence


def correspondence_of(interaction: discord.Interaction) -> Correspondence:
    client: BoardBot = interaction.client  # type: ignore[assignment]
    return client.correspondence


class TakebackButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=rf"bb:takeback:(?P<answer>accept|decline):(?P<id>{ROW_ID})"):
    """The opponent's answer to a takeback request."""

    def __init__(self, answer: str, takeback_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="Accept takeback" if answer == "accept" else "Decline",
            style=discord.ButtonStyle.success if answer == "accept"
            else discord.ButtonStyle.danger,
            custom_id=f"bb:takeback:{answer}:{takeback_id}"))
        self.answer, self.takeback_id = answer, takeback_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> TakebackButton:
        return cls(match["answer"], int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        member = member_of(interaction.user)
        await interaction.response.defer()  # an accepted takeback re-draws the board
        await correspondence_of(interaction).answer_takeback(
            guild_id=guild_of(interaction), takeback_id=self.takeback_id, member=member,
            accept=self.answer == "accept")
        verdict = "✅ Accepted" if self.answer == "accept" else "❌ Declined"
        question = interaction.message.content if interaction.message else ""
        await interaction.edit_original_response(
            content=f"{question}\n{verdict} by {member.name}.", view=None,
            allowed_mentions=discord.AllowedMentions.none())


class RematchButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"bb:rematch:(?P<game>{ROW_ID})"):
    """Under a finished game: challenge the same opponent again, seats swapped."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(
            label="Rematch", style=discord.ButtonStyle.primary,
            custom_id=f"bb:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> RematchButton:
        return cls(int(match["game"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.views import challenge_view  # bot.views imports this module

        await interaction.response.defer(ephemeral=True, thinking=True)
        challenge = await correspondence_of(interaction).rematch(
            guild_id=guild_of(interaction), game_id=self.game_id,
            member=member_of(interaction.user))
        client = interaction.client
        channel = client.get_channel(challenge.channel_id) \
            or await client.fetch_channel(challenge.channel_id)
        expiry = expiry_of(interaction)
        expires = expiry.expires_at(challenge) if expiry is not None else None
        message = await channel.send(  # type: ignore[union-attr]
            texts.challenge_text(challenge, expires), view=challenge_view(challenge),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(challenge.opponent_id)]))
        await service_of(interaction).set_challenge_message(challenge.id, message.id)
        if expiry is not None:
            expiry.poke()  # it may be the next challenge to expire
        await interaction.followup.send(
            f"Rematch offered to {challenge.opponent_name}: {message.jump_url}", ephemeral=True)


def action_items(game_id: int, action: str) -> list[discord.ui.Item]:
    """The buttons a post's ``actions`` entry stands for."""
    if action == "rematch":
        return [RematchButton(game_id)]
    kind, _, ident = action.partition(":")
    if kind == "takeback" and ident.isdigit():
        return [TakebackButton("accept", int(ident)), TakebackButton("decline", int(ident))]
    raise ValueError(f"unknown post action {action!r}")


DYNAMIC_ITEMS = (TakebackButton, RematchButton)
