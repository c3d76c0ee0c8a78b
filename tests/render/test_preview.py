"""A move shown before it is played (the "confirm moves" setting) is marked as a
preview: a "PREVIEW" badge opens the caption, the turn after it is said as what
would follow, and the move's stones carry an amber ring, not the red dot of a
move played."""

from __future__ import annotations

import pytest

import render
import rules
from tests.render.helpers import distance, near, pixel, scaled


def proposed() -> tuple[rules.State, rules.State]:
    before = rules.get_game("lifeline").new(size=5)
    return before, before.play("a1 e5")


def test_the_caption_says_it_is_a_preview_and_not_played():
    _, after = proposed()
    names = {0: "Ωmega Ünïcødé", 1: "McGregor"}
    played = render.caption_text(after, names=names)
    assert not any("PREVIEW" in row or "not played" in row for row in played)
    rows = render.caption_text(after, names=names, preview=True)
    assert rows[0].startswith("PREVIEW") and "a1 e5" in rows[0]
    assert rows[1].startswith("Then: ● White to move (McGregor)")
    # where there is room, the first row says it in words too
    sliglube = rules.get_game("sliglube").replay(["d4", "white", "c3", "c4"], size=5)
    rows = render.caption_text(sliglube, names={0: "李小龍", 1: "zoë🐉"}, preview=True)
    assert rows[0] == "PREVIEW  Sliglube · base 5  ·  move 4: c4  (not played yet)"


@pytest.mark.parametrize("theme", render.THEMES)
def test_the_preview_badge_and_the_moves_rings_show_at_preview_size(theme):
    _, after = proposed()
    col = render.colors("lifeline", theme)
    image = render.board_image(after, theme=theme, preview=True)
    lay = render.board_layout(after)
    # the badge: a block of its own colour at the start of the first row
    x, y = lay.pad + 6, int(lay.line_middle(0)) - int(0.4 * lay.caption_size)
    assert near(image.getpixel((x, y)), col.badge)
    small = scaled(image)
    k = 440 / lay.width
    box = (lay.pad * k, (lay.line_middle(0) - lay.line_step / 2) * k)
    badge = [
        small.getpixel((int(box[0]) + dx, int(box[1]) + dy)) for dx in range(30) for dy in range(14)
    ]
    assert sum(distance(p, col.badge) < 40 for p in badge) > 100
    # each stone of the move: its own colour in the middle (no red dot), an amber ring
    radius = lay.stone_radius
    for cell in ("a1", "e5"):
        color = col.stones[after.stone_at(cell)]
        assert near(pixel(image, after, cell), color), cell
        assert not near(pixel(image, after, cell), col.mark), cell
        ring = [pixel(image, after, cell, dx=s * 0.68 * radius) for s in (-1, 1)]
        assert any(near(p, col.badge) for p in ring), cell
    # a move played has its red dot
    assert near(pixel(render.board_image(after, theme=theme), after, "a1"), col.mark)
