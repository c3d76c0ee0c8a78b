"""An animated GIF of a whole game: the start, then one frame per move.

Frames are drawn at a reduced scale and share one palette (the game's
colours). Each frame after the first stores only the rectangle that changed
since the one before, with unchanged pixels inside it transparent, so even a
game of several hundred moves stays a few megabytes. Frames are encoded one
at a time (Pillow compresses each, this module strings them together), so
memory does not grow with the length of the game.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from PIL import Image, ImageChops

import rules
from render.games import painter_colors
from render.picture import board_image, to_palette
from render.segments import Ending
from render.theme import TRANSPARENT, quantize_palette
from rules import Game, State

#: Frame scale (a still picture is 1) and timing, in milliseconds.
SCALE = 0.6
FIRST_MS = 1200
MOVE_MS = 800
LAST_MS = 4000

_DISPOSE_NONE = 1  # GIF disposal method "do not dispose": the next frame draws on top


def _states(game: Game, options: Mapping[str, Any], moves: list[str]) -> Iterator[State]:
    state = game.new(**dict(options))
    yield state
    for ply, move in enumerate(moves, 1):
        try:
            state = state.play(move)
        except rules.IllegalMove as error:
            raise rules.IllegalMove(f"move {ply} ({move}): {error}", ply=ply) from error
        yield state


def _image_block(frame: Image.Image, left: int, top: int) -> bytes:
    """The image descriptor and LZW data of ``frame`` as Pillow writes them,
    placed at (``left``, ``top``) of the animation."""
    buffer = io.BytesIO()
    frame.save(buffer, "GIF", optimize=False)
    data = buffer.getvalue()
    pos = 13  # header and logical screen descriptor
    if data[10] & 0x80:  # global colour table (ours: the frame keeps its palette as is)
        pos += 3 << ((data[10] & 7) + 1)
    while data[pos] == 0x21:  # extensions: skip label, then sub-blocks
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    assert data[pos] == 0x2C, "Pillow wrote no image descriptor"
    start = pos
    packed = data[pos + 9]
    pos += 10
    if packed & 0x80:  # local colour table
        pos += 3 << ((packed & 7) + 1)
    pos += 1  # LZW minimum code size
    while data[pos]:
        pos += data[pos] + 1
    pos += 1
    return data[start : start + 1] + struct.pack("<HH", left, top) + data[start + 5 : pos]


def _control(duration_ms: int) -> bytes:
    """Graphic control extension: delay, keep the previous frame, transparency."""
    packed = (_DISPOSE_NONE << 2) | 1
    return (
        b"\x21\xf9\x04"
        + bytes([packed])
        + struct.pack("<H", round(duration_ms / 10))
        + bytes([TRANSPARENT, 0])
    )


def _delta(previous: Image.Image, frame: Image.Image) -> tuple[Image.Image, int, int]:
    """The part of ``frame`` that differs from ``previous``, unchanged pixels transparent."""
    old = Image.frombytes("L", previous.size, previous.tobytes())
    new = Image.frombytes("L", frame.size, frame.tobytes())
    changed = ImageChops.difference(old, new)
    box = changed.getbbox() or (0, 0, 1, 1)
    part = frame.crop(box)
    unchanged = changed.crop(box).point([255] + [0] * 255, "1")
    part.paste(TRANSPARENT, mask=unchanged)
    return part, box[0], box[1]


def replay_gif(
    game: Game | str,
    options: Mapping[str, Any] | None,
    moves: Iterable[str],
    *,
    names: Mapping[int, str] | None = None,
    theme: str = "dark",
    outcome: Ending | None = None,
) -> bytes:
    """A looping GIF of the game ``moves`` (from ``game.new(**options)``): one frame
    for the start and one per move, the last one held longest. ``outcome``: how
    the game ended when the bot ended it (resignation, time, abort), said by the
    last frame. Raises rules.IllegalMove (naming the move) if the record does
    not replay."""
    if isinstance(game, str):
        game = rules.get_game(game)
    moves = list(moves)
    count = len(moves) + 1
    palette = quantize_palette(painter_colors(game, theme)).getpalette()
    assert palette is not None  # a "P" image has one
    palette = palette[:768]
    out = io.BytesIO()
    previous: Image.Image | None = None
    for k, state in enumerate(_states(game, options or {}, moves)):
        ending = outcome if k == count - 1 else None
        frame = to_palette(
            board_image(state, names=names, theme=theme, scale=SCALE, outcome=ending), game, theme
        )
        if previous is None:
            width, height = frame.size
            out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0))
            out.write(bytes(palette))
            if count > 1:  # loop forever
                out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")
            part, left, top = frame, 0, 0
        else:
            part, left, top = _delta(previous, frame)
        last = k == count - 1
        out.write(_control(LAST_MS if last else FIRST_MS if k == 0 else MOVE_MS))
        out.write(_image_block(part, left, top))
        previous = frame
    out.write(b";")
    return out.getvalue()
