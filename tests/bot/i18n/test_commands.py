"""Every command, option and choice in the five other languages, valid for Discord: the
real command tree's payload, as the bot syncs it with its translator, checked against
Discord's OpenAPI description and Discord's name rules."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import Locale

from bot.client import BoardBot
from bot.config import Settings
from bot.i18n import LOCALES, catalogue_locale
from bot.ui.translator import CatalogueTranslator, choices_translatable
from tests.fakediscord.spec import load_spec

#: Discord's locales served by a catalogue other than English (es-ES and es-419: es).
LOCALISED = sorted(
    locale.value for locale in Locale if catalogue_locale(locale.value) in LOCALES[1:]
)
#: Scripts Discord takes in names besides letters and digits (its documented pattern,
#: ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, which the OpenAPI description
#: does not carry: it gives the lengths only).
_SCRIPTS = ("DEVANAGARI", "THAI")


def discord_name(name: str) -> bool:
    """Discord's rule for command and option names: 1 to 32 characters, letters, digits,
    ``-``, ``_``, ``'`` (and Devanagari or Thai marks), lower case where a letter has a
    case."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        category = unicodedata.category(char)
        if char in "-_'" or category[0] in "LN":
            continue
        if any(script in unicodedata.name(char, "") for script in _SCRIPTS):
            continue
        return False
    return True


@pytest.fixture
async def payload(tmp_path: Path) -> list[dict[str, Any]]:
    """The commands as the bot syncs them: translated."""
    bot = BoardBot(Settings(token="x.y.z", database_path=tmp_path / "bot.sqlite3"))
    await bot.load_areas()
    choices_translatable(bot.tree)
    await bot.tree.set_translator(CatalogueTranslator())
    assert bot.tree.translator is not None
    found = [
        await command.get_translated_payload(bot.tree, bot.tree.translator)
        for command in bot.tree.get_commands()
    ]
    await bot.close()
    return found


def named(payload: list[dict[str, Any]]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, kind, item) of every command, option and choice."""
    for command in payload:
        yield f"/{command['name']}", "command", command
        yield from _options(f"/{command['name']}", command.get("options") or [])


def _options(where: str, options: list[dict[str, Any]]) -> Iterator[tuple[str, str, dict]]:
    for option in options:
        here = f"{where} {option['name']}"
        yield here, "option", option
        for choice in option.get("choices") or []:
            yield f"{here}={choice['value']}", "choice", choice
        yield from _options(here, option.get("options") or [])


def test_the_payload_is_valid_for_discords_openapi_description(payload) -> None:
    spec = load_spec()
    operation, params, why_not = spec.match("PUT", "/applications/1234/commands")
    assert operation is not None, why_not
    errors = spec.validate(operation, params, [], payload, True)
    assert errors == []


def test_every_name_follows_discords_pattern_in_every_language(payload) -> None:
    wrong = []
    for where, kind, item in named(payload):
        if kind == "choice":
            names = [item["name"], *(item.get("name_localizations") or {}).values()]
            wrong += [(where, n) for n in names if not 1 <= len(n) <= 100]
            continue
        names = [item["name"], *(item.get("name_localizations") or {}).values()]
        wrong += [(where, n) for n in names if not discord_name(n)]
        descriptions = [
            item["description"],
            *(item.get("description_localizations") or {}).values(),
        ]
        wrong += [(where, d) for d in descriptions if not 1 <= len(d) <= 100]
    assert wrong == []


def test_every_command_option_and_choice_speaks_the_five_other_languages(payload) -> None:
    assert {"de", "fr", "es-ES", "es-419", "pt-BR", "ja"} == set(LOCALISED)
    missing = []
    for where, kind, item in named(payload):
        names = item.get("name_localizations") or {}
        missing += [(where, "name", code) for code in LOCALISED if code not in names]
        if kind != "choice":
            descriptions = item.get("description_localizations") or {}
            missing += [
                (where, "description", code) for code in LOCALISED if code not in descriptions
            ]
    assert missing == []


def test_names_stay_apart_in_every_language(payload) -> None:
    """Two commands, or two options of one command, never share a name in a language
    (Discord refuses the whole sync)."""
    clashes = []

    def check(where: str, items: list[dict[str, Any]]) -> None:
        for code in ["en", *LOCALISED]:
            seen: dict[str, str] = {}
            for item in items:
                name = (item.get("name_localizations") or {}).get(code, item["name"])
                if name in seen:
                    clashes.append((where, code, name, seen[name], item["name"]))
                seen[name] = item["name"]
        for item in items:
            options = [o for o in item.get("options") or [] if "name" in o]
            if options:
                check(f"{where} {item['name']}", options)

    check("", payload)
    assert clashes == []
