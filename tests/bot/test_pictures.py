"""The bot's pictures: the AI's preferred move is drawn even where the mover has no
colour yet (the first move of a pie opening)."""

from __future__ import annotations

import io

from PIL import Image

import render
import rules
from bot.pictures import suggestion_png
from render.theme import mix


def test_the_ais_first_move_is_drawn_before_the_colours_are_chosen() -> None:
    # Sliglube's first move: the first player places a black stone, colours come later
    before = rules.get_game("sliglube").new(size=5)
    after = before.play("e2")
    assert before.color_to_move is None
    image = Image.open(io.BytesIO(suggestion_png(after, {0: "Ann", 1: "Bob"}, "b4", None)))
    image = image.convert("RGB")
    col = render.colors("sliglube")
    x, y = render.cell_center(after, "b4")
    radius = render.board_layout(after).stone_radius
    faded = mix(col.board, col.stones["black"], 150 / 255)  # a see-through black stone
    seen = image.getpixel((int(x + 0.7 * radius), int(y)))
    assert max(abs(a - b) for a, b in zip(seen, faded, strict=True)) <= 12
    assert "AI's move" in " ".join(
        render.caption_text(after, extra=[render.Marked("b4", render.Mark.SUGGESTED, "black")])
    )
