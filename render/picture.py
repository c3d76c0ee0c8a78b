"""A still picture of a position: the static board (cached), then the pieces
and marks of this position pasted on it, then the caption.

Layers, bottom to top: Astralis control tints; Sliglube loop links; ghosts of
stones the last move removed; stones; Astralis pawns and deferred bonuses;
rings on stones the last move flipped or added; a dot on the cells it placed.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from render import sprites, text
from render.caption import Swatch, Text, caption_lines
from render.layout import Layout, font, layout
from render.theme import Colors, colors, quantize_palette
from rules import State
from rules.board import Board
from rules.hexhex import CELL_RADIUS, HexBoard

SS = 3  # supersampling of the static board


def _line_width(lay: Layout) -> float:
    return max(1.0, (0.045 if lay.board.kind == "square" else 0.032) * lay.unit)


def _draw_board(draw: ImageDraw.ImageDraw, lay: Layout, col: Colors, game: str) -> None:
    """Board shapes at SS× scale."""
    u = lay.unit * SS
    ox, oy = lay.origin[0] * SS, lay.origin[1] * SS
    width = round(_line_width(lay) * SS)
    board = lay.board
    if isinstance(board, HexBoard):
        for i in range(len(board)):
            points = [(ox + x * u, oy + y * u) for x, y in board.corners(i)]
            draw.polygon(points, fill=col.board, outline=col.line, width=width)
        if game == "astralis":  # home edges: Yellow's at the bottom, Cyan's at the top
            for row, color in ((board.rows[0], "yellow"), (board.rows[-1], "cyan")):
                for i in row:
                    pts = [(ox + x * u, oy + y * u) for x, y in board.corners(i)]
                    edge = pts[2:5] if color == "yellow" else [pts[5], pts[0], pts[1]]
                    draw.line(edge, fill=col.stones[color], width=width * 3, joint="curve")
        return



def _draw_grid(draw: ImageDraw.ImageDraw, lay: Layout, col: Colors) -> None:
    """A square board at 1×: whole-pixel lines of odd width centred on the points."""
    n, u = lay.board.size, round(lay.unit)
    x0, y0 = math.floor(lay.origin[0]), math.floor(lay.origin[1])
    half = (2 * round((_line_width(lay) - 1) / 2) + 1) // 2
    span = (n - 1) * u
    rim = round(0.5 * u)
    draw.rectangle((x0 - rim, y0 - rim, x0 + span + rim, y0 + span + rim), fill=col.board)
    for k in range(n):
        draw.rectangle((x0 + k * u - half, y0 - half, x0 + k * u + half, y0 + span + half),
                       fill=col.line)
        draw.rectangle((x0 - half, y0 + k * u - half, x0 + span + half, y0 + k * u + half),
                       fill=col.line)


@lru_cache(maxsize=16)  # about 3 MB each at scale 1
def static_layer(game: str, board: Board, scale: float, theme: str) -> Image.Image:
    """Background, board and coordinates: everything that never changes."""
    lay = layout(board, scale)
    col = colors(game, theme)
    big = Image.new("RGB", (lay.width * SS, lay.height * SS), col.background)
    _draw_board(ImageDraw.Draw(big), lay, col, game)
    image = big.reduce(SS)
    draw = ImageDraw.Draw(image)
    if board.kind == "square":
        _draw_grid(draw, lay, col)
    draw.line((0, lay.caption_height - 1, lay.width, lay.caption_height - 1),
              fill=col.dim, width=max(1, round(scale)))
    face = font(lay.label_size)
    for label in lay.labels:
        draw.text((label.x, label.y), label.text, font=face, anchor="mm",
                  fill=col.text if label.strong else col.dim)
    return image


def _stone(lay: Layout, col: Colors, color: str) -> Image.Image:
    fill = col.stones.get(color, col.mark)
    inner = col.symbol.get("cyan") if color == "cyan" else None
    return sprites.disc(lay.stone_radius, fill, col.outline, inner)


@lru_cache(maxsize=64)
def _control_tile(radius: float, tint: tuple, owner: str, symbol: tuple | None,
                  mark_radius: float) -> Image.Image:
    """An Astralis cell's tint with, if ``symbol``, the mark of its controller
    on it: one sprite, pasted once, pixel for pixel the two pasted in turn."""
    tile = sprites.hexagon(radius, tint)
    if symbol is None:
        return tile
    if owner == "yellow":
        mark = sprites.disc(mark_radius, symbol)
    elif owner == "cyan":
        mark = sprites.ring(mark_radius * 1.15, mark_radius * 0.45, symbol)
    else:
        mark = sprites.cross(mark_radius, max(1.5, mark_radius * 0.35), symbol)
    colour = tile.convert("RGB")  # paste onto RGBA would blend the alpha channel too
    middle = tile.width // 2 + 0.5
    sprites.paste(colour, mark, (middle, middle))
    colour.putalpha(tile.getchannel("A"))
    return colour


def _paint_astralis(image: Image.Image, state: State, lay: Layout, col: Colors,
                    stones: dict[int, str]) -> None:
    control = getattr(state, "control", None)
    if control is None:
        return
    board = lay.board
    tint_radius = CELL_RADIUS * lay.unit - _line_width(lay) * 0.9
    pawn_cells = {cell for cell in (getattr(state, "pawns", {}) or {}).values() if cell}
    mark_radius = 0.13 * lay.unit
    for i, cell in enumerate(board.cells):
        owner = control(cell)
        if owner is None:
            continue
        hidden = i in stones or cell in pawn_cells  # a stone or pawn covers the mark
        tile = _control_tile(tint_radius, col.tint[owner], owner,
                             None if hidden else col.symbol[owner], mark_radius)
        sprites.paste(image, tile, lay.center(i))


def _paint_pawns(image: Image.Image, state: State, lay: Layout, col: Colors) -> None:
    pawns = getattr(state, "pawns", None) or {}
    deferred = dict(getattr(state, "deferred_bonuses", ()) or ())
    for cell, color in deferred.items():  # the bonus waits under the opponent's pawn
        halo = sprites.ring(lay.stone_radius * 1.08, lay.stone_radius * 0.22,
                            col.stones.get(color, col.mark), col.outline)
        sprites.paste(image, halo, lay.cell_center(cell))
    for color, cell in pawns.items():
        if cell:
            up = color == state.game.colors[0]
            ship = sprites.pawn(lay.stone_radius * 0.95, col.stones.get(color, col.mark),
                                col.outline, up)
            sprites.paste(image, ship, lay.cell_center(cell))


@lru_cache(maxsize=32)
def _cell_index(board: Board) -> dict[str, int]:
    return {cell: i for i, cell in enumerate(board.cells)}


def _paint_loops(image: Image.Image, links: frozenset[tuple[str, str]], lay: Layout,
                 col: Colors) -> None:
    """A bar between the stones of each link of a loop (each link once, however
    many loops share it)."""
    index = _cell_index(lay.board)
    for a, b in sorted(tuple(sorted((index[u], index[v]))) for u, v in links):
        (xa, ya), (xb, yb) = lay.center(a), lay.center(b)
        angle = round(math.degrees(math.atan2(yb - ya, xb - xa))) % 180
        link = sprites.capsule(lay.unit, 0.36 * lay.unit, angle, col.accent)
        sprites.paste(image, link, ((xa + xb) / 2, (ya + yb) / 2))


def _text_width(line: list, size: int) -> float:
    return sum(text.length(s.text, size) if isinstance(s, Text) else size * 0.95
               for s in line)


def _fitting_size(line: list, size: int, room: float) -> int:
    """The largest font size up to ``size`` (and down to 10) at which ``line``
    fits ``room``: widths grow with the size, so start near the proportional guess."""
    full = _text_width(line, size)
    if full <= room:
        return size
    guess = max(10, min(size - 1, math.floor(size * room / full) + 1))
    while guess < size - 1 and _text_width(line, guess + 1) <= room:
        guess += 1
    while guess > 10 and _text_width(line, guess) > room:
        guess -= 1
    return guess


def _paint_caption(image: Image.Image, state: State, lay: Layout, col: Colors,
                   names: Mapping[int, str] | None) -> None:
    pad = round(14 * lay.scale)
    step = round(lay.caption_size * 1.4)
    room = lay.width - 2 * pad
    for k, line in enumerate(caption_lines(state, names)):
        size = _fitting_size(line, lay.caption_size, room)  # shrink a line that does not fit
        swatch_w = size * 0.95
        x = float(pad)
        y = pad + k * step + step / 2
        for seg in line:
            if isinstance(seg, Swatch):
                radius = size * 0.4
                fill = col.stones.get(seg.color, col.mark)
                inner = col.symbol.get("cyan") if seg.color == "cyan" else None
                sprites.paste(image, sprites.disc(radius, fill, col.outline, inner),
                              (x + swatch_w / 2, y))
                x += swatch_w
            elif seg.text:
                text.draw(image, (x, y), seg.text, size, col.dim if seg.dim else col.text)
                x += text.length(seg.text, size)


def board_image(state: State, *, names: Mapping[int, str] | None = None, theme: str = "dark",
                scale: float = 1.0) -> Image.Image:
    """The picture of ``state`` as an RGB image (see :func:`board_png`)."""
    game = state.game.name
    col = colors(game, theme)
    lay = layout(state.board, scale)
    image = static_layer(game, state.board, scale, theme).copy()
    board = state.board
    stones = {}
    for i, cell in enumerate(board.cells):
        color = state.stone_at(cell)
        if color is not None:
            stones[i] = color
    if game == "astralis":
        _paint_astralis(image, state, lay, col, stones)
    if game == "sliglube" and hasattr(state, "loop_links"):
        _paint_loops(image, state.loop_links(), lay, col)
    change = state.last_change
    for cell, color in change.removed:
        if board.index(cell) not in stones:
            ghost = sprites.disc(lay.stone_radius, col.ghost.get(color, col.board))
            sprites.paste(image, ghost, lay.cell_center(cell))
    for i, color in stones.items():
        sprites.paste(image, _stone(lay, col, color), lay.center(i))
    if game == "astralis":
        _paint_pawns(image, state, lay, col)
    changed_ring = sprites.ring(lay.stone_radius * 0.8, lay.stone_radius * 0.24, col.mark,
                                col.outline)
    for cell in (*change.flipped, *change.added):
        sprites.paste(image, changed_ring, lay.cell_center(cell))
    last = sprites.dot(max(3.0, lay.stone_radius * 0.3), col.mark, col.outline)
    for cell in change.placed:
        sprites.paste(image, last, lay.cell_center(cell))
    _paint_caption(image, state, lay, col, names)
    return image


def to_palette(image: Image.Image, game: str, theme: str) -> Image.Image:
    """``image`` as a palette image over the game's colours (exact on flat areas)."""
    return image.quantize(palette=quantize_palette(game, theme), dither=Image.Dither.NONE)


def board_png(state: State, *, names: Mapping[int, str] | None = None,
              theme: str = "dark") -> bytes:
    """A PNG picture of ``state``: the board with coordinates, the last move
    marked, and a caption. ``names`` maps seats (0, 1) to display names."""
    image = to_palette(board_image(state, names=names, theme=theme), state.game.name, theme)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=3)  # 6 saves ~25% bytes for twice the time
    return out.getvalue()
