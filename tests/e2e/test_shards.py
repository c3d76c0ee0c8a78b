"""Two bot processes, each on one of Discord's two shards, sharing one PostgreSQL
database: members in servers on both shards play at once; one process is killed
(SIGKILL) in the middle of a move, or with the move's board in flight to Discord, and
started again while the other plays on. No move is lost or stored twice, every stored
move's board is posted exactly once (a board the killed process owed is posted by its
restart, not by the other process, and not twice), and every deadline and reminder
that falls due is fired once, by one of the two processes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage import Database, open_database, queries
from bot.storage.rows import stamp
from rules import Termination
from tests.fakediscord import Channel, FakeDiscord, Member
from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .driver import WAIT, Table, planned_moves, start_game

GAME, OPTIONS = "lifeline", {"size": 3}
SEEDS = (11, 5)  # a complete game of 12 plies on shard 0, of 8 on shard 1
#: When shard 0's process is killed: during its game's first move with the move stored
#: and its board's post held before Discord acted, the other process started again
#: meanwhile (owed_board_waits_for_its_process); then during the 3rd move, the same
#: (the board is owed); during the 5th as soon as it is sent (lost with the process:
#: the member plays it again); 0.03 s into the 8th (stored or not, its answer and maybe
#: its board lost); and during the 10th with its board's post held after Discord acted
#: (posted, but not known to be).
KILLS: dict[int, float | str] = {2: "before", 4: 0.0, 7: 0.03, 9: "after"}


async def game_id(db: Database, table: Table) -> int:
    async with db.reading() as conn:
        row = await queries.game_in_thread(conn, table.thread.guild.id, table.thread.id)
    assert row is not None
    return row.id


async def stored_moves(db: Database, table: Table) -> list[str]:
    async with db.reading() as conn:
        return [m.move for m in await queries.moves_of_game(conn, await game_id(db, table))]


def boards(table: Table) -> list[str]:
    """The file names of the board pictures in the game's thread (one per ply)."""
    return [
        attachment.filename
        for post in table.thread.visible_messages()
        for attachment in post.attachments
        if attachment.filename.endswith(".png")
    ]


async def owed_board_waits_for_its_process(
    fake: FakeDiscord, procs: list[BotProcess], db: Database, table: Table, move: str
) -> None:
    """Shard 0's process dies with a move stored and its board not yet on Discord; the
    other process, started again meanwhile (its start-up delivers what is pending and
    nobody delivers), leaves it alone: the board waits for its own process, whose
    restart posts it, once."""
    held = fake.inject("create_message", 500, stall=True, where=str(table.thread.id))
    await fake.run_command(table.to_move, "move", {"move": move}, channel=table.home)
    try:
        await fake.wait_until(lambda: held.hits == 1, WAIT, "the board's post")
        await procs[0].kill()
    finally:
        held.release()
    assert await stored_moves(db, table) == [move]
    table.state = table.state.play(move)
    await procs[1].stop()
    await procs[1].start("challenge", "move")
    assert len(boards(table)) == 1  # the opening only: the other process left it
    await procs[0].start("challenge", "move")
    await fake.wait_until(lambda: len(boards(table)) == 2, WAIT, "the owed board")


async def play_through_kills(
    fake: FakeDiscord, proc: BotProcess, db: Database, table: Table, moves: list[str]
) -> None:
    while not table.state.is_over:
        ply = table.state.ply
        move, kill = moves[ply], KILLS.get(ply)
        if kill is None:
            await table.play(move)
            continue
        held = (
            None
            if not isinstance(kill, str)
            else fake.inject(
                "create_message", 500, stall=True, after=kill == "after", where=str(table.thread.id)
            )
        )
        ix = await fake.run_command(table.to_move, "move", {"move": move}, channel=table.home)
        try:
            if held is not None:  # the move is stored, its board on its way
                await fake.wait_until(lambda held=held: held.hits == 1, WAIT, "the board's post")
            else:
                await fake.wait_until(
                    lambda ix=ix: ix.sent_at is not None, WAIT, "the move to be sent"
                )
                await asyncio.sleep(kill)  # the bot is in the middle of it
            await proc.kill()
        finally:
            if held is not None:
                held.release()
        await proc.start("challenge", "move")
        if len(await stored_moves(db, table)) > ply:  # stored before the kill
            table.state = table.state.play(move)
            await fake.wait_until(
                lambda ply=ply: len(boards(table)) > ply + 1,
                WAIT,
                "the owed board, posted by the restarted process",
            )
        else:  # lost with the process, unanswered: the member plays it again
            assert held is None
            await table.play(move)


