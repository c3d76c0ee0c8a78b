"""What the bot says, in the member's language: gettext catalogues read with Babel.

Every word a member sees is written in English in the code, wrapped in :func:`_`
(or :func:`_n` for a count, :func:`N_` for a constant translated where it is shown,
:func:`said` for the rules' words).
The English text, with its ``{placeholders}``, is the key; each language's
``locales/<code>/messages.po`` gives its translation. The language spoken is the
*current locale*, a :class:`contextvars.ContextVar` set with :func:`speaking` where an
interaction is dispatched or a post is composed (asyncio tasks copy it), so the text
functions keep their signatures.

A translation that is missing, or whose placeholders differ from the English ones, is
English for that text, with one log line per key; it never raises. A shared floor
module: imports nothing of ours.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import logging
import string
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

log = logging.getLogger(__name__)

#: The languages shipped, as catalogue codes (English first: the template).
LOCALES: tuple[str, ...] = ("en", "de", "fr", "es", "pt_BR", "ja")
#: Each catalogue's name in its own language (the /settings language choices).
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt_BR": "Português do Brasil",
    "ja": "日本語",
}
#: Where the catalogues are: ``<code>/messages.po``.
LOCALE_DIR = Path(__file__).resolve().parent / "locales"
DOMAIN = "messages"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("locale", default="en")


def catalogue_locale(discord_locale: str | None) -> str:
    """The catalogue for a Discord locale ("de", "pt-BR", "es-419"…) or a catalogue
    code ("pt_BR"): the exact one, else the language's own, else English."""
    if not discord_locale:
        return "en"
    code = str(discord_locale).strip().replace("-", "_")
    for candidate in LOCALES:
        if candidate.lower() == code.lower():
            return candidate
    language = code.split("_")[0].lower()
    if language == "pt":
        return "pt_BR"
    return language if language in LOCALES else "en"


def current_locale() -> str:
    """The catalogue code spoken now (en, de, fr, es, pt_BR, ja)."""
    return _current.get()


@contextlib.contextmanager
def speaking(locale: str | None) -> Iterator[None]:
    """Speak ``locale`` (a Discord locale or a catalogue code; None or unknown: English)
    within the block."""
    token = _current.set(catalogue_locale(locale))
    try:
        yield
    finally:
        _current.reset(token)


def placeholders(text: str) -> frozenset[str]:
    """The names of a text's ``{placeholders}`` (``{{`` and ``}}`` are braces);
    raises ValueError for a text str.format cannot read."""
    names = set()
    for _literal, name, _spec, _conversion in string.Formatter().parse(text):
        if name is not None:
            names.add(name.split(".")[0].split("[")[0])
    return frozenset(names)


def fits(msgid: str, plural: str | None, translation: str) -> bool:
    """Whether a translation takes the English text's placeholders: the same ones for
    a plain text; for a form of a plural, those both English forms need and no other
    than theirs and ``count``."""
    try:
        found = placeholders(translation)
        singular = placeholders(msgid)
        if plural is None:
            return found == singular
        many = placeholders(plural)
    except ValueError:
        return False
    return (singular & many) <= found <= singular | many | {"count"}


@dataclass
class _Catalogue:
    """One language's translations: (context, msgid) to its text, or its plural forms."""

    locale: str
    texts: dict[tuple[str | None, str], str | tuple[str, ...]] = field(default_factory=dict)
    plural: Callable[[int], int] = lambda n: int(n != 1)


def message_keys(message: Message) -> tuple[str, str | None]:
    """A catalogue entry's English text, and its plural form (None for a plain text)."""
    if isinstance(message.id, str):
        return message.id, None
    forms = [str(form) for form in message.id]
    return forms[0], forms[1] if len(forms) > 1 else None


def load_catalogue(path: Path, locale: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=locale, domain=DOMAIN)


