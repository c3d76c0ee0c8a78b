"""Hints on the board (``marks=True``): drawn exactly where ``legal_moves()``
says the player to move may play; Sliglube's forbidden cells in every picture."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PIL import ImageChops

import render
import rules
from tests.render.helpers import near, pixel, random_states


def cells_of(state: rules.State) -> tuple[set[str], set[str]]:
    """(cells named first in a legal move, cells named after the first)."""
    first: set[str] = set()
    then: set[str] = set()
    for move in state.legal_moves():
        words = [w for w in move.split() if w in state.board]
        first.update(words[:1])
        then.update(words[1:])
    return first, then


def differing(state: rules.State, a, b) -> set[str]:
    """The cells around whose middle pictures ``a`` and ``b`` differ."""
    lay = render.board_layout(state)
    r = int(0.5 * lay.stone_radius)
    diff = ImageChops.difference(a, b)
    out = set()
    for cell in state.board.cells:
        x, y = (int(c) for c in render.cell_center(state, cell))
        if diff.crop((x - r, y - r, x + r + 1, y + r + 1)).getbbox():
            out.add(cell)
    return out


@pytest.mark.parametrize(
    ("name", "ply"),
    [("asli", 30), ("lifeline", 12), ("lifeline", 1), ("sliglube", 25), ("astralis", 20)],
)
def test_hints_stand_exactly_where_legal_moves_go(name, ply):
    state = random_states(
        name, 3, size=min(o.minimum for o in rules.get_game(name).options() if o.name == "size") + 1
    )[ply]
    assert not state.is_over
    plain = render.board_image(state)
    hinted = render.board_image(state, marks=True)
    first, then = cells_of(state)
    assert differing(state, plain, hinted) == first | then
    mover = render.colors(name).stones[state.color_to_move]
    for cell in then if name == "astralis" else first:  # a diamond of the mover's colour
        assert near(pixel(hinted.convert("RGB"), state, cell), mover), cell
    caption = " ".join(render.caption_text(state, marks=True))
    assert "may place" in caption
    assert ("pawn can go" in caption) == (name == "astralis")


def test_hints_can_be_placements_anywhere_before_colours_are_chosen():
    state = rules.get_game("sliglube").new(size=5)
    hinted = render.board_image(state, marks=True)
    assert differing(state, render.board_image(state), hinted) == set(state.board.cells)


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_no_hints_once_the_game_has_ended(name):
    states = random_states(
        name, 4, size=min(o.minimum for o in rules.get_game(name).options() if o.name == "size")
    )
    final, going = states[-1], states[len(states) // 2]
    assert final.is_over and not going.is_over
    assert render.board_image(final, marks=True) == render.board_image(final)
    resigned = SimpleNamespace(text="Yellow wins: Cyan resigned")
    assert render.board_image(going, marks=True, outcome=resigned) == render.board_image(
        going, outcome=resigned
    )


def test_sliglube_tints_the_cells_where_the_player_to_move_may_not_place():
    # a position in which the mover controls a loop: cells next to it are forbidden
    state = next(
        s
        for s in random_states("sliglube", 1, size=6)
        if s.ply > 2
        and not s.is_over
        and any(s.color_to_move in s.loop_controllers(loop) for loop in s.loops())
    )
    image = render.board_image(state).convert("RGB")
    tint = render.colors("sliglube").tint["forbidden"]
    allowed, _ = cells_of(state)
    empty = {cell for cell in state.board.cells if state.stone_at(cell) is None}
    radius = render.board_layout(state).stone_radius
    tinted = {cell for cell in empty if near(pixel(image, state, cell, dx=0.6 * radius), tint)}
    assert tinted == empty - allowed
    next_to_own = {
        state.board.name(n)
        for loop in state.loops()
        if state.color_to_move in state.loop_controllers(loop)
        for cell in loop
        for n in state.board.neighbours[state.board.index(cell)]
    }
    assert tinted >= (next_to_own & empty) - set().union(*state.loops())
    assert tinted and "may not place" in " ".join(render.caption_text(state))
