"""The buttons of challenges: Accept, Decline and Cancel under a challenge, and
Rematch under a finished game; and the challenge message itself (posted, or shown
expired). Restart-proof like every button of the bot: the ids are in the
``custom_id``, the state in the database."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord

from bot import texts
from bot.errors import guarded
from bot.model import UserError
from bot.practice.service import practice_level
from bot.storage import ChallengeRow
from bot.ui.context import ROW_ID, app_of, guild_of, member_of

log = logging.getLogger(__name__)


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:challenge:(?P<action>accept|decline|cancel):(?P<id>{ROW_ID})",
):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    def __init__(self, action: str, challenge_id: int, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=action.capitalize(),
                style=self.STYLES[action],
                disabled=disabled,
                custom_id=f"bb:challenge:{action}:{challenge_id}",
            )
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(match["action"], int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        app = app_of(interaction)
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        await interaction.response.defer()  # opening a thread and drawing may take a moment
        # An expired challenge is refused (and its message edited to say so).
        await app.expiry.refuse_if_expired(await app.challenges.get(guild_id, self.challenge_id))
        if self.action == "accept":
            update = await app.challenges.accept(
                guild_id=guild_id,
                challenge_id=self.challenge_id,
                member=member,
                message_id=interaction.message.id if interaction.message else None,
            )
            challenge = await app.challenges.get(guild_id, self.challenge_id)
            text = texts.challenge_closed_text(challenge, member.name, update.game)
        elif self.action == "decline":
            challenge = await app.challenges.decline(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member
            )
            text = texts.challenge_closed_text(challenge, member.name)
        else:
            challenge = await app.challenges.cancel(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member
            )
            text = texts.challenge_closed_text(challenge, member.name)
        await interaction.edit_original_response(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )


def challenge_view(challenge: ChallengeRow, *, disabled: bool = False) -> discord.ui.View:
    """Accept, Decline (for a challenge to someone) and Cancel; all disabled once it
    expired."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton("accept", challenge.id, disabled=disabled))
    if challenge.opponent_id is not None:
        view.add_item(ChallengeButton("decline", challenge.id, disabled=disabled))
    view.add_item(ChallengeButton("cancel", challenge.id, disabled=disabled))
    return view


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"bb:rematch:(?P<game>{ROW_ID})"
):
    """Under a finished game: challenge the same opponent again, seats swapped."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Rematch",
                style=discord.ButtonStyle.primary,
                custom_id=f"bb:rematch:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RematchButton:
        return cls(int(match["game"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        app = app_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await app.games.get_game(guild_of(interaction), self.game_id)
        if practice_level(row):  # against the bot: the new game starts at once
            update = await app.practice.rematch(
                guild_id=guild_of(interaction),
                game_id=self.game_id,
                member=member_of(interaction.user),
            )
            new = update.game
            await interaction.followup.send(
                f"Rematch: {texts.label(new)}, "
                f"{texts.jump_url(new.guild_id, new.where_id, new.last_message_id)}",
                ephemeral=True,
            )
            return
        challenge = await app.challenges.rematch(
            guild_id=guild_of(interaction), game_id=self.game_id, member=member_of(interaction.user)
        )
        client = interaction.client
        channel = client.get_channel(challenge.channel_id) or await client.fetch_channel(
            challenge.channel_id
        )
        if not isinstance(channel, discord.abc.Messageable):  # the game's: it took messages
            raise UserError(f"I can't post in <#{challenge.channel_id}>.")
        opponent = [] if challenge.opponent_id is None else [discord.Object(challenge.opponent_id)]
        message = await channel.send(
            texts.challenge_text(challenge, app.expiry.expires_at(challenge)),
            view=challenge_view(challenge),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=opponent),
        )
        await app.challenges.set_message(challenge.id, message.id)
        app.expiry.poke()  # it may be the next challenge to expire
        await interaction.followup.send(
            f"Rematch offered to {challenge.opponent_name}: {message.jump_url}", ephemeral=True
        )


def rematch_items(game_id: int, argument: str) -> list[discord.ui.Item]:
    """The buttons of a post's ``rematch`` action."""
    return [RematchButton(game_id)]


ITEMS = (ChallengeButton, RematchButton)
