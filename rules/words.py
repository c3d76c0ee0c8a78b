"""Texts for players that a caller can translate: a :class:`Words` is the English
sentence (a ``str``, as before) that also keeps the template it was made from and its
values, python-chess style. ``str(words)`` is the English; a bot that speaks other
languages translates ``words.template`` and formats it with ``words.params`` (values
that are Words themselves translated first).

    >>> prompt = Words("choose the komi (komi N, 0–{most})", most=169)
    >>> prompt, prompt.template, prompt.params
    ('choose the komi (komi N, 0–169)', 'choose the komi (komi N, 0–{most})', {'most': 169})
    >>> Plural("{count} prisoner", "{count} prisoners", 2)
    '2 prisoners'

Extraction tools look for the literal first arguments of ``Words(…)``, of
``Plural(…)`` (two forms) and of the errors of :mod:`rules.errors`."""

from __future__ import annotations

from typing import Any


class Words(str):
    """English text made from ``template`` and ``params`` (``str.format``)."""

    template: str
    params: dict[str, Any]
    #: The plural form of the template, and the number choosing between them (its
    #: ``{count}``).
    plural: str | None
    number: int | None

    def __new__(cls, template: str, /, **params: Any) -> Words:
        text = template.format(**params) if params else template
        self = super().__new__(cls, text)
        self.template = template
        self.params = params
        self.plural = None
        self.number = None
        return self


def Plural(singular: str, plural: str, count: int, /, **params: Any) -> Words:
    """The English form of ``singular``/``plural`` for ``count`` (also a placeholder),
    keeping both for translation (other languages have other plural rules)."""
    words = Words(singular if count == 1 else plural, count=count, **params)
    words.template, words.plural, words.number = singular, plural, count
    return words


#: The colours' names as the subject of a sentence ("White wins").
COLOUR_TITLES: dict[str, Words] = {
    "black": Words("Black"),
    "white": Words("White"),
    "yellow": Words("Yellow"),
    "cyan": Words("Cyan"),
}


def colour_title(colour: str) -> Words:
    """A colour's name as a sentence's subject: "Black"."""
    return COLOUR_TITLES.get(colour) or Words(colour.capitalize())


def words_of(text: str) -> Words:
    """``text`` as Words (a plain string is its own template)."""
    return text if isinstance(text, Words) else Words(text)


__all__ = ["COLOUR_TITLES", "Plural", "Words", "colour_title", "words_of"]
