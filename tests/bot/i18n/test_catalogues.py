"""The shipped catalogues: every key of the code in the English template, every key
translated in every language with the same placeholders, and the glossary's terms in
every language."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from bot.i18n import LOCALES
from bot.i18n.tools import KEYWORDS, Problem, problems, read, template_path

OTHERS = LOCALES[1:]
GLOSSARY = Path(__file__).resolve().parents[3] / "bot" / "i18n" / "glossary.md"


def test_every_catalogue_is_there_and_readable() -> None:
    template = read(template_path(), "en")
    assert len(template) > 300
    for locale in OTHERS:
        problems(locale)  # reads it


@pytest.mark.parametrize("locale", OTHERS)
def test_no_translation_has_placeholders_other_than_the_englishs(locale: str) -> None:
    """A broken translation never ships: a missing or extra placeholder is caught here
    (at run time it would be English, logged)."""
    broken = [p for p in problems(locale) if p.why == "placeholders"]
    assert broken == [], "\n".join(map(str, broken))


@pytest.mark.parametrize("locale", OTHERS)
def test_every_key_is_translated_in_every_shipped_language(locale: str) -> None:
    """Every text a member can meet has its translation in every shipped language
    (``python -m bot.i18n missing`` says which are left)."""
    left: list[Problem] = problems(locale)
    shown = "\n".join(map(str, left[:20]))
    assert left == [], f"{locale}: {len(left)} keys to translate, first:\n{shown}"


def test_the_glossary_gives_every_term_in_every_language() -> None:
    """Each row of the glossary's tables names the English term and its word in de, fr,
    es, pt_BR and ja (the notes may be empty); the rules' own terms are all there."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| English") and "---" not in line
    ]
    terms = [row for row in rows if len(row) == 7]
    assert len(terms) > 80
    for row in terms:
        assert all(row[:6]), f"a term without its word in every language: {row}"
    english = {row[0].split(" (")[0].lower() for row in terms}
    for term in ("hold", "prison", "loop", "pawn", "komi", "pie", "group", "swap", "pass"):
        assert term in english, term
    for term in ("stone", "ring", "capture (verb)", "territory", "incursion", "stalemate"):
        assert term.split(" (")[0] in english, term


async def test_the_template_has_every_key_of_the_code() -> None:
    """Every text the code wraps (and every command string) is in the English template:
    after changing one, ``python -m bot.i18n extract``."""
    from bot.i18n.__main__ import command_texts
    from bot.i18n.tools import extract

    code = extract(await command_texts())
    template = read(template_path(), "en")
    keys = {(m.context, str(m.id if isinstance(m.id, str) else m.id[0])) for m in code if m.id}
    known = {(m.context, str(m.id if isinstance(m.id, str) else m.id[0])) for m in template if m.id}
    assert sorted(keys - known, key=str) == [], "run: python -m bot.i18n extract"


def test_missing_reports_empty_fuzzy_and_broken_translations(tmp_path: Path) -> None:
    from babel.messages.catalog import Catalog

    from bot.i18n.tools import update, write

    template = Catalog(locale="en", domain="messages")
    template.add("Resign")
    template.add("{name}'s turn")
    template.add("Draw")
    template.add(("one move", "{count} moves"))
    template.add("resign", context="command name")
    update(template, tmp_path)  # every language created, empty
    german = read(tmp_path / "de" / "messages.po", "de")
    german["Resign"].string = "Aufgeben"
    german["{name}'s turn"].string = "{nom} ist am Zug"  # broken
    german["Draw"].string = "Remis"
    german["Draw"].flags.add("fuzzy")
    german[("one move", "{count} moves")].string = ("ein Zug", "{count} Züge")
    write(german, tmp_path / "de" / "messages.po")
    found = {(p.key, p.why) for p in problems("de", tmp_path)}
    assert found == {
        ("{name}'s turn", "placeholders"),
        ("Draw", "fuzzy"),
        ("resign", "missing"),
    }
    assert len(problems("ja", tmp_path)) == 5


def test_every_error_of_the_rules_is_extracted() -> None:
    """The rules' refusals are written as ``IllegalMove("template", ...)`` and the like:
    extraction finds a template only by the class's name, so every kind of error the
    engine raises is a keyword (a missing one left "Asli has no pass…" in English)."""
    kinds, seen = [rules.RulesError], set()
    while kinds:
        kind = kinds.pop()
        seen.add(kind.__name__)
        kinds.extend(kind.__subclasses__())
    assert seen - set(KEYWORDS) == set()
