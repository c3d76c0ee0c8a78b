"""Legible at Discord's preview size: pictures shrunk to 440 px wide, as a
member first sees them, still show the caption's letters at least 13 px tall
and every mark on the cells."""

from __future__ import annotations

import math

import pytest
from PIL import ImageChops

import render
import rules
from render import Mark
from rules.astralis import AstralisState
from tests.render.helpers import (
    first_state,
    ink_rows,
    lightness,
    marked_cells,
    random_states,
    scaled,
    sizes,
)

PREVIEW = 440
LARGEST = [
    pytest.param(name, sizes(name)[-1], id=f"{name}-{sizes(name)[-1]}")
    for name in sorted(rules.GAMES)
]


def ratio(state: rules.State) -> float:
    return PREVIEW / render.image_size(state)[0]


def at(image, state: rules.State, cell: str, dx: float = 0.0, dy: float = 0.0):
    """The colour of the preview at ``cell``'s centre (``dx``, ``dy`` full-size pixels away)."""
    x, y = render.cell_center(state, cell)
    k = ratio(state)
    return image.getpixel((int((x + dx) * k), int((y + dy) * k)))


def distance(a, b) -> int:
    return max(abs(p - q) for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("theme", render.THEMES)
@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_caption_letters_stay_13_px_tall_in_the_preview(name, theme):
    state = random_states(name, 1, size=sizes(name)[0])[4]
    assert not state.is_over
    preview = scaled(render.board_image(state, names={0: "Ann", 1: "Bob"}, theme=theme))
    lay, k = render.board_layout(state), ratio(state)
    # the status row: "Black to move (Bob): …", capitals and parentheses, descenders
    top = int((lay.line_middle(1) - lay.line_step / 2) * k)
    bottom = int((lay.line_middle(1) + lay.line_step / 2) * k)
    rows = ink_rows(
        preview, (int(lay.pad * k), top, PREVIEW - 2, bottom), render.colors(name, theme).background
    )
    assert rows and rows[-1] - rows[0] + 1 >= 13


@pytest.mark.parametrize(("name", "size"), LARGEST)
def test_the_last_move_dot_shows_in_the_preview_of_the_largest_board(name, size):
    state = next(
        s
        for s in reversed(random_states(name, 1, size=size)[:120])
        if any(s.stone_at(c) for c in s.last_change.placed)
    )
    preview = scaled(render.board_image(state))
    palette = render.colors(name)
    cell = next(c for c in state.last_change.placed if state.stone_at(c))
    seen = at(preview, state, cell)
    assert distance(seen, palette.mark) < distance(seen, palette.stones[state.stone_at(cell)])


@pytest.mark.parametrize(("name", "size"), LARGEST)
def test_hints_show_in_the_preview_of_the_largest_board(name, size):
    state = random_states(name, 1, size=size)[60]
    plain = scaled(render.board_image(state))
    hinted = scaled(render.board_image(state, marks=True))
    cells = {
        **marked_cells(state, Mark.PLACE, hints=True),
        **marked_cells(state, Mark.REACH, hints=True),
    }
    assert cells
    k = ratio(state)
    near = int(0.6 * render.board_layout(state).stone_radius * k)
    diff = ImageChops.difference(hinted, plain)
    for cell in cells:  # somewhere in the middle of the cell, the hint stands out
        x, y = (int(c * k) for c in render.cell_center(state, cell))
        extrema = diff.crop((x - near, y - near, x + near + 1, y + near + 1)).getextrema()
        assert max(high for _, high in extrema) > 60, cell


@pytest.mark.parametrize("name", ["lifeline", "sliglube"])
def test_a_removed_stone_does_not_read_as_a_stone_in_the_preview(name):
    state = first_state(
        name,
        lambda s: any(
            s.stone_at(c) is None and c not in s.last_change.placed
            for c, _ in s.last_change.removed
        ),
    )
    assert state is not None
    preview = scaled(render.board_image(state))
    palette = render.colors(name)
    radius = render.board_layout(state).stone_radius
    for cell, color in state.last_change.removed:
        if state.stone_at(cell) is not None or cell in state.last_change.placed:
            continue
        middle = at(preview, state, cell)
        assert distance(middle, palette.board) < distance(middle, palette.stones[color])
        for dx, dy in ((0.8, 0), (0, 0.8), (-0.8, 0), (0, -0.8)):
            rim = at(preview, state, cell, dx * radius, dy * radius)
            assert distance(rim, palette.stones[color]) > 60, cell


def test_astralis_pawns_stand_out_from_the_control_marks_in_the_preview():
    state = random_states("astralis", 1, size=8)[80]
    assert isinstance(state, AstralisState)
    preview = scaled(render.board_image(state))
    lay, k = render.board_layout(state), ratio(state)

    def halo(cell: str, reach: float) -> int:
        """Pixels near white within ``reach`` stone radii: only a pawn's light halo is."""
        x, y = render.cell_center(state, cell)
        r = int(lay.stone_radius * reach * k)
        return sum(
            1
            for dx in range(-r, r + 1)
            for dy in range(-r, r + 1)
            if lightness(p := preview.getpixel((int(x * k) + dx, int(y * k) + dy))) > 215
            and max(p) - min(p) < 40
        )

    pawns = [cell for cell in state.pawns.values() if cell]
    assert len(pawns) == 2
    for cell in pawns:  # a pawn's halo reaches well beyond a control mark's size
        assert halo(cell, 1.3) >= 8, cell
    controlled = [
        cell
        for cell in state.board.cells
        if state.control(cell) and state.stone_at(cell) is None and cell not in pawns
    ]
    assert controlled
    assert all(halo(cell, 0.5) == 0 for cell in controlled)


def test_what_a_move_did_still_shows_in_the_preview():
    # Astralis base 8: a capture (red × in the middle) and a bonus (red ring)
    red = render.colors("astralis").mark
    for want, where in (
        (lambda s: bool(s.last_change.flipped), 0.0),
        (lambda s: bool(s.last_change.added), 0.67),
    ):
        state = first_state("astralis", want, size=8)
        preview = scaled(render.board_image(state))
        radius = render.board_layout(state).stone_radius
        cells = state.last_change.flipped or state.last_change.added
        for cell in cells:
            seen = [
                at(preview, state, cell, dx * where * radius, dy * where * radius)
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            ]
            assert any(distance(p, red) < 70 for p in seen), cell
    # Sliglube base 7: a flipped stone shows its former colour in its middle
    state = first_state("sliglube", lambda s: bool(s.last_change.flipped), size=7)
    palette = render.colors("sliglube")
    preview = scaled(render.board_image(state))
    for cell in state.last_change.flipped:
        before = "white" if state.stone_at(cell) == "black" else "black"
        middle = at(preview, state, cell)
        assert distance(middle, palette.stones[before]) < distance(
            middle, palette.stones[state.stone_at(cell)]
        ), cell


@pytest.mark.parametrize("theme", render.THEMES)
def test_astralis_hints_are_legible_in_the_preview_of_base_8(theme):
    """Where the pawn can go (a hollow triangle) and where a stone may then go (a
    diamond), in the mover's colour: wide and solid enough to read at 440 px."""
    state = random_states("astralis", 1, size=8)[40]
    preview = scaled(render.board_image(state, marks=True, theme=theme))
    mover = render.colors("astralis", theme).stones[state.color_to_move]
    lay, k = render.board_layout(state), ratio(state)
    reach = int(0.45 * lay.unit * k)
    for mark, wide, solid in ((Mark.PLACE, 9, 40), (Mark.REACH, 13, 35)):
        cells = marked_cells(state, mark, hints=True)
        assert cells
        for cell in cells:
            x, y = (int(c * k) for c in render.cell_center(state, cell))
            seen = [
                dx
                for dx in range(-reach, reach + 1)
                for dy in range(-reach, reach + 1)
                if distance(preview.getpixel((x + dx, y + dy)), mover) < 60
            ]
            assert seen and max(seen) - min(seen) + 1 >= wide, (mark, cell)
            assert len(seen) >= solid, (mark, cell)


@pytest.mark.parametrize("theme", render.THEMES)
def test_a_late_sliglube_board_keeps_its_stones_apart(theme):
    """Late in a game nearly every stone is on a loop: the loops' outlines are thin
    strands between the stones, not bands that weld them into one web, and still show."""
    state = random_states("sliglube", 1, size=7)[-2]
    assert len(state.loops()) > 1000
    preview = scaled(render.board_image(state, theme=theme))
    col = render.colors("sliglube", theme)
    lay, k = render.board_layout(state), ratio(state)
    links = [link for link in state.loop_links() if {state.stone_at(c) for c in link} == {"white"}]
    assert links
    for a, b in links[:40]:
        (xa, ya), (xb, yb) = render.cell_center(state, a), render.cell_center(state, b)
        mx, my, length = (xa + xb) / 2, (ya + yb) / 2, math.dist((xa, ya), (xb, yb))
        nx, ny = -(yb - ya) / length, (xb - xa) / length  # across the link
        across = [
            preview.getpixel((int((mx + nx * t) * k), int((my + ny * t) * k)))
            # half pixels across, within the gap between the two stones' neighbours
            for t in [s * 0.5 for s in range(-int(0.56 * lay.unit), int(0.56 * lay.unit) + 1)]
        ]
        white = [p for p in across if distance(p, col.stones["white"]) < 60]
        assert white, (a, b)  # the outline shows
        # at most a quarter of a stone's width (counted in half pixels of the full size)
        assert len(white) * 0.5 * k <= 0.25 * 2 * lay.stone_radius * k, (a, b)


@pytest.mark.parametrize("theme", render.THEMES)
def test_the_swatch_before_the_turn_stands_out_in_the_preview(theme):
    """ "● Black to move": the black swatch reads on the dark background too."""
    state = rules.get_game("lifeline").new(size=5)
    assert render.caption_text(state)[1].startswith("● Black to move")
    preview = scaled(render.board_image(state, theme=theme))
    lay, k = render.board_layout(state), ratio(state)
    x, y = (lay.pad + 0.5 * lay.caption_size) * k, lay.line_middle(1) * k
    reach = int(0.6 * lay.caption_size * k)
    ground = lightness(render.colors("lifeline", theme).background)
    contrast = max(
        abs(lightness(preview.getpixel((int(x) + dx, int(y) + dy))) - ground)
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    )
    assert contrast >= 90


def test_the_black_swatch_reads_filled_not_hollow_in_the_dark_theme():
    """Ringed to be seen, the black stone before "Black to move" must still read as a
    black stone (●), not a white one's outline (○): at preview size its dark pixels
    outnumber its bright edge's by more than two to one."""
    state = rules.get_game("lifeline").new(size=5)
    preview = scaled(render.board_image(state, theme="dark"))
    lay, k = render.board_layout(state), ratio(state)
    x, y = (lay.pad + 0.5 * lay.caption_size) * k, lay.line_middle(1) * k
    reach = int(0.6 * lay.caption_size * k)
    ground = lightness(render.colors("lifeline", "dark").background)
    seen = [
        lightness(preview.getpixel((int(x) + dx, int(y) + dy))) - ground
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    ]
    dark = sum(1 for shade in seen if shade <= -15)
    bright = sum(1 for shade in seen if shade >= 45)
    assert dark > 2 * bright, (dark, bright)
