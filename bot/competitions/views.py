"""The buttons of a tournament's sign-up post: Join and Leave. Restart-proof like every
button of the bot: the tournament's id is in the ``custom_id``, its state in the
database; a forged or stale one (no such tournament, or one that has started) is
answered privately and changes nothing."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord

from bot.competitions.service import Tournaments
from bot.i18n import _
from bot.ui.answers import reply
from bot.ui.context import ROW_ID, guild_of, member_of, service
from bot.ui.errors import guarded


class SignupButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"bb:tournament:(?P<action>join|leave):(?P<id>{ROW_ID})",
):
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
    }

    def __init__(self, action: str, tournament_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Join") if action == "join" else _("Leave"),
                style=self.STYLES[action],
                custom_id=f"bb:tournament:{action}:{tournament_id}",
            )
        )
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SignupButton:
        return cls(match["action"], int(match["id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        guild_id, member = guild_of(interaction), member_of(interaction.user)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournaments = service(interaction, Tournaments)
        if self.action == "join":
            t = await tournaments.join(
                guild_id=guild_id, tournament_id=self.tournament_id, member=member
            )
            text = _(
                "You're in **{name}**. It starts {relative}.",
                name=t.name,
                relative=f"<t:{int(t.starts_at.timestamp())}:R>",
            )
        else:
            t = await tournaments.leave(
                guild_id=guild_id, tournament_id=self.tournament_id, member=member
            )
            text = _("You left **{name}**.", name=t.name)
        await reply(interaction, text, ephemeral=True)


ITEMS = (SignupButton,)


def signup_items(game_id: int, argument: str) -> list[discord.ui.Item[Any]]:
    """The buttons under a sign-up post (the post action ``tournament:<id>``)."""
    tournament_id = int(argument)
    return [SignupButton("join", tournament_id), SignupButton("leave", tournament_id)]
