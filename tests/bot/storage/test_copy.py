"""Moving a bot from its SQLite file to PostgreSQL: every row copied, every game
replayed from the copy, and the bot carries on there."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.model import Member
from bot.storage import Database, open_database, queries
from bot.storage.copy import CopyRefused, copy_database, main
from tests.bot.conftest import ALL_GAMES, ANA, BO, CHANNEL, CY, GUILD, SMALL
from tests.bot.correspondence.table import Table, start
from tests.bot.support import play_out
from tests.e2e.driver import planned_moves

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def everything(db: Database) -> dict[str, list[tuple]]:
    """Every row of every table of the bot, in a fixed order."""
    async with db.reading() as conn:
        tables = (
            [
                row[0]
                for row in await conn.fetch_all(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'"
                )
            ]
            if db.backend == "postgresql"
            else [
                row[0]
                for row in await conn.fetch_all(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                )
            ]
        )
        return {
            table: sorted(
                (tuple(row) for row in await conn.fetch_all(f"SELECT * FROM {table}")), key=repr
            )
            for table in tables
        }


async def a_bot_in_use(path: Path) -> Table:
    """A SQLite file as a bot leaves it: finished and live games of all four kinds, a
    resignation, ratings, clocks, a vacation, a digest, a takeback asked for, challenges
    answered and pending."""
    table = await Table.open(path)
    env = table.env
    for seed, game in enumerate(ALL_GAMES, 1):
        game_id = await start(table, game)
        moves = planned_moves(game, SMALL[game], seed)
        await play_out(env, game_id, moves)
        await env.ratings.rate_game(await table.row(game_id), moves=len(moves))
        live = await start(table, game, challenger=BO, opponent=CY)
        await table.play(live)
        await table.play(live)
    resigned = await start(table, "lifeline", opponent=CY)
    await table.play(resigned)
    await env.moves.resign(guild_id=GUILD, game_id=resigned, member=CY)
    asked = await start(table, "asli")
    await table.play(asked)
    await table.corr.request_takeback(guild_id=GUILD, game_id=asked, member=ANA)
    await table.clocks.start_vacation(CY.id)
    await table.notifier.set_preference(BO.id, "digest")
    await env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="sliglube",
        options=SMALL["sliglube"],
        opponent=None,
    )
    await table.clocks.stop()
    await env.db.close()
    return table


async def test_a_copy_holds_every_row_and_replays_every_game(
    tmp_path: Path, postgres_server
) -> None:
    source = tmp_path / "boardbot.sqlite3"
    await a_bot_in_use(source)
    target = await postgres_server.fresh()
    said: list[str] = []

    copied = await copy_database(f"sqlite:///{source}", target, say=said.append)

    assert copied.ok, copied.problems
    assert copied.games == 4 + 4 + 2
    assert copied.rows["moves"] > 40 and copied.rows["ratings"] >= 2
    assert said[-1] == "replayed 10 games: every one as in the file"
    file, copy = await open_database(source), await open_database(target)
    try:
        before, after = await everything(file), await everything(copy)
        assert after == before
        assert {"games", "moves", "clocks", "vacations", "claims"} <= set(after)
    finally:
        await file.close()
        await copy.close()

    # The bot goes on in PostgreSQL: live games move, new rows get new ids.
    table = await Table.open(target)
    try:
        async with table.env.db.reading() as conn:
            live = [row for row in await queries.active_games(conn)]
        assert len(live) == 5
        update = await table.play(live[0].id)
        assert update.state.ply == 3
        new = await start(table, "astralis", challenger=Member(40, "Di"), opponent=ANA)
        assert new > max(row.id for row in live)
    finally:
        await table.clocks.stop()
        await table.env.db.close()


async def test_a_copy_goes_only_into_an_empty_database(tmp_path: Path, postgres_server) -> None:
    source = tmp_path / "boardbot.sqlite3"
    await (await open_database(source)).close()  # a bot with nothing yet
    target = await postgres_server.fresh()
    db = await open_database(target)
    async with db.transaction() as tx:
        await queries.insert_vacation(tx, ANA.id, NOW, NOW)
    await db.close()
    with pytest.raises(CopyRefused, match="already holds rows of vacations"):
        await copy_database(str(source), target, say=lambda line: None)
    db = await open_database(target)
    try:
        assert (await everything(db))["games"] == []  # nothing written
    finally:
        await db.close()


def test_the_command_says_how_to_use_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "python -m bot.storage.copy sqlite:///" in capsys.readouterr().err


def test_the_command_refuses_two_sqlite_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")]) == 1
    assert "into a PostgreSQL one" in capsys.readouterr().err


async def test_a_game_that_does_not_replay_is_reported(tmp_path: Path, postgres_server) -> None:
    source = tmp_path / "boardbot.sqlite3"
    table = await Table.open(source)
    game_id = await start(table, "lifeline")
    await table.play(game_id)
    async with table.env.db.transaction() as tx:  # a move no rule allows, as if damaged
        await tx.change("UPDATE moves SET move = 'z99' WHERE game_id = ?", (game_id,))
    await table.clocks.stop()
    await table.env.db.close()

    copied = await copy_database(str(source), await postgres_server.fresh(), say=lambda line: None)

    assert not copied.ok
    (problem,) = copied.problems
    assert problem.startswith(f"game #{game_id}: its 1 moves do not replay: ")
