"""Takebacks, rematches and aborts, through the service calls the buttons and commands make
(the rematch offer is correspondence's, the rematch itself a challenge)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.model import UserError
from bot.storage import queries
from rules import Termination
from tests.bot.conftest import ANA, BO, CY, GUILD, OTHER_GUILD
from tests.bot.correspondence.table import Table, open_table, start

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


@pytest.fixture
async def table(database_url: Path | str) -> AsyncIterator[Table]:
    async with open_table(database_url) as t:
        yield t


async def moves(table: Table, game_id: int) -> list[str]:
    async with table.env.db.reading() as conn:
        return [move.move for move in await queries.moves_of_game(conn, game_id)]


async def ask(table: Table, game_id: int, member=BO):
    return await table.corr.request_takeback(guild_id=GUILD, game_id=game_id, member=member)


async def answer(table: Table, takeback_id: int, member=ANA, accept: bool = True):
    return await table.corr.answer_takeback(
        guild_id=GUILD, takeback_id=takeback_id, member=member, accept=accept
    )


async def test_an_accepted_takeback_removes_the_move_and_reposts_the_board(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    await table.play(game_id, "m2")  # Bo
    request = await ask(table, game_id)
    question = table.env.poster.posts_for(game_id)[-1]
    assert "Bo asks to take back `m2` (move 2)" in question.content
    assert question.mentions == (ANA.id,) and question.actions == (f"takeback:{request.id}",)

    table.env.clock.advance(days=2)
    answered = await answer(table, request.id)

    assert answered.status == "accepted"
    assert await moves(table, game_id) == ["a6"]
    state = await table.env.games.state_of(await table.row(game_id))
    assert state.ply == 1 and state.to_move == 1
    board = table.env.poster.posts_for(game_id)[-1]
    assert board.picture is not None and board.ply == 1
    assert "Ana accepted: Bo took back `m2`" in board.content and board.mentions == (BO.id,)
    # Bo's turn starts afresh, and he may play another move in its place.
    assert await table.clocks.deadline_of(
        await table.row(game_id)
    ) == table.env.clock() + timedelta(days=3)
    update = await table.play(game_id, "m3")
    assert update.state.history == ("a6", "m3")


async def test_a_declined_takeback_changes_nothing_and_cannot_be_asked_again(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    await table.play(game_id)
    request = await ask(table, game_id)
    before = await table.env.dump()

    answered = await answer(table, request.id, accept=False)

    assert answered.status == "declined"
    after = await table.env.dump()
    assert after["moves"] == before["moves"] and after["games"] == before["games"]
    with pytest.raises(UserError, match="already declined"):
        await ask(table, game_id)
    with pytest.raises(UserError, match="already declined"):
        await answer(table, request.id)


async def test_no_takeback_once_the_opponent_has_moved(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)  # Ana
    await table.play(game_id)  # Bo
    with pytest.raises(UserError, match="Bo has moved since your last move"):
        await ask(table, game_id, ANA)
    request = await ask(table, game_id, BO)
    await table.play(game_id)  # Ana moves instead of answering
    before = await table.env.dump()
    with pytest.raises(UserError, match="moved on"):
        await answer(table, request.id)
    assert await table.env.dump() == before


async def test_only_the_opponent_answers_and_a_request_is_made_once(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    request = await ask(table, game_id, ANA)
    with pytest.raises(UserError, match="already asked"):
        await ask(table, game_id, ANA)
    before = await table.env.dump()
    with pytest.raises(UserError, match="your own request"):
        await answer(table, request.id, ANA)
    with pytest.raises(UserError, match="Only the players"):
        await answer(table, request.id, CY)
    assert await table.env.dump() == before
    with pytest.raises(UserError, match="haven't moved"):
        await ask(table, game_id, BO)


async def test_a_forged_takeback_button_from_another_server_reveals_nothing(table: Table) -> None:
    """A member of another server pressing a takeback button copied from here (its
    request id in the ``custom_id``) learns nothing of this server, not even the game's
    number."""
    game_id = await start(table)
    await table.play(game_id)
    request = await ask(table, game_id, ANA)
    before = await table.env.dump()
    for member in (BO, CY):
        with pytest.raises(UserError) as forged:
            await table.corr.answer_takeback(
                guild_id=OTHER_GUILD, takeback_id=request.id, member=member, accept=True
            )
        with pytest.raises(UserError) as unknown:
            await table.corr.answer_takeback(
                guild_id=OTHER_GUILD, takeback_id=request.id + 99, member=member, accept=True
            )
        assert forged.value.message == unknown.value.message
        assert str(game_id) not in forged.value.message
    assert await table.env.dump() == before


async def test_an_unanswered_request_loses_its_buttons_when_the_game_ends(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    await ask(table, game_id, ANA)
    poster = table.env.poster
    question = len(poster.sent) - 1  # the request's post, with its Accept and Decline
    await table.env.moves.resign(guild_id=GUILD, game_id=game_id, member=BO)
    request_message = 1000 + 1 + question  # the fake's ids: the thread, then each post
    assert [message for _, message in poster.removed] == [request_message]


async def test_a_challenge_can_forbid_takebacks(table: Table) -> None:
    game_id = await start(table, takebacks=False)
    await table.play(game_id)
    with pytest.raises(UserError, match="Takebacks are off"):
        await ask(table, game_id, ANA)


async def test_a_rematch_offers_the_same_game_with_seats_swapped(table: Table) -> None:
    game_id = await start(table, time_control="7d", takebacks=False)
    await table.env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    offer = table.env.poster.posts_for(game_id)[-1]  # the game's last post, its end
    assert offer.actions == ("rematch",) and "**Game over.**" in offer.content

    challenge = await table.env.challenges.rematch(guild_id=GUILD, game_id=game_id, member=BO)
    with pytest.raises(UserError, match="already challenged you to a rematch"):
        await table.env.challenges.rematch(guild_id=GUILD, game_id=game_id, member=ANA)
    with pytest.raises(UserError, match="already have a pending"):
        await table.env.challenges.rematch(guild_id=GUILD, game_id=game_id, member=BO)
    assert (challenge.challenger_id, challenge.opponent_id) == (BO.id, ANA.id)
    old = await table.row(game_id)
    assert challenge.game == old.game and challenge.options == old.options
    update = await table.env.challenges.accept(
        guild_id=GUILD, challenge_id=challenge.id, member=ANA
    )
    new = update.game
    assert new.player_ids == (BO.id, ANA.id)  # Bo was second, now first
    assert new.settings["time_control"] == "7d" and new.settings["takebacks"] is False
    with pytest.raises(UserError, match="Only the players"):
        await table.env.challenges.rematch(guild_id=GUILD, game_id=game_id, member=CY)
    with pytest.raises(UserError, match="still in progress"):
        await table.env.challenges.rematch(guild_id=GUILD, game_id=new.id, member=BO)


async def test_abort_before_both_players_have_moved_counts_for_nothing(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)  # only Ana has moved
    update = await table.corr.abort(guild_id=GUILD, game_id=game_id, member=BO)
    row = update.game
    assert (row.status, row.end_reason, row.winner_seat) == ("aborted", Termination.ABORT, None)
    final = table.env.poster.posts_for(game_id)[-1]
    assert "counts for nothing" in final.content and not final.actions  # no Rematch
    assert "Well played" not in final.content  # nobody played: no thanks for it
    assert final.content.count("<@") == 2  # both told
    table.env.clock.advance(days=10)
    assert await table.clocks.run_due() == 0  # no clock runs for it any more


async def test_no_abort_once_both_have_moved(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    await table.play(game_id)
    before = await table.env.dump()
    with pytest.raises(UserError, match="too late to abort"):
        await table.corr.abort(guild_id=GUILD, game_id=game_id, member=ANA)
    with pytest.raises(UserError, match="not playing"):
        await table.corr.abort(guild_id=GUILD, game_id=game_id, member=CY)
    assert await table.env.dump() == before
