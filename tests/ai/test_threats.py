"""The look three plies ahead (:mod:`ai.threats`): forced wins found, never invented."""

from __future__ import annotations

from ai.threats import Look, forced_win, forced_winner_after
from rules.position import position
from tests.ai import positions
from tests.ai.test_tactics import allows_a_win_at_once


def test_a_move_that_leaves_every_reply_a_win_at_once_is_found() -> None:
    state = positions.ASLI_CORNER_TRAP_SPRUNG.state()
    pos = position(state)
    move = forced_win(pos, Look(20_000))
    assert move is not None and pos.move_text(move) in {"b12", "c13"}
    # the consequence: whatever White answers, Black has a reply that ends the game
    after = pos.copy()
    after.play(move)
    assert not after.is_over
    assert all(allows_a_win_at_once(after, reply) for reply in after.legal_moves())


def test_the_move_that_allows_it_is_found_losing_and_quiet_moves_are_not() -> None:
    state = positions.ASLI_CORNER_TRAP.state()
    pos = position(state)
    black = 1 - state.to_move
    assert forced_winner_after(pos, pos.move_id("a12"), Look(20_000)) == black
    for quiet in ("d1", "a13", "m2"):
        assert forced_winner_after(pos, pos.move_id(quiet), Look(20_000)) is None, quiet


def test_a_spent_look_finds_nothing_and_spends_no_more() -> None:
    pos = position(positions.ASLI_CORNER_TRAP_SPRUNG.state())
    look = Look(40)
    assert forced_win(pos, look) is None
    assert look.plays == 0


def test_before_the_colours_are_chosen_no_asli_move_is_tactical() -> None:
    state = positions.ASLI_CORNER_TRAP.state()
    for ply in (0, 1):
        opening = position(state.game.replay(state.history[:ply], **state.options))
        assert opening.legal_moves() and opening.tactical_moves() == []
        assert forced_win(opening, Look(1_000)) is None
