"""Caption text, measured and rasterised once per string and reused.

FreeType is slow at both (about 0.05 ms to measure and 0.3 ms to render a
caption segment), and captions repeat: the game's title, "White to move",
prompts, move numbers and move names recur across moves and games. The
results are exactly what ``ImageDraw.text`` would draw: the same glyph mask
for the same string, size, anchor and sub-pixel start.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.layout import font

RGB = tuple[int, int, int]


@lru_cache(maxsize=4096)
def length(text: str, size: int) -> float:
    """Advance width of ``text`` in pixels at font ``size``."""
    return font(size).getlength(text)


@lru_cache(maxsize=1024)  # a caption segment's mask is a few kilobytes
def _mask(text: str, size: int, anchor: str, start: tuple[float, float]) -> tuple:
    return font(size).getmask2(text, "L", anchor=anchor, start=start)


def draw(image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB,
         anchor: str = "lm") -> None:
    """Draw ``text`` as ``ImageDraw.text(xy, text, font=font(size), anchor=anchor)`` does."""
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _mask(text, size, anchor, start)
    pen = ImageDraw.Draw(image)
    pen.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, pen._getink(fill)[0])
