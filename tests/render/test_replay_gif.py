"""Animated replays: one frame for the start and one per move, the last held
longest, small enough for Discord, and the last frame shows the final position."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PIL import ImageChops

import render
import rules
from render.picture import to_palette
from tests.render.helpers import decode, near, pixel, random_states, sizes, stones

DISCORD_LIMIT = 10 * 1024 * 1024


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_a_full_random_game_replays_frame_by_frame(name):
    options = {"size": sizes(name)[0]}
    final = random_states(name, 2, **options)[-1]
    assert final.is_over
    moves = list(final.history)
    data = render.replay_gif(name, options, moves, names={0: "Ann", 1: "Bob"})
    assert len(data) < DISCORD_LIMIT / 10
    image = decode(data, "GIF")
    assert image.n_frames == len(moves) + 1
    assert image.size == render.image_size(final, scale=render.REPLAY_SCALE)
    first_duration = image.info["duration"]
    image.seek(image.n_frames - 1)
    assert image.info["duration"] > first_duration
    # the frames are stored as differences: the composed last frame is the final position
    last = image.convert("RGB")
    expected = to_palette(
        render.board_image(final, names={0: "Ann", 1: "Bob"}, scale=render.REPLAY_SCALE),
        rules.get_game(name),
        "dark",
    )
    assert ImageChops.difference(last, expected.convert("RGB")).getbbox() is None
    palette = render.colors(name, "dark")
    marked = {*final.last_change.placed, *final.last_change.flipped, *final.last_change.added}
    for cell, color in stones(final).items():
        if cell not in marked:
            seen = pixel(last, final, cell, scale=render.REPLAY_SCALE)
            assert near(seen, palette.stones[color]), (cell, color)


def test_the_first_frame_is_the_empty_start():
    moves = list(random_states("lifeline", 3, size=4)[-1].history)
    image = decode(render.replay_gif(rules.get_game("lifeline"), {"size": 4}, moves), "GIF")
    start = rules.get_game("lifeline").new(size=4)
    board = render.colors("lifeline").board
    first = image.convert("RGB")
    for cell in start.board.cells:
        assert near(pixel(first, start, cell, scale=render.REPLAY_SCALE), board), cell


def test_a_long_game_stays_well_under_the_upload_limit():
    states = random_states("asli", 4, size=13)
    moves = list(states[-1].history)
    assert len(moves) > 150
    data = render.replay_gif("asli", {"size": 13}, moves)
    assert len(data) < DISCORD_LIMIT / 3


def test_a_record_that_does_not_replay_is_refused_naming_the_move():
    with pytest.raises(rules.IllegalMove, match="move 2"):
        render.replay_gif("asli", {"size": 5}, ["komi 0", "c3 c3"])


def test_the_start_alone_is_a_one_frame_picture():
    image = decode(render.replay_gif("astralis", {"size": 7}, []), "GIF")
    assert getattr(image, "n_frames", 1) == 1


def test_the_last_frame_says_how_the_bot_ended_the_game():
    states = random_states("lifeline", 3, size=5)
    moves = list(states[12].history)  # a game going on, lost on time
    ending = SimpleNamespace(text="White wins: Black ran out of time", winner=1)
    names = {0: "Ann", 1: "Bob"}
    data = render.replay_gif("lifeline", {"size": 5}, moves, names=names, outcome=ending)
    image = decode(data, "GIF")
    image.seek(image.n_frames - 1)
    expected = to_palette(
        render.board_image(states[12], names=names, outcome=ending, scale=render.REPLAY_SCALE),
        rules.get_game("lifeline"),
        "dark",
    )
    assert ImageChops.difference(image.convert("RGB"), expected.convert("RGB")).getbbox() is None
    playing = to_palette(
        render.board_image(states[12], names=names, scale=render.REPLAY_SCALE),
        rules.get_game("lifeline"),
        "dark",
    )
    assert ImageChops.difference(expected.convert("RGB"), playing.convert("RGB")).getbbox()
