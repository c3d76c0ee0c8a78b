"""The translators' tools on the catalogues (``python -m bot.i18n``): extract the keys
from the sources into the English template and merge them into every language's
catalogue; report what each language misses. Babel does the reading and writing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.i18n import DOMAIN, LOCALE_DIR, LOCALES, fits, message_keys

ROOT = LOCALE_DIR.parents[2]
#: The sources whose member-facing words are extracted.
SOURCES = ("bot", "rules", "render")
#: The calls whose literal arguments are keys: the bot's text functions, and the
#: rules' texts (``rules.errors.Words`` and the errors built from a template).
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "N_": None,
    "_n": (1, 2),
    "N_n": (1, 2),
    "Words": None,
    "Plural": (1, 2),
    "IllegalMove": None,
    "InvalidMove": None,
    "UnknownCell": None,
    "UnknownGame": None,
    "OptionError": None,
    "RecordError": None,
    "RulesError": None,
}
COMMENT_TAGS = ("Translators:",)
PROJECT = "boardbot"
#: The template's date, fixed: a date changed at each extraction would only make the
#: branches that extract conflict.
CREATED = datetime(2026, 11, 27, tzinfo=UTC)


def template_path(directory: Path = LOCALE_DIR) -> Path:
    return directory / "en" / f"{DOMAIN}.po"


def catalogue_path(locale: str, directory: Path = LOCALE_DIR) -> Path:
    return directory / locale / f"{DOMAIN}.po"


def read(path: Path, locale: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=DOMAIN)


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(
            file,
            catalog,
            width=100,
            sort_output=True,
            include_lineno=False,
            ignore_obsolete=True,
        )


def extract(
    extra: Iterable[tuple[str, str]] = (), *, root: Path = ROOT, sources: Iterable[str] = SOURCES
) -> Catalog:
    """The template: every key of the sources, and the ``extra`` (context, text) pairs
    (the commands' strings, which discord.py reads from the command tree)."""
    catalog = Catalog(
        locale="en", domain=DOMAIN, project=PROJECT, fuzzy=False, creation_date=CREATED
    )
    for source in sources:
        found = extract_from_dir(
            root / source,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            where = (f"{source}/{filename}", lineno)
            catalog.add(message, None, [where], auto_comments=comments, context=context)
    for context, text in extra:
        catalog.add(text, None, [("commands", 0)], context=context)
    return catalog


def update(template: Catalog, directory: Path = LOCALE_DIR) -> list[str]:
    """Write the template and merge it into every language's catalogue (new keys
    empty, gone ones dropped); the languages' codes written."""
    write(template, template_path(directory))
    written = []
    for locale in LOCALES[1:]:
        path = catalogue_path(locale, directory)
        catalog = (
            read(path, locale)
            if path.is_file()
            else Catalog(
                locale=locale,
                domain=DOMAIN,
                project=PROJECT,
                fuzzy=False,
                creation_date=CREATED,
                revision_date=CREATED,
            )
        )
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        write(catalog, path)
        written.append(locale)
    return written


@dataclass(frozen=True)
class Problem:
    locale: str
    context: str | None
    key: str
    why: str  # "missing", "fuzzy" or "placeholders"

    def __str__(self) -> str:
        where = f" [{self.context}]" if self.context else ""
        return f"{self.locale}: {self.why}: {self.key!r}{where}"


def problems(locale: str, directory: Path = LOCALE_DIR) -> list[Problem]:
    """What a language's catalogue lacks against the template: keys missing or empty,
    fuzzy, or whose placeholders differ from the English."""
    template = read(template_path(directory), "en")
    path = catalogue_path(locale, directory)
    catalog = read(path, locale) if path.is_file() else Catalog(locale=locale, domain=DOMAIN)
    found = []
    for message in template:
        if not message.id:
            continue
        key, plural = message_keys(message)
        theirs = catalog.get(message.id, message.context)
        if (
            theirs is None
            or not theirs.string
            or (isinstance(theirs.string, tuple | list) and not all(theirs.string))
        ):
            found.append(Problem(locale, message.context, key, "missing"))
        elif theirs.fuzzy:
            found.append(Problem(locale, message.context, key, "fuzzy"))
        else:
            forms = theirs.string if isinstance(theirs.string, tuple | list) else (theirs.string,)
            if not all(fits(key, plural, form) for form in forms):
                found.append(Problem(locale, message.context, key, "placeholders"))
    return found
