"""The winning chances over a game, as a line chart for Discord's dark and light themes.

    >>> png = win_chart_png([0.5, 0.55, 0.4, 0.9, 1.0], names={0: "Ann", 1: "Bob"})

``chances[ply]`` is the first player's (seat 0's) chance of winning in the position
after ``ply`` moves (``chances[0]``: the start), from 0 to 1, or None where it is not
known. The line runs across the plot: at the top the first player wins, at the
bottom the second (named above the plot: "▲ Ann winning", "▼ Bob winning"). Move
numbers are on the horizontal axis; the biggest swings (:func:`biggest_swings`) are
ringed and numbered; ``current`` draws a bold upright line at the move a browser
shows. Every label is in the text's colour and large enough to read once Discord
shrinks the chart to its 440 px preview.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from render import text
from render.theme import BASE, MARK, RGB, check_theme, mix
from render.words import _

WIDTH, HEIGHT = 640, 372
SS = 3  # supersampling of the lines
#: Text size: Discord's preview shrinks the chart to about 440 px wide, where
#: labels of 22 px are 15 px tall (digits 11 px), in the text's own colour.
SIZE = 22
PAD = 14
LEFT = 70  # room for the percentages
TOP = 80  # room for the title and whose side is whose
BOTTOM = 44  # room for the move numbers
#: The line: Discord's blurple reads on both backgrounds.
LINE: RGB = (88, 101, 242)
#: Shading of the side of 50% each player is winning on.
SIDE_SHARE = 0.16


def biggest_swings(
    chances: Sequence[float | None], count: int = 3, least: float = 0.1
) -> list[int]:
    """The (at most ``count``) moves after which the chance changed the most, by at
    least ``least``, in move order: ``ply`` such that ``chances[ply]`` and
    ``chances[ply - 1]`` are both known. Of two neighbouring moves (one swing seen
    twice) only the bigger counts."""
    changes = [
        (abs(b - a), ply)
        for ply, (a, b) in enumerate(itertools.pairwise(chances), 1)
        if a is not None and b is not None and abs(b - a) >= least
    ]
    changes.sort(key=lambda change: (-change[0], change[1]))
    chosen: list[int] = []
    for _size, ply in changes:
        if len(chosen) < count and all(abs(ply - other) > 1 for other in chosen):
            chosen.append(ply)
    return sorted(chosen)


def _step(last: int, room: float) -> int:
    """A tick step (1, 2, 5, 10, 20, 50…) that puts labels about 64 px apart."""
    wanted = max(1.0, last * 64 / room)
    power = 10 ** math.floor(math.log10(wanted))
    return next(int(k * power) for k in (1, 2, 5, 10) if k * power >= wanted)


def win_chart_image(
    chances: Sequence[float | None],
    *,
    theme: str = "dark",
    names: Mapping[int, str] | None = None,
    current: int | None = None,
    swings: Sequence[int] | None = None,
) -> Image.Image:
    """The chart as an RGB image (see :func:`win_chart_png`)."""
    check_theme(theme)
    base = BASE[theme]
    background, ink, dim = base["background"], base["text"], base["dim"]
    last = max(1, len(chances) - 1)
    plot = (LEFT, TOP, WIDTH - PAD, HEIGHT - BOTTOM)
    x0, y0, x1, y1 = plot

    def at(ply: int, chance: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * ply / last, y1 - (y1 - y0) * chance

    big = Image.new("RGB", (WIDTH * SS, HEIGHT * SS), background)
    pen = ImageDraw.Draw(big)

    def box(xa: float, ya: float, xb: float, yb: float, fill: RGB) -> None:
        pen.rectangle((xa * SS, ya * SS, xb * SS, yb * SS), fill=fill)

    middle = (y0 + y1) / 2
    box(x0, y0, x1, middle, mix(background, ink, SIDE_SHARE / 2))
    box(x0, middle, x1, y1, mix(background, ink, SIDE_SHARE))
    for share in (0.25, 0.5, 0.75):
        y = at(0, share)[1]
        pen.line(
            (x0 * SS, y * SS, x1 * SS, y * SS),
            fill=mix(background, dim, 0.35),
            width=SS * (2 if share == 0.5 else 1),
        )
    step = _step(last, x1 - x0)
    for ply in range(0, last + 1, step):
        x = at(ply, 0)[0]
        pen.line((x * SS, y1 * SS, x * SS, (y1 + 5) * SS), fill=dim, width=SS)
    if current is not None and 0 <= current <= last:  # bold, in the text's colour
        x = at(current, 0)[0]
        pen.line((x * SS, y0 * SS, x * SS, y1 * SS), fill=ink, width=3 * SS)
    runs: list[list[tuple[float, float]]] = [[]]
    for ply, chance in enumerate(chances):
        if chance is None:
            runs.append([])
        else:
            runs[-1].append(at(ply, min(1.0, max(0.0, chance))))
    for run in runs:
        points = [(x * SS, y * SS) for x, y in run]
        if len(points) > 1:
            pen.line(points, fill=LINE, width=3 * SS, joint="curve")
        for x, y in points[:1] + points[-1:]:
            r = 1.5 * SS
            pen.ellipse((x - r, y - r, x + r, y + r), fill=LINE)
    marked = biggest_swings(chances) if swings is None else list(swings)
    for ply in marked:
        chance = chances[ply] if 0 <= ply < len(chances) else None
        if chance is None:
            continue
        x, y = at(ply, chance)
        for radius, colour in ((7, ink if theme == "dark" else (20, 20, 22)), (5, MARK)):
            r = radius * SS
            pen.ellipse((x * SS - r, y * SS - r, x * SS + r, y * SS + r), fill=colour)
    image = big.reduce(SS)
    for share, label in ((0.0, "0%"), (0.25, "25%"), (0.5, "50%"), (0.75, "75%"), (1.0, "100%")):
        text.draw(image, (x0 - 8 - text.length(label, SIZE), at(0, share)[1]), label, SIZE, ink)
    for ply in range(0, last + 1, step):
        text.draw(image, (at(ply, 0)[0], y1 + 22), str(ply), SIZE, ink, anchor="mm")
    axis = _("move")  # in the margin left of the plies: smaller where a language's word is long
    margin, size = x0 - 8 - 2, SIZE
    while size > SIZE * 2 // 3 and text.length(axis, size) > margin:
        size -= 1
    axis = text.fit(axis, size, margin)
    text.draw(image, (x0 - 8 - text.length(axis, size), y1 + 22), axis, size, ink)
    for ply in marked:
        chance = chances[ply] if 0 <= ply < len(chances) else None
        before = chances[ply - 1] if ply > 0 else None
        if chance is not None:
            x, y = at(ply, chance)
            dy = 20 if before is not None and chance < before else -20  # away from the line
            if not y0 + 10 < y + dy < y1 - 10:
                dy = -dy
            label = str(ply)
            x = min(
                max(x, x0 + text.length(label, SIZE) / 2 + 2), x1 - text.length(label, SIZE) / 2 - 2
            )
            text.draw(image, (x, y + dy), label, SIZE, ink, anchor="mm")
    first = (names or {}).get(0) or _("the first player")
    second = (names or {}).get(1) or _("the second player")
    title = text.fit(_("Winning chances, move by move"), SIZE + 2, WIDTH - 2 * PAD)
    text.draw(image, (PAD, 22), title, SIZE + 2, ink)
    # above the plot, where neither the line nor the current move crosses them
    room = (WIDTH - 2 * PAD) / 2 - 8
    text.draw(
        image,
        (PAD, 54),
        text.fit("▲ " + _("{player} winning", player=first), SIZE, room),
        SIZE,
        ink,
    )
    below = text.fit("▼ " + _("{player} winning", player=second), SIZE, room)
    text.draw(image, (WIDTH - PAD - text.length(below, SIZE), 54), below, SIZE, ink)
    return image


def win_chart_png(
    chances: Sequence[float | None],
    *,
    theme: str = "dark",
    names: Mapping[int, str] | None = None,
    current: int | None = None,
    swings: Sequence[int] | None = None,
) -> bytes:
    """The chart of ``chances`` (seat 0's chance after each ply) as a PNG: the
    players' ``names`` in the title (the first player's wins at the top), the
    ``swings`` ringed and numbered (default: :func:`biggest_swings`), ``current``
    marked by an upright line. ``theme``: "dark" or "light"."""
    out = io.BytesIO()
    win_chart_image(chances, theme=theme, names=names, current=current, swings=swings).save(
        out, "PNG", optimize=True
    )
    return out.getvalue()
