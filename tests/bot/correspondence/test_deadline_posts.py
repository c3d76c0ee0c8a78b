"""Board posts of a game with a clock say when the player to move runs out of time,
as a Discord timestamp (each reader sees it in their own time zone)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.bot.conftest import ANA, BO, GUILD
from tests.bot.correspondence.table import Table, open_table, start

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


@pytest.fixture
async def table(database_url: Path | str) -> AsyncIterator[Table]:
    async with open_table(database_url) as t:
        yield t


def deadlines(text: str) -> list[tuple[str, datetime]]:
    """(whose, when) of each deadline line."""
    return [
        (name, datetime.fromtimestamp(int(stamp)).astimezone())
        for name, stamp in re.findall(r"(\w+)'s time for this move runs out <t:(\d+):R>", text)
    ]


def boards(table: Table, game_id: int) -> list[str]:
    return [p.content for p in table.env.poster.posts_for(game_id) if p.picture is not None]


async def test_each_board_names_the_player_to_move_and_their_deadline(table: Table) -> None:
    started = table.env.clock()
    game_id = await start(table)  # 3 days per move; Ana (seat 0) moves first
    assert deadlines(boards(table, game_id)[0]) == [(ANA.name, started + timedelta(days=3))]
    assert (await table.clocks.deadline_of(await table.row(game_id))) == started + timedelta(
        days=3
    )  # the clock agrees with what the board said

    table.env.clock.advance(hours=5)
    await table.play(game_id)
    assert deadlines(boards(table, game_id)[-1]) == [
        (BO.name, started + timedelta(hours=5, days=3))
    ]


async def test_a_bank_shows_what_is_left_of_it(table: Table) -> None:
    started = table.env.clock()
    game_id = await start(table, time_control="3d+1d/7d")
    table.env.clock.advance(days=1)
    await table.play(game_id)  # Ana: 3 days - 1 + 1 = 3 days left for her next turn
    table.env.clock.advance(hours=1)
    await table.play(game_id)  # Bo: his first move
    her_turn = started + timedelta(days=1, hours=1)
    assert deadlines(boards(table, game_id)[-1]) == [(ANA.name, her_turn + timedelta(days=3))]


async def test_no_deadline_without_a_time_limit_nor_once_the_game_is_over(table: Table) -> None:
    game_id = await start(table, time_control="none")
    await table.play(game_id)
    assert all("runs out" not in text for text in boards(table, game_id))

    timed = await start(table, time_control="1d", challenger=BO, opponent=ANA)
    await table.env.moves.resign(guild_id=GUILD, game_id=timed, member=ANA)
    assert "runs out" in boards(table, timed)[0] and "runs out" not in boards(table, timed)[-1]
