"""Buttons that act on a game's play (a decision, a takeback request) never outlive it:
once a newer board is posted, and when the game ends however it ends, their posts lose
them; a game that ended while they could not be removed loses them at the next start."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.play.views import DecisionButton
from bot.storage import queries
from tests.bot.conftest import ANA, BO, GUILD
from tests.bot.correspondence.table import Table, open_table, start
from tests.bot.interactions import Interaction
from tests.bot.support import area_views


@pytest.fixture
async def table(database_url: Path | str) -> AsyncIterator[Table]:
    async with open_table(database_url) as t:
        yield t


async def test_an_abort_at_the_komi_takes_the_komi_button_away(table: Table) -> None:
    game_id = await start(table, "asli")
    [opening] = table.env.poster.posts_for(game_id)
    assert [d.number for d in opening.decisions]  # Ana is asked for the komi, with a button

    await table.corr.abort(guild_id=GUILD, game_id=game_id, member=BO)

    final = table.env.poster.posts_for(game_id)[-1]
    assert "Aborted by Bo" in final.content
    assert not final.asks and not final.actions  # nothing to decide, no rematch
    assert table.env.poster.with_buttons(game_id) == []  # the komi post lost its button


async def test_a_resignation_takes_a_pending_takebacks_buttons_away(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    await table.play(game_id, "m2")  # Bo
    await table.corr.request_takeback(guild_id=GUILD, game_id=game_id, member=BO)
    [request] = table.env.poster.with_buttons(game_id)
    assert request.actions[0].startswith("takeback:")

    await table.env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)

    assert table.env.poster.with_buttons(game_id) == []


async def test_a_decision_made_with_move_takes_its_buttons_away(table: Table) -> None:
    game_id = await start(table, "sliglube")
    await table.play(game_id, "c3")
    [asking] = table.env.poster.with_buttons(game_id)
    assert [d.move for d in asking.decisions] == ["black", "white"]
    await table.play(game_id, "white")  # typed, not clicked
    assert table.env.poster.with_buttons(game_id) == []


async def test_buttons_left_by_an_ending_go_at_the_next_start(table: Table) -> None:
    game_id = await start(table, "sliglube")
    await table.play(game_id, "c3")  # Bo is asked for a colour, with buttons
    poster = table.env.poster

    async def unreachable(channel_id: int, message_id: int) -> None:
        raise OSError("Discord is out of reach")

    poster.remove_buttons = unreachable  # type: ignore[method-assign]
    table.env.clock.advance(days=3, seconds=1)
    await table.clocks.run_due()  # Bo loses on time; the buttons can't be removed now
    assert not (await table.row(game_id)).is_active
    assert len(poster.with_buttons(game_id)) == 1

    del poster.remove_buttons  # Discord is back; the bot restarts
    await table.restart()
    assert await table.env.boards.remove_ended_buttons() == 1
    assert poster.with_buttons(game_id) == []
    assert await table.env.db.read(queries.button_posts_of_game(game_id)) == []
    assert await table.env.boards.remove_ended_buttons() == 0  # done once


async def test_the_komi_pie_offers_its_pass_as_a_button_that_plays(table: Table) -> None:
    """Lifeline's komi pie: White may spend a komi point to pass; the board asks with a
    button (the game's decisions), and the button plays it."""
    challenge = await table.env.challenges.create(
        guild_id=GUILD,
        channel_id=1,
        challenger=ANA,
        game="lifeline",
        opponent=BO,
        options={"size": 4, "opening": "komi-pie"},
    )
    game_id = (
        await table.env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    ).game.id
    for move in ("komi 3", "black", "e3", "e6", "a3", "d3", "g4"):
        await table.play(game_id, move)
    row = await table.row(game_id)
    board = table.env.poster.posts_for(game_id)[-1]
    [button] = (await area_views()).post_view(row, board).children
    assert button.item.label == "Pass (spend 1 of 3 komi)"
    white = (ANA, BO)[(await table.env.games.state_of(row)).to_move]
    restored = DecisionButton(game_id, board.ply, "pass", button.item.label)
    clicked = Interaction(table.env, white)
    await restored.callback(clicked)
    assert clicked.edits == [{"view": None}]
    state = await table.env.games.state_of(await table.row(game_id))
    assert state.history[-1] == "pass"
