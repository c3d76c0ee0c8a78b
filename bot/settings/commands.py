"""``/settings``: a member's own settings, shown and changed privately."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.members import MemberSettings, Preferences
from bot.ui.areas import AreaHost
from bot.ui.context import service

THEME = [
    app_commands.Choice(name="dark (Discord's default)", value="dark"),
    app_commands.Choice(name="light", value="light"),
]
NOTIFY = [
    app_commands.Choice(name="a mention in the game's thread (default)", value="thread"),
    app_commands.Choice(name="a direct message", value="dm"),
    app_commands.Choice(name="a daily digest by direct message", value="digest"),
]
NOTIFY_WORDS = {
    "thread": "a mention in the game's thread",
    "dm": "a direct message (a mention in the thread if your DMs are closed)",
    "digest": "a daily digest by direct message (deadline reminders by DM too)",
}


def settings_text(prefs: Preferences, *, changed: bool) -> str:
    confirm = (
        "**on**: `/move` shows your move on the board, privately, and plays it when "
        "you press Confirm"
        if prefs.confirm_moves
        else "**off**: `/move` plays at once"
    )
    lines = [
        "Saved. Your settings now:" if changed else "Your settings:",
        f"- Pictures only you see (`/board`, `/review`, `/replay`, `/import`, moves to "
        f"confirm): **{prefs.theme}**. Posts in game threads are for everyone and "
        "keep the default theme.",
        f"- Confirm moves: {confirm}.",
        f"- When it's your turn: **{NOTIFY_WORDS.get(prefs.notify, prefs.notify)}**.",
        "They are the same in every server. Change any of them with the options of `/settings`.",
    ]
    return "\n".join(lines)


class SettingsCommands(commands.Cog):
    @app_commands.command(
        name="settings", description="Your settings: picture theme, confirming moves, turn notices"
    )
    @app_commands.describe(
        theme="The theme of the pictures only you see",
        confirm_moves="Show /move's move on the board and wait for Confirm",
        notify="How I tell you it's your turn",
    )
    @app_commands.choices(theme=THEME, notify=NOTIFY)
    async def settings(
        self,
        interaction: discord.Interaction,
        theme: app_commands.Choice[str] | None = None,
        confirm_moves: bool | None = None,
        notify: app_commands.Choice[str] | None = None,
    ) -> None:
        changed = theme is not None or confirm_moves is not None or notify is not None
        prefs = await service(interaction, MemberSettings).change(
            interaction.user.id,
            theme=theme.value if theme else None,
            confirm_moves=confirm_moves,
            notify=notify.value if notify else None,
        )
        await interaction.response.send_message(
            settings_text(prefs, changed=changed), ephemeral=True
        )


async def setup(bot: AreaHost) -> None:
    """The settings area's commands in the bot."""
    await bot.add_cog(SettingsCommands())
