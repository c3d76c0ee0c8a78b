"""Two shard processes through a real PgBouncer in transaction pooling
(tests/pgbouncer.py, three server connections for the two processes' pools of ten), as
the README's PgBouncer mode runs them (``DATABASE_PGBOUNCER=1``): a whole game on each
shard at once, every move stored once and its board posted once; then shard 0's
process is killed with a board in flight and left down, and the other posts it once
its lease ran out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import open_database
from tests import pgbouncer
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

from .driver import WAIT, planned_moves, start_game
from .test_shards import GAME, OPTIONS, SEEDS, boards, play, stored_moves


@pytest.fixture
def bouncer(postgres_server: Any) -> Iterator[pgbouncer.Bouncer]:
    started = pgbouncer.start(postgres_server)
    if isinstance(started, str):
        pytest.skip(started)
    yield started
    started.stop()


async def test_two_shard_processes_through_pgbouncer(
    fake: FakeDiscord, bouncer: pgbouncer.Bouncer, tmp_path: Path
) -> None:
    fake.shard_count = 2
    places = []
    for shard in (0, 1):
        guild = fake.add_guild(f"Shard {shard} server", shard=shard)
        places.append(
            (
                fake.add_text_channel(guild, "games"),
                [fake.add_member(guild, f"player{shard}{n}") for n in range(4)],
            )
        )
    url = await bouncer.fresh()
    procs = []
    for shard in (0, 1):
        (tmp_path / f"shard{shard}").mkdir()
        procs.append(
            BotProcess(
                fake,
                tmp_path / f"shard{shard}",
                DATABASE_URL=url,
                DATABASE_PGBOUNCER="1",
                SHARD_COUNT="2",
                SHARD_IDS=str(shard),
                PROCESS_LEASE_SECONDS="4",
            )
        )
    db = await open_database(url, pgbouncer=True)
    try:
        await asyncio.gather(*(proc.start("challenge", "move") for proc in procs))
        tables = [
            await start_game(fake, channel, members[0], members[1], GAME, OPTIONS)
            for channel, members in places
        ]
        plans = [planned_moves(GAME, OPTIONS, seed) for seed in SEEDS]
        await asyncio.gather(*(play(t, moves) for t, moves in zip(tables, plans, strict=True)))
        for table, moves in zip(tables, plans, strict=True):
            assert table.state.is_over
            assert await stored_moves(db, table) == moves  # none lost, none twice
            assert len(boards(table)) == len(moves) + 1, boards(table)  # each board once

        # Shard 0's process dies with a new game's first board owed, and stays down.
        channel, members = places[0]
        table = await start_game(fake, channel, members[2], members[3], GAME, OPTIONS)
        move = plans[0][0]
        held = fake.inject("create_message", 500, stall=True, where=str(table.thread.id))
        await fake.run_command(table.to_move, "move", {"move": move}, channel=table.home)
        try:
            await fake.wait_until(lambda: held.hits == 1, WAIT, "the board's post")
            await procs[0].kill()
        finally:
            held.release()
        assert await stored_moves(db, table) == [move]
        await fake.wait_until(lambda: len(boards(table)) == 2, WAIT, "the owed board")
        assert "taking over its clocks, claims and" in procs[1].log(400)
        for proc in procs:
            assert "prepared statement" not in proc.log(), proc.log()
    finally:
        await db.close()
        for proc in procs:
            await proc.stop()
            print(proc.log())
