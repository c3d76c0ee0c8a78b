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
def disc(radius: float, fill: RGB, edge: RGB | None = None, inner_ring: RGB | None = None,
         alpha: int = 255) -> Image.Image:
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
def cross(radius: float, width: float, fill: RGB) -> Image.Image:
    """A small ×: Astralis' contested cells."""
    image, draw, c = _canvas(radius)
    r, w = radius * SS * 0.75, round(width * SS)
    draw.line((c - r, c - r, c + r, c + r), fill=(*fill, 255), width=w)
    draw.line((c - r, c + r, c + r, c - r), fill=(*fill, 255), width=w)
    return _done(image)


@lru_cache(maxsize=1024)
def pawn(radius: float, fill: RGB, edge: RGB, up: bool) -> Image.Image:
    """An Astralis pawn (colony ship): a triangle pointing towards the far side."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    sign = 1 if up else -1
    points = [(c + r * math.cos(math.radians(a)), c + sign * r * math.sin(math.radians(a)))
              for a in (-90, 30, 150)]
    draw.polygon(points, fill=(*edge, 255))
    inner = [(c + 0.72 * (x - c), c + 0.72 * (y - c)) for x, y in points]
    draw.polygon(inner, fill=(*fill, 255))
    return _done(image)


@lru_cache(maxsize=1024)
def hexagon(radius: float, fill: RGB) -> Image.Image:
    """A pointy-topped hexagon of circumradius ``radius``: a tinted cell."""
    image, draw, c = _canvas(radius)
    r = radius * SS
    points = [(c + r * math.cos(math.radians(a)), c + r * math.sin(math.radians(a)))
              for a in (-90, -30, 30, 90, 150, 210)]
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
