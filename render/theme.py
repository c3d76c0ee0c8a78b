"""Colours of the pictures, per game and per Discord theme.

Every colour a picture uses on purpose is a field of :class:`Colors`, so tests
can compute what a pixel should look like. Pictures are stored as palette
images; :func:`quantize_palette` builds that palette from the same colours
(plus blends between them for antialiased edges), so a flat area keeps its
exact colour.

Readability: the stones of a game differ strongly in *lightness*, not only in
hue, and the marks of the last move have a dark outline, so they read for
colour-blind players and on both stone colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from types import MappingProxyType

from PIL import Image

RGB = tuple[int, int, int]

THEMES = ("dark", "light")

#: Palette index that no picture uses (replays make unchanged pixels this index, transparent).
TRANSPARENT = 255


def mix(a: RGB, b: RGB, share_of_b: float) -> RGB:
    """The colour ``share_of_b`` of the way from ``a`` to ``b``."""
    return tuple(round(x + (y - x) * share_of_b) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class Colors:
    """The colours of one game's pictures in one theme."""

    background: RGB  # around the board and behind the caption
    text: RGB  # caption
    dim: RGB  # coordinates and secondary caption text
    board: RGB  # an empty cell or point
    line: RGB  # grid lines, cell borders
    stones: Mapping[str, RGB]  # colour name -> fill
    outline: RGB  # thin edge around stones and marks
    mark: RGB  # last move, flipped and added stones
    ghost: Mapping[str, RGB]  # colour name -> fill of a just-removed stone
    accent: RGB  # Sliglube loops
    tint: Mapping[str, RGB]  # Astralis control ("yellow", "cyan", "contested") -> cell fill
    symbol: Mapping[str, RGB]  # Astralis control -> colour of the small mark in the cell

    def keys(self) -> list[RGB]:
        """Every distinct colour above, in a fixed order."""
        seen: list[RGB] = []
        for field in fields(self):
            value = getattr(self, field.name)
            for colour in value.values() if isinstance(value, Mapping) else [value]:
                if colour not in seen:
                    seen.append(colour)
        return seen


_BLACK: RGB = (24, 24, 27)
_WHITE: RGB = (246, 245, 240)
_YELLOW: RGB = (255, 212, 59)  # light: lightness ~87
_CYAN: RGB = (16, 152, 173)  # darker: lightness ~57, and cyan stones carry a ring
_WOOD_DARK: RGB = (205, 163, 98)
_WOOD_LIGHT: RGB = (222, 184, 122)
_SPACE: RGB = (37, 47, 68)
_MARK: RGB = (232, 62, 48)
_OUTLINE: RGB = (20, 20, 22)
_LOOP: RGB = (112, 56, 216)

_THEME_BASE = {
    "dark": {"background": (43, 45, 49), "text": (242, 243, 245), "dim": (181, 186, 193)},
    "light": {"background": (250, 250, 251), "text": (30, 31, 34), "dim": (86, 89, 97)},
}


@cache
def colors(game: str, theme: str = "dark") -> Colors:
    """The colours of ``game`` (a game name: "asli", "lifeline", ...) in ``theme``."""
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {theme!r}")
    base = _THEME_BASE[theme]
    if game == "astralis":
        board = _SPACE
        stones = {"yellow": _YELLOW, "cyan": _CYAN}
        tint = {
            "yellow": mix(board, _YELLOW, 0.32),
            "cyan": mix(board, (34, 184, 207), 0.38),
            "contested": mix(board, (200, 200, 210), 0.16),
        }
        symbol = {"yellow": _YELLOW, "cyan": (102, 217, 232), "contested": (170, 172, 182)}
        line = (88, 102, 130)
    else:
        board = _WOOD_DARK if theme == "dark" else _WOOD_LIGHT
        stones = {"black": _BLACK, "white": _WHITE}
        tint, symbol = {}, {}
        line = (74, 54, 28)
    # Astralis never removes a stone and has no loops: fewer colours leave room
    # in the palette for smoother edges.
    ghost = {} if game == "astralis" else {n: mix(board, f, 0.38) for n, f in stones.items()}
    accent = _MARK if game == "astralis" else _LOOP
    return Colors(
        background=base["background"], text=base["text"], dim=base["dim"], board=board,
        line=line, stones=MappingProxyType(stones), outline=_OUTLINE, mark=_MARK,
        ghost=MappingProxyType(ghost), accent=accent, tint=MappingProxyType(tint),
        symbol=MappingProxyType(symbol),
    )


@cache
def quantize_palette(game: str, theme: str) -> Image.Image:
    """A "P" image whose palette holds the game's colours and blends of every
    pair of them (for antialiased edges), for ``Image.quantize(palette=...)``."""
    keys = colors(game, theme).keys()
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]]
    steps = max(1, min(3, (TRANSPARENT - len(keys)) // max(1, len(pairs))))
    entries = list(keys)
    for a, b in pairs:
        for k in range(1, steps + 1):
            blend = mix(a, b, k / (steps + 1))
            if blend not in entries:
                entries.append(blend)
    entries = entries[:TRANSPARENT]
    entries += [entries[0]] * (TRANSPARENT - len(entries))
    entries.append((255, 0, 255))  # unused by pictures: GIF frames mark unchanged pixels with it
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in entries for channel in colour])
    return palette
