"""The text functions: the locale spoken, plural forms, and English whenever a
translation is missing or broken (logged once, never raised)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.i18n import (
    N_,
    _,
    _n,
    catalogue_locale,
    catalogues_from,
    current_locale,
    pgettext,
    speaking,
)

GERMAN = r"""
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "{name}'s turn"
msgstr "{name} ist am Zug"

msgid "Resign"
msgstr "Aufgeben"

msgid "the game {game} is over"
msgstr "die Partie {spiel} ist vorbei"

msgid "one move"
msgid_plural "{count} moves"
msgstr[0] "ein Zug"
msgstr[1] "{count} Züge"

msgid "{count} stone of {name}"
msgid_plural "{count} stones of {name}"
msgstr[0] "{count} Stein von {name}"
msgstr[1] "{count} Steine von {nom}"

msgctxt "command name"
msgid "resign"
msgstr "aufgeben"

#, fuzzy
msgid "Draw"
msgstr "Remis"
"""


@pytest.fixture
def german(tmp_path: Path):
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "messages.po").write_text(GERMAN, encoding="utf-8")
    (tmp_path / "ja").mkdir()
    (tmp_path / "ja" / "messages.po").write_text('this is no catalogue "', encoding="utf-8")
    with catalogues_from(tmp_path):
        yield


@pytest.mark.parametrize(
    ("discord", "code"),
    [
        ("de", "de"),
        ("fr", "fr"),
        ("pt-BR", "pt_BR"),
        ("pt_BR", "pt_BR"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("ja", "ja"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("zh-CN", "en"),
        ("ko", "en"),
        ("", "en"),
        (None, "en"),
        ("not a locale at all", "en"),
    ],
)
def test_discord_locales_map_to_catalogues(discord: str | None, code: str) -> None:
    assert catalogue_locale(discord) == code


def test_english_by_default_and_within_speaking(german: None) -> None:
    assert current_locale() == "en"
    assert _("{name}'s turn", name="Ada") == "Ada's turn"
    with speaking("de"):
        assert current_locale() == "de"
        assert _("{name}'s turn", name="Ada") == "Ada ist am Zug"
        assert _("Resign") == "Aufgeben"
        with speaking("en-GB"):
            assert _("Resign") == "Resign"
        assert _("Resign") == "Aufgeben"
    assert current_locale() == "en"
    assert _("Resign") == "Resign"


def test_a_member_with_an_unknown_locale_gets_english(german: None) -> None:
    for locale in ("ko", "zh-TW", None, "xx-YY"):
        with speaking(locale):
            assert current_locale() == "en"
            assert _("{name}'s turn", name="Ada") == "Ada's turn"


def test_plural_forms_per_language(german: None) -> None:
    assert _n("one move", "{count} moves", 1) == "one move"
    assert _n("one move", "{count} moves", 3) == "3 moves"
    with speaking("de"):
        assert _n("one move", "{count} moves", 1) == "ein Zug"
        assert _n("one move", "{count} moves", 0) == "0 Züge"
        assert _n("one move", "{count} moves", 2) == "2 Züge"


def test_a_broken_translation_is_english_and_logged_once(
    german: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    with speaking("de"):
        for _round in range(3):
            assert _("the game {game} is over", game=7) == "the game 7 is over"
            assert _n("{count} stone of {name}", "{count} stones of {name}", 2, name="Bo") == (
                "2 stones of Bo"
            )
        # the form that fits is still used
        assert _n("{count} stone of {name}", "{count} stones of {name}", 1, name="Bo") == (
            "1 Stein von Bo"
        )
    lines = [r.getMessage() for r in caplog.records]
    assert len([line for line in lines if "the game {game} is over" in line]) == 1
    assert len([line for line in lines if "{count} stone of {name}" in line]) == 1


def test_missing_and_fuzzy_texts_are_english_and_logged_once(
    german: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    with speaking("de"):
        for _round in range(2):
            assert _("Draw") == "Draw"  # fuzzy: not trusted
            assert _("Nobody translated me") == "Nobody translated me"
    lines = [r.getMessage() for r in caplog.records]
    assert len([line for line in lines if "'Draw'" in line]) == 1
    assert len([line for line in lines if "Nobody translated me" in line]) == 1


def test_a_damaged_catalogue_is_english(german: None, caplog: pytest.LogCaptureFixture) -> None:
    with speaking("ja"):
        assert _("Resign") == "Resign"


def test_contexts_keep_commands_apart(german: None) -> None:
    assert pgettext("command name", "resign", "de") == "aufgeben"
    assert pgettext("command name", "Resign", "de") == "Resign"
    with speaking("de"):
        assert _("resign") == "resign"  # the command's name is not the button's text


def test_marked_constants_are_unchanged_until_shown(german: None) -> None:
    label = N_("Resign")
    assert label == "Resign"
    with speaking("de"):
        assert _(label) == "Aufgeben"


async def test_tasks_keep_the_locale_they_were_started_in(german: None) -> None:
    async def say() -> str:
        await asyncio.sleep(0)
        return _("Resign")

    with speaking("de"):
        task = asyncio.create_task(say())
    with speaking("fr"):
        assert await task == "Aufgeben"


RULES_GERMAN = r"""
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "{cell} is occupied"
msgstr "{cell} ist besetzt"

msgid "{winner} wins: {loser} resigned"
msgstr "{winner} gewinnt: {loser} hat aufgegeben"

msgid "White"
msgstr "Weiß"

msgid "Black"
msgstr "Schwarz"

msgid "place a stone, or hold ({prisoners})"
msgstr "setze einen Stein oder Hold ({prisoners})"

msgid "{count} black prisoner"
msgid_plural "{count} black prisoners"
msgstr[0] "{count} schwarzer Gefangener"
msgstr[1] "{count} schwarze Gefangene"
"""


def test_the_rules_words_are_translated_with_their_values(tmp_path: Path) -> None:
    """The rules' errors, prompts and outcomes stay English as text (``str``), and keep
    their template and values for the bot to say them in another language."""
    import rules
    from bot.i18n import said
    from rules.outcome import resigned
    from rules.words import Plural, Words

    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "messages.po").write_text(RULES_GERMAN, encoding="utf-8")
    state = rules.get_game("asli").new(size=5).play("komi 3").play("white").play("c3")
    with pytest.raises(rules.IllegalMove) as caught:
        state.play("c3")
    assert str(caught.value) == "c3 is occupied"
    outcome = resigned(state, 1)  # the second player chose White
    assert outcome.text == "Black wins: White resigned"
    prompt = Words(
        "place a stone, or hold ({prisoners})",
        prisoners=Plural("{count} black prisoner", "{count} black prisoners", 3),
    )
    assert prompt == "place a stone, or hold (3 black prisoners)"
    with catalogues_from(tmp_path), speaking("de"):
        assert said(caught.value) == "c3 ist besetzt"
        assert said(outcome.text) == "Schwarz gewinnt: Weiß hat aufgegeben"
        assert said(prompt) == "setze einen Stein oder Hold (3 schwarze Gefangene)"
        assert said("plain text") == "plain text"
    assert said(outcome.text) == "Black wins: White resigned"
