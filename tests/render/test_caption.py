"""The caption band says which move was played, whose turn it is (colour and
name), each game's own facts, the result at the end (however the game ended),
and a legend of the marks."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

import render
import rules
import rules.astralis
import rules.outcome
from render import text as text_module
from render.caption import Swatch, Text, caption_lines
from tests.render.helpers import first_state, random_states


def text(line) -> str:
    return "".join(seg.text for seg in line if isinstance(seg, Text))


def swatches(line) -> list[str]:
    return [seg.color for seg in line if isinstance(seg, Swatch)]


def test_the_player_to_move_is_named_with_their_colour():
    state = rules.get_game("asli").replay(["komi 3", "white", "c3"], size=5)
    # seat 1 chose White, so seat 0 (Ann) plays Black and White (Bob) is to move
    _, status, _, _ = caption_lines(state, {0: "Ann", 1: "Bob"})
    assert "White to move" in text(status) and "Bob" in text(status)
    assert swatches(status) == ["white"]


def test_a_hold_is_shown_as_such_with_the_prison_that_is_left():
    state = rules.get_game("asli").replay(["komi 3", "white", "c3", "hold"], size=5)
    move, _, facts, _ = caption_lines(state)
    assert "move 4" in text(move)
    assert "Hold (White released one black prisoner)" in text(move)
    assert "2 black stones" in text(facts) and "White may hold 2 times" in text(facts)
    assert swatches(facts) == ["black"]


def test_an_undecided_colour_names_the_seat_and_what_it_must_do():
    state = rules.get_game("asli").replay(["komi 3"], size=5)
    _, status, _, _ = caption_lines(state, {0: "Ann", 1: "Bob"})
    assert text(status).startswith("Bob to move: ")
    assert state.prompt in text(status)


def test_lifeline_komi_left_is_shown():
    state = rules.get_game("lifeline").replay(["komi 4", "white"], size=4, opening="komi-pie")
    move, _, facts, _ = caption_lines(state)
    assert "komi pie" in text(move)
    assert text(facts).startswith("Komi left:  White 4")
    assert swatches(facts) == ["white"]


def test_without_facts_of_its_own_the_caption_names_the_players():
    state = rules.get_game("lifeline").replay(["c3 e5"], size=4)
    _, _, facts, _ = caption_lines(state, {0: "Ann", 1: "Bob"})
    assert text(facts) == " Black: Ann    White: Bob"
    assert swatches(facts) == ["black", "white"]


def test_astralis_scores_include_cyans_komi():
    state = random_states("astralis", 1, size=7)[30]
    _, _, facts, _ = caption_lines(state)
    yellow, cyan = state.score("yellow"), state.score("cyan")
    assert f"Yellow {yellow:g}" in text(facts)
    assert f"Cyan {cyan:g} ({state.territory('cyan')} + 3.5 komi)" in text(facts)


def test_astralis_komi_comes_from_the_rules(monkeypatch):
    monkeypatch.setattr(rules.astralis, "KOMI", 5.5)
    state = random_states("astralis", 1, size=7)[30]
    _, _, facts, _ = caption_lines(state)
    assert f"({state.territory('cyan')} + 5.5 komi)" in text(facts)


def test_sliglube_says_where_the_mover_may_place_not_how_many_loops():
    # late in a game the loops are countless ("Loops: 3923"): the caption gives the
    # count that decides the game instead, the cells the mover may place on
    states = random_states("sliglube", 1, size=7)
    late = states[-2]
    assert len(late.loops()) > 1000 and not late.is_over
    _, _, facts, _ = caption_lines(late)
    cells = {move.split()[0] for move in late.legal_moves()}
    empty = sum(1 for cell in late.board.cells if late.stone_at(cell) is None)
    mover = late.color_to_move.capitalize()
    word = "cell" if len(cells) == 1 else "cells"
    assert text(facts).strip() == f"{mover} may place on {len(cells)} of {empty} empty {word}"
    assert swatches(facts) == [late.color_to_move]
    assert "Loops" not in " ".join(render.caption_text(late))
    # and at the end, the result says it all: the players are named instead
    rows = render.caption_text(states[-1], names={0: "Ann", 1: "Bob"})
    assert "may place" not in " ".join(rows) and "Ann" in rows[-1] and "Bob" in rows[-1]


def test_sliglube_without_loops_says_where_the_mover_may_place():
    state = rules.get_game("sliglube").replay(["d4", "white", "c3"], size=5)
    _, _, facts, _ = caption_lines(state)
    assert text(facts).strip() == "Black may place on 59 of 59 empty cells"


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_a_finished_game_shows_the_result_and_the_winner(name):
    final = random_states(
        name, 5, size=min(o.minimum for o in rules.get_game(name).options() if o.name == "size")
    )[-1]
    rows = render.caption_text(final, names={0: "Ann", 1: "Bob"})
    status = " ".join(rows[1:3])  # a long result wraps onto the next row
    assert status.startswith(final.result)
    if final.winner is not None:
        assert f"({('Ann', 'Bob')[final.winner]} wins)" in status
    assert "to move" not in " ".join(rows)


@pytest.mark.parametrize("name", sorted(rules.GAMES))
def test_a_game_the_bot_ended_says_how_even_if_the_position_goes_on(name):
    state = random_states(
        name, 2, size=min(o.minimum for o in rules.get_game(name).options() if o.name == "size")
    )[6]
    assert not state.is_over
    seat = state.to_move
    ending = SimpleNamespace(text="Cyan wins: Yellow resigned", winner=1 - seat)
    rows = render.caption_text(state, names={0: "Ann", 1: "Bob"}, outcome=ending)
    assert rows[1] == f"Cyan wins: Yellow resigned  ({('Ann', 'Bob')[1 - seat]} wins)"
    assert "to move" not in " ".join(rows)
    # an object with only the sentence will do (an abort has no winner)
    rows = render.caption_text(state, outcome=SimpleNamespace(text="Aborted"))
    assert rows[1] == "Aborted"
    # and the picture differs from the one of a game going on
    assert render.board_png(state, outcome=ending) != render.board_png(state)


def test_a_legend_names_each_kind_of_mark_shown():
    state = first_state(
        "sliglube", lambda s: bool(s.last_change.flipped) and bool(s.last_change.removed)
    )
    assert state is not None
    caption = " ".join(render.caption_text(state))
    assert "flipped" in caption and "removed" in caption
    plain = rules.get_game("sliglube").replay(["d4", "white", "c3"], size=5)
    assert not any(
        word in " ".join(render.caption_text(plain))
        for word in ("flipped", "removed", "captured", "bonus")
    )


def test_a_line_too_long_for_the_picture_wraps_at_full_size_and_never_spills():
    names = {0: "Ann", 1: "Bartholomew Longname-Featherstonehaugh"}
    state = random_states("astralis", 1, size=8)[3]  # Cyan's prompt is long
    rows = render.caption_text(state, names=names)
    lay = render.board_layout(state)
    room = lay.width - 2 * lay.pad
    assert len(rows) == 4
    for row in rows:  # a swatch "●" is about as wide as drawn
        assert text_module.length(row, lay.caption_size) <= room
    # the status goes on onto the next row, at the same size
    status = f"● Cyan to move ({names[1]}): {state.prompt}"
    assert " ".join(rows[1:3]).startswith(status[:60])


def test_what_the_move_did_in_words_for_the_post():
    asli = first_state("asli", lambda s: bool(s.last_change.removed))
    colors = {color for _, color in asli.last_change.removed}
    count = len(asli.last_change.removed)
    (color,) = colors
    assert (
        render.change_summary(asli) == f"captured {count} {color} stone{'s' if count > 1 else ''}"
    )
    sliglube = first_state(
        "sliglube", lambda s: bool(s.last_change.flipped) and bool(s.last_change.removed)
    )
    # the rules' order: the loops' enemy stones flip, then the mover's stones go
    flipped = len(sliglube.last_change.flipped)
    (enemy,) = {c for c in sliglube.game.colors if c != sliglube.color_of(1 - sliglube.to_move)}
    summary = render.change_summary(sliglube)
    assert summary.startswith(f"flipped {flipped} {enemy} stone{'s' if flipped > 1 else ''}, then ")
    assert ", then removed " in summary
    astralis = first_state("astralis", lambda s: bool(s.last_change.added), size=7)
    assert render.change_summary(astralis).endswith(
        f"bonus stone{'s' if len(astralis.last_change.added) > 1 else ''} at "
        f"{', '.join(astralis.last_change.added)}"
    )
    assert render.change_summary(rules.get_game("asli").replay(["komi 1"], size=5)) == ""


#: Display names as members have them: every script, emoji, mixed case.
NAMES = ["Ωmega Ünïcødé", "McGregor", "李小龍", "zoë🐉", "مريم", "अर्जुन"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_is_drawn_exactly_as_written_while_colours_are_undecided(name):
    # Sliglube: the first player places a black stone, then the second chooses a colour
    start = rules.get_game("sliglube").new(size=5)
    rows = render.caption_text(start, names={0: name, 1: "Bob"})
    assert rows[1].startswith(f"{name} to move: ")
    choosing = start.play("e2")
    rows = render.caption_text(choosing, names={0: "Ann", 1: name})
    assert rows[1].startswith(f"{name} to move: ")
    # Asli: the second player chooses a colour after the komi
    asli = rules.get_game("asli").replay(["komi 3"], size=5)
    assert render.caption_text(asli, names={0: "Ann", 1: name})[1].startswith(f"{name} to move")


@pytest.mark.parametrize("name", NAMES)
def test_a_name_is_drawn_exactly_as_written_with_a_colour_and_at_the_end(name):
    state = rules.get_game("lifeline").replay(["c3 e5"], size=5)
    rows = render.caption_text(state, names={0: "Ann", 1: name})
    assert f"White to move ({name})" in rows[1]
    final = random_states("sliglube", 5, size=5)[-1]
    winner = final.winner
    names = {winner: name, 1 - winner: "Ann"}
    assert f"({name} wins)" in " ".join(render.caption_text(final, names=names))


def test_the_winner_is_named_once_when_the_result_names_them():
    # resigning before the colours are chosen: the bot's sentence names the players
    state = rules.get_game("sliglube").replay(["e2"], size=5)
    ending = dataclasses.replace(
        rules.outcome.resigned(state, 1), text="boardbot wins: 李小龍 resigned"
    )
    rows = render.caption_text(state, names={0: "boardbot", 1: "李小龍"}, outcome=ending)
    assert rows[1] == "boardbot wins: 李小龍 resigned"
    # a sentence in colours still names the winner, once
    state = rules.get_game("lifeline").replay(["c3 e5"], size=5)
    ending = rules.outcome.resigned(state, 1)
    rows = render.caption_text(state, names={0: "Ann", 1: "Bob"}, outcome=ending)
    assert rows[1] == "Black wins: White resigned  (Ann wins)"


#: An Astralis game (base 7) whose last move earned Yellow a bonus on k1, where
#: Cyan's pawn stands: the bonus waits (the guide's "Deferred bonus" page).
DEFERRED = (
    "a2 m6 a3,a2 j9,j10 a5,a6 e7,e8 h4,g5 h9,i8 d1,e2 h2,h3 b1,c1 h9,h10 f1,g1 h5 "
    "h2,i1 k5,j6 l2,m1 k1 k3,j3"
)


@pytest.mark.parametrize("marks", [False, True])
@pytest.mark.parametrize(
    "names", [None, {0: "Ann", 1: "Bob"}, {0: "Ωmega Ünïcødé", 1: "李小龍 zoë🐉"}]
)
def test_an_astralis_caption_drops_the_example_before_any_fact(names, marks):
    state = rules.get_game("astralis").replay(
        [move.replace(",", " ") for move in DEFERRED.split()], size=7
    )
    assert state.deferred_bonuses == (("k1", "yellow"),)
    said = " ".join(render.caption_text(state, names=names, marks=marks))
    assert "…" not in said
    assert "bonus waiting" in said and "k1" in said
    assert "Cyan to move" in said and "move your pawn, then optionally place a stone" in said
    if marks:
        assert "pawn can go" in said


@pytest.mark.parametrize("size", [7, 8])
def test_astralis_boards_with_hints_say_everything_with_long_names(size):
    names = {0: "Ωmega Ünïcødé", 1: "Bartholomew McGregor"}
    for state in random_states("astralis", 3, size=size)[2:-1]:
        rows = render.caption_text(state, names=names, marks=True)
        said = " ".join(rows)
        assert "…" not in said, (state.ply, rows)
        assert state.prompt.split(" (e.g.")[0] in said, (state.ply, rows)
    # with room to spare, the example stays
    state = random_states("astralis", 3, size=size)[4]
    assert "(e.g. d4 e5)" in " ".join(render.caption_text(state))


def test_lifeline_komi_pie_boards_name_both_players():
    state = rules.get_game("lifeline").replay(["komi 4", "white"], size=5, opening="komi-pie")
    rows = render.caption_text(state, names={0: "Ωmega Ünïcødé", 1: "McGregor"})
    said = " ".join(rows)
    assert "Komi left" in said
    assert "Ωmega Ünïcødé" in said and "McGregor" in said and "…" not in said


def test_a_ring_that_says_what_it_marks_has_a_legend():
    state = rules.get_game("lifeline").replay(["c2 e4"], size=4)
    ringed = [render.Marked("a1", render.Mark.HIGHLIGHT, label="no empty neighbour")]
    assert "no empty neighbour" in " ".join(render.caption_text(state, extra=ringed))
