"""The fast loop search against a slow, obviously correct one.

The slow one tries every subset of the stones: a loop is a connected set of
six or more stones in which every stone touches exactly two others.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.sliglube_loops import (
    HexGrid,
    LoopsThrough,
    all_loops,
    any_through,
    bits,
    control_through,
    links_on_loops,
    loop_core,
    loop_core_with,
    loops_through,
    on_loop,
    stones_on_loops,
    touching_loops,
    union_through,
)


def brute_force_loops(grid: HexGrid, stones: int) -> set[int]:
    members = list(bits(stones))
    found = set()
    for choice in range(1 << len(members)):
        if choice.bit_count() < 6:
            continue
        ring = sum(1 << members[i] for i in range(len(members)) if choice >> i & 1)
        if any((grid.nb[p] & ring).bit_count() != 2 for p in bits(ring)):
            continue
        reached = ring & -ring
        while (bigger := grid.grow(reached) & ring) != reached:
            reached = bigger
        if reached == ring:
            found.add(ring)
    return found


def controlled(loop: int, plus: int) -> bool:
    return 2 * (loop & plus).bit_count() >= loop.bit_count()


def union(loops) -> int:
    out = 0
    for loop in loops:
        out |= loop
    return out


#: No limit (the pruned search alone), 0 (the state graph alone), and a few
#: path extensions (the search gives up and the state graph finishes).
BUDGETS = (None, 0, 3)


@st.composite
def positions(draw):
    """A small board with up to 14 stones (so that brute force stays quick),
    a random owner for each, and one stone to search through."""
    grid = HexGrid.of(draw(st.sampled_from([3, 4])))
    cells = list(bits(grid.cells))
    chosen = draw(st.lists(st.sampled_from(cells), min_size=6, max_size=14, unique=True))
    stones = sum(1 << p for p in chosen)
    plus = sum(1 << p for p in chosen if draw(st.booleans()))
    return grid, stones, plus, draw(st.sampled_from(chosen))


@given(positions())
def test_every_search_agrees_with_brute_force(position):
    grid, stones, plus, v = position
    truth = brute_force_loops(grid, stones)
    found = all_loops(grid, stones)
    assert len(found) == len(set(found)) and set(found) == truth
    assert union(truth) & ~loop_core(grid, stones) == 0
    for p in bits(grid.cells & ~stones):
        assert loop_core_with(grid, stones, loop_core(grid, stones), p) == loop_core(
            grid, stones | 1 << p
        )
    through = {loop for loop in truth if loop >> v & 1}
    assert set(loops_through(grid, v, stones)) == through
    mine = [loop for loop in through if controlled(loop, plus)]
    others = [loop for loop in through if controlled(loop, stones & ~plus)]
    wanted = plus & ~(1 << v)
    for budget in BUDGETS:  # the pruned search, the state graph, and a switch between them
        assert union_through(grid, v, stones, plus, budget=budget) == union(mine)
        assert union_through(grid, v, stones, budget=budget) == union(through)
        assert any_through(grid, v, stones, plus, budget=budget) == bool(mine)
        assert any_through(grid, v, stones, wanted=wanted, budget=budget) == any(
            loop & wanted for loop in through
        )
        if budget is not None and loop_core(grid, stones) >> v & 1:
            assert control_through(grid, v, loop_core(grid, stones), plus, stones & ~plus, budget)[
                :2
            ] == (bool(others), union(mine))
    empty = grid.cells & ~stones
    held = union(loop for loop in truth if controlled(loop, plus))
    assert touching_loops(grid, stones, empty, plus) == grid.grow(held) & empty


def links(grid: HexGrid, loop: int) -> set[tuple[int, int]]:
    return {(u, v) for u in bits(loop) for v in bits(grid.nb[u] & loop) if u < v}


@given(positions())
def test_stones_and_links_on_loops_agree_with_brute_force(position):
    grid, stones, _, v = position
    truth = brute_force_loops(grid, stones)
    assert on_loop(grid, v, stones) == any(loop >> v & 1 for loop in truth)
    assert stones_on_loops(grid, stones) == union(truth)
    assert set(links_on_loops(grid, stones)) == set().union(*(links(grid, loop) for loop in truth))


@st.composite
def crowded_positions(draw):
    """A base-4 board more than half full: too many stones for brute force,
    enough for the pruned searches to meet the same paths again and again."""
    grid = HexGrid.of(4)
    cells = list(bits(grid.cells))
    chosen = draw(st.lists(st.sampled_from(cells), min_size=18, max_size=27, unique=True))
    stones = sum(1 << p for p in chosen)
    plus = sum(1 << p for p in chosen if draw(st.booleans()))
    return grid, stones, plus, draw(st.sampled_from(chosen))


@given(crowded_positions())
def test_pruned_searches_agree_with_the_plain_listing_on_crowded_boards(position):
    """The control bound, the goal and the transposition table only skip work:
    every answer equals the one read off the plain listing of all loops."""
    grid, stones, plus, v = position
    every = all_loops(grid, stones)
    through = [loop for loop in every if loop >> v & 1]
    for side in (plus, stones & ~plus):
        mine = [loop for loop in through if controlled(loop, side)]
        wanted = side & ~(1 << v)
        for budget in BUDGETS:
            assert union_through(grid, v, stones, side, budget=budget) == union(mine)
            assert any_through(grid, v, stones, side, budget=budget) == bool(mine)
            assert any_through(grid, v, stones, side, wanted, budget=budget) == any(
                loop & wanted for loop in mine
            )
        held = union(loop for loop in every if controlled(loop, side))
        empty = grid.cells & ~stones
        assert touching_loops(grid, stones, empty, side) == grid.grow(held) & empty
    assert union_through(grid, v, stones) == union(through)
    if loop_core(grid, stones) >> v & 1:
        graph = LoopsThrough(grid, v, loop_core(grid, stones))
        avoid = stones & ~plus & ~(1 << v) & (stones >> 1)  # some stones, not v
        kept = [loop for loop in through if not loop & avoid]
        for side in (plus, stones & ~plus):
            assert graph.balance(side, avoid) == max(
                (2 * (loop & side).bit_count() - loop.bit_count() for loop in kept), default=None
            )


@pytest.mark.parametrize(("base", "count"), [(2, 1), (3, 82), (4, 10257)])
def test_full_boards(base, count):
    """Every cell a stone: the number of rings grows fast (one on the seven
    cells of base 2, the ring around the centre)."""
    grid = HexGrid.of(base)
    loops = all_loops(grid, grid.cells)
    assert len(loops) == count
    assert stones_on_loops(grid, grid.cells) == union(loops)
    assert set(links_on_loops(grid, grid.cells)) == set().union(
        *(links(grid, loop) for loop in loops)
    )


def test_ring_order_walks_the_ring_from_its_first_cell():
    grid = HexGrid.of(5)
    board = grid.board
    ring = grid.mask(board.index(c) for c in ("b2", "b3", "c2", "c4", "d3", "d4"))
    (loop,) = all_loops(grid, ring)
    assert [board.name(i) for i in grid.ring_order(loop)] == ["b2", "b3", "c4", "d4", "d3", "c2"]


def test_a_triangle_and_a_filled_hexagon_are_no_single_loop():
    grid = HexGrid.of(5)
    board = grid.board
    triangle = grid.mask(board.index(c) for c in ("c3", "c4", "d4"))
    assert all_loops(grid, triangle) == [] and loop_core(grid, triangle) == 0
    flower = grid.mask(board.index(c) for c in ("b2", "b3", "c2", "c3", "c4", "d3", "d4"))
    # with its centre filled in, only the outer ring of the flower is a loop
    assert all_loops(grid, flower) == [flower & ~grid.mask([board.index("c3")])]
