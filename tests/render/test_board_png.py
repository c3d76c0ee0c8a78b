"""Still pictures: what a player checks when looking at one.

Positions come from random games with fixed seeds (built by playing moves);
expected pixels come from the renderer's public geometry (cell_center) and
colours (colors), never from stored images.
"""

from __future__ import annotations

import pytest

import render
import rules
from tests.render.helpers import (
    decode,
    first_state,
    near,
    pixel,
    random_states,
    sizes,
    stones,
)

GAME_SIZES = [pytest.param(name, size, id=f"{name}-{size}")
              for name in sorted(rules.GAMES) for size in sizes(name)]


def mid_game(name: str, size: int) -> rules.State:
    """A position half-way through a random game, its last move a placement."""
    states = random_states(name, 1, size=size)
    for state in reversed(states[: len(states) // 2 + 1]):
        if state.last_change.placed and stones(state):
            return state
    raise AssertionError("no placement in the first half of the game")


@pytest.mark.parametrize("theme", render.THEMES)
@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_picture_decodes_at_the_announced_size(name, size, theme):
    state = mid_game(name, size)
    image = decode(render.board_png(state, names={0: "Ann", 1: "Bob"}, theme=theme))
    assert image.size == render.image_size(state)
    assert 800 <= max(image.size) <= 1000


@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_every_stone_is_drawn_in_its_colour_on_its_cell(name, size):
    state = mid_game(name, size)
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors(name, "dark")
    change = state.last_change
    marked = {*change.placed, *change.flipped, *change.added}
    checked = 0
    for cell, color in stones(state).items():
        if cell in marked:
            continue
        assert near(pixel(image, state, cell), palette.stones[color]), (cell, color)
        checked += 1
    assert checked


@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_an_empty_cell_shows_the_board(name, size):
    # early in the game: Astralis tints every explored cell, so look before most are
    state = first_state(name, lambda s: len(stones(s)) >= 2, size=size)
    image = decode(render.board_png(state, theme="light")).convert("RGB")
    pawns = set((getattr(state, "pawns", None) or {}).values())
    control = getattr(state, "control", lambda cell: None)
    removed = {cell for cell, _ in state.last_change.removed}
    empty = [cell for cell in state.board.cells
             if state.stone_at(cell) is None and cell not in pawns | removed
             and control(cell) is None]
    assert empty
    palette = render.colors(name, "light")
    if state.board.kind == "square":  # an empty point is a crossing of two lines
        off = render.board_layout(state).unit / 4
        for cell in empty:
            assert near(pixel(image, state, cell), palette.line), cell
            assert near(pixel(image, state, cell, dx=off, dy=off), palette.board), cell
    else:
        for cell in empty:
            assert near(pixel(image, state, cell), palette.board), cell


@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_the_last_move_is_marked_and_nothing_else(name, size):
    state = mid_game(name, size)
    image = decode(render.board_png(state)).convert("RGB")
    mark = render.colors(name, "dark").mark
    marked = {cell for cell in state.board.cells if near(pixel(image, state, cell), mark)}
    assert marked == set(state.last_change.placed)


#: Games whose moves take stones off the board, and games whose moves flip or add stones.
REMOVING = [name for name in ("asli", "lifeline", "sliglube") if name in rules.GAMES]
FLIPPING = [name for name in ("sliglube", "astralis") if name in rules.GAMES]


@pytest.mark.parametrize("name", REMOVING)
def test_a_stone_the_last_move_removed_is_a_faint_ghost(name):
    state = first_state(name, lambda s: any(s.stone_at(c) is None
                                            for c, _ in s.last_change.removed))
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors(name, "dark")
    for cell, color in state.last_change.removed:
        if state.stone_at(cell) is None and cell not in state.last_change.placed:
            seen = pixel(image, state, cell)
            assert near(seen, palette.ghost[color]), (cell, color)
            assert not near(seen, palette.stones[color])


@pytest.mark.parametrize("name", FLIPPING)
def test_a_stone_the_last_move_flipped_wears_a_ring(name):
    state = first_state(name, lambda s: bool(s.last_change.flipped or s.last_change.added))
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors(name, "dark")
    radius = render.board_layout(state).stone_radius
    for cell in (*state.last_change.flipped, *state.last_change.added):
        color = state.stone_at(cell)
        ring = [pixel(image, state, cell, dx=radius * k / 20) for k in range(10, 17)]
        assert any(near(p, palette.mark) for p in ring), cell
        if cell not in state.last_change.placed:  # the centre still shows the stone
            assert near(pixel(image, state, cell), palette.stones[color])


def test_themes_differ_around_the_board_but_not_on_it():
    state = mid_game("asli", 9)
    dark = decode(render.board_png(state, theme="dark")).convert("RGB")
    light = decode(render.board_png(state, theme="light")).convert("RGB")
    assert dark.getpixel((2, 2)) != light.getpixel((2, 2))
    for theme, image in (("dark", dark), ("light", light)):
        assert near(image.getpixel((2, 2)), render.colors("asli", theme).background)


def test_stones_of_the_two_colours_differ_in_lightness():
    # readable without colour vision: relative luminance apart by a wide margin
    def luminance(rgb):
        return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]

    for name in rules.GAMES:
        first, second = (render.colors(name).stones[c] for c in rules.get_game(name).colors)
        assert abs(luminance(first) - luminance(second)) > 60, name


def test_an_unknown_theme_is_refused():
    state = rules.get_game("asli").new(size=5)
    with pytest.raises(ValueError, match="theme"):
        render.board_png(state, theme="sepia")


def test_cell_center_takes_a_board_or_a_state_and_refuses_unknown_cells():
    state = rules.get_game("asli").new(size=5)
    assert render.cell_center(state, "c3") == render.cell_center(state.board, "c3")
    left, right = render.cell_center(state, "a1"), render.cell_center(state, "e1")
    assert left[0] < right[0] and left[1] == right[1]
    low, high = render.cell_center(state, "a1"), render.cell_center(state, "a5")
    assert high[1] < low[1]  # row 1 is at the bottom
    with pytest.raises(ValueError):
        render.cell_center(state, "z9")


def test_sliglube_outlines_each_link_of_a_loop_and_nothing_else():
    state = first_state("sliglube", lambda s: len(s.loops()) > 1, size=6)
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    accent = render.colors("sliglube", "dark").accent
    on_loop = {frozenset(pair) for loop in state.loops()
               for pair in zip(loop, loop[1:] + loop[:1], strict=True)}
    board = state.board
    occupied = sorted(board.index(cell) for cell in stones(state))
    for k, a in enumerate(occupied):
        for b in occupied[k + 1:]:
            if board.adjacent(a, b):
                (xa, ya), (xb, yb) = (render.cell_center(state, board.name(i)) for i in (a, b))
                between = image.getpixel((int((xa + xb) / 2), int((ya + yb) / 2)))
                linked = frozenset((board.name(a), board.name(b))) in on_loop
                assert near(between, accent) == linked, (board.name(a), board.name(b))
