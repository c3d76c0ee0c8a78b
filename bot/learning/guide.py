"""The illustrated guides of ``/rules``: for each game, a few short pages, one idea
each, most with a diagram. Discord-free and data only, so the bot and the docs
generator (``python -m bot.learning docs``) show the same pages.

A diagram is a position the engine reaches by playing its moves, so it can
never disagree with the rules; its caption states what the picture shows, and a
test per page checks that fact on the position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import rules
from bot.i18n import N_, _
from rules import State
from rules.plugins import load


@dataclass(frozen=True, slots=True, eq=False)  # one object per page: hashed by identity
class Diagram:
    """The position after ``moves`` of a game with ``options``, drawn with the cells
    of ``highlight`` ringed (``ringed``: what the rings mark, said in the picture's
    legend) and, with ``hints``, the marks of ``/board marks``."""

    options: Mapping[str, Any]
    moves: tuple[str, ...]
    caption: str
    highlight: tuple[str, ...] = ()
    hints: bool = False
    ringed: str = ""

    def state(self, game: str) -> State:
        return rules.get_game(game).replay(self.moves, **self.options)


@dataclass(frozen=True, slots=True)
class Page:
    """One idea: a ``key`` (stable, for files and tests), a title, a few short
    paragraphs (Discord markdown) and maybe a diagram. The words are English message
    ids (marked with ``N_``), translated where they are shown (``_(page.title)``)."""

    key: str
    title: str
    text: str
    diagram: Diagram | None = None


@dataclass(frozen=True, slots=True)
class Guide:
    game: str
    pages: tuple[Page, ...] = field(default_factory=tuple)
    #: Who made the game, and when.
    credit: str = ""

    @property
    def title(self) -> str:
        return rules.get_game(self.game).title

    def page(self, number: int) -> Page:
        """Page ``number`` (from 0), kept within the guide."""
        return self.pages[max(0, min(number, len(self.pages) - 1))]

    def number_of(self, key: str) -> int:
        return next(k for k, page in enumerate(self.pages) if page.key == key)


def guide_footer(guide: Guide, number: int) -> str:
    """Under page ``number``, in the current language: ``Page 2 of 7 · Asli by Luis
    Bolaños Mures, 2023``."""
    said = _("Page {number} of {count}", number=number + 1, count=len(guide.pages))
    if guide.credit:
        said += " · " + _("{game} by {credit}", game=guide.title, credit=guide.credit)
    return said


def guide_for(game: str) -> Guide:
    """The guide of ``game`` (a registered game's name): the one it declares as its
    ``guide`` plug-in (:class:`rules.Plugins`, by custom ``GUIDE`` in
    :mod:`bot.learning.guides`), or one page made of the game's own summary for a
    game that declares none. A declared guide that cannot be found raises
    :class:`rules.PluginError`."""
    found = rules.get_game(game)
    declared = load(found, "guide", Guide)
    if declared is not None:
        return declared
    return Guide(game, (Page("rules", found.title, found.summary or N_("No description yet.")),))


def guides() -> list[Guide]:
    """The guide of every registered game."""
    return [guide_for(name) for name in rules.GAMES]
