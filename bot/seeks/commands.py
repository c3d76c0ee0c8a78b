"""``/seek create|list|cancel`` (open challenges to anyone from any server) and
``/lobby channel`` (the channel where a server shows every seek; Manage Server).

``/seek create`` takes the same game options and clock as ``/challenge`` (the core's
builders). ``/seek`` works in servers, in the bot's DMs and in private channels (the client's
``ANYWHERE``);
``/lobby`` only in servers, for those with Manage Server (Discord hides it from the
others by its default permissions, and each call checks again).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import places, timecontrol
from bot.core.game_settings import challenge_settings
from bot.core.options import TimeControlOption, game_command
from bot.i18n import _
from bot.model import UserError
from bot.seeks import texts, views
from bot.seeks.posts import SEEK_ACTION
from bot.seeks.service import Seeks
from bot.ui.answers import reply
from bot.ui.areas import AreaHost
from bot.ui.context import channel_of, guild_of, member_of, service

FIRST = [
    app_commands.Choice(name="me", value="challenger"),
    app_commands.Choice(name="my opponent", value="opponent"),
    app_commands.Choice(name="random", value="random"),
]
DESCRIPTIONS = {
    "game": "Which game",
    "first": "Who plays first (takes the first seat)",
    "rated": "Whether the game changes ratings (default: yes; no = casual)",
    "time_control": "Days per move (3d: the default), a bank (3d+1d/7d), or none",
    "takebacks": "Whether a player may ask to take back a move (default: yes)",
    "vacation": "Whether vacations stop this game's clock (default: yes)",
}


async def create(
    self: SeekCommands,
    interaction: discord.Interaction,
    game: rules.Game,
    first: app_commands.Choice[str] | None = None,
    rated: bool = True,
    time_control: timecontrol.TimeControl | None = None,
    takebacks: bool = True,
    vacation: bool = True,
    **options: Any,
) -> None:
    settings = {
        **challenge_settings(time_control, takebacks, vacation),
        "first": first.value if first else "challenger",
        "rated": bool(rated),
    }
    guild = guild_of(interaction)  # DMS: made where the bot can't post
    await interaction.response.defer(ephemeral=True, thinking=True)
    seek, staged = await service(interaction, Seeks).create(
        seeker=member_of(interaction.user),
        game=game.name,
        options=options,
        settings=settings,
        guild_id=None if guild == places.DMS else guild,
        channel_id=None if guild == places.DMS else channel_of(interaction),
    )
    await reply(interaction, texts.created_text(seek, len(staged)), ephemeral=True)


def _create_command() -> app_commands.Command[Any, ..., None]:
    command = game_command(
        "create",
        "Seek an opponent from any server: an open challenge posted in every lobby",
        create,
        cog="SeekCommands",
        before=[],
        after=[
            ("first", app_commands.Choice[str] | None, None),
            ("rated", bool, True),
            (
                "time_control",
                app_commands.Transform[timecontrol.TimeControl, TimeControlOption] | None,
                None,
            ),
            ("takebacks", bool, True),
            ("vacation", bool, True),
        ],
        descriptions=DESCRIPTIONS,
    )
    app_commands.choices(first=FIRST)(command)
    return command


async def own_seeks(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[int]]:
    mine = [
        s for s in await service(interaction, Seeks).open() if s.seeker_id == interaction.user.id
    ]
    return [
        app_commands.Choice(name=texts.seek_line(s)[:100], value=s.id)
        for s in mine
        if typed.strip().lstrip("#") in str(s.id) or typed.lower() in s.game
    ][:25]


def may_manage(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions is not None and permissions.manage_guild)


class SeekCommands(commands.Cog):
    seek = app_commands.Group(
        name="seek",
        description="Open challenges to anyone from any server",
    )
    seek.add_command(_create_command())

    @seek.command(name="list", description="The open seeks of every server, to accept")
    async def list_seeks(self, interaction: discord.Interaction) -> None:
        found = await service(interaction, Seeks).open()
        view = views.listing_view(found)
        await interaction.response.send_message(
            texts.listing(found),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
            view=view if view is not None else discord.utils.MISSING,
        )

    @seek.command(name="cancel", description="Withdraw your open seek (or all of them)")
    @app_commands.describe(seek="Which seek (default: all of yours)")
    @app_commands.autocomplete(seek=own_seeks)
    async def cancel(self, interaction: discord.Interaction, seek: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        closed = await service(interaction, Seeks).cancel(
            member=member_of(interaction.user), seek_id=seek
        )
        await reply(interaction, texts.cancelled_text(closed), ephemeral=True)

    lobby = app_commands.Group(
        name="lobby",
        description="Where this server shows the seeks of every server (moderators)",
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @lobby.command(name="channel", description="Set (or, left empty, clear) the lobby channel")
    @app_commands.describe(channel="A text channel where I can post (empty: no lobby)")
    async def lobby_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        guild_id = guild_of(interaction)
        if not may_manage(interaction):
            raise UserError(_(texts.LOBBY_NEEDS_MANAGER))
        where = getattr(channel, "guild", None)
        me = getattr(where, "me", None)
        if where is not None and where.id != guild_id:
            raise UserError(_(texts.NOT_A_TEXT_CHANNEL))
        if channel is not None and me is not None and not channel.permissions_for(me).send_messages:
            raise UserError(_(texts.NOT_A_TEXT_CHANNEL))  # one I can't post in
        channel_id = channel.id if channel is not None else None
        await service(interaction, Seeks).set_lobby(
            guild_id, channel_id, by=member_of(interaction.user)
        )
        await interaction.response.send_message(texts.lobby_set_text(channel_id), ephemeral=True)


async def setup(bot: AreaHost) -> None:
    """The seeks area's commands and buttons in the bot."""
    await bot.add_cog(SeekCommands())
    bot.add_dynamic_items(*views.ITEMS)
    bot.views.add_action(SEEK_ACTION, views.card_items)
