"""The winning-chances chart of an analysed game, and the marks a guide and an
analysis add to a board: a ring around what a guide points at, the AI's move."""

from __future__ import annotations

import pytest
from PIL import ImageChops

import render
import rules
from render.chart import BOTTOM, HEIGHT, LEFT, LINE, PAD, TOP, WIDTH
from render.theme import BASE, MARK, mix
from tests.render.helpers import decode, ink_rows, lightness, near, pixel, scaled


def test_the_biggest_swings_in_move_order() -> None:
    chances = [0.5, 0.55, 0.2, 0.25, 0.9, 0.85, None, 0.1]
    assert render.biggest_swings(chances) == [2, 4]  # 5 and 6 have an unknown neighbour
    assert render.biggest_swings(chances, count=1) == [4]
    assert render.biggest_swings([0.5, 0.52, 0.5]) == []  # nothing worth marking
    assert render.biggest_swings([0.5, 0.5, 0.8, 1.0, 1.0]) == [2]  # one swing, not two


def at(ply: int, chance: float, last: int) -> tuple[int, int]:
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - PAD, HEIGHT - BOTTOM
    return round(x0 + (x1 - x0) * ply / last), round(y1 - (y1 - y0) * chance)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_chart_draws_the_line_and_rings_the_swings(theme: str) -> None:
    chances = [0.5, 0.5, 0.6, 0.6, 0.1, 0.1, 0.1, 1.0]
    image = decode(render.win_chart_png(chances, theme=theme, names={0: "Ann", 1: "山田"}))
    assert image.size == (WIDTH, HEIGHT)
    rgb = image.convert("RGB")
    assert near(rgb.getpixel((2, 2)), BASE[theme]["background"])
    assert near(rgb.getpixel(at(1, 0.5, 7)), LINE)  # on the line, between two points
    for ply in render.biggest_swings(chances):
        assert near(rgb.getpixel(at(ply, chances[ply], 7)), MARK), ply
    assert render.biggest_swings(chances) == [4, 7]


def test_the_current_move_and_unknown_stretches() -> None:
    chances = [0.5, 0.6, None, None, 0.4, 0.3]
    plain = decode(render.win_chart_png(chances)).convert("RGB")
    current = decode(render.win_chart_png(chances, current=3)).convert("RGB")
    box = ImageChops.difference(plain, current).getbbox()
    assert box is not None and box[2] - box[0] <= 4  # an upright line at move 3
    x, _ = at(3, 0.5, 5)
    assert box[0] - 1 <= x <= box[2] + 1
    assert not near(plain.getpixel(at(2, 0.5, 5)), LINE)  # no line over the unknown


def test_the_chart_reads_at_preview_size() -> None:
    small = scaled(decode(render.win_chart_png([0.5, 0.9, 0.1, 0.5])), 440)
    assert small.width == 440


def test_a_guide_rings_the_cells_it_points_at_without_a_legend() -> None:
    state = rules.get_game("lifeline").replay(["c2 e4"], size=4)
    plain = render.board_image(state)
    ringed = render.board_image(state, extra=[render.Marked("a1", render.Mark.HIGHLIGHT)])
    lay = render.board_layout(state)
    assert near(pixel(ringed, state, "a1"), pixel(plain, state, "a1"))  # the middle is free
    edge = 0.95 * lay.stone_radius
    assert near(pixel(ringed, state, "a1", dx=edge), MARK) or near(
        pixel(ringed, state, "a1", dx=-edge), MARK
    )
    assert render.caption_text(state) == render.caption_text(
        state, extra=[render.Marked("a1", render.Mark.HIGHLIGHT)]
    )


def test_the_ais_move_is_marked_in_the_movers_colour_and_explained() -> None:
    state = rules.get_game("sliglube").replay(["e2", "black", "d2"], size=5)
    suggested = [render.Marked("c3", render.Mark.SUGGESTED, "white")]
    image = render.board_image(state, extra=suggested)
    col = render.colors("sliglube")
    see_through = mix(col.board, col.stones["white"], 150 / 255)  # a faded white stone
    assert near(
        pixel(image, state, "c3", dx=0.7 * render.board_layout(state).stone_radius), see_through
    )
    assert near(pixel(image, state, "c3", dx=0.36 * render.board_layout(state).stone_radius), MARK)
    assert "AI's move" in " ".join(render.caption_text(state, extra=suggested))


def _runs(rows: list[int]) -> list[list[int]]:
    """Consecutive rows grouped: one group per line of text."""
    groups: list[list[int]] = []
    for y in rows:
        if groups and y == groups[-1][-1] + 1:
            groups[-1].append(y)
        else:
            groups.append([y])
    return groups


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_charts_labels_read_at_preview_size_in_full_contrast(theme: str) -> None:
    chances = [0.5, 0.55, 0.4, 0.7, 0.2, 0.5, 0.9]
    full = decode(render.win_chart_png(chances, theme=theme, names={0: "Ann", 1: "Bob"}))
    full = full.convert("RGB")
    small = scaled(full, 440)
    k = 440 / WIDTH
    background = BASE[theme]["background"]
    # the percentages left of the plot: each at least 11 px tall at 440 px
    rows = ink_rows(
        small,
        (0, int((TOP - 10) * k), int((LEFT - 6) * k), int((HEIGHT - BOTTOM) * k) + 6),
        background,
    )
    labels = _runs(rows)
    assert len(labels) == 5, labels
    assert all(len(label) >= 11 for label in labels), [len(label) for label in labels]
    # drawn in the text colour itself, not a dimmer one
    ink = BASE[theme]["text"]
    left = [full.getpixel((x, y)) for x in range(LEFT - 4) for y in range(TOP, HEIGHT - BOTTOM)]
    assert any(near(p, ink) for p in left)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_current_move_line_stands_out_in_both_themes(theme: str) -> None:
    chances = [0.5, 0.6, 0.4, 0.5, 0.45, 0.55]
    plain = scaled(decode(render.win_chart_png(chances, theme=theme)), 440)
    current = scaled(decode(render.win_chart_png(chances, theme=theme, current=2)), 440)
    k = 440 / WIDTH
    x = at(2, 0.5, 5)[0] * k
    span = range(int((TOP + 20) * k), int((HEIGHT - BOTTOM - 20) * k))
    # the line's weight across each row: its width times its contrast, summed over
    # the few pixels it covers once shrunk (a thin dim line is light, a bold one heavy)
    weights = sorted(
        sum(
            abs(
                lightness(current.getpixel((int(x) + dx, y)))
                - lightness(plain.getpixel((int(x) + dx, y)))
            )
            for dx in range(-3, 4)
        )
        for y in span
    )
    assert weights[len(weights) // 5] >= 300, weights[len(weights) // 5]
