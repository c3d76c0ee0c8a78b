"""A record pasted on one line (a slash command's option has no line breaks): tags, then
moves numbered, separated by commas, or by spaces alone."""

from __future__ import annotations

import random

import pytest

import rules
from rules.record import Record, RecordError, format_record, parse_line, replay_record

GAMES = [
    ("asli", {"size": 5}),
    ("lifeline", {"size": 4}),
    ("lifeline", {"size": 4, "opening": "komi-pie"}),
    ("sliglube", {"size": 5}),
    ("astralis", {"size": 7}),
]


def finished(game: str, options: dict, seed: int) -> Record:
    state = rules.get_game(game).new(**options)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return Record.from_state(state, ["Ann", "Bob"])


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_our_own_export_pasted_on_one_line_reads_back(game: str, options: dict) -> None:
    record = finished(game, options, 3)
    pasted = format_record(record).replace("\n", " ")
    assert "\n" not in pasted
    read = parse_line(pasted)
    assert read.moves == record.moves and read.players == record.players
    assert replay_record(read).outcome == replay_record(record).outcome


@pytest.mark.parametrize(("game", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_moves_separated_by_spaces_alone_are_split_by_the_rules(
    game: str, options: dict, seed: int
) -> None:
    """Astralis moves may be one cell or two (``e7``, ``e7 d6``), Asli's komi two words:
    the reading that makes every move legal is found."""
    record = finished(game, options, seed)
    tags = " ".join(f'[{name} "{value}"]' for name, value in options.items())
    assert parse_line(f"{tags} {' '.join(record.moves)}", game=game).moves == record.moves


def test_moves_separated_by_commas_or_numbers() -> None:
    assert parse_line('[Game "Asli"] [Size "5"] komi 3, white, c3, hold').moves == (
        "komi 3",
        "white",
        "c3",
        "hold",
    )
    assert parse_line("1. komi 3 2. white 3. c3", game="asli").moves == ("komi 3", "white", "c3")


def test_the_game_comes_from_a_tag_or_the_caller_and_they_must_agree() -> None:
    with pytest.raises(RecordError, match="does not say which game"):
        parse_line("c3 d4")
    assert parse_line("c3", game="sliglube").game == "sliglube"
    with pytest.raises(RecordError, match="a game of Asli, not of Sliglube"):
        parse_line('[Game "Asli"] c3', game="sliglube")


def test_an_illegal_move_is_left_for_the_replay_to_name() -> None:
    read = parse_line('[Game "Sliglube"] [Size "5"] c3 white c3', game="sliglube")
    with pytest.raises(rules.IllegalMove, match="move 3"):
        replay_record(read)
