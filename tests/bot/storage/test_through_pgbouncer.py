"""The storage tests, and those of processes sharing one database (leases, claims, the
outbox's lanes), again through a real PgBouncer in transaction pooling
(tests/pgbouncer.py), with the bot in its PgBouncer mode (``DATABASE_PGBOUNCER=1``).

PgBouncer gives each transaction whichever of its few server connections is free, so
whatever the bot would leave on a session (a prepared statement, a session's advisory
lock, a ``LISTEN``, a ``SET``) would be missing, or found by another client, on the
next one. The last test shows the clash is real: without the mode, it breaks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.storage import Database, Unavailable, open_database, queries
from bot.storage.postgres import PostgresDatabase
from tests import pgbouncer
from tests.bot.storage.test_database import (  # noqa: F401  (run here again)
    db,
    new_game,
    test_a_failed_transaction_leaves_nothing,
    test_a_game_ends_once,
    test_a_new_postgresql_database_gets_every_migration,
    test_a_required_statement_that_changes_nothing_undoes_the_write,
    test_a_write_that_need_not_wait_for_the_disk_is_still_all_or_nothing,
    test_a_written_batch_is_one_transaction,
    test_discord_ids_need_64_bits,
    test_one_move_per_ply,
    test_prepared_reads_are_read_together,
    test_reopening_keeps_the_data_and_applies_nothing_twice,
    test_text_placeholders_and_quotes_are_told_apart,
)
from tests.bot.test_claims import (  # noqa: F401
    test_a_challenge_expires_once,
    test_a_digest_goes_out_once,
    test_a_move_from_an_old_position_is_refused,
    test_a_process_that_died_holding_a_claim_leaves_the_work_to_another,
    test_a_reminder_and_a_loss_on_time_are_each_done_once,
    test_work_done_stays_done_and_failed_work_is_given_back,
    two,
)
from tests.bot.test_outbox_shared import (  # noqa: F401
    test_a_lane_is_delivered_by_one_process_at_a_time_in_order,
    test_a_lane_is_let_go_only_with_nothing_left_in_it,
    test_a_process_started_again_on_its_shards_goes_on_at_once,
    test_what_a_dead_process_owed_is_delivered_once_by_another_after_its_lease,
    world,
)
from tests.bot.test_processes import (  # noqa: F401
    test_a_process_that_left_without_a_word_is_refused_until_its_lease_ran_out,
    test_a_restart_after_a_crash_on_this_machine_takes_its_shards_back_at_once,
    test_a_second_process_on_the_same_shards_is_refused,
    test_survivors_take_over_a_dead_process_once_its_lease_ran_out,
)

#: The bot's own way of opening PostgreSQL, before this module's fixture forces the mode.
_OPEN = PostgresDatabase.open


@pytest.fixture(scope="module")
def postgres_server(postgres_server: Any) -> Iterator[pgbouncer.Bouncer]:
    """PgBouncer in front of the run's server: every database of these tests is reached
    through it."""
    bouncer = pgbouncer.start(postgres_server)
    if isinstance(bouncer, str):
        pytest.skip(bouncer)
    yield bouncer
    bouncer.stop()


@pytest.fixture
def backend() -> str:
    return "postgresql"


@pytest.fixture(autouse=True)
def pgbouncer_mode(
    monkeypatch: pytest.MonkeyPatch, postgres_server: pgbouncer.Bouncer
) -> Iterator[None]:
    """Every database opened here is opened as the bot opens it with
    ``DATABASE_PGBOUNCER=1``, and is one behind PgBouncer."""
    opened = PostgresDatabase.open.__func__  # type: ignore[attr-defined]
    urls: list[str] = []

    async def through_pgbouncer(cls: type, url: str, **kwargs: Any) -> PostgresDatabase:
        urls.append(url)
        return await opened(cls, url, **{**kwargs, "pgbouncer": True})

    monkeypatch.setattr(PostgresDatabase, "open", classmethod(through_pgbouncer))
    yield
    assert {urlsplit(url).port for url in urls} <= {postgres_server.port}


async def test_processes_starting_together_migrate_once(postgres_server: Any) -> None:
    """The migration lock is taken inside the migrations' transaction: a session's lock
    would be left on whichever server connection, or taken by another client."""
    url = await postgres_server.fresh()
    opened = await asyncio.gather(*(open_database(url, pool_size=2) for _ in range(4)))
    try:
        async with opened[0].reading() as conn:
            rows = await conn.fetch_all(
                "SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version"
            )
        assert rows and all(row["n"] == 1 for row in rows)
    finally:
        for database in opened:
            await database.close()


async def test_many_clients_on_few_server_connections(db: Database) -> None:  # noqa: F811
    """Twenty games at once, each written and read back in turn, from a pool larger than
    PgBouncer's server connections: every statement finds what it needs."""
    assert isinstance(db, PostgresDatabase) and db.pgbouncer

    async def one() -> None:
        game_id = await new_game(db)
        for _ in range(5):
            async with db.reading() as conn:
                game = await queries.get_game(conn, game_id)
            assert game is not None and game.id == game_id
            await db.read(queries.processes())

    await asyncio.gather(*(one() for _ in range(20)))


async def test_without_its_mode_the_bot_breaks_on_pgbouncer(postgres_server: Any) -> None:
    """The clash the mode avoids, shown: asyncpg's statement cache prepares each
    statement once per connection, and PgBouncer hands the next transaction another
    server connection, where it is unknown."""
    url = await postgres_server.fresh()
    plain = await _OPEN(url, pool_size=8)  # as opened without DATABASE_PGBOUNCER
    try:
        game_id = await new_game(plain)

        async def reads() -> None:
            for _ in range(10):
                async with plain.reading() as conn:
                    await queries.get_game(conn, game_id)

        with pytest.raises(Exception, match="prepared statement"):
            await asyncio.gather(*(reads() for _ in range(8)))
    finally:
        await plain.close()


async def test_without_its_mode_the_bot_says_what_to_set(postgres_server: Any) -> None:
    """Started on PgBouncer without ``DATABASE_PGBOUNCER``, the bot meets statements
    another client prepared on the server connection it is given: it says, in one line,
    which setting it lacks (not asyncpg's advice). One server connection here, holding
    the statement names asyncpg would give its own."""
    single = pgbouncer.start(postgres_server.server, pool_size=1)
    assert not isinstance(single, str), single
    try:
        url = single.url_of(urlsplit(await postgres_server.fresh()).path.lstrip("/"))
        other = await asyncpg.connect(url, statement_cache_size=0)
        try:
            # the names asyncpg gives next (a counter of the process's)
            after = asyncpg.connection._uid  # type: ignore[attr-defined]
            names = ", ".join(f"__asyncpg_stmt_{n:x}__" for n in range(after, after + 400))
            await other.execute(
                "DO $$ DECLARE name text; BEGIN FOREACH name IN ARRAY string_to_array("
                f"'{names}', ', ') LOOP EXECUTE format('PREPARE %I AS SELECT 1', name);"
                " END LOOP; END $$"
            )
            with pytest.raises(Unavailable, match=r"set DATABASE_PGBOUNCER=1$"):
                await _OPEN(url, pool_size=1)
        finally:
            await other.close()
    finally:
        single.stop()