def finals(table: Table) -> list[str]:
    """The final boards of a game lost on time."""
    return [
        post.content
        for post in table.thread.visible_messages()
        if "ran out of time" in post.content
        and any(a.filename.endswith(".png") for a in post.attachments)
    ]


async def reminded_once(table: Table) -> bool:
    return bool(reminders_sent(table))


def reminders_sent(table: Table) -> list[str]:
    return [
        post.content
        for post in table.thread.visible_messages()
        if "reminder: your move" in post.content.lower()
    ]


async def fired(db: Database, table: Table) -> bool:
    async with db.reading() as conn:
        row = await queries.get_game(conn, await game_id(db, table))
    return not row.is_active and bool(finals(table))


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    for _ in range(int(WAIT / 0.1)):
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def play(table: Table, moves: list[str]) -> None:
    for move in moves:
        await table.play(move)


async def test_two_shard_processes_on_one_postgresql_database(
    fake: FakeDiscord, postgres_server, tmp_path: Path
) -> None:
    fake.shard_count = 2
    places: list[tuple[Channel, Channel, list[Member]]] = []
    for shard in (0, 1):
        guild = fake.add_guild(f"Shard {shard} server", shard=shard)
        assert fake.shard_of(guild.id) == shard
        places.append(
            (
                fake.add_text_channel(guild, "games"),
                fake.add_text_channel(guild, "slow-games"),
                [fake.add_member(guild, f"player{shard}{n}") for n in range(6)],
            )
        )
    url = await postgres_server.fresh()
    procs = []
    for shard in (0, 1):
        (tmp_path / f"shard{shard}").mkdir()
        procs.append(
            BotProcess(
                fake,
                tmp_path / f"shard{shard}",
                DATABASE_URL=url,
                SHARD_COUNT="2",
                SHARD_IDS=str(shard),
            )
        )
    db = await open_database(url)
    try:
        for proc in procs:
            await proc.start("challenge", "move", "resign")
        tables, idle, reminded = [], [], []
        for channel, slow, members in places:
            tables.append(await start_game(fake, channel, members[0], members[1], GAME, OPTIONS))
            idle.append(await start_game(fake, slow, members[2], members[3], GAME, OPTIONS))
            reminded.append(await start_game(fake, slow, members[4], members[5], GAME, OPTIONS))
        # The idle games' time ran out long ago, the reminded games' reminder is due (a
        # turn of 3 days begun 2.5 days ago): the next move anywhere wakes both
        # processes' clocks, and each loss on time and reminder is claimed by one of them.
        now = datetime.now(UTC)
        async with db.transaction() as tx:
            for group, begun in ((idle, timedelta(days=4)), (reminded, timedelta(days=2.5))):
                for table in group:
                    await tx.change(
                        "UPDATE clocks SET turn_started_at = ?, due_at = ? WHERE game_id = ?",
                        (
                            stamp(now - begun),
                            stamp(now - timedelta(minutes=1)),
                            await game_id(db, table),
                        ),
                    )

        plans = [planned_moves(GAME, OPTIONS, seed) for seed in SEEDS]
        await owed_board_waits_for_its_process(fake, procs, db, tables[0], plans[0][0])
        await asyncio.gather(
            play_through_kills(fake, procs[0], db, tables[0], plans[0]), play(tables[1], plans[1])
        )

        for table, moves in zip(tables, plans, strict=True):
            assert table.state.is_over
            assert await stored_moves(db, table) == moves  # none lost, none twice
            gid = await game_id(db, table)
            # The opening board and every move's, each once (the final one last).
            assert boards(table) == [f"{GAME}-{gid}-{ply}.png" for ply in range(len(moves) + 1)], (
                boards(table)
            )
        for table in idle:
            await until(lambda table=table: fired(db, table), "the loss on time")
        for table in idle:
            async with db.reading() as conn:
                row = await queries.get_game(conn, await game_id(db, table))
            assert (row.status, row.end_reason) == ("finished", Termination.TIMEOUT)
            assert len(finals(table)) == 1, finals(table)  # fired once
        for table in reminded:
            await until(lambda table=table: reminded_once(table), "the reminder")
        await asyncio.sleep(0.5)  # time for a second one, if it were to come
        for table in reminded:
            assert len(reminders_sent(table)) == 1, reminders_sent(table)
            async with db.reading() as conn:
                assert (await queries.get_game(conn, await game_id(db, table))).is_active
    finally:
        await db.close()
        for proc in procs:
            await proc.stop()
            print(proc.log())


