"""Colours of the pictures: what every game shares per Discord theme, and the
:class:`Colors` a game's painter fills in (see :mod:`render.games`).

Every colour a picture uses on purpose is a field of :class:`Colors`, so tests
can compute what a pixel should look like. Pictures are stored as palette
images; :func:`quantize_palette` builds that palette from the same colours
(plus blends between them for antialiased edges), so a flat area keeps its
exact colour.

Readability: the stones of a game differ strongly in *lightness*, not only in
hue, and marks have a dark outline, so they read for colour-blind players and
on both stone colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from types import MappingProxyType

from PIL import Image

RGB = tuple[int, int, int]

THEMES = ("dark", "light")

#: Palette index that no picture uses (replays make unchanged pixels this index, transparent).
TRANSPARENT = 255

BLACK: RGB = (24, 24, 27)
WHITE: RGB = (246, 245, 240)
WOOD_DARK: RGB = (205, 163, 98)
WOOD_LIGHT: RGB = (222, 184, 122)
WOOD_LINE: RGB = (74, 54, 28)
MARK: RGB = (232, 62, 48)
#: What is not played yet: a preview's badge and the rings on its move (amber).
BADGE: RGB = (250, 176, 5)
OUTLINE: RGB = (20, 20, 22)
HALO: RGB = (250, 250, 250)

#: Discord's own backgrounds and text colours.
BASE = {
    "dark": {"background": (43, 45, 49), "text": (242, 243, 245), "dim": (190, 194, 201)},
    "light": {"background": (250, 250, 251), "text": (30, 31, 34), "dim": (78, 80, 88)},
}


def mix(a: RGB, b: RGB, share_of_b: float) -> RGB:
    """The colour ``share_of_b`` of the way from ``a`` to ``b``."""
    return tuple(round(x + (y - x) * share_of_b) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def check_theme(theme: str) -> None:
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {theme!r}")


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object per game and theme
class Colors:
    """The colours of one game's pictures in one theme."""

    background: RGB  # around the board and behind the caption
    text: RGB  # caption
    dim: RGB  # coordinates and secondary caption text
    board: RGB  # an empty cell or point
    line: RGB  # grid lines, cell borders
    stones: Mapping[str, RGB]  # colour name -> fill
    outline: RGB  # thin edge around stones and marks
    halo: RGB  # light edge around pieces that stand on dark cells
    mark: RGB  # last move, captured and bonus stones
    badge: RGB  # a preview: its caption's badge, the rings on the move not played yet
    ghost: Mapping[str, RGB]  # colour name -> fill of a just-removed stone
    tint: Mapping[str, RGB]  # cell fills: Astralis control, Sliglube's forbidden cells
    symbol: Mapping[str, RGB]  # small marks in cells (Astralis control)

    def keys(self) -> list[RGB]:
        """Every distinct colour above, in a fixed order."""
        seen: list[RGB] = []
        for field in fields(self):
            value = getattr(self, field.name)
            for colour in value.values() if isinstance(value, Mapping) else [value]:
                if colour not in seen:
                    seen.append(colour)
        return seen


def colors(
    theme: str,
    stones: Mapping[str, RGB],
    *,
    board: RGB | None = None,
    line: RGB = WOOD_LINE,
    ghost_share: float = 0.4,
    tint: Mapping[str, RGB] | None = None,
    symbol: Mapping[str, RGB] | None = None,
) -> Colors:
    """A game's colours in ``theme``: the theme's background and text, a wooden
    board unless ``board`` is given, ghosts ``ghost_share`` of the way from the
    board to each stone colour."""
    check_theme(theme)
    base = BASE[theme]
    if board is None:
        board = WOOD_DARK if theme == "dark" else WOOD_LIGHT
    return Colors(
        background=base["background"],
        text=base["text"],
        dim=base["dim"],
        board=board,
        line=line,
        stones=MappingProxyType(dict(stones)),
        outline=OUTLINE,
        halo=HALO,
        mark=MARK,
        badge=BADGE,
        ghost=MappingProxyType({n: mix(board, f, ghost_share) for n, f in stones.items()}),
        tint=MappingProxyType(dict(tint or {})),
        symbol=MappingProxyType(dict(symbol or {})),
    )


@lru_cache(maxsize=64)
def quantize_palette(col: Colors) -> Image.Image:
    """A "P" image whose palette holds the colours of ``col`` and blends of every
    pair of them (for antialiased edges), for ``Image.quantize(palette=...)``."""
    keys = col.keys()
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]
    # edges against the background (text) and the board (pieces) first, in three steps
    grounds = (col.background, col.board)
    first = [pair for pair in pairs if pair[0] in grounds or pair[1] in grounds]
    entries = list(keys)
    for (a, b), shares in [
        *((pair, (0.25, 0.5, 0.75)) for pair in first),
        *((pair, (0.5,)) for pair in pairs if pair not in first),
    ]:
        for share in shares:
            blend = mix(a, b, share)
            if blend not in entries:
                entries.append(blend)
    entries = entries[:TRANSPARENT]
    entries += [entries[0]] * (TRANSPARENT - len(entries))
    entries.append((255, 0, 255))  # unused by pictures: GIF frames mark unchanged pixels with it
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in entries for channel in colour])
    return palette
