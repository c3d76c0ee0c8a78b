"""Copy a SQLite database into PostgreSQL, then prove the copy by replaying every game.

    python -m bot.storage.copy sqlite:///boardbot.sqlite3 postgresql://bot:pw@host/boardbot

Stop the bot first (the file must not change during the copy). The PostgreSQL database
must exist and be empty of the bot's rows; both are brought to the latest migration, so
their tables are the same. Every table is copied row by row, parents before children,
ids kept (and PostgreSQL's id sequences moved past them). Then the copy is checked:
each table holds as many rows as the file's, and every game's moves, read back from
PostgreSQL, are the file's and replay by the rules (a game the rules ended is over
after them). The command prints what it did and exits non-zero if anything differs.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from typing import Any

import rules
from bot.storage.backends import open_database
from bot.storage.database import Connection, Database, query
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase

#: Rows read and written at a time.
BATCH = 2000


class CopyRefused(Exception):
    """The copy cannot start (the message says why); nothing was written."""


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)
    games: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@query
async def tables_in_order(conn: Connection) -> list[tuple[str, list[str]]]:
    """The file's tables with their columns, each after the tables it refers to."""
    names = [
        row[0]
        for row in await conn.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    graph: dict[str, set[str]] = {}
    columns: dict[str, list[str]] = {}
    for name in names:
        columns[name] = [
            row["name"] for row in await conn.fetch_all(f"PRAGMA table_info('{name}')")
        ]
        graph[name] = {
            row["table"] for row in await conn.fetch_all(f"PRAGMA foreign_key_list('{name}')")
        } - {name}
    return [(name, columns[name]) for name in TopologicalSorter(graph).static_order()]


@query
async def page_of(
    conn: Connection, table: str, columns: list[str], after: int, limit: int
) -> list[tuple[Any, ...]]:
    """Rows of ``table`` by rowid after ``after`` (the rowid first, then the columns)."""
    rows = await conn.fetch_all(
        f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid LIMIT ?",
        (after, limit),
    )
    return [tuple(row) for row in rows]


@query
async def count_of(conn: Connection, table: str) -> int:
    row = await conn.fetch_one(f"SELECT COUNT(*) FROM {table}")
    assert row is not None  # an aggregate gives one row
    return int(row[0])


@query
async def games_with_moves(
    conn: Connection, after: int, limit: int
) -> list[tuple[int, str, str, str, str | None, list[str]]]:
    """(id, game, options, status, end_reason, moves) of a page of games."""
    games = await conn.fetch_all(
        "SELECT id, game, options, status, end_reason FROM games WHERE id > ? ORDER BY id LIMIT ?",
        (after, limit),
    )
    if not games:
        return []
    moves: dict[int, list[str]] = {row[0]: [] for row in games}
    for game_id, move in await conn.fetch_all(
        "SELECT game_id, move FROM moves WHERE game_id > ? AND game_id <= ? ORDER BY game_id, ply",
        (after, games[-1][0]),
    ):
        moves[game_id].append(move)
    return [(*tuple(row), moves[row[0]]) for row in games]


async def copy_database(
    source_url: str, target_url: str, *, say: Callable[[str], object] = print
) -> Copied:
    """Copy the SQLite database at ``source_url`` into the empty PostgreSQL database at
    ``target_url`` and check the copy."""
    source = await open_database(source_url)
    try:
        target = await open_database(target_url)
    except BaseException:
        await source.close()
        raise
    try:
        if not isinstance(source, SqliteDatabase) or not isinstance(target, PostgresDatabase):
            raise CopyRefused(
                "copy from a SQLite database (sqlite:///…) into a PostgreSQL one (postgresql://…)"
            )
        tables = await source.read(tables_in_order())
        for table, _ in tables:
            if await target.read(count_of(table)):
                raise CopyRefused(
                    f"the PostgreSQL database already holds rows of {table}: copy into an empty one"
                )
        copied = Copied()
        for table, columns in tables:
            copied.rows[table] = await _copy_table(source, target, table, columns)
            say(f"copied {copied.rows[table]:,} rows of {table}")
        await _move_sequences(target)
        await _check(source, target, tables, copied)
        say(
            f"replayed {copied.games:,} games: "
            + ("every one as in the file" if copied.ok else f"{len(copied.problems)} problems")
        )
        return copied
    finally:
        await target.close()
        await source.close()


async def _copy_table(source: Database, target: Database, table: str, columns: list[str]) -> int:
    insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    copied, last = 0, 0
    while True:
        page = await source.read(page_of(table, columns, last, BATCH))
        if not page:
            return copied
        async with target.transaction() as tx:
            await tx.change_many(insert, [row[1:] for row in page])
        copied, last = copied + len(page), page[-1][0]


async def _move_sequences(target: Database) -> None:
    """Start each id sequence after the ids copied."""
    async with target.transaction() as tx:
        for table, column in await tx.fetch_all(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE is_identity = 'YES' AND table_schema = current_schema()"
        ):
            await tx.fetch_one(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}"
            )


async def _check(
    source: Database, target: Database, tables: list[tuple[str, list[str]]], copied: Copied
) -> None:
    for table, _ in tables:
        there = await target.read(count_of(table))
        if there != copied.rows[table]:
            copied.problems.append(f"{table}: {copied.rows[table]} rows copied, {there} there")
    last = 0
    while True:
        mine, theirs = await asyncio.gather(
            source.read(games_with_moves(last, BATCH)), target.read(games_with_moves(last, BATCH))
        )
        if not mine and not theirs:
            return
        if mine != theirs:
            copied.problems.append(f"games after #{last} differ between the file and the copy")
            return
        for game_id, game, options, status, end_reason, moves in theirs:
            problem = _replay_problem(game, options, status, end_reason, moves)
            if problem is not None:
                copied.problems.append(f"game #{game_id}: {problem}")
        copied.games += len(theirs)
        last = theirs[-1][0]


def _replay_problem(
    game: str, options: str, status: str, end_reason: str | None, moves: list[str]
) -> str | None:
    try:
        state = rules.get_game(game).replay(moves, **json.loads(options))
    except Exception as error:  # whatever the rules refuse
        return f"its {len(moves)} moves do not replay: {error}"
    if (
        status == "finished"
        and end_reason is not None
        and rules.Termination(end_reason).by_rules
        and not state.is_over
    ):
        return "the rules ended it, but its moves leave it going on"
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        copied = asyncio.run(copy_database(*args))
    except Exception as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for problem in copied.problems:
        print(f"problem: {problem}", file=sys.stderr)
    print(f"{'done' if copied.ok else 'the copy differs'} in {time.perf_counter() - started:.1f} s")
    return 0 if copied.ok else 1


if __name__ == "__main__":
    sys.exit(main())
