"""The commands' names, descriptions, options and choices in every language: the
command tree's :class:`app_commands.Translator`, reading the catalogues of
:mod:`bot.i18n` (each string in its place's context: ``"command name"``…).

discord.py wraps every such string of our commands in a ``locale_str`` by itself
(``auto_locale_strings``), so no command file names a translation."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import LOCALES, catalogue_locale, catalogues

_Where = app_commands.TranslationContextLocation
#: The catalogue's context (msgctxt) of each place a command's string stands.
CONTEXTS: dict[_Where, str] = {
    _Where.command_name: "command name",
    _Where.group_name: "command name",
    _Where.command_description: "command description",
    _Where.group_description: "command description",
    _Where.parameter_name: "option name",
    _Where.parameter_description: "option description",
    _Where.choice_name: "choice name",
}


def discord_locales(code: str) -> list[Locale]:
    """Discord's locales a catalogue serves (``es``: es-ES and es-419)."""
    return [locale for locale in Locale if catalogue_locale(locale.value) == code]


def choices_translatable(tree: app_commands.CommandTree) -> None:
    """Make every option description and choice of the tree's commands translatable:
    discord.py makes a decorator's so, but not those given to a command made already
    (the game commands' of ``bot.core.options``)."""
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for parameter in command._params.values():
            if isinstance(parameter.description, str):
                parameter.description = app_commands.locale_str(parameter.description)
            for choice in parameter.choices or ():
                if getattr(choice, "_locale_name", None) is None:
                    choice._locale_name = app_commands.locale_str(choice.name)


class CatalogueTranslator(app_commands.Translator):
    """Each string of a command from the catalogue of the Discord locale's language;
    None (Discord shows the English) for English, and for a string with no translation
    (logged once by :mod:`bot.i18n`)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = catalogue_locale(locale.value)
        where = CONTEXTS.get(context.location)
        if code == "en" or code not in LOCALES or where is None:
            return None
        text = catalogues().text(code, string.message, where)
        return None if text is string.message else text


class _Recorder(app_commands.Translator):
    """Records each string (with its context) discord.py asks to translate."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        where = CONTEXTS.get(context.location)
        if where is not None and locale is Locale.german:
            self.seen[(where, string.message)] = None
        return None


async def command_texts(tree: app_commands.CommandTree) -> list[tuple[str, str]]:
    """Every (context, English text) of the tree's commands that is translated."""
    recorder = _Recorder()
    choices_translatable(tree)
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return list(recorder.seen)
