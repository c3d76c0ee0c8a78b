"""A tournament's standings as pictures for Discord's dark and light themes: a table
(the crosstable, or the results round by round) and a knockout bracket.

    >>> png = table_png("Winter cup", ["#", "Player", "1", "2", "Pts"], rows, theme="dark")
    >>> png = bracket_png("Winter cup", rounds, theme="light")

Plain data in, PNG out: what the cells say is the caller's. Text is drawn at
:data:`SIZE` px and the pictures are kept narrow enough (a table's name column is cut
to fit, :data:`NAME_ROOM`) that Discord's 440 px preview still reads.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import text
from render.theme import BASE, RGB, check_theme, mix
from render.words import _

SIZE = 22
PAD = 12
ROW = 34
#: The widest a player's name may be drawn (cut with "…" beyond).
NAME_ROOM = 190
#: The winners' colour (Discord's green reads on both backgrounds).
WON: RGB = (35, 165, 90)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def table_image(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    theme: str = "dark",
    name_column: int = 1,
    highlight: Sequence[int] = (),
) -> Image.Image:
    """A table: ``header`` then ``rows`` (cells as text), column ``name_column`` left
    aligned and cut to :data:`NAME_ROOM`, the others centred; the rows of
    ``highlight`` shaded (the champion's, say)."""
    check_theme(theme)
    base = BASE[theme]
    background, ink, dim = base["background"], base["text"], base["dim"]
    cells = [list(header), *[list(r) for r in rows]]
    for row in cells:
        if len(row) > name_column:
            row[name_column] = text.fit(row[name_column], SIZE, NAME_ROOM)
    columns = max(len(r) for r in cells)
    widths = [
        max((text.length(r[c], SIZE) for r in cells if c < len(r)), default=0) + PAD
        for c in range(columns)
    ]
    width = int(sum(widths) + 2 * PAD)
    height = int(ROW * (len(cells) + 1) + 2 * PAD)
    image = Image.new("RGB", (max(width, 200), height), background)
    pen = ImageDraw.Draw(image)
    text.draw(image, (PAD, PAD + ROW / 2), text.fit(title, SIZE, width - 2 * PAD), SIZE, ink)
    top = PAD + ROW
    for r, row in enumerate(cells):
        y = top + r * ROW
        if r == 0:
            pen.rectangle((PAD, y, width - PAD, y + ROW), fill=mix(background, ink, 0.14))
        elif (r - 1) in highlight:
            pen.rectangle((PAD, y, width - PAD, y + ROW), fill=mix(background, WON, 0.25))
        elif r % 2 == 0:
            pen.rectangle((PAD, y, width - PAD, y + ROW), fill=mix(background, ink, 0.05))
        x: float = PAD
        for c, cell in enumerate(row):
            colour = dim if cell in ("×", "–") else ink
            if c == name_column:
                text.draw(image, (x + PAD / 2, y + ROW / 2), cell, SIZE, colour)
            else:
                text.draw(image, (x + widths[c] / 2, y + ROW / 2), cell, SIZE, colour, "mm")
            x += widths[c]
    return image


def table_png(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    theme: str = "dark",
    name_column: int = 1,
    highlight: Sequence[int] = (),
) -> bytes:
    return _png(
        table_image(title, header, rows, theme=theme, name_column=name_column, highlight=highlight)
    )


#: A bracket's match: its two sides' names ("" for a bye, "?" undecided) and the
#: winner's side (0, 1, or None while undecided).
BracketMatch = tuple[str, str, int | None]

BOX_W = 180
BOX_H = 64
GAP_X = 24


def bracket_image(
    title: str, rounds: Sequence[Sequence[BracketMatch]], *, theme: str = "dark"
) -> Image.Image:
    """The bracket, round by round from the left: each match a box of its two sides,
    the winner in green, joined to the match it leads to."""
    check_theme(theme)
    base = BASE[theme]
    background, ink, dim = base["background"], base["text"], base["dim"]
    first = max(1, len(rounds[0]) if rounds else 1)
    slot = BOX_H + 14
    width = PAD * 2 + len(rounds) * BOX_W + max(0, len(rounds) - 1) * GAP_X
    height = PAD * 2 + ROW + first * slot
    image = Image.new("RGB", (max(width, 240), height), background)
    pen = ImageDraw.Draw(image)
    text.draw(
        image, (PAD, PAD + ROW / 2), text.fit(title, SIZE, max(width, 240) - 2 * PAD), SIZE, ink
    )
    top = PAD + ROW
    centres: list[list[float]] = []
    for r, matches in enumerate(rounds):
        x = PAD + r * (BOX_W + GAP_X)
        span = slot * (2**r)
        here = []
        for i, (a, b, winner) in enumerate(matches):
            cy = top + span * (i + 0.5)
            here.append(cy)
            y0 = cy - BOX_H / 2
            pen.rectangle(
                (x, y0, x + BOX_W, y0 + BOX_H), outline=dim, fill=mix(background, ink, 0.06)
            )
            pen.line((x, cy, x + BOX_W, cy), fill=mix(background, ink, 0.25))
            for side, name in enumerate((a, b)):
                shown = name or _("bye")
                colour = WON if winner == side else (dim if not name or name == "?" else ink)
                ty = y0 + BOX_H / 4 + side * BOX_H / 2
                text.draw(image, (x + 8, ty), text.fit(shown, SIZE, BOX_W - 16), SIZE, colour)
            if r > 0 and len(centres[r - 1]) > 2 * i + 1:
                for feeder in (centres[r - 1][2 * i], centres[r - 1][2 * i + 1]):
                    mid = x - GAP_X / 2
                    pen.line((x - GAP_X, feeder, mid, feeder), fill=dim, width=2)
                    pen.line((mid, feeder, mid, cy), fill=dim, width=2)
                pen.line((x - GAP_X / 2, cy, x, cy), fill=dim, width=2)
        centres.append(here)
    return image


def bracket_png(
    title: str, rounds: Sequence[Sequence[BracketMatch]], *, theme: str = "dark"
) -> bytes:
    return _png(bracket_image(title, rounds, theme=theme))
