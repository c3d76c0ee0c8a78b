"""The pieces a caption line is made of (text, colour swatches, legend keys), apart from
the caption's layout so that the games' painters can build lines without importing it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from render.marks import Mark


class Ending(Protocol):
    """How a game ended, as the bot knows it: ``rules.Outcome`` (its ``text``
    says who won and how: "Cyan wins: Yellow resigned")."""

    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Text:
    """Words of a caption line. ``spare``: 0 for what must be said; else how early
    the words give way when the caption is short of room (1 first: an example of a
    move; then 2, 3…), so a fact is never cut while an example is drawn."""

    text: str
    dim: bool = False
    spare: int = 0


@dataclass(frozen=True)
class Badge:
    """Words on a block of colour, apart from the line: "PREVIEW"."""

    text: str


@dataclass(frozen=True)
class Swatch:
    color: str  # a stone colour of the game: "black", "cyan", ...
    spare: int = 0  # as ``Text.spare``: gives way with the words it goes with


@dataclass(frozen=True)
class Key:
    """A sample of a mark for the legend, drawn on a ``stone`` of that colour if any."""

    mark: Mark
    color: str | None
    stone: str | None
    label: str | None = None  # what the mark means here, if the mark's own words won't do


Segment = Text | Swatch | Key | Badge
Line = list[Segment]


__all__ = ["Badge", "Ending", "Key", "Line", "Segment", "Swatch", "Text"]
