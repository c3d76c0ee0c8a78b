"""Antialiased pieces, drawn once at 4× and shrunk, then pasted many times.

Every sprite is an RGBA square of odd side whose middle pixel is the point it
is pasted on (see :func:`paste`). All functions are cached: a picture is
mostly pastes of sprites made for an earlier picture.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
SS = 4  # supersampling factor


def _canvas(radius: float) -> tuple[Image.Image, ImageDraw.ImageDraw, float]:
    side = 2 * math.ceil(radius) + 3
    image = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image), (side // 2 + 0.5) * SS


def _done(image: Image.Image) -> Image.Image:
    return image.reduce(SS)


def _circle(draw: ImageDraw.ImageDraw, c: float, r: float, fill: RGB) -> None:
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*fill, 255))


def paste(canvas: Image.Image, sprite: Image.Image, at: tuple[float, float]) -> None:
    """Paste ``sprite`` with its middle pixel on the pixel containing ``at``."""
    half = sprite.width // 2
    x, y = math.floor(at[0]) - half, math.floor(at[1]) - half
    # Image.paste(sprite, (x, y), sprite) minus its argument checks, which cost
    # three times the paste itself for a sprite this small (hundreds per picture)
    core = sprite.im
    canvas.im.paste(core, (x, y, x + sprite.width, y + sprite.height), core)


@lru_cache(maxsize=1024)
def disc(
    radius: float,
    fill: RGB,
    edge: RGB | None = None,
    inner_ring: RGB | None = None,
    alpha: int = 255,
) -> Image.Image:
    """A stone: a disc with an optional thin edge and an optional ring inside
    (the mark that tells cyan stones from yellow ones without colour)."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    if edge is not None:
        _circle(draw, c, r, edge)
        r -= max(SS, 0.07 * r)
    _circle(draw, c, r, fill)
    if inner_ring is not None:
        _circle(draw, c, 0.5 * r, inner_ring)
        _circle(draw, c, 0.36 * r, fill)
    image = _done(image)
    if alpha < 255:
        image.putalpha(image.getchannel("A").point(lambda a: a * alpha // 255))
    return image


@lru_cache(maxsize=1024)
def ring(radius: float, width: float, fill: RGB, edge: RGB | None = None) -> Image.Image:
    """A ring of outer ``radius`` and ``width`` (pixels), with thin dark edges."""
    image, draw, c = _canvas(radius)
    r, w = radius * SS, width * SS
    rim = max(SS * 0.8, 0.25 * w) if edge is not None else 0.0
    if edge is not None:
        _circle(draw, c, r, edge)
    _circle(draw, c, r - rim, fill)
    if edge is not None:
        _circle(draw, c, r - w + rim, edge)
    draw.ellipse((c - (r - w), c - (r - w), c + (r - w), c + (r - w)), fill=(0, 0, 0, 0))
    return _done(image)


@lru_cache(maxsize=1024)
def dot(radius: float, fill: RGB, edge: RGB) -> Image.Image:
    """The last-move mark: a small disc with a dark rim (readable on every stone)."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    _circle(draw, c, r, edge)
    _circle(draw, c, r - max(SS, 0.22 * r), fill)
    return _done(image)


@lru_cache(maxsize=1024)
def cross(radius: float, width: float, fill: RGB, edge: RGB | None = None) -> Image.Image:
    """A ×: Astralis' contested cells (small, plain), a captured stone (with a dark edge)."""
    image, draw, c = _canvas(radius)
    r, w = radius * SS * 0.75, width * SS
    strokes = [(w, fill, r)]
    if edge is not None:
        rim = max(SS * 1.2, 0.35 * w)
        strokes.insert(0, (w + 2 * rim, edge, r + rim / 2))
    for stroke, colour, reach in strokes:
        draw.line(
            (c - reach, c - reach, c + reach, c + reach), fill=(*colour, 255), width=round(stroke)
        )
        draw.line(
            (c - reach, c + reach, c + reach, c - reach), fill=(*colour, 255), width=round(stroke)
        )
    return _done(image)


def _polygon(c: float, r: float, angles: tuple[float, ...], flip: bool = False) -> list:
    sign = -1 if flip else 1
    return [
        (c + r * math.cos(math.radians(a)), c + sign * r * math.sin(math.radians(a)))
        for a in angles
    ]


@lru_cache(maxsize=1024)
def diamond(radius: float, fill: RGB, edge: RGB) -> Image.Image:
    """A small diamond with a dark edge: a cell where the player to move may place."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    draw.polygon(_polygon(c, r, (0, 90, 180, 270)), fill=(*edge, 255))
    draw.polygon(_polygon(c, r - max(SS * 1.2, 0.22 * r), (0, 90, 180, 270)), fill=(*fill, 255))
    return _done(image)


@lru_cache(maxsize=1024)
def square(radius: float, fill: RGB) -> Image.Image:
    """A square of half-side ``radius``: a tinted point of a square board."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    draw.rectangle((c - r, c - r, c + r, c + r), fill=(*fill, 255))
    return _done(image)


@lru_cache(maxsize=1024)
def triangle(radius: float, width: float, fill: RGB, edge: RGB, up: bool) -> Image.Image:
    """A hollow triangle with dark edges: a cell a pawn can move to."""
    image, draw, c = _canvas(radius)
    r, w = radius * SS, width * SS
    angles = (-90, 30, 150)
    rim = max(SS * 1.0, 0.25 * w)
    draw.polygon(_polygon(c, r, angles, not up), fill=(*edge, 255))
    draw.polygon(_polygon(c, r - rim * 2, angles, not up), fill=(*fill, 255))
    draw.polygon(_polygon(c, r - 2 * w + rim * 2, angles, not up), fill=(*edge, 255))
    draw.polygon(_polygon(c, r - 2 * w, angles, not up), fill=(0, 0, 0, 0))
    return _done(image)


@lru_cache(maxsize=1024)
def pawn(radius: float, fill: RGB, edge: RGB, halo: RGB, up: bool) -> Image.Image:
    """An Astralis pawn (colony ship): a large triangle pointing towards the far
    side, with a dark edge and a light halo, so it stands out from any cell."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    angles = (-90, 30, 150)
    rim = max(SS * 1.2, 0.09 * r)
    draw.polygon(_polygon(c, r, angles, not up), fill=(*halo, 255))
    draw.polygon(_polygon(c, r - 2 * rim, angles, not up), fill=(*edge, 255))
    draw.polygon(_polygon(c, r - 4 * rim, angles, not up), fill=(*fill, 255))
    return _done(image)


@lru_cache(maxsize=1024)
def hexagon(radius: float, fill: RGB) -> Image.Image:
    """A pointy-topped hexagon of circumradius ``radius``: a tinted cell."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    points = [
        (c + r * math.cos(math.radians(a)), c + r * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]
    draw.polygon(points, fill=(*fill, 255))
    return _done(image)


@lru_cache(maxsize=1024)
def capsule(length: float, width: float, angle: float, fill: RGB) -> Image.Image:
    """A bar with round ends, ``length`` between the end centres, centred, at
    ``angle`` degrees (image y down): one link of a Sliglube loop."""
    image, draw, c = _canvas(length / 2 + width / 2)
    dx = math.cos(math.radians(angle)) * length * SS / 2
    dy = math.sin(math.radians(angle)) * length * SS / 2
    w = width * SS
    draw.line((c - dx, c - dy, c + dx, c + dy), fill=(*fill, 255), width=round(w))
    for sx, sy in ((c - dx, c - dy), (c + dx, c + dy)):
        draw.ellipse((sx - w / 2, sy - w / 2, sx + w / 2, sy + w / 2), fill=(*fill, 255))
    return _done(image)
