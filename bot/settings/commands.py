"""``/settings``: a member's own settings, shown and changed privately."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.members import MemberSettings, Preferences
from bot.i18n import LOCALES, N_, NATIVE_NAMES, _, speaking
from bot.i18n.languages import AUTOMATIC, Languages
from bot.ui.areas import AreaHost
from bot.ui.context import answer_locale, service

THEME = [
    app_commands.Choice(name=N_("dark (Discord's default)"), value="dark"),
    app_commands.Choice(name=N_("light"), value="light"),
]
NOTIFY = [
    app_commands.Choice(name=N_("a mention in the game's thread (default)"), value="thread"),
    app_commands.Choice(name=N_("a direct message"), value="dm"),
    app_commands.Choice(name=N_("a daily digest by direct message"), value="digest"),
]
#: Automatic, then each language by its own name.
LANGUAGE = [
    app_commands.Choice(name=N_("automatic: the language of your Discord"), value=AUTOMATIC),
    *(app_commands.Choice(name=NATIVE_NAMES[code], value=code) for code in LOCALES),
]
NOTIFY_WORDS = {
    "thread": N_("a mention in the game's thread"),
    "dm": N_("a direct message (a mention in the thread if your DMs are closed)"),
    "digest": N_("a daily digest by direct message (deadline reminders by DM too)"),
}
THEME_WORDS = {"dark": N_("dark"), "light": N_("light")}


def settings_text(prefs: Preferences, *, changed: bool, language: str | None = None) -> str:
    """What /settings shows; ``language`` the one chosen (None: automatic)."""
    confirm = (
        _(
            "**on**: `/move` shows your move on the board, privately, and plays it when "
            "you press Confirm"
        )
        if prefs.confirm_moves
        else _("**off**: `/move` plays at once")
    )
    spoken = (
        f"**{NATIVE_NAMES[language]}**"
        if language is not None and language in NATIVE_NAMES
        else _("**automatic** (your Discord's language)")
    )
    theme = _(THEME_WORDS[prefs.theme]) if prefs.theme in THEME_WORDS else prefs.theme
    notify = NOTIFY_WORDS.get(prefs.notify)
    lines = [
        _("Saved. Your settings now:") if changed else _("Your settings:"),
        _(
            "- Pictures only you see (`/board`, `/review`, `/replay`, `/import`, moves to "
            "confirm): **{theme}**. Posts in game threads are for everyone and "
            "keep the default theme.",
            theme=theme,
        ),
        _("- Confirm moves: {confirm}.", confirm=confirm),
        _("- When it's your turn: **{how}**.", how=_(notify) if notify else prefs.notify),
        _("- Language of my answers and direct messages: {language}.", language=spoken),
        _("They are the same in every server. Change any of them with the options of `/settings`."),
    ]
    return "\n".join(lines)


class SettingsCommands(commands.Cog):
    @app_commands.command(
        name="settings",
        description="Your settings: picture theme, confirming moves, turn notices, language",
    )
    @app_commands.describe(
        theme="The theme of the pictures only you see",
        confirm_moves="Show /move's move on the board and wait for Confirm",
        notify="How I tell you it's your turn",
        language="The language I answer you in (automatic: your Discord's)",
    )
    @app_commands.choices(theme=THEME, notify=NOTIFY, language=LANGUAGE)
    async def settings(
        self,
        interaction: discord.Interaction,
        theme: app_commands.Choice[str] | None = None,
        confirm_moves: bool | None = None,
        notify: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
    ) -> None:
        changed = any(x is not None for x in (theme, confirm_moves, notify, language))
        prefs = await service(interaction, MemberSettings).change(
            interaction.user.id,
            theme=theme.value if theme else None,
            confirm_moves=confirm_moves,
            notify=notify.value if notify else None,
        )
        languages = service(interaction, Languages)
        if language is not None:
            choice = None if language.value == AUTOMATIC else language.value
            if choice is not None and choice not in LOCALES:
                choice = None  # an old client's stale choice: automatic
            await languages.choose(interaction.user.id, choice)
        chosen = await languages.chosen(interaction.user.id)
        with speaking(await answer_locale(interaction)):  # the new language at once
            text = settings_text(prefs, changed=changed, language=chosen)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: AreaHost) -> None:
    """The settings area's commands in the bot."""
    await bot.add_cog(SettingsCommands())
