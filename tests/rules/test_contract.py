"""Properties every game must have, checked over random games on small boards.

They run for every game in ``rules.GAMES``, at the option sets listed in SMALL
(every opening of Lifeline).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import IllegalMove, State

SMALL: dict[str, list[dict]] = {
    "lifeline": [
        {"size": 3, "opening": "strong-pie"},
        {"size": 4, "opening": "weak-pie"},
        {"size": 4, "opening": "komi-pie"},
    ],
    "asli": [{"size": 5}],
    "sliglube": [{"size": 5}],
    "astralis": [{"size": 7}],
}

#: A generous cap on plies: a random game that has not ended by then is a bug.
MAX_PLIES = 3000

CASES = [
    pytest.param(name, options, id=f"{name}-{'-'.join(str(v) for v in options.values())}")
    for name, option_sets in SMALL.items()
    for options in option_sets
]


def snapshot(state: State) -> tuple:
    """Everything a player can see of a position."""
    return (
        state.history,
        state.to_move,
        state.is_over,
        state.winner,
        state.result,
        tuple(state.stone_at(cell) for cell in state.board.cells),
        state.color_of(0),
        state.color_of(1),
    )


def random_game(data: st.DataObject, name: str, options: dict) -> list[State]:
    game = rules.get_game(name)
    state = game.new(**options)
    states = [state]
    while not state.is_over:
        assert state.ply < MAX_PLIES, "random game did not end"
        moves = state.legal_moves()
        assert moves, "a game that is not over must offer a move"
        state = state.play(data.draw(st.sampled_from(moves)))
        states.append(state)
    return states


@pytest.mark.parametrize(("name", "options"), CASES)
@given(data=st.data())
def test_random_games_end_and_replay(name, options, data):
    states = random_game(data, name, options)
    final = states[-1]
    assert final.to_move is None
    assert final.legal_moves() == []
    assert final.result
    assert final.winner in (0, 1, None)
    if final.winner is None:
        assert name == "asli", "only Asli can end in a draw"
    replayed = rules.get_game(name).replay(final.history, **options)
    assert snapshot(replayed) == snapshot(final)
    # states are immutable: the first one is still the empty start
    assert states[0].history == ()


@pytest.mark.parametrize(("name", "options"), CASES)
@given(data=st.data())
def test_every_listed_move_plays_and_round_trips(name, options, data):
    states = random_game(data, name, options)
    for state in states[:: max(1, len(states) // 6)]:
        moves = state.legal_moves()
        assert len(moves) == len(set(moves))
        for move in data.draw(st.lists(st.sampled_from(moves), max_size=8)) if moves else []:
            after = state.play(move)
            assert after.history == (*state.history, move)
            # notation is forgiving on input and canonical on output
            sloppy = "  " + move.upper().replace(" ", " ,  ") + " "
            assert snapshot(state.play(sloppy)) == snapshot(after)


GARBAGE = [
    "", "   ", "zz99", "a0", "swapp", "komi", "komi -1", "c3 c3 c3", "hold me", "🙂", "pass pass",
]


@pytest.mark.parametrize(("name", "options"), CASES)
@given(data=st.data(), text=st.one_of(st.sampled_from(GARBAGE), st.text(max_size=12)))
def test_illegal_moves_change_nothing(name, options, data, text):
    states = random_game(data, name, options)
    state = data.draw(st.sampled_from(states))
    before = snapshot(state)
    if text.strip() and " ".join(text.replace(",", " ").lower().split()) in state.legal_moves():
        return
    with pytest.raises(IllegalMove) as caught:
        state.play(text)
    assert str(caught.value), "the refusal must say why"
    assert snapshot(state) == before


@pytest.mark.parametrize("name", sorted(SMALL))
def test_registered_with_the_contract(name):
    game = rules.get_game(name.upper())
    assert game.name == name and game.title
    assert {option.name for option in game.options()} >= {"size"}
    with pytest.raises(rules.OptionError):
        game.new(size=99)
    with pytest.raises(rules.OptionError):
        game.new(colour="green")
    state = game.new()
    assert state.ply == 0 and not state.is_over and state.to_move == 0
    assert state.prompt
    with pytest.raises(ValueError):
        state.stone_at("zz9")


def test_every_game_is_covered():
    assert set(SMALL) == set(rules.GAMES)


def test_unknown_game():
    with pytest.raises(rules.UnknownGame):
        rules.get_game("chess")
