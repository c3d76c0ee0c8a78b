"""Clocks with a controllable clock: losses on time, reminders, downtime, vacations,
banks, and the one dispatcher that sleeps until the next due time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.model import UserError
from rules import Termination
from tests.bot.conftest import ANA, BO
from tests.bot.correspondence.table import Table, open_table, start

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


@pytest.fixture
async def table(database_url: Path | str) -> AsyncIterator[Table]:
    async with open_table(database_url) as t:
        yield t


def reminders(table: Table, game_id: int) -> list[str]:
    return [
        post.content
        for post in table.env.poster.posts_for(game_id)
        if "reminder:" in post.content.lower()
    ]


async def settle(condition, rounds: int = 200) -> None:
    """Let the dispatcher task run (it never really sleeps: the fake sleep moves the clock)."""
    for _ in range(rounds):
        if await condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the dispatcher did not get there")


async def test_a_player_who_does_not_move_in_time_loses_on_time(table: Table) -> None:
    game_id = await start(table)  # 3 days per move by default; Ana to move
    table.env.clock.advance(days=3, seconds=2)

    await table.clocks.run_due()

    row = await table.row(game_id)
    assert (row.status, row.end_reason, row.winner_seat) == ("finished", Termination.TIMEOUT, 1)
    assert row.result == "Cyan wins: Yellow ran out of time"
    final = table.env.poster.posts_for(game_id)[-1]  # one post, with the Rematch button
    assert final.actions == ("rematch",)
    # The picture is told how the game ended, which its position cannot say.
    assert final.picture.endswith(b"[Cyan wins: Yellow ran out of time]")
    assert "**Game over.** Cyan wins: Yellow ran out of time. Bo wins." in final.content
    assert set(final.mentions) == {ANA.id, BO.id}


async def test_the_deadline_itself_is_still_in_time(table: Table) -> None:
    game_id = await start(table)
    table.env.clock.advance(days=3)
    await table.clocks.run_due()
    assert (await table.row(game_id)).is_active
    update = await table.play(game_id)  # Ana's move, at the deadline
    assert update.state.ply == 1


async def test_a_late_move_is_refused_and_the_game_is_lost_on_time(table: Table) -> None:
    game_id = await start(table)
    table.env.clock.advance(days=3, hours=1)  # the dispatcher has not run yet
    with pytest.raises(UserError, match="has run out"):
        await table.play(game_id)
    assert (await table.row(game_id)).is_active  # nothing stored...
    await table.clocks.run_due()
    assert (await table.row(game_id)).end_reason == Termination.TIMEOUT  # ...until the clock acts


async def test_each_turn_gets_a_reminder_at_80_percent_and_one_shortly_before_only_once(
    table: Table,
) -> None:
    game_id = await start(table)
    table.env.clock.advance(days=2.4, seconds=-1)
    await table.clocks.run_due()
    assert reminders(table, game_id) == []
    table.env.clock.advance(seconds=1)  # 80% of 3 days
    await table.clocks.run_due()
    await table.clocks.run_due()
    table.env.clock.advance(hours=6)
    await table.clocks.run_due()
    first = reminders(table, game_id)
    assert len(first) == 1 and first[0].startswith(f"<@{ANA.id}>, reminder: your move")
    assert table.env.poster.posts_for(game_id)[-1].mentions == (ANA.id,)

    await table.restart()  # what was sent is stored, not remembered
    await table.clocks.run_due()
    assert len(reminders(table, game_id)) == 1
    table.env.clock.current = (await table.row(game_id)).created_at + timedelta(days=3, hours=-1)
    await table.clocks.run_due()
    table.env.clock.advance(minutes=59)
    await table.clocks.run_due()
    assert len(reminders(table, game_id)) == 2  # an hour before the deadline, once

    await table.play(game_id)  # Bo's turn: his own two reminders, later
    table.env.clock.advance(days=2.4)
    await table.clocks.run_due()
    assert len(reminders(table, game_id)) == 3
    assert reminders(table, game_id)[-1].startswith(f"<@{BO.id}>, reminder")


async def test_a_deadline_that_passed_while_the_bot_was_down_is_applied_at_start_up(
    table: Table,
) -> None:
    game_id = await start(table)
    await table.play(game_id)  # Bo to move, 3 days from now
    await table.clocks.stop()
    table.env.clock.advance(days=5)  # the bot is down meanwhile
    await table.restart()

    await table.clocks.start()

    async def over() -> bool:
        return not (await table.row(game_id)).is_active

    await settle(over)
    row = await table.row(game_id)
    assert (row.end_reason, row.winner_seat) == (Termination.TIMEOUT, 0)
    assert reminders(table, game_id) == []  # too late for reminders: just the result


async def forget_clocks(table: Table) -> None:
    """The database as it was before the bot had clocks."""
    await table.clocks.stop()
    await table.env.db.write([("DELETE FROM clocks", ())])
    await table.restart()


async def test_games_from_before_the_clocks_get_one_starting_at_start_up(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)  # Bo to move
    await forget_clocks(table)
    table.env.clock.advance(days=10)  # long ago, but Bo only gets his time from now on
    row = await table.row(game_id)
    assert await table.clocks.deadline_of(row) is None

    assert await table.clocks.add_missing_clocks() == 1
    assert await table.clocks.deadline_of(row) == table.env.clock() + timedelta(days=3)
    assert await table.clocks.add_missing_clocks() == 0
    table.env.clock.advance(days=3, hours=1)
    with pytest.raises(UserError, match="has run out"):
        await table.play(game_id)


async def test_a_game_moved_before_it_got_its_clock_keeps_the_one_its_move_gave_it(
    table: Table,
) -> None:
    game_id = await start(table)
    await forget_clocks(table)
    table.env.clock.advance(days=1)
    await table.play(game_id)  # Ana moves: Bo's turn starts now, with a clock
    table.env.clock.advance(hours=5)

    assert await table.clocks.add_missing_clocks() == 0
    deadline = await table.clocks.deadline_of(await table.row(game_id))
    assert deadline == table.env.clock() + timedelta(days=3, hours=-5)


async def test_the_dispatcher_sleeps_until_the_next_due_time_and_no_more(table: Table) -> None:
    game_id = await start(table, time_control="1d")
    await table.clocks.start()

    async def over() -> bool:
        return not (await table.row(game_id)).is_active

    await settle(over)
    day = 24 * 3600
    # Wake-ups: the 80% reminder, the last one an hour before the deadline, the deadline.
    assert table.sleeps == pytest.approx([0.8 * day, 0.2 * day - 3600, 3600 + 1])
    assert len(reminders(table, game_id)) == 2
    assert (await table.row(game_id)).end_reason == Termination.TIMEOUT


async def test_a_move_re_arms_the_dispatcher(table: Table) -> None:
    game_id = await start(table, time_control="1d")
    table.time_flows.clear()  # the dispatcher waits for Ana's reminder; time stands still
    await table.clocks.start()
    await asyncio.sleep(0)
    table.env.clock.advance(hours=12)
    await table.play(game_id)  # Bo's turn now: Ana's timers are gone, Bo's start
    table.time_flows.set()

    async def over() -> bool:
        return not (await table.row(game_id)).is_active

    await settle(over)
    row = await table.row(game_id)
    assert (row.end_reason, row.winner_seat) == (Termination.TIMEOUT, 0)  # Bo ran out, not Ana
    assert [r.split(",")[0] for r in reminders(table, game_id)] == [f"<@{BO.id}>"] * 2


async def test_a_vacation_stops_the_clock_of_the_player_to_move(table: Table) -> None:
    game_id = await start(table)
    table.env.clock.advance(days=1)
    vacation = await table.clocks.start_vacation(ANA.id)
    assert vacation.end_at - vacation.start_at == timedelta(days=14)
    table.env.clock.advance(days=5)
    await table.clocks.run_due()
    assert (await table.row(game_id)).is_active  # 6 days, but only 1 on the clock
    assert reminders(table, game_id) == []

    await table.clocks.end_vacation(ANA.id)  # 5 days used; 2 days left on the clock
    table.env.clock.advance(days=1.9)
    await table.clocks.run_due()
    assert (await table.row(game_id)).is_active
    table.env.clock.advance(days=0.1, seconds=2)
    await table.clocks.run_due()
    assert (await table.row(game_id)).end_reason == Termination.TIMEOUT
    assert await table.clocks.vacation_left(ANA.id) == timedelta(days=9)


async def test_a_game_without_vacations_keeps_its_clock_running(table: Table) -> None:
    game_id = await start(table, vacation=False)
    await table.clocks.start_vacation(ANA.id)
    table.env.clock.advance(days=3, seconds=2)
    await table.clocks.run_due()
    assert (await table.row(game_id)).end_reason == Termination.TIMEOUT


async def test_vacation_is_refused_when_on_one_or_when_none_is_left(table: Table) -> None:
    await table.clocks.start_vacation(ANA.id)
    with pytest.raises(UserError, match="already on vacation"):
        await table.clocks.start_vacation(ANA.id)
    table.env.clock.advance(days=15)  # the allowance ran out: the vacation ended by itself
    with pytest.raises(UserError, match="No vacation left"):
        await table.clocks.start_vacation(ANA.id)
    with pytest.raises(UserError, match="not on vacation"):
        await table.clocks.end_vacation(ANA.id)


async def test_a_bank_is_spent_by_slow_moves_and_refilled_by_the_increment(table: Table) -> None:
    game_id = await start(table, time_control="1d+12h/2d")
    table.env.clock.advance(hours=6)
    await table.play(game_id)  # Ana: 1d - 6h + 12h = 1d6h left
    await table.play(game_id)  # Bo at once: 1d + 12h = 1d12h
    row = await table.row(game_id)
    assert await table.clocks.deadline_of(row) == table.env.clock() + timedelta(days=1, hours=6)
    table.env.clock.advance(days=1, hours=6, seconds=2)
    await table.clocks.run_due()
    assert ((await table.row(game_id)).end_reason, (await table.row(game_id)).winner_seat) == (
        Termination.TIMEOUT,
        1,
    )


async def test_no_time_limit_means_no_deadline(table: Table) -> None:
    game_id = await start(table, time_control="none")
    table.env.clock.advance(days=400)
    assert await table.clocks.run_due() == 0
    assert (await table.row(game_id)).is_active
    assert await table.clocks.deadline_of(await table.row(game_id)) is None
