"""The words of pictures, in the reader's language.

render imports rules only (docs/architecture.md), so it has no catalogue of its own:
the bot gives it its translations (``bot/pictures.py``: :class:`Words` made of
``bot.i18n``'s ``_`` and ``_n``) for the time of one drawing, with :func:`speaking`.
Inside render every word a picture says is an English message id with ``{brace}``
placeholders, written ``_("Prison: empty")`` or ``_n("{count} stone", "{count}
stones", count)``, so the bot's extraction finds them; without words given, a
picture speaks English.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from rules.words import Words as RulesWords


@dataclass(frozen=True, slots=True)
class Words:
    """A language: ``gettext(msgid, **params)`` and ``ngettext(singular, plural, count,
    **params)``, each giving the text with its placeholders filled."""

    gettext: Callable[..., str]
    ngettext: Callable[..., str]


def _english(msgid: str, /, **params: object) -> str:
    return msgid.format(**params) if params else msgid


def _english_plural(singular: str, plural: str, count: int, /, **params: object) -> str:
    return (singular if count == 1 else plural).format(count=count, **params)


ENGLISH = Words(_english, _english_plural)

_current: ContextVar[Words] = ContextVar("render_words", default=ENGLISH)


@contextlib.contextmanager
def speaking(words: Words | None) -> Iterator[None]:
    """Draw in ``words`` (None: English) until the block ends."""
    token = _current.set(words or ENGLISH)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> Words:
    return _current.get()


def _(msgid: str, /, **params: object) -> str:
    """``msgid`` in the current words, its placeholders filled with ``params``."""
    return _current.get().gettext(msgid, **params)


def _n(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The form for ``count`` (``{count}`` is filled too) in the current words."""
    return _current.get().ngettext(singular, plural, count, **params)


def N_(msgid: str, /) -> str:
    """Marks ``msgid`` for extraction; translated where it is shown, with :func:`_`."""
    return msgid


def spoken(said: str) -> str:
    """A text of the rules (a prompt, a result: :class:`rules.words.Words`, which keep
    their English template) in the current words; any other text as it is."""
    if not isinstance(said, RulesWords):
        return said
    if said.plural is None and said.params:
        english = {k: str(v) if isinstance(v, str) else v for k, v in said.params.items()}
        if _(said.template, **english) == str(said):
            return str(said)  # not translated: all English, not English with translated parts
    params = {k: spoken(v) if isinstance(v, str) else v for k, v in said.params.items()}
    if said.plural is not None and said.number is not None:
        params.pop("count", None)
        return _n(said.template, said.plural, said.number, **params)
    return _(said.template, **params)


def lead(said: str) -> str:
    """``said`` (a translated label such as "Prison:") ready for what follows it: with a
    space, unless it ends with full-width punctuation ("牢屋："), which has its own."""
    return said if said.endswith(("：", "、", "。", "）", "」")) else said + " "


def aside(said: str, gap: str = "  ") -> str:
    """``said`` (a translated aside such as "(not played yet)") after ``gap``, unless it
    opens with full-width punctuation ("（未着手）"), which has its own room."""
    return said if said.startswith(("（", "「", "、")) else gap + said


def color_name(color: str) -> str:
    """A stone colour's name as a caption says it: "Black", "Cyan"."""
    return _(COLORS.get(color, color.capitalize()))


def color_word(color: str) -> str:
    """A stone colour as an adjective inside a sentence: "black", "cyan"."""
    return _(ADJECTIVES.get(color, color))


#: The colours of the games' stones, as names and inside a sentence.
COLORS = {
    "black": N_("Black"),
    "white": N_("White"),
    "cyan": N_("Cyan"),
    "yellow": N_("Yellow"),
}
ADJECTIVES = {
    "black": N_("black"),
    "white": N_("white"),
    "cyan": N_("cyan"),
    "yellow": N_("yellow"),
}
