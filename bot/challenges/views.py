"""The buttons of challenges: Accept, Decline and Cancel under a challenge, and
Rematch under a finished game; and the challenge message itself (posted, or shown
expired). Restart-proof like every button of the bot: the ids are in the
``custom_id``, the state in the database."""

from __future__ import annotations

import logging
import re
from typing import Any, ClassVar

import discord

from bot import places, texts
from bot.challenges.expiry import ChallengeExpiry
from bot.challenges.service import Challenges
from bot.core.games import Games
from bot.core.players import Players
from bot.i18n import N_, _
from bot.storage import ChallengeRow
from bot.ui.answers import reply
from bot.ui.context import ROW_ID, guild_of, member_of, service
from bot.ui.errors import guarded

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
                label=_(_ACTIONS[action]),
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
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        await interaction.response.defer()  # opening a thread and drawing may take a moment
        # An expired challenge is refused (and its message edited to say so).
        await service(interaction, ChallengeExpiry).refuse_if_expired(
            await service(interaction, Challenges).get(guild_id, self.challenge_id)
        )
        if self.action == "accept":
            update = await service(interaction, Challenges).accept(
                guild_id=guild_id,
                challenge_id=self.challenge_id,
                member=member,
                message_id=interaction.message.id if interaction.message else None,
            )
            challenge = await service(interaction, Challenges).get(guild_id, self.challenge_id)
            with texts.in_thread(challenge):  # the channel's message
                text = texts.challenge_closed_text(challenge, member.name, update.game)
        elif self.action == "decline":
            challenge = await service(interaction, Challenges).decline(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member
            )
            with texts.in_thread(challenge):
                text = texts.challenge_closed_text(challenge, member.name)
        else:
            challenge = await service(interaction, Challenges).cancel(
                guild_id=guild_id, challenge_id=self.challenge_id, member=member
            )
            with texts.in_thread(challenge):
                text = texts.challenge_closed_text(challenge, member.name)
        await interaction.edit_original_response(
            content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
        )


#: The buttons of a challenge message.
_ACTIONS = {"accept": N_("Accept"), "decline": N_("Decline"), "cancel": N_("Cancel")}


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
                label=_("Rematch"),
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
        await interaction.response.defer(ephemeral=True, thinking=True)
        row = await service(interaction, Games).get_game(guild_of(interaction), self.game_id)
        automatic = service(interaction, Players).automatic_in(row)
        if automatic is not None:  # against the bot: the new game starts at once
            update = await automatic.rematch(
                guild_id=guild_of(interaction),
                game_id=self.game_id,
                member=member_of(interaction.user),
            )
            new = update.game
            await reply(
                interaction,
                _(
                    "Rematch: {game}, {url}",
                    game=texts.label(new),
                    url=texts.jump_url(new.guild_id, new.where_id, new.last_message_id),
                ),
                ephemeral=True,
            )
            return
        # Posted through the outbox with the challenge, as every challenge message is.
        challenge = await service(interaction, Challenges).rematch(
            guild_id=guild_of(interaction), game_id=self.game_id, member=member_of(interaction.user)
        )
        service(interaction, ChallengeExpiry).poke()  # it may be the next challenge to expire
        if challenge.place == "dms":
            await reply(interaction, places.sent_to_dms(challenge.opponent_name or ""))
            return
        where = (
            _("{channel} in a moment", channel=f"<#{challenge.channel_id}>")
            if challenge.message_id is None
            else texts.jump_url(challenge.guild_id, challenge.channel_id, challenge.message_id)
        )
        await reply(
            interaction,
            _("Rematch offered to {name}: {where}", name=challenge.opponent_name, where=where),
            ephemeral=True,
        )


def rematch_items(game_id: int, argument: str) -> list[discord.ui.Item]:
    """The buttons of a post's ``rematch`` action."""
    return [RematchButton(game_id)]


ITEMS = (ChallengeButton, RematchButton)