class Catalogues:
    """The catalogues of a folder, each read at its first use and kept."""

    def __init__(self, directory: Path = LOCALE_DIR) -> None:
        self.directory = directory
        self._loaded: dict[str, _Catalogue] = {}
        self._lock = threading.Lock()
        self._logged: set[tuple[str, str | None, str, str]] = set()

    def catalogue(self, locale: str) -> _Catalogue:
        found = self._loaded.get(locale)
        if found is None:
            with self._lock:
                found = self._loaded.get(locale)
                if found is None:
                    found = self._loaded[locale] = self._read(locale)
        return found

    def _read(self, locale: str) -> _Catalogue:
        path = self.directory / locale / f"{DOMAIN}.po"
        result = _Catalogue(locale)
        if locale == "en" or not path.is_file():
            if locale != "en":
                log.warning("no catalogue for %s at %s: English instead", locale, path)
            return result
        try:
            catalog = load_catalogue(path, locale)
        except Exception:  # a damaged file: English, said once
            log.exception("the catalogue %s cannot be read: English instead", path)
            return result
        if catalog.plural_expr:
            try:
                result.plural = gettext.c2py(catalog.plural_expr)
            except (ValueError, SyntaxError):
                log.warning("%s: plural forms %r unreadable", path, catalog.plural_expr)
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            key, _plural = message_keys(message)
            text = message.string
            if isinstance(text, tuple | list):
                if all(text):
                    result.texts[(message.context, key)] = tuple(text)
            elif text:
                result.texts[(message.context, key)] = text
        return result

    def _once(self, locale: str, context: str | None, msgid: str, why: str) -> None:
        key = (locale, context, msgid, why)
        if key not in self._logged:
            self._logged.add(key)
            where = f" ({context})" if context else ""
            log.warning("%s translation %s for %r%s: English instead", locale, why, msgid, where)

    def text(self, locale: str, msgid: str, context: str | None = None) -> str:
        """``msgid`` in ``locale``, unformatted (English when missing or broken)."""
        if locale == "en":
            return msgid
        found = self.catalogue(locale).texts.get((context, msgid))
        if not isinstance(found, str):
            self._once(locale, context, msgid, "missing")
            return msgid
        if not fits(msgid, None, found):
            self._once(locale, context, msgid, "broken (placeholders differ)")
            return msgid
        return found

    def plural_text(self, locale: str, singular: str, plural: str, count: int) -> str:
        english = singular if count == 1 else plural
        if locale == "en":
            return english
        catalogue = self.catalogue(locale)
        found = catalogue.texts.get((None, singular))
        if not isinstance(found, tuple):
            self._once(locale, None, singular, "missing")
            return english
        try:
            form = found[catalogue.plural(count)]
        except (IndexError, TypeError, ValueError):
            self._once(locale, None, singular, "broken (plural forms)")
            return english
        if not fits(singular, plural, form):
            self._once(locale, None, singular, "broken (placeholders differ)")
            return english
        return form

    def format(self, locale: str, text: str, english: str, params: dict[str, object]) -> str:
        """``text`` formatted; the English (which must format) if the translation won't."""
        if not params:  # a text without values is shown as it is (as the English is)
            return text
        if text is english:
            return english.format(**params)
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            self._once(locale, None, english, "broken (cannot format)")
            return english.format(**params)


_catalogues = Catalogues()


def catalogues() -> Catalogues:
    """The catalogues in use."""
    return _catalogues


@contextlib.contextmanager
def catalogues_from(directory: Path) -> Iterator[Catalogues]:
    """Use the catalogues of another folder within the block (the tests')."""
    global _catalogues
    before, _catalogues = _catalogues, Catalogues(directory)
    try:
        yield _catalogues
    finally:
        _catalogues = before


def _(msgid: str, /, **params: object) -> str:
    """``msgid`` (English, with ``{placeholders}``) in the current locale, formatted
    with ``params``."""
    locale = _current.get()
    text = _catalogues.text(locale, msgid)
    if not params and text is msgid:
        return msgid
    return _catalogues.format(locale, text, msgid, params)


def _n(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The form of ``singular``/``plural`` for ``count`` in the current locale (its
    plural rules), formatted with ``params`` and ``count``."""
    locale = _current.get()
    text = _catalogues.plural_text(locale, singular, plural, count)
    english = singular if count == 1 else plural
    values = {"count": count, **params}
    if text is english or locale == "en":
        return english.format(**values)
    return _catalogues.format(locale, text, english, values)


def pgettext(context: str, msgid: str, /, locale: str | None = None) -> str:
    """``msgid`` in its context (a command's name, say: ``"command name"``), in
    ``locale`` (default: the current one); unformatted."""
    return _catalogues.text(locale or _current.get(), msgid, context)


def said(text: object, /) -> str:
    """A text of the rules (a ``rules.Words``, or a rules error's ``words``: English
    with its template and values) in the current locale; any other text as it is.
    Values that are texts of the rules are translated first."""
    words = getattr(text, "words", text)  # a rules.RulesError carries its words
    template = getattr(words, "template", None)
    params = getattr(words, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return str(text)
    values = {
        key: said(value) if hasattr(value, "template") else value for key, value in params.items()
    }
    plural = getattr(words, "plural", None)
    count = getattr(words, "number", None)
    if isinstance(plural, str) and isinstance(count, int):
        values.pop("count", None)
        return _n(template, plural, count, **values)
    return _(template, **values)


def N_(msgid: str, /) -> str:
    """Mark a constant for extraction; it is translated where it is shown (``_(x)``)."""
    return msgid


def N_n(singular: str, plural: str, /) -> tuple[str, str]:
    """Mark a plural pair for extraction; counted where it is shown (``_n(*pair, n)``)."""
    return singular, plural


def translated(text: str, locale: str | None = None) -> bool:
    """Whether ``text`` has a translation (a fitting one) in ``locale`` (the render
    tests' check that a picture's words are translated)."""
    locale = locale or _current.get()
    if locale == "en":
        return True
    found = _catalogues.catalogue(locale).texts.get((None, text))
    return isinstance(found, str) and fits(text, None, found)


__all__ = [
    "LOCALES",
    "NATIVE_NAMES",
    "N_",
    "N_n",
    "_",
    "_n",
    "catalogue_locale",
    "current_locale",
    "pgettext",
    "said",
    "speaking",
]
