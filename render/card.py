"""A message card as Discord shows an embed: a title, a few paragraphs, a picture, a
note under it and a footer, for the docs to show what a bot message looks like
(``docs/images/guide-<game>.png``: the first page of a game's guide).

Text comes in Discord's markdown; the card draws it plain (``**bold**``, ``*italic*``
and `` `code` `` lose their marks, ``- `` items become bullets), wrapped to the card.
"""

from __future__ import annotations

import io
import re

from PIL import Image, ImageDraw

from render import text
from render.theme import BASE, RGB, check_theme
from render.words import _

#: Discord's chat background, around the embed, and the embed's left bar.
CHAT: dict[str, RGB] = {"dark": (49, 51, 56), "light": (255, 255, 255)}
EMBED: dict[str, RGB] = {"dark": (43, 45, 49), "light": (242, 243, 245)}
BAR: RGB = (88, 101, 242)
PAD = 16
TITLE, BODY, SMALL = 20, 16, 13
LEADING = 1.45  # line height, in font sizes


def plain(markdown: str) -> list[str]:
    """Paragraph lines of ``markdown`` without its marks ("" between paragraphs)."""
    lines = []
    for line in markdown.splitlines():
        line = re.sub(r"\*\*|(?<!\w)\*|\*(?!\w)|`", "", line.strip())
        lines.append("• " + line[2:] if line.startswith("- ") else line)
    return lines


def wrap(line: str, size: int, room: float) -> list[str]:
    """``line`` in rows no wider than ``room`` pixels, broken between words (or
    between the characters of a script written without spaces); a word wider than
    a row is cut across rows."""
    rows: list[str] = []
    row = ""
    indent = "  " if line.startswith("• ") else ""
    for word in text.pieces(line):
        candidate = row + word
        if row.strip() and text.length(candidate.rstrip(), size) > room:
            rows.append(row.rstrip())
            row = indent + word.lstrip()
        else:
            row = candidate
        while text.length(row.rstrip(), size) > room and len(row.strip()) > 1:
            cut = len(row) - 1
            while cut > 1 and text.length(row[:cut], size) > room:
                cut -= 1
            rows.append(row[:cut])
            row = indent + row[cut:]
    return [*rows, row.rstrip()]


def card_image(
    title: str,
    body: str,
    *,
    picture: bytes | None = None,
    note: str = "",
    footer: str = "",
    theme: str = "dark",
    width: int = 600,
) -> Image.Image:
    """The card as an RGB image (see :func:`card_png`)."""
    check_theme(theme)
    ink, dim = BASE[theme]["text"], BASE[theme]["dim"]
    room = width - 3 * PAD - 4
    blocks: list[tuple[str, int, RGB, float]] = []  # (text, size, colour, height)
    for row in wrap(title, TITLE, room):
        blocks.append((row, TITLE, ink, TITLE * LEADING))
    blocks.append(("", BODY, ink, BODY * 0.5))
    for line in plain(body):
        for row in wrap(line, BODY, room) if line else [""]:
            blocks.append((row, BODY, ink, BODY * (LEADING if line else 0.6)))
    image = None
    if picture is not None:
        image = Image.open(io.BytesIO(picture)).convert("RGB")
        image = image.resize(
            (room, round(image.height * room / image.width)), Image.Resampling.LANCZOS
        )
    after: list[tuple[str, int, RGB, float]] = []
    if note:
        after.append((_("In the picture"), SMALL, dim, SMALL * LEADING))
        for line in plain(note):
            after += [
                (row, SMALL + 1, ink, (SMALL + 1) * LEADING) for row in wrap(line, SMALL + 1, room)
            ]
    if footer:
        after += [
            ("", SMALL, dim, SMALL * 0.6),
            *((row, SMALL, dim, SMALL * LEADING) for row in wrap(footer, SMALL, room)),
        ]
    height = (
        round(
            2 * PAD
            + sum(b[3] for b in blocks)
            + sum(b[3] for b in after)
            + (image.height + PAD if image else 0)
        )
        + 2 * PAD
    )
    card = Image.new("RGB", (width, height), CHAT[theme])
    pen = ImageDraw.Draw(card)
    pen.rounded_rectangle(
        (PAD // 2, PAD // 2, width - PAD // 2, height - PAD // 2), radius=6, fill=EMBED[theme]
    )
    pen.rounded_rectangle((PAD // 2, PAD // 2, PAD // 2 + 4, height - PAD // 2), radius=2, fill=BAR)
    x, y = PAD * 1.5 + 4, PAD * 1.5
    for row, size, colour, tall in blocks:
        if row:
            text.draw(card, (x, y + tall / 2), row, size, colour)
        y += tall
    if image is not None:
        y += PAD / 2
        card.paste(image, (round(x), round(y)))
        y += image.height + PAD / 2
    for row, size, colour, tall in after:
        if row:
            text.draw(card, (x, y + tall / 2), row, size, colour)
        y += tall
    return card


def card_png(
    title: str,
    body: str,
    *,
    picture: bytes | None = None,
    note: str = "",
    footer: str = "",
    theme: str = "dark",
    width: int = 600,
) -> bytes:
    """A PNG of a Discord-like embed: ``title``, ``body`` (markdown), ``picture`` (PNG
    bytes, scaled to the card), ``note`` under it and a ``footer``."""
    out = io.BytesIO()
    card_image(
        title, body, picture=picture, note=note, footer=footer, theme=theme, width=width
    ).save(out, "PNG", optimize=True)
    return out.getvalue()
