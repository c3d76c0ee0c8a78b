"""The caption band says which move was played, whose turn it is (colour and
name), each game's own facts, and the result at the end."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import render
import rules
from render.caption import Swatch, Text, caption_lines
from tests.render.helpers import random_states


def text(line) -> str:
    return "".join(seg.text for seg in line if isinstance(seg, Text))


def swatches(line) -> list[str]:
    return [seg.color for seg in line if isinstance(seg, Swatch)]


def test_the_player_to_move_is_named_with_their_colour():
    state = rules.get_game("asli").replay(["komi 3", "white", "c3"], size=5)
    # seat 1 chose White, so seat 0 (Ann) plays Black and White (Bob) is to move
    _, status, _ = caption_lines(state, {0: "Ann", 1: "Bob"})
    assert "White to move" in text(status) and "Bob" in text(status)
    assert swatches(status) == ["white"]


def test_a_hold_is_shown_as_such_with_the_prison_that_is_left():
    state = rules.get_game("asli").replay(["komi 3", "white", "c3", "hold"], size=5)
    move, _, facts = caption_lines(state)
    assert "move 4" in text(move)
    assert "Hold (White released one black prisoner)" in text(move)
    assert "2 black stones" in text(facts) and "White may hold 2 times" in text(facts)
    assert swatches(facts) == ["black"]


def test_an_undecided_colour_names_the_seat_and_what_it_must_do():
    state = rules.get_game("asli").replay(["komi 3"], size=5)
    _, status, _ = caption_lines(state, {0: "Ann", 1: "Bob"})
    assert text(status).startswith("Bob to move: ")
    assert state.prompt in text(status)


def test_lifeline_komi_left_is_shown():
    state = rules.get_game("lifeline").replay(["komi 4", "white"], size=4,
                                              opening="komi-pie")
    move, _, facts = caption_lines(state)
    assert "komi pie" in text(move)
    assert text(facts).startswith("Komi left:  White 4")
    assert swatches(facts) == ["white"]


def test_astralis_scores_include_cyans_komi():
    state = random_states("astralis", 1, size=7)[30]
    _, _, facts = caption_lines(state)
    yellow, cyan = state.score("yellow"), state.score("cyan")
    assert f"Yellow {yellow:g}" in text(facts)
    assert f"Cyan {cyan:g} ({state.territory('cyan')} + 3.5 komi)" in text(facts)


def test_sliglube_counts_the_stones_on_the_loops_it_outlines():
    state = next(s for s in random_states("sliglube", 1, size=5) if len(s.loops()) > 1)
    _, _, facts = caption_lines(state)
    on_loops = {cell for loop in state.loops() for cell in loop}
    black = sum(state.stone_at(cell) == "black" for cell in on_loops)
    assert text(facts) == (f"Loops outlined: {len(on_loops)} stones on them"
                           f"  ({black} black, {len(on_loops) - black} white)")


def test_sliglube_without_loops_says_so():
    state = rules.get_game("sliglube").replay(["d4", "white", "c3"], size=5)
    _, _, facts = caption_lines(state)
    assert text(facts) == "No loops on the board"


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_a_finished_game_shows_the_result_and_the_winner(name):
    final = random_states(name, 5, size=min(o.minimum for o in rules.get_game(name).options()
                                              if o.name == "size"))[-1]
    _, status, _ = caption_lines(final, {0: "Ann", 1: "Bob"})
    assert final.result in text(status)
    if final.winner is not None:
        assert f"({('Ann', 'Bob')[final.winner]} wins)" in text(status)


def test_a_line_too_long_for_the_picture_shrinks_only_until_it_fits():
    state = random_states("astralis", 1, size=8)[1]  # Cyan's prompt is long
    image = render.board_image(state, names={0: "Ann", 1: "Bartholomew Longname"})
    lay = render.board_layout(state)
    step = round(lay.caption_size * 1.4)
    pad = (lay.caption_height - 3 * step) // 2
    band = image.crop((0, pad + step, lay.width, pad + 2 * step))  # the status line
    background = Image.new("RGB", band.size, render.colors("astralis").background)
    left, _, right, _ = ImageChops.difference(band, background).getbbox()
    assert left >= pad - 2 and right <= lay.width - pad + 2  # it fits...
    assert right > 0.9 * lay.width  # ...and still uses the width, in a readable size
