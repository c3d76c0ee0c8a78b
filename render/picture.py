"""A still picture of a position: the static board (cached), then the layers
of this position pasted on it, then the caption.

Layers, bottom to top: the game's under-layers (Astralis control, Sliglube
loops); tinted cells (where the mover may not place); ghosts of stones the
last move took off; stones; the game's over-layers (Astralis pawns); marks
(captured, flipped, bonus, the last move, hints).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render import marks as marks_
from render import sprites, text
from render.boards import BoardStyle
from render.canvas import Canvas
from render.caption import (
    Badge,
    Ending,
    Key,
    Line,
    Swatch,
    Text,
    caption_lines,
    fit,
    key_width,
    width,
)
from render.games import Painter, painter_colors, painter_for
from render.layout import CAPTION_LINES, layout
from render.marks import Mark, Marked
from render.theme import Colors, quantize_palette
from rules import Game, State
from rules.board import Board

SS = 3  # supersampling of the static board


@lru_cache(maxsize=16)  # about 3 MB each at scale 1
def static_layer(painter: Painter, col: Colors, board: Board, scale: float) -> Image.Image:
    """Background, board and coordinates: everything that never changes."""
    lay = layout(board, scale)
    big = Image.new("RGB", (lay.width * SS, lay.height * SS), col.background)
    draw = ImageDraw.Draw(big)
    origin = (lay.origin[0] * SS, lay.origin[1] * SS)
    lay.style.draw(draw, board, lay.unit * SS, origin, col)
    painter.decorate(draw, board, lay.unit * SS, origin, col)
    image = big.reduce(SS)
    lay.style.draw_crisp(image, board, lay.unit, lay.origin, col)
    ImageDraw.Draw(image).line(
        (0, lay.caption_height - 1, lay.width, lay.caption_height - 1),
        fill=col.dim,
        width=max(1, round(scale)),
    )
    for label in lay.labels:
        text.draw(
            image,
            (label.x, label.y),
            label.text,
            lay.label_size,
            col.text if label.strong else col.dim,
            anchor="mm",
        )
    return image


def _marks(
    state: State,
    painter: Painter,
    playing: bool,
    hints: bool,
    extra: Sequence[Marked] = (),
    preview: bool = False,
) -> list[Marked]:
    found = painter.changes(state)
    if preview:  # the move is not played yet: no dot of a move played on its stones
        found = [
            Marked(m.cell, Mark.PROPOSED, state.stone_at(m.cell)) if m.mark is Mark.LAST else m
            for m in found
        ]
    if playing:
        found += painter.standing(state)
        if hints:
            found += painter.hints(state)
    return found + list(extra)


def _keys(state: State, found: list[Marked]) -> list[Key]:
    """The legend: one key per kind of mark shown, drawn like its first use."""
    keys: dict[Mark, Key] = {}
    for marked in found:
        explained = marked.mark in marks_.EXPLAINED or marked.label is not None
        if explained and marked.mark not in keys:
            keys[marked.mark] = Key(
                marked.mark, marked.color, state.stone_at(marked.cell), marked.label
            )
    return [keys[mark] for mark in Mark if mark in keys]


def _paint_marks(canvas: Canvas, found: list[Marked], phase: int) -> None:
    lay, col, state = canvas.lay, canvas.col, canvas.state
    first = state.game.colors[0]
    for marked in found:
        index = lay.board.index(marked.cell)
        for when, sprite in marks_.layers(
            marked.mark,
            marked.color,
            canvas.stones.get(index),
            lay.stone_radius,
            lay.unit,
            lay.style,
            col,
            up=marked.color == first,
        ):
            if when == phase:
                canvas.paste(sprite, index)


@lru_cache(maxsize=128)
def _key(
    key: Key, size: int, style: BoardStyle, col: Colors, painter: Painter, first: str
) -> Image.Image:
    """A legend's sample of a mark: as on the board, on a spot of the board's
    colour, a little larger than a stone of the caption's size."""
    radius = size * 0.5
    unit = radius / style.stone_scale
    tile = sprites.disc(key_width(size) / 2, col.board).copy()
    middle = (tile.width // 2 + 0.5, tile.width // 2 + 0.5)
    pieces = marks_.layers(
        key.mark, key.color, key.stone, radius, unit, style, col, up=key.color == first
    )
    for phase in (marks_.CELL, marks_.GHOST, marks_.TOP):
        if phase == marks_.TOP and key.stone is not None:
            _paste_rgba(tile, painter.stone(radius, col, key.stone), middle)
        for when, sprite in pieces:
            if when == phase:
                _paste_rgba(tile, sprite, middle)
    return tile


def _paste_rgba(canvas: Image.Image, sprite: Image.Image, at: tuple[float, float]) -> None:
    """Compose ``sprite`` over an RGBA ``canvas``, centred on ``at``."""
    half = sprite.width // 2
    canvas.alpha_composite(sprite, (int(at[0]) - half, int(at[1]) - half))


def caption_rows(
    state: State,
    found: list[Marked],
    *,
    names: Mapping[int, str] | None,
    outcome: Ending | None,
    scale: float = 1.0,
    preview: bool = False,
) -> list[Line]:
    """The caption's rows as drawn: its lines (with the legend of ``found``) fitted."""
    lay = layout(state.board, scale)
    lines = caption_lines(
        state,
        names,
        painter=painter_for(state.game),
        outcome=outcome,
        keys=_keys(state, found),
        preview=preview,
    )
    return fit(lines, lay.caption_size, lay.width - 2 * lay.pad, CAPTION_LINES)


def _paint_caption(canvas: Canvas, painter: Painter, rows: list[Line]) -> None:
    lay, col, image = canvas.lay, canvas.col, canvas.image
    size = lay.caption_size
    first = canvas.state.game.colors[0]
    for k, row in enumerate(rows):
        y = lay.line_middle(k)
        x = float(lay.pad)
        for seg in row:
            if isinstance(seg, Text):
                text.draw(image, (x, y), seg.text, size, col.dim if seg.dim else col.text)
                x += text.length(seg.text, size)
                continue
            if isinstance(seg, Badge):
                wide = width(seg, size)
                half = 0.62 * size
                ImageDraw.Draw(image).rounded_rectangle(
                    (x, y - half, x + wide - 0.15 * size, y + half),
                    radius=0.2 * size,
                    fill=col.badge,
                )
                text.draw(image, (x + 0.3 * size, y), seg.text, size, col.outline)
                x += wide
                continue
            if isinstance(seg, Swatch):
                sprite = _swatch(painter, size, col, seg.color)
            else:
                sprite = _key(seg, size, lay.style, col, painter, first)
            wide = width(seg, size)
            _paste_over(image, sprite, (x + wide / 2, y))
            x += wide


@lru_cache(maxsize=64)
def _swatch(painter: Painter, size: int, col: Colors, color: str) -> Image.Image:
    """A caption's small stone; one about as dark or light as the background gets a
    thin ring of the text colour, so it reads at preview size (a black stone on
    Discord's dark theme) and still reads filled (●, not a white stone's ○)."""
    stone = painter.stone(size * 0.4, col, color)
    fill = col.stones.get(color, col.dim)
    if abs(marks_.lightness(fill) - marks_.lightness(col.background)) >= 90:
        return stone
    ring = sprites.disc(size * 0.4 + max(1.0, size * 0.035), col.text).copy()
    _paste_rgba(ring, stone, (ring.width // 2 + 0.5, ring.width // 2 + 0.5))
    return ring


def _paste_over(image: Image.Image, sprite: Image.Image, at: tuple[float, float]) -> None:
    """Paste an RGBA ``sprite`` on the RGB ``image``, centred on ``at``."""
    half = sprite.width // 2
    image.paste(sprite, (int(at[0]) - half, int(at[1]) - half), sprite)


def board_image(
    state: State,
    *,
    names: Mapping[int, str] | None = None,
    theme: str = "dark",
    scale: float = 1.0,
    outcome: Ending | None = None,
    marks: bool = False,
    extra: Sequence[Marked] = (),
    preview: bool = False,
) -> Image.Image:
    """The picture of ``state`` as an RGB image (see :func:`board_png`)."""
    game = state.game
    painter = painter_for(game)
    col = painter_colors(game, theme)
    lay = layout(state.board, scale)
    image = static_layer(painter, col, state.board, scale).copy()
    board = state.board
    stones = {}
    for i, cell in enumerate(board.cells):
        color = state.stone_at(cell)
        if color is not None:
            stones[i] = color
    playing = outcome is None and not state.is_over
    found = _marks(state, painter, playing, marks, extra, preview)
    canvas = Canvas(image, state, lay, col, stones, set(stones))
    canvas.covered |= {
        board.index(m.cell)
        for m in found
        if m.mark not in (Mark.REMOVED, Mark.NO_PLACE, Mark.HIGHLIGHT)
    }
    painter.under(canvas)
    _paint_marks(canvas, found, marks_.CELL)
    _paint_marks(canvas, found, marks_.GHOST)
    for i, color in stones.items():
        canvas.paste(painter.stone(lay.stone_radius, col, color), i)
    painter.over(canvas)
    _paint_marks(canvas, found, marks_.TOP)
    _paint_caption(
        canvas,
        painter,
        caption_rows(state, found, names=names, outcome=outcome, scale=scale, preview=preview),
    )
    return image


def caption_text(
    state: State,
    *,
    names: Mapping[int, str] | None = None,
    outcome: Ending | None = None,
    marks: bool = False,
    extra: Sequence[Marked] = (),
    preview: bool = False,
) -> list[str]:
    """The caption of :func:`board_png` with the same arguments, row by row, as
    text (a stone swatch is "●", a legend's key is its words): what the picture
    says, for tests and for a picture's alt text."""
    found = _marks(
        state, painter_for(state.game), outcome is None and not state.is_over, marks, extra, preview
    )
    return [
        "".join(
            seg.text if isinstance(seg, Text | Badge) else "●" if isinstance(seg, Swatch) else ""
            for seg in row
        )
        for row in caption_rows(state, found, names=names, outcome=outcome, preview=preview)
    ]


def to_palette(image: Image.Image, game: Game, theme: str) -> Image.Image:
    """``image`` as a palette image over the game's colours (exact on flat areas)."""
    palette = quantize_palette(painter_colors(game, theme))
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def board_png(
    state: State,
    *,
    names: Mapping[int, str] | None = None,
    theme: str = "dark",
    outcome: Ending | None = None,
    marks: bool = False,
    extra: Sequence[Marked] = (),
    preview: bool = False,
) -> bytes:
    """A PNG picture of ``state``: the board with coordinates, what the last move
    did, and a caption (``names`` maps seats 0 and 1 to display names, in any
    script). ``theme``: "dark" (Discord's default) or "light". ``outcome``: how
    the game ended when the bot ended it (resignation, time, abort): the caption
    says it even though the position itself is not over. ``marks``: hints for
    the player to move (where they may place, where a pawn can go). ``extra``:
    more marks to draw, e.g. ``Marked("c3", Mark.HIGHLIGHT)`` for what a guide
    points at, or ``Marked("c3", Mark.SUGGESTED, "black")`` for the AI's move.
    ``preview``: the last move is shown before it is played (to confirm it): a
    "PREVIEW" badge opens the caption and its stones are ringed amber, not dotted."""
    image = board_image(
        state,
        names=names,
        theme=theme,
        outcome=outcome,
        marks=marks,
        extra=extra,
        preview=preview,
    )
    out = io.BytesIO()
    to_palette(image, state.game, theme).save(out, "PNG", compress_level=3)
    return out.getvalue()
