"""Properties every game must have, checked over random games on small boards.

They run for every game in ``rules.GAMES``, at the option sets of
``rules.testing.SMALL_OPTIONS`` (every opening of Lifeline).
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalMove, InvalidMove, Outcome, State
from rules.testing import SMALL_OPTIONS as SMALL
from rules.testing import registry_restored

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


def check_decisions(name: str, states: list[State]) -> None:
    """Every decision offered along a game is a legal move (a number form: as
    many legal moves), and none is offered once the game is over."""
    offered = 0
    for state in states[:-1]:
        legal = state.legal_moves()
        for decision in state.decisions():
            offered += 1
            assert decision.label and len(decision.label) <= 40
            assert (decision.move is None) != (decision.number is None)
            if decision.move is not None:
                assert decision.move in legal
            else:
                choice = decision.number
                assert len(choice.question) <= 45
                numbers = range(choice.minimum, choice.maximum + 1)
                assert [choice.move(n) for n in numbers] == [
                    move for move in legal if move.startswith(choice.template.split("{")[0])
                ]
    assert states[-1].decisions() == ()
    if name != "astralis":  # every pie offers a swap, a colour or a komi
        assert offered


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
    # the outcome says the same as winner and result, and only at the end
    game = rules.get_game(name)
    outcome = final.outcome
    assert outcome == Outcome(final.winner, outcome.termination, final.result)
    assert outcome.termination.by_rules and outcome.termination in game.terminations
    assert all(state.outcome is None for state in states[:-1])
    check_decisions(name, states)


@pytest.mark.parametrize(("name", "options"), CASES)
@settings(max_examples=5)
@given(data=st.data())
def test_states_cannot_be_changed_and_copy_as_themselves(name, options, data):
    states = random_game(data, name, options)
    state = data.draw(st.sampled_from(states))
    before = snapshot(state)
    for attribute in ("foo", "history", "board", "options", "game"):
        with pytest.raises(AttributeError):
            setattr(state, attribute, ())
    assert snapshot(state) == before
    assert copy.copy(state) is state and copy.deepcopy(state) is state
    clone = pickle.loads(pickle.dumps(state))
    assert snapshot(clone) == before and clone.game is state.game


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
            # the parser reads it the same way in every position, even once over
            assert state.parse(sloppy) == move and states[-1].parse(sloppy) == move


GARBAGE = [
    "",
    "   ",
    "zz99",
    "a0",
    "swapp",
    "komi",
    "komi -1",
    "c3 c3 c3",
    "hold me",
    "🙂",
    "pass pass",
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
    # "not a move" exactly when the parser, which ignores the position, says so
    try:
        state.parse(text)
    except InvalidMove:
        assert isinstance(caught.value, InvalidMove)
    else:
        assert not isinstance(caught.value, InvalidMove), caught.value


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


@registry_restored()
def test_register_makes_a_further_game_known():

    class Quick(type(rules.get_game("sliglube"))):
        name = "quick-sliglube"
        title = "Quick Sliglube"

    quick = Quick()
    assert rules.register(quick) is quick
    assert rules.get_game("Quick-Sliglube") is quick
    assert rules.register(quick) is quick  # again: nothing changes
    state = quick.new(size=5).play("d4")
    assert state.game is quick
    assert pickle.loads(pickle.dumps(state)).game is quick
    with pytest.raises(ValueError, match="already registered"):
        rules.register(Quick())
    Quick.name = "Quick Sliglube"
    with pytest.raises(ValueError, match="lower-case"):
        rules.register(Quick())
