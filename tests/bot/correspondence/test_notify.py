"""How a member hears it is their turn: a thread mention, a DM (falling back to the
thread when DMs are closed), or a daily digest; and the "my turn" list."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import UserError
from tests.bot.conftest import ANA, BO, GUILD
from tests.bot.correspondence.table import Table, open_table, start

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


@pytest.fixture
async def table(database_url: Path | str) -> AsyncIterator[Table]:
    async with open_table(database_url) as t:
        yield t


async def test_by_default_the_player_to_move_is_mentioned_in_the_thread(table: Table) -> None:
    game_id = await start(table)
    await table.play(game_id)
    board = table.env.poster.posts_for(game_id)[-1]
    assert board.mentions == (BO.id,) and f"<@{BO.id}>, your turn" in board.content
    assert table.messenger.sent == []


async def test_a_member_who_chose_dms_gets_a_dm_and_no_ping(table: Table) -> None:
    await table.notifier.set_preference(BO.id, "dm")
    game_id = await start(table)
    await table.play(game_id)
    board = table.env.poster.posts_for(game_id)[-1]
    assert board.mentions == ()  # the text still names him, but it notifies nobody
    [dm] = table.messenger.to(BO.id)
    assert dm.startswith(f"Your turn in **Astralis #{game_id}** against Ana: place your pawn")
    assert f"/{GUILD}/" in dm  # a link to the game


async def test_when_a_dm_cannot_be_delivered_the_thread_mention_is_the_fallback(
    table: Table,
) -> None:
    await table.notifier.set_preference(BO.id, "dm")
    table.messenger.closed.add(BO.id)
    game_id = await start(table)
    await table.play(game_id)
    fallback = table.env.poster.posts_for(game_id)[-1]
    assert fallback.mentions == (BO.id,)
    assert fallback.content.startswith(f"<@{BO.id}>, your turn in **Astralis #{game_id}**")
    assert table.messenger.sent == []


async def test_reminders_reach_dm_members_by_dm(table: Table) -> None:
    await table.notifier.set_preference(ANA.id, "dm")
    game_id = await start(table, time_control="1d")
    table.env.clock.advance(hours=20)
    await table.clocks.run_due()
    [_, reminder] = table.messenger.to(ANA.id)  # the "your turn" DM, then the reminder
    assert reminder.startswith(f"Reminder: your move in **Astralis #{game_id}**")


async def test_a_digest_member_gets_one_daily_list_of_waiting_games(table: Table) -> None:
    await table.notifier.set_preference(ANA.id, "digest")
    first = await start(table)
    second = await start(table, "lifeline")
    await table.play(second)  # Bo's turn there: not in Ana's digest
    assert table.env.poster.posts_for(first)[0].mentions == ()
    assert table.messenger.sent == []

    table.env.clock.advance(hours=23)
    await table.clocks.run_due()
    assert table.messenger.sent == []
    table.env.clock.advance(hours=1)
    await table.clocks.run_due()
    [digest] = table.messenger.to(ANA.id)
    assert "Games waiting for your move (1)" in digest and f"Astralis #{first}" in digest
    assert f"#{second}" not in digest
    await table.clocks.run_due()
    assert len(table.messenger.to(ANA.id)) == 1  # one a day


async def test_a_digest_that_cannot_be_delivered_mentions_in_each_waiting_game(
    table: Table,
) -> None:
    await table.notifier.set_preference(ANA.id, "digest")
    table.messenger.closed.add(ANA.id)
    game_id = await start(table)
    table.env.clock.advance(days=1)
    await table.clocks.run_due()
    fallback = table.env.poster.posts_for(game_id)[-1]
    assert fallback.mentions == (ANA.id,) and "is waiting" in fallback.content


async def test_an_unknown_preference_is_refused(table: Table) -> None:
    with pytest.raises(UserError, match="thread, dm, digest"):
        await table.notifier.set_preference(ANA.id, "pigeon")


async def test_my_turn_lists_only_games_waiting_for_me_most_urgent_first(table: Table) -> None:
    relaxed = await start(table, time_control="14d")
    urgent = await start(table, "lifeline", time_control="1d")
    unlimited = await start(table, "sliglube", time_control="none")
    theirs = await start(table, "asli")
    await table.play(theirs)  # Bo to move there
    waiting = await table.corr.my_turn(guild_id=GUILD, member_id=ANA.id)
    assert [w.game.id for w in waiting] == [urgent, relaxed, unlimited]
    assert waiting[-1].deadline is None
    assert [w.game.id for w in await table.corr.my_turn(guild_id=GUILD, member_id=BO.id)] == [
        theirs
    ]