#: The three-process test's lease: a dead process's work is taken over this long after
#: its last heartbeat (the heartbeat comes every third of it). Scaled to the machine: a
#: live process whose event loop stalls longer than a lease is taken for dead.
SHORT_LEASE = f"{seconds(2.0):.1f}"


async def refused(proc: BotProcess) -> str:
    """Start ``proc``, which must be refused: exit code 2 and one line on stderr, which
    this returns."""
    try:
        await proc.start()
    except RuntimeError:
        pass
    else:
        raise AssertionError("a second process on the same shards was not refused")
    assert proc.proc is not None and proc.proc.returncode == 2, proc.log()
    errors = [line for line in proc.log().splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in proc.log(), proc.log()
    return errors[0]


async def test_a_second_process_on_the_same_sqlite_file_is_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.add_guild("Board Games")
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    first = BotProcess(fake, tmp_path / "first")
    second = BotProcess(
        fake, tmp_path / "second", DATABASE_PATH=str(tmp_path / "first" / "bot.sqlite3")
    )
    try:
        await first.start("challenge")
        line = await refused(second)
        assert "shard 0 of 1 is run by another process" in line, line
        assert fake.connected  # the first goes on
    finally:
        await second.stop()
        await first.stop()
        print(first.log(), second.log())


async def test_three_processes_one_killed_its_work_is_taken_over(
    fake: FakeDiscord, postgres_server, tmp_path: Path
) -> None:
    """Three shard processes; a fourth on shard 0 is refused. Shard 0's process is killed
    (SIGKILL) with a move's board in flight and left down: the others post that board
    and fire the loss on time of its other game, due a moment after the kill, within
    about a lease, with no move by anyone to wake them."""
    fake.shard_count = 3
    places = []
    for shard in range(3):
        guild = fake.add_guild(f"Shard {shard} server", shard=shard)
        places.append(
            (
                fake.add_text_channel(guild, "games"),
                [fake.add_member(guild, f"player{shard}{n}") for n in range(4)],
            )
        )
    url = await postgres_server.fresh()
    procs = []
    for shard in range(4):
        (tmp_path / f"proc{shard}").mkdir()
        procs.append(
            BotProcess(
                fake,
                tmp_path / f"proc{shard}",
                DATABASE_URL=url,
                SHARD_COUNT="3",
                SHARD_IDS=str(shard % 3),
                PROCESS_LEASE_SECONDS=SHORT_LEASE,
            )
        )
    db = await open_database(url)
    try:
        for proc in procs[:3]:
            await proc.start("challenge", "move")
        line = await refused(procs[3])  # a second process on shard 0: a rolling deploy
        assert "shard 0 of 3 is run by another process" in line, line

        channel, members = places[0]
        table = await start_game(fake, channel, members[0], members[1], GAME, OPTIONS)
        idle = await start_game(fake, channel, members[2], members[3], GAME, OPTIONS)
        move = planned_moves(GAME, OPTIONS, SEEDS[0])[0]
        held = fake.inject("create_message", 500, stall=True, where=str(table.thread.id))
        await fake.run_command(table.to_move, "move", {"move": move}, channel=table.home)
        try:
            await fake.wait_until(lambda: held.hits == 1, WAIT, "the board's post")
            await procs[0].kill()
        finally:
            held.release()
        assert await stored_moves(db, table) == [move]
        assert len(boards(table)) == 1  # the opening only: the board is owed
        # The idle game's time runs out a moment from now: no process was told.
        now = datetime.now(UTC)
        async with db.transaction() as tx:
            await tx.change(
                "UPDATE clocks SET turn_started_at = ?, due_at = ? WHERE game_id = ?",
                (
                    stamp(now - timedelta(days=4)),
                    stamp(now + timedelta(seconds=1)),
                    await game_id(db, idle),
                ),
            )

        await until(lambda: fired(db, idle), "the loss on time, fired by a survivor")
        await fake.wait_until(lambda: len(boards(table)) == 2, WAIT, "the owed board")
        gid = await game_id(db, table)
        assert boards(table) == [f"{GAME}-{gid}-{ply}.png" for ply in range(2)]
        assert len(finals(idle)) == 1, finals(idle)
        logs = procs[1].log(400) + procs[2].log(400)
        assert logs.count("taking over its clocks, claims and") == 1, logs  # by one of them
    finally:
        await db.close()
        for proc in procs:
            await proc.stop()
            print(proc.log())
