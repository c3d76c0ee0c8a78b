"""The words of the Analysis view tell the truth: a move the AI would not have
played is only called a loss when the AI's own estimates show one."""

from __future__ import annotations

from datetime import UTC, datetime

import rules
from bot.i18n import speaking
from bot.learning.analysis import GameAnalysis
from bot.storage import AnalysisRow, GameRow, MoveRow

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def analysed(moves: list[str], estimates: list[tuple[float, str | None]]) -> GameAnalysis:
    """A finished Lifeline game of ``moves`` (played by the engine) with the AI's
    ``estimates`` (seat 0's chance, its preferred move) after each ply."""
    state = rules.get_game("lifeline").replay(moves, size=5)
    row = GameRow(
        id=7, guild_id=1, channel_id=2, thread_id=None, challenge_id=None,
        challenge_message_id=None, last_message_id=None, game="lifeline",
        options={"size": 5}, settings={}, player_ids=(10, 11), player_names=("Ann", "Bob"),
        status="finished", result="Black wins", winner_seat=0, end_reason=None,
        created_at=NOW, finished_at=NOW,
    )  # fmt: skip
    seats = [
        rules.get_game("lifeline").replay(moves[:k], size=5).to_move for k in range(len(moves))
    ]
    rows = tuple(
        MoveRow(7, k + 1, state.history[k], seats[k], 10 + seats[k], NOW, None)
        for k in range(len(moves))
    )
    found = {
        ply: AnalysisRow(7, ply, chance, best, True, 100)  # proven: shown as they are
        for ply, (chance, best) in enumerate(estimates)
    }
    return GameAnalysis(row, rows, found)


MOVES = ["a1 e5", "a2 a4", "c3"]


def test_a_move_the_ai_would_not_play_that_lost_nothing_is_not_called_worse():
    # Bob (seat 1) played a2 a4 where the AI preferred a2 a5, and his chances rose
    found = analysed(MOVES, [(0.5, "a1 e5"), (0.56, "a2 a5"), (0.39, "c3"), (0.4, None)])
    said = found.caption(2)
    assert "Bob played `a2 a4`" in said
    assert "the AI preferred `a2 a5`" not in said
    assert "the AI would have played `a2 a5`, but its estimates show no loss" in said
    assert "Bob's chances: 44% → 61%" in said


def test_a_move_that_lost_chances_where_the_ai_preferred_another():
    found = analysed(MOVES, [(0.5, "a1 e5"), (0.4, "a2 a5"), (0.7, "c3"), (0.7, None)])
    said = found.caption(2)
    assert "the AI preferred `a2 a5`" in said and "Bob's chances: 60% → 30%" in said
    assert "the AI agrees" in found.caption(3)


def test_the_chances_are_written_the_readers_way():
    found = analysed(MOVES, [(0.5, "a1 e5"), (0.4, "a2 a5"), (0.7, "c3"), (0.7, None)])
    with speaking("de"):
        said = found.caption(2)
    assert "60\xa0% → 30\xa0%" in said  # German puts a (non-breaking) space before %
