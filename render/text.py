"""Text in pictures: measured and rasterised once per string and reused.

A string is drawn as runs of one font each (see :mod:`render.fonts`), all on
one baseline. FreeType is slow at both measuring and rendering, and captions
repeat (the game's title, "White to move", prompts, move numbers and names
recur across moves and games), so both are cached: the same glyph mask for
the same run, size and sub-pixel start.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from PIL import Image, ImageDraw

from render import fonts

RGB = tuple[int, int, int]


@lru_cache(maxsize=4096)
def _run_length(run: str, face: int, size: int) -> float:
    return fonts.font(face, size).getlength(run)


@lru_cache(maxsize=4096)
def length(text: str, size: int) -> float:
    """Advance width of ``text`` in pixels at font ``size``."""
    return sum(_run_length(run, face, size) for face, run in fonts.runs(text))


@lru_cache(maxsize=64)
def cap_height(size: int) -> float:
    """Height of a capital letter of the text font at ``size``, in pixels."""
    _, top, _, bottom = fonts.font(0, size).getbbox("H", anchor="ls")
    return bottom - top


@lru_cache(maxsize=1024)  # a caption segment's mask is a few kilobytes
def _mask(run: str, face: int, size: int, start: tuple[float, float]) -> tuple:
    return fonts.font(face, size).getmask2(run, "L", anchor="ls", start=start)


def draw(
    image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB, anchor: str = "lm"
) -> None:
    """Draw ``text`` at ``xy``: ``anchor`` is "l" (left) or "m" (middle)
    horizontally, then "m" (capital letters centred on ``y``) or "s" (baseline)."""
    x, y = xy
    if anchor[0] == "m":
        x -= length(text, size) / 2
    baseline = y + cap_height(size) / 2 if anchor[1] == "m" else y
    pen = ImageDraw.Draw(image)
    ink = pen._getink(fill)[0]
    for face, run in fonts.runs(text):
        start = (math.modf(x)[0], math.modf(baseline)[0])
        mask, (dx, dy) = _mask(run, face, size, start)
        pen.draw.draw_bitmap((int(x) + dx, int(baseline) + dy), mask, ink)
        x += _run_length(run, face, size)


#: Scripts written without spaces (Chinese, Japanese): a line may break between any two
#: of their characters, except before closing punctuation (kept with the character
#: before it) and after opening punctuation.
_WIDE = (
    "\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3200-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
)
_CLOSING = "、。，．・：；！？）」』】〕〉》ー…ぁぃぅぇぉっゃゅょァィゥェォッャュョ)\\].,:;!?"
_OPENING = "（「『【〔〈《"
_PIECE = re.compile(
    rf"[^\s{_WIDE}]*[{_OPENING}]*[{_WIDE}][{_CLOSING}]*\s*|[^\s{_WIDE}]+[{_CLOSING}]*\s*|\s+"
)


def pieces(line: str) -> list[str]:
    """``line`` cut where it may break: words with their trailing spaces, and single
    characters of scripts written without spaces (with the punctuation that sticks to
    them). Joined again, the pieces are ``line``."""
    return _PIECE.findall(line)


def fit(text: str, size: int, room: float) -> str:
    """``text``, cut at a word and ended with "…" if it is wider than ``room``."""
    if length(text, size) <= room:
        return text
    words = pieces(text)
    while len(words) > 1:
        words.pop()
        cut = "".join(words).rstrip(" ,:;(、（") + "…"
        if length(cut, size) <= room:
            return cut
    while text and length(text + "…", size) > room:
        text = text[:-1]
    return text + "…"
