"""Two bot processes on one database: each reminder, loss on time, digest and expiry is
done by one of them, and the work of a process that died holding it by the other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.challenges.expiry import ChallengeExpiry
from bot.claims import LEASE, Claims
from bot.storage import ChallengeRow, queries
from rules import Termination
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD
from tests.bot.correspondence.table import Table, start

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def two(database_url: Path | str) -> AsyncIterator[tuple[Table, Table]]:
    """Two processes' services over one database, on one clock."""
    first = await Table.open(database_url)
    second = await Table.open(database_url, clock=first.env.clock)
    try:
        yield first, second
    finally:
        for table in (first, second):
            await table.clocks.stop()
            await table.env.db.close()


def posts(tables: tuple[Table, ...], game_id: int, words: str) -> list[str]:
    return [
        post.content
        for table in tables
        for post in table.env.poster.posts_for(game_id)
        if words in post.content.lower()
    ]


async def test_a_reminder_and_a_loss_on_time_are_each_done_once(two: tuple[Table, Table]) -> None:
    first, second = two
    game_id = await start(first, time_control="1d")

    first.env.clock.advance(hours=20)
    handled = await asyncio.gather(first.clocks.run_due(), second.clocks.run_due())
    assert sum(handled) == 1
    assert len(posts(two, game_id, "reminder:")) == 1

    first.env.clock.advance(hours=5)
    await asyncio.gather(first.clocks.run_due(), second.clocks.run_due())
    row = await first.row(game_id)
    assert (row.status, row.end_reason) == ("finished", Termination.TIMEOUT)
    assert len(posts(two, game_id, "ran out of time")) == 1  # one final board
    assert len(posts(two, game_id, "reminder:")) == 1


async def test_a_process_that_died_holding_a_claim_leaves_the_work_to_another(
    two: tuple[Table, Table],
) -> None:
    first, second = two
    game_id = await start(first, time_control="1d")
    first.env.clock.advance(hours=20)
    async with first.env.db.reading() as conn:
        clock = await queries.get_clock(conn, game_id)
    dead = Claims(first.env.db, now=first.env.clock, owner="a process killed since")
    assert await dead.claim("clock", game_id, clock.due_at)

    assert await second.clocks.run_due() == 0  # its lease still runs
    assert posts(two, game_id, "reminder:") == []

    first.env.clock.advance(seconds=LEASE.total_seconds() + 1)
    assert await second.clocks.run_due() == 1
    assert len(posts(two, game_id, "reminder:")) == 1


async def test_work_done_stays_done_and_failed_work_is_given_back(two: tuple[Table, Table]) -> None:
    first, _ = two
    claims = Claims(first.env.db, now=first.env.clock, owner="one")
    others = Claims(first.env.db, now=first.env.clock, owner="another")
    due = first.env.clock()
    async with claims.holding("digest", BO.id, due) as mine:
        assert mine
    first.env.clock.advance(seconds=LEASE.total_seconds() + 1)
    async with others.holding("digest", BO.id, due) as mine:
        assert not mine  # done, however long ago

    with pytest.raises(RuntimeError):
        async with claims.holding("digest", ANA.id, due) as mine:
            assert mine
            raise RuntimeError("Discord is down")
    assert await others.claim("digest", ANA.id, due)  # at once, no lease to wait for


async def test_a_digest_goes_out_once(two: tuple[Table, Table]) -> None:
    first, second = two
    await first.notifier.set_preference(ANA.id, "digest")
    await start(first)  # Ana to move
    first.env.clock.advance(days=1, seconds=1)
    await asyncio.gather(first.clocks.run_due(), second.clocks.run_due())
    digests = [
        text
        for table in two
        for text in table.messenger.to(ANA.id)
        if text.startswith("Games waiting for your move")
    ]
    assert len(digests) == 1


async def test_a_challenge_expires_once(two: tuple[Table, Table]) -> None:
    first, second = two
    shown: list[ChallengeRow] = []

    async def show(challenge: ChallengeRow) -> None:
        shown.append(challenge)

    expiries = [
        ChallengeExpiry(table.env.db, now=table.env.clock, days=7, on_expired=show) for table in two
    ]
    challenge = await first.env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="lifeline",
        options={"size": 4},
        opponent=BO,
    )
    first.env.clock.advance(days=7, seconds=1)

    expired = await asyncio.gather(*(expiry.expire_due() for expiry in expiries))
    assert [c.id for c in shown] == [challenge.id]
    assert [c.id for batch in expired for c in batch] == [challenge.id]
    async with second.env.db.reading() as conn:
        assert (await queries.get_challenge(conn, challenge.id)).status == "expired"


async def test_a_move_from_an_old_position_is_refused(two: tuple[Table, Table]) -> None:
    """The other process takes a move back; this one, its position not yet told, cannot
    play on the move that no longer is."""
    first, second = two
    game_id = await start(first)
    await first.play(game_id)
    await second.env.games.state_of(await second.row(game_id))  # cached at ply 1
    async with first.env.db.transaction() as tx:
        assert await queries.delete_last_move(tx, game_id, 1)
    with pytest.raises(Exception, match="saved just before yours"):
        await second.play(game_id)
    async with first.env.db.reading() as conn:
        assert await queries.moves_of_game(conn, game_id) == []
    update = await second.play(game_id)  # its position read afresh
    assert update.state.ply == 1
