"""Still pictures: what a player checks when looking at one.

Positions come from random games with fixed seeds (built by playing moves);
expected pixels come from the renderer's public geometry (cell_center) and
colours (colors), never from stored images.
"""

from __future__ import annotations

import pytest

import render
import rules
from render import Mark
from rules.astralis import AstralisState
from rules.square import SquareBoard
from tests.render.helpers import (
    decode,
    first_state,
    marked_cells,
    near,
    pixel,
    random_states,
    sizes,
    stones,
)

GAME_SIZES = [
    pytest.param(name, size, id=f"{name}-{size}")
    for name in sorted(rules.GAMES)
    for size in sizes(name)
]


def mid_game(name: str, size: int) -> rules.State:
    """A position half-way through a random game, its last move a placement."""
    states = random_states(name, 1, size=size)
    for state in reversed(states[: len(states) // 2 + 1]):
        if state.last_change.placed and stones(state):
            return state
    raise AssertionError("no placement in the first half of the game")


def changed(state: rules.State) -> set[str]:
    """Cells whose middle shows a mark of what the last move did."""
    return {m.cell for m in render.painter_for(state.game).changes(state)}


@pytest.mark.parametrize("theme", render.THEMES)
@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_picture_decodes_at_the_announced_size(name, size, theme):
    state = mid_game(name, size)
    image = decode(render.board_png(state, names={0: "Ann", 1: "Bob"}, theme=theme))
    assert image.size == render.image_size(state)
    assert image.width == 960 and 800 <= image.height <= 1150


@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_every_stone_is_drawn_in_its_colour_on_its_cell(name, size):
    state = mid_game(name, size)
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors(name, "dark")
    checked = 0
    for cell, color in stones(state).items():
        if cell in changed(state):
            continue
        assert near(pixel(image, state, cell), palette.stones[color]), (cell, color)
        checked += 1
    assert checked


@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_an_empty_cell_shows_the_board(name, size):
    # early in the game: Astralis tints every explored cell, so look before most are
    state = first_state(name, lambda s: len(stones(s)) >= 2, size=size)
    image = decode(render.board_png(state, theme="light")).convert("RGB")
    covered = set(changed(state)) | set(marked_cells(state, Mark.NO_PLACE))
    if isinstance(state, AstralisState):
        covered |= {
            cell
            for cell in state.board.cells
            if state.control(cell) is not None or state.pawn_at(cell)
        }
    empty = [
        cell for cell in state.board.cells if state.stone_at(cell) is None and cell not in covered
    ]
    assert empty
    palette = render.colors(name, "light")
    if isinstance(state.board, SquareBoard):  # an empty point is a crossing of two lines
        off = render.board_layout(state).unit / 4
        for cell in empty:
            assert near(pixel(image, state, cell), palette.line), cell
            assert near(pixel(image, state, cell, dx=off, dy=off), palette.board), cell
    else:
        for cell in empty:
            assert near(pixel(image, state, cell), palette.board), cell


@pytest.mark.parametrize(("name", "size"), GAME_SIZES)
def test_red_marks_the_last_move_and_captures_and_nothing_else(name, size):
    state = mid_game(name, size)
    image = decode(render.board_png(state)).convert("RGB")
    mark = render.colors(name, "dark").mark
    red = {cell for cell in state.board.cells if near(pixel(image, state, cell), mark)}
    assert red == set(state.last_change.placed) | set(marked_cells(state, Mark.CAPTURED))


#: Games whose moves take stones off the board, and what the picture calls it.
REMOVING = [("asli", Mark.CAPTURED), ("lifeline", Mark.REMOVED), ("sliglube", Mark.REMOVED)]


@pytest.mark.parametrize(("name", "mark"), REMOVING)
def test_a_stone_the_last_move_took_off_is_a_small_pale_ghost(name, mark):
    state = first_state(
        name, lambda s: any(s.stone_at(c) is None for c, _ in s.last_change.removed)
    )
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors(name, "dark")
    radius = render.board_layout(state).stone_radius
    ghosts = marked_cells(state, mark)
    assert ghosts
    for cell, color in ghosts.items():
        if state.stone_at(cell) is not None or cell in state.last_change.placed:
            continue
        # the ghost's colour inside (beside the × of a capture) ...
        assert near(pixel(image, state, cell, dx=0.4 * radius), palette.ghost[color]), cell
        # ... and the board where a stone's rim would be: half a stone's size at most
        for dx, dy in ((0.75, 0), (-0.75, 0), (0, 0.75), (0, -0.75)):
            seen = pixel(image, state, cell, dx=dx * radius, dy=dy * radius)
            assert not near(seen, palette.ghost[color]), cell
            assert not near(seen, palette.stones[color]), cell
    # pale: far closer to the board than to the stone it was
    for color, ghost in palette.ghost.items():
        stone = palette.stones[color]
        assert sum(abs(g - b) for g, b in zip(ghost, palette.board, strict=True)) < sum(
            abs(g - s) for g, s in zip(ghost, stone, strict=True)
        )


def test_a_capture_is_a_red_cross_over_the_ghost():
    state = first_state("asli", lambda s: bool(s.last_change.removed))
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors("asli")
    radius = render.board_layout(state).stone_radius
    for cell in marked_cells(state, Mark.CAPTURED):
        for d in (-0.3, 0.3):  # along both diagonals: a ×
            assert near(pixel(image, state, cell, dx=d * radius, dy=d * radius), palette.mark)
            assert near(pixel(image, state, cell, dx=d * radius, dy=-d * radius), palette.mark)


def test_a_flipped_stone_shows_its_former_colour_in_its_middle():
    state = first_state("sliglube", lambda s: bool(s.last_change.flipped))
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors("sliglube")
    radius = render.board_layout(state).stone_radius
    for cell in state.last_change.flipped:
        now = state.stone_at(cell)
        before = "white" if now == "black" else "black"
        assert near(pixel(image, state, cell), palette.stones[before]), cell
        assert near(pixel(image, state, cell, dx=0.7 * radius), palette.stones[now]), cell
        assert not near(pixel(image, state, cell), palette.mark)  # not the last move's red


def test_astralis_bonus_stones_wear_a_ring_and_captured_ones_a_cross():
    palette = render.colors("astralis")
    bonus = first_state("astralis", lambda s: bool(s.last_change.added), size=7)
    assert bonus is not None
    image = decode(render.board_png(bonus)).convert("RGB")
    radius = render.board_layout(bonus).stone_radius
    for cell in bonus.last_change.added:
        ring = [pixel(image, bonus, cell, dx=radius * k / 20) for k in range(11, 16)]
        assert any(near(p, palette.mark) for p in ring), cell
        assert not near(pixel(image, bonus, cell), palette.mark), cell
    state = first_state("astralis", lambda s: bool(s.last_change.flipped), size=7)
    assert state is not None
    image = decode(render.board_png(state)).convert("RGB")
    for cell in state.last_change.flipped:
        assert near(pixel(image, state, cell), palette.mark), cell
        assert not any(
            near(pixel(image, state, cell, dx=radius * k / 20), palette.mark) for k in range(13, 16)
        ), cell


def test_themes_differ_around_the_board_but_not_on_it():
    state = mid_game("asli", 9)
    dark = decode(render.board_png(state, theme="dark")).convert("RGB")
    light = decode(render.board_png(state, theme="light")).convert("RGB")
    assert dark.getpixel((2, 2)) != light.getpixel((2, 2))
    for theme, image in (("dark", dark), ("light", light)):
        assert near(image.getpixel((2, 2)), render.colors("asli", theme).background)
        cell = next(iter(stones(state)))
        assert near(
            pixel(image, state, cell), render.colors("asli", theme).stones[state.stone_at(cell)]
        )


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


def test_sliglube_outlines_each_link_in_the_colours_of_its_loops_controllers():
    # a position with loops of each kind: Black's, White's and one both control
    state = random_states("sliglube", 16, size=6)[72]
    assert len({state.loop_controllers(loop) for loop in state.loops()}) == 3
    image = decode(render.board_png(state)).convert("RGB")
    palette = render.colors("sliglube", "dark")
    unit = render.board_layout(state).unit
    owners: dict[frozenset[str], set[str]] = {}
    for loop in state.loops():
        for pair in zip(loop, loop[1:] + loop[:1], strict=True):
            owners.setdefault(frozenset(pair), set()).update(state.loop_controllers(loop))
    board = state.board
    occupied = sorted(board.index(cell) for cell in stones(state))
    seen_both = False
    for k, a in enumerate(occupied):
        for b in occupied[k + 1 :]:
            if not board.adjacent(a, b):
                continue
            (xa, ya), (xb, yb) = (render.cell_center(state, board.name(i)) for i in (a, b))
            length = ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5
            # the middle of each half of a strand (a thin one: see the legibility tests)
            across = (-(yb - ya) / length * 0.03 * unit, (xb - xa) / length * 0.03 * unit)
            sides = [
                image.getpixel(
                    (int((xa + xb) / 2 + s * across[0]), int((ya + yb) / 2 + s * across[1]))
                )
                for s in (-1, 1)
            ]
            drawn = {
                color
                for color, rgb in palette.stones.items()
                if any(near(side, rgb) for side in sides)
            }
            expected = owners.get(frozenset((board.name(a), board.name(b))), set())
            assert drawn == expected, (board.name(a), board.name(b))
            seen_both |= len(expected) == 2
    assert seen_both
