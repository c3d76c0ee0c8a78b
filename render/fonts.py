"""The fonts of every picture's text, chosen character by character.

Pillow's built-in font covers Latin only, so a display name in Greek,
Cyrillic, Chinese or with an emoji came out as boxes. Text is set in Noto Sans
(Latin, Greek, Cyrillic, and punctuation such as the en dash) and each
character it lacks falls back, in order, to Noto Sans Symbols, Noto Emoji
(monochrome: an emoji takes the colour of its text), WenQuanYi Micro Hei
(Chinese, Japanese, Korean) and the Noto fonts of other scripts. The fonts
come from two pip packages the project declares: ``manimgx-fonts`` (Noto,
SIL Open Font License 1.1) and ``paperang-p2-fonts-cjk`` (WenQuanYi Micro
Hei, Apache License 2.0). A character no font has is replaced by its
compatibility form (𝓐 is drawn as A) or else by "?": never by a box.

Which characters a font has is read from its ``cmap`` table (formats 4 and
12, which is what these fonts use).
"""

from __future__ import annotations

import logging
import struct
import unicodedata
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path

from PIL import ImageFont

log = logging.getLogger(__name__)

#: Weight of the text (a variable-font axis value): medium reads better than
#: regular once Discord shrinks the picture.
WEIGHT = 500

_NOTO = "manimgx_fonts"
_CJK = "paperang_p2_fonts_cjk"
_SCRIPTS = (
    "Arabic",
    "Armenian",
    "Bengali",
    "Devanagari",
    "Ethiopic",
    "Georgian",
    "Gujarati",
    "Gurmukhi",
    "Hebrew",
    "Kannada",
    "Khmer",
    "Lao",
    "Malayalam",
    "Myanmar",
    "Oriya",
    "Sinhala",
    "Tamil",
    "Telugu",
    "Thai",
)
#: (package, file) in fallback order; the first is the text font.
_FILES = (
    (_NOTO, "NotoSans[wght].ttf"),
    (_NOTO, "NotoSansSymbols[wght].ttf"),
    (_NOTO, "NotoEmoji[wght].ttf"),
    (_CJK, "fonts/wqy-microhei.ttc"),
    *((_NOTO, f"NotoSans{script}[wght].ttf") for script in _SCRIPTS),
)


@dataclass(frozen=True)
class Face:
    """One font file (the first font of a collection)."""

    path: Path

    @cached_property
    def chars(self) -> frozenset[int]:
        """The characters it has (read when first needed: most text needs one font)."""
        return characters(self.path.read_bytes())


def _locate(package: str, name: str) -> Path | None:
    try:
        path = Path(str(resources.files(package) / name))
    except ModuleNotFoundError:
        return None
    return path if path.is_file() else None


def _tables(data: bytes) -> dict[bytes, int]:
    """Offsets of the tables of the first font in a font file or collection."""
    start = struct.unpack_from(">I", data, 12)[0] if data[:4] == b"ttcf" else 0
    count = struct.unpack_from(">H", data, start + 4)[0]
    tables = {}
    for i in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, start + 12 + 16 * i)
        tables[tag] = offset
    return tables


def _format12(data: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    chars: set[int] = set()
    for k in range(groups):
        first, last, _ = struct.unpack_from(">III", data, at + 16 + 12 * k)
        chars.update(range(first, last + 1))
    return chars


def _format4(data: bytes, at: int) -> set[int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
    range_at = at + 16 + 6 * segments
    offsets = struct.unpack_from(f">{segments}H", data, range_at)
    chars: set[int] = set()
    for k, (first, last, delta, offset) in enumerate(
        zip(starts, ends, deltas, offsets, strict=True)
    ):
        for char in range(first, last + 1):
            if char == 0xFFFF:
                continue
            if offset == 0:
                glyph = (char + delta) & 0xFFFF
            else:
                where = range_at + 2 * k + offset + 2 * (char - first)
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                chars.add(char)
    return chars


def characters(data: bytes) -> frozenset[int]:
    """The code points the font's Unicode ``cmap`` maps to a glyph."""
    cmap = _tables(data)[b"cmap"]
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    found: dict[int, int] = {}  # format -> offset of a Unicode subtable
    for k in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * k)
        if platform == 0 or (platform == 3 and encoding in (1, 10)):
            fmt = struct.unpack_from(">H", data, cmap + offset)[0]
            found.setdefault(fmt, cmap + offset)
    if 12 in found:
        return frozenset(_format12(data, found[12]))
    if 4 in found:
        return frozenset(_format4(data, found[4]))
    return frozenset()


@cache
def faces() -> tuple[Face, ...]:
    """The installed fonts in fallback order (empty if none is installed)."""
    out = []
    for package, name in _FILES:
        path = _locate(package, name)
        if path is None:
            log.warning("font %s of package %s is missing: text may lose characters", name, package)
            continue
        out.append(Face(path))
    return tuple(out)


@lru_cache(maxsize=256)
def font(face: int, size: int) -> ImageFont.FreeTypeFont:
    """Fallback font number ``face`` at ``size`` px (Pillow's own font if none is installed)."""
    found = faces()
    if not found:
        return ImageFont.load_default(size=size)  # type: ignore[return-value]
    loaded = ImageFont.truetype(str(found[face].path), size)
    try:
        axes = loaded.get_variation_axes()
    except OSError:  # not a variable font
        return loaded
    loaded.set_variation_by_axes([_clamped(WEIGHT, axis) for axis in axes])
    return loaded


def _clamped(value: float, axis: ImageFont.Axis) -> float:
    """``value`` within the bounds of a variable font's ``axis`` (FreeType gives both)."""
    low, high = axis["minimum"], axis["maximum"]
    if low is not None:
        value = max(low, value)
    return value if high is None else min(high, value)


def _joins(char: str) -> bool:
    """Characters that belong to the glyph before them: combining marks, joiners,
    variation selectors, emoji modifiers and tags."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Me")
        or code in (0x200C, 0x200D)
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


def _face_of(char: str, found: tuple[Face, ...]) -> int | None:
    code = ord(char)
    for k, face in enumerate(found):
        if code in face.chars:
            return k
    return None


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """``text`` cut into runs of one font each: (face number, characters), with
    every character drawable by its run's font."""
    found = faces()
    if not found:
        return ((0, text),) if text else ()
    out: list[list] = []
    for char in text:
        if _joins(char):
            if out and ord(char) in found[out[-1][0]].chars:
                out[-1][1] += char
            continue  # a mark the font lacks is dropped rather than boxed
        face = _face_of(char, found)
        if face is None:
            if not char.isprintable():
                continue
            compatible = unicodedata.normalize("NFKC", char)
            parts = [(_face_of(c, found), c) for c in compatible] if compatible != char else []
            drawn = [(f, c) for f, c in parts if f is not None]
            if parts and len(drawn) == len(parts):
                for f, c in drawn:
                    _append(out, f, c)
                continue
            face, char = 0, "?"
        _append(out, face, char)
    return tuple((face, chars) for face, chars in out)


def _append(out: list[list], face: int, char: str) -> None:
    if out and out[-1][0] == face:
        out[-1][1] += char
    else:
        out.append([face, char])
