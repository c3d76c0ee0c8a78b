"""Whole bot: the real ``python -m bot`` (SQLite in a temporary directory) against the
loopback fake Discord of the end-to-end tests, with scripted members playing many games
at once through slash commands and buttons.

    python -m bench bot [--quick]

Measurements:

- setup: pairs of new members play ``/challenge`` and click Accept (``--games`` of them).
- light, paced, flat out: in every game the member to move plays a random legal move
  with ``/move`` in the game's thread (every fifth one typed into autocomplete first) and
  waits for the new board before that game's next move. Paced: each game moves on a
  fixed period so that all together offer ``--rate`` moves per second (100); light offers
  a tenth of that; flat out, every member moves as soon as the board is there (the most
  the bot sustains; latency then is mostly queueing). Latency = from the fake sending
  INTERACTION_CREATE to the fake receiving the request that posts the board (with its
  PNG) in the thread.
- start-up: the bot started on an empty database, then on one holding ``--stored`` live
  games (written with plain sqlite3 in the bot's own schema, each a few moves in): time
  to ready (commands synced, gateway connected), time until its warm-up replay is done
  (its CPU goes idle), and its memory (RSS from /proc).

The fake and the scripted members run in this process, the bot in its own: both share
the machine's cores, and the fake validates every request against Discord's OpenAPI
description, so the figures include that overhead (the CPU split is printed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import os
import random
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

import rules
from bench.common import Row, latency_row, print_table
from bot import timecontrol
from bot.storage.migrations import MIGRATIONS
from bot.storage.rows import stamp
from tests.fakediscord import Channel, FakeDiscord, Guild, Member, Message
from tests.fakediscord.models import snowflake
from tests.fakediscord.process import BotProcess

#: Small-to-default boards, one game of each kind in turn.
MIX: list[tuple[str, dict[str, Any]]] = [
    ("lifeline", {"size": 7}),
    ("asli", {"size": 9}),
    ("sliglube", {"size": 6}),
    ("astralis", {"size": 8}),
    ("lifeline", {"size": 5}),
    ("asli", {"size": 13}),
    ("sliglube", {"size": 5}),
    ("astralis", {"size": 7}),
]
COMMANDS = ("challenge", "move", "resign")
WAIT = 30.0  # per reply; a healthy run answers in milliseconds

_ARRIVED: contextvars.ContextVar[float] = contextvars.ContextVar("arrived")


class TimedFake(FakeDiscord):
    """The fake, also noting when each message's request arrived and handing board posts
    (messages with an attachment) to whoever waits for one in that channel."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived: dict[int, float] = {}
        self.board_waiters: dict[int, asyncio.Future[Message]] = {}

    async def _rest(self, request: web.Request) -> web.Response:
        token = _ARRIVED.set(self.clock())
        try:
            return await super()._rest(request)
        finally:
            _ARRIVED.reset(token)

    def _create_message(self, channel: Channel, *args: Any, **kwargs: Any) -> Message:
        msg = super()._create_message(channel, *args, **kwargs)
        self.arrived[msg.id] = _ARRIVED.get(self.clock())
        if msg.attachments:
            waiter = self.board_waiters.pop(channel.id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(msg)
        return msg

    def expect_board(self, channel_id: int) -> asyncio.Future[Message]:
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.board_waiters[channel_id] = future
        return future


@dataclass
class Table:
    """One game in progress, as its two members see it."""

    game: str
    options: dict[str, Any]
    seats: tuple[Member, Member]
    thread: Channel
    state: rules.State


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # interaction -> board request
    by_game: dict[str, list[float]] = field(default_factory=dict)  # the same, per game
    acks: list[float] = field(default_factory=list)  # interaction -> first response (defer)
    suggestions: list[float] = field(default_factory=list)  # autocomplete round trips
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)


class Club:
    """A guild full of members, challenging each other and playing."""

    def __init__(
        self, fake: TimedFake, guild: Guild, channels: list[Channel], rng: random.Random
    ) -> None:
        self.fake, self.guild, self.channels, self.rng = fake, guild, channels, rng
        self.count = 0

    async def open_game(self, game: str, options: dict[str, Any], tally: Tally) -> Table:
        """/challenge, then the opponent clicks Accept; the opening board is in the thread."""
        fake = self.fake
        self.count += 1
        a = fake.add_member(self.guild, f"player{self.count}a")
        b = fake.add_member(self.guild, f"player{self.count}b")
        channel = self.channels[self.count % len(self.channels)]
        mark = fake.mark()
        ix = await fake.run_command(
            a,
            "challenge",
            {"game": game, "opponent": b, **options, "first": "challenger"},
            channel=channel,
        )
        await ix.reply(WAIT)  # told privately; the challenge message is the channel's
        challenge = await fake.wait_for_message(
            channel, lambda m: bool(m.buttons) and b.mention in m.content, after=mark, timeout=WAIT
        )
        thread_id = challenge.id  # the game's thread is started from the challenge message
        opening = fake.expect_board(thread_id)
        click = await fake.click(b, challenge, label="Accept")
        await click.reply(WAIT)
        await asyncio.wait_for(opening, WAIT)
        tally.games_started += 1
        return Table(
            game, options, (a, b), fake.channels[thread_id], rules.get_game(game).new(**options)
        )

    async def play(self, table: Table, tally: Tally, *, suggest: bool) -> None:
        """The member to move plays a random legal move with /move in the thread."""
        fake = self.fake
        assert table.state.to_move is not None
        mover = table.seats[table.state.to_move]
        move = self.rng.choice(table.state.legal_moves())
        if suggest:  # typing the first characters, as a member does
            ask = fake._command_interaction(
                mover, "move", {"move": move[:1]}, table.thread, focused="move"
            )
            await ask.choices(WAIT)
            tally.suggestions.append(ask.responded_at - ask.sent_at)
        board = fake.expect_board(table.thread.id)
        ix = await fake.run_command(mover, "move", {"move": move}, channel=table.thread)
        reply = await ix.reply(WAIT)  # the bot says "You played" once the board is posted
        if "You played" not in reply.content:
            raise AssertionError(f"/move {move}: {reply.content[:100]!r}")
        post = await asyncio.wait_for(board, WAIT)
        sent = ix.sent_at if ix.sent_at is not None else fake.clock()
        tally.latencies.append(fake.arrived[post.id] - sent)
        tally.by_game.setdefault(table.game, []).append(tally.latencies[-1])
        if ix.responded_at is not None:
            tally.acks.append(ix.responded_at - sent)
        table.state = table.state.play(move)
        tally.moves += 1
        said = f"`{move}`" in post.content or f"chose {move}" in post.content  # a colour: chosen
        if not said:
            tally.errors.append(f"the board after {move!r} says {post.content[:100]!r}")


async def keep_playing(
    club: Club,
    tables: list[Table],
    index: int,
    tally: Tally,
    until: float,
    period: float | None,
    suggest_every: int,
) -> None:
    """Move in ``tables[index]`` every ``period`` seconds (or at once when None) until
    ``until``; a finished game is followed by a new one of the same kind between two new
    members, which takes its place in ``tables``."""
    loop = asyncio.get_running_loop()
    table = tables[index]
    next_at = loop.time() + (club.rng.random() * period if period else 0.0)
    while loop.time() < until:
        if period:
            await asyncio.sleep(max(0.0, min(next_at, until) - loop.time()))
            next_at = max(next_at + period, loop.time() - period)
            if loop.time() >= until:
                break
        try:
            if table.state.is_over:
                tally.games_finished += 1
                table = tables[index] = await club.open_game(table.game, table.options, tally)
            else:
                await club.play(table, tally, suggest=tally.moves % suggest_every == 0)
        except (TimeoutError, AssertionError, ValueError, LookupError) as error:
            tally.errors.append(f"{table.game}: {error!r}")  # this table stops playing
            return


def cpu_seconds(pid: int | None = None) -> float:
    """User + system CPU seconds of a process (this one when ``pid`` is None)."""
    if pid is None:
        t = os.times()
        return t.user + t.system
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak RSS) of a process, in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found


async def run_phase(
    club: Club, tables: list[Table], seconds: float, rate: float | None, pid: int
) -> tuple[Tally, float, float, float]:
    """All tables playing for ``seconds``; returns the tally, the elapsed time and the CPU
    seconds the bot and this process (fake + members) used meanwhile."""
    tally = Tally()
    period = len(tables) / rate if rate else None
    loop = asyncio.get_running_loop()
    bot_cpu, own_cpu, start = cpu_seconds(pid), cpu_seconds(), loop.time()
    await asyncio.gather(
        *(
            keep_playing(club, tables, i, tally, start + seconds, period, 5)
            for i in range(len(tables))
        )
    )
    elapsed = loop.time() - start
    return tally, elapsed, cpu_seconds(pid) - bot_cpu, cpu_seconds() - own_cpu


def move_rows(
    label: str,
    tally: Tally,
    elapsed: float,
    bot_cpu: float,
    own_cpu: float,
    offered: str,
    why: str = "",
) -> list[Row]:
    rate = tally.moves / elapsed
    per_move = max(tally.moves, 1) / 1000
    note = (
        f"{tally.moves} moves in {elapsed:.1f} s; CPU: bot {bot_cpu / elapsed:.0%} of a "
        f"core ({bot_cpu / per_move:.1f} ms/move), fake+members {own_cpu / elapsed:.0%} "
        f"({own_cpu / per_move:.1f} ms/move); {tally.games_finished} games ended, "
        f"{len(tally.errors)} errors"
    )
    rows = [
        Row(
            f"{label}: moves per second",
            offered,
            f"{rate:.1f} moves/s",
            "",
            why or "≥ 100 moves/s",
            note,
        )
    ]
    if tally.latencies:
        rows.append(
            latency_row(
                f"{label}: /move to board post",
                offered,
                tally.latencies,
                "≤ 50 ms median, ≤ 150 ms p99",
                f"{len(tally.latencies)} moves",
            )
        )
    if label == "paced":
        sizes = {name: sorted({o["size"] for g, o in MIX if g == name}) for name in tally.by_game}
        rows += [
            latency_row(
                f"  {name}", ", ".join(map(str, sizes[name])), samples, "", f"{len(samples)} moves"
            )
            for name, samples in sorted(tally.by_game.items())
        ]
    if tally.acks:
        rows.append(
            latency_row(
                f"{label}: /move to first response",
                offered,
                tally.acks,
                "",
                "the deferral (under Discord's 3 s)",
            )
        )
    if tally.suggestions:
        rows.append(
            latency_row(
                f"{label}: /move autocomplete",
                offered,
                tally.suggestions,
                "",
                f"legal-move choices, {len(tally.suggestions)} asked",
            )
        )
    return rows


async def start_profiler(pid: int, seconds: float, out: Path) -> asyncio.subprocess.Process:
    """py-spy sampling the busy threads of the bot (CPU, not waits) during the paced phase,
    written as collapsed stacks (one line per stack: frames;...;frame count)."""
    if shutil.which("py-spy") is None:
        raise SystemExit("--profile needs py-spy: pip install py-spy (the bench extra)")
    return await asyncio.create_subprocess_exec(
        "py-spy",
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, round(seconds))),
        "--rate",
        "100",
        "--format",
        "raw",
        "--threads",
        "--nonblocking",
        "--output",
        str(out),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def play_bench(
    workdir: Path,
    games: int,
    rate: float,
    light: float,
    paced: float,
    flat: float,
    seed: int,
    profile: Path | None = None,
) -> list[Row]:
    async with TimedFake() as fake:
        guild = fake.add_guild("Bench Club")
        channels = [fake.add_text_channel(guild, f"games-{i}") for i in range(4)]
        proc = BotProcess(fake, workdir)
        try:
            await proc.start(*COMMANDS, timeout=60)
            assert proc.proc is not None
            pid = proc.proc.pid
            club = Club(fake, guild, channels, random.Random(seed))
            tally = Tally()
            setup = time.perf_counter()
            gate = asyncio.Semaphore(8)

            async def opened(game: str, options: dict[str, Any]) -> Table:
                async with gate:
                    return await club.open_game(game, options, tally)

            tables = await asyncio.gather(*(opened(*MIX[i % len(MIX)]) for i in range(games)))
            setup = time.perf_counter() - setup
            rows = [
                Row(
                    "challenge + accept (setup)",
                    f"{games} games",
                    f"{setup / games * 1000:.0f} ms/game",
                    "",
                    "",
                    "8 at a time, opening board posted",
                )
            ]
            phases = [
                ("light", light, rate / 10, "(a tenth of the load)"),
                ("paced", paced, rate, ""),
                ("flat out", flat, None, ""),
            ]
            errors: list[str] = []
            for label, seconds, offered, why in phases:
                spy = (
                    await start_profiler(pid, seconds, profile)
                    if profile and label == "paced"
                    else None
                )
                tally, *cost = await run_phase(club, tables, seconds, offered, pid)
                if spy is not None:
                    await spy.wait()
                size = f"{offered:g}/s over {games} games" if offered else f"{games} games at once"
                rows += move_rows(label, tally, *cost, offered=size, why=why)
                errors += tally.errors
            mem = memory(pid)
            rows.append(
                Row(
                    "bot memory after play",
                    "",
                    f"{mem['VmRSS'] / 1024:.0f} MiB RSS",
                    f"{mem['VmHWM'] / 1024:.0f} MiB peak",
                    "",
                    "",
                )
            )
            for error in errors[:5]:
                print("error:", error)
            if fake.violations:
                print(
                    f"{len(fake.violations)} requests Discord would reject, e.g.:",
                    fake.violations[0],
                )
            return rows
        finally:
            await proc.stop()


# -- start-up with many stored games ------------------------------------------------------


@dataclass(frozen=True)
class Stored:
    """A short game in progress, with whose turn each move was."""

    game: str
    options: dict[str, Any]
    moves: list[str]
    movers: list[int]  # seat of each move
    to_move: int


def stored_games(count: int, rng: random.Random) -> list[Stored]:
    """Distinct short games (2 to 10 plies, not over), default sizes of the mix."""
    found: list[Stored] = []
    while len(found) < count:
        game, options = MIX[len(found) % 4]
        state = rules.get_game(game).new(**options)
        movers = []
        for _ in range(rng.randint(2, 10)):
            movers.append(state.to_move)
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                break
        if state.to_move is not None:
            found.append(
                Stored(
                    game,
                    rules.get_game(game).resolve_options(**options),
                    list(state.history),
                    movers,
                    state.to_move,
                )
            )
    return found


def clock_row(game_id: int, stored: Stored, now: datetime) -> tuple[Any, ...]:
    """The clock the bot gives a game with the default time control, its next due time
    being the first reminder (``bot.correspondence.clocks.Clocks.opening``)."""
    control = timecontrol.DEFAULT
    reminders = timecontrol.reminder_times(timecontrol.Clock.start(control), now)
    return (
        game_id,
        timecontrol.format_time_control(control),
        None,
        None,
        len(stored.moves),
        stored.to_move,
        stamp(now),
        0,
        stamp(reminders[0]) if reminders else None,
    )


def write_database(
    path: Path,
    guild_id: int,
    channel_id: int,
    players: list[int],
    games: int,
    rng: random.Random,
    *,
    clocks: bool = True,
) -> int:
    """``games`` active games with their accepted challenges, moves and clocks, as the
    bot writes them (schema from its migrations). ``clocks=False`` leaves the clocks out,
    as in a database from before the bot had them. Returns the number of moves written."""
    pool = stored_games(min(games, 500), rng)
    moment = datetime.now(UTC)
    now = moment.isoformat()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        for script in MIGRATIONS:  # a fresh file: no need to apply them atomically
            if callable(script):  # a migration of the data, in Python
                script(db)
            else:
                db.executescript(script)
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
        has_clocks = (
            clocks
            and db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'clocks'"
            ).fetchone()
        )
        db.execute("BEGIN")
        moves = 0
        for n in range(games):
            stored = pool[n % len(pool)]
            seats = rng.sample(players, 2)
            names = [f"member{p % 100000}" for p in seats]
            message_id = snowflake()  # the challenge message, which the thread starts from
            dumped = json.dumps(stored.options, sort_keys=True, separators=(",", ":"))
            cid = db.execute(
                "INSERT INTO challenges (guild_id, channel_id, message_id, challenger_id,"
                " challenger_name, opponent_id, opponent_name, game, options, settings, status,"
                " created_at, closed_at) VALUES (?,?,?,?,?,?,?,?,?,?,'accepted',?,?)",
                (
                    guild_id,
                    channel_id,
                    message_id,
                    seats[0],
                    names[0],
                    seats[1],
                    names[1],
                    stored.game,
                    dumped,
                    '{"first":"challenger"}',
                    now,
                    now,
                ),
            ).lastrowid
            gid = db.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, challenge_id,"
                " challenge_message_id, last_message_id, game, options, settings, player0_id,"
                " player0_name, player1_id, player1_name, created_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    guild_id,
                    channel_id,
                    message_id,
                    cid,
                    message_id,
                    None,
                    stored.game,
                    dumped,
                    '{"first":"challenger"}',
                    seats[0],
                    names[0],
                    seats[1],
                    names[1],
                    now,
                ),
            ).lastrowid
            db.execute("UPDATE challenges SET game_id = ? WHERE id = ?", (gid, cid))
            last = None
            for ply, (move, seat) in enumerate(zip(stored.moves, stored.movers, strict=True), 1):
                last = snowflake()
                db.execute(
                    "INSERT INTO moves (game_id, ply, move, seat, member_id, played_at,"
                    " message_id) VALUES (?,?,?,?,?,?,?)",
                    (gid, ply, move, seat, seats[seat], now, last),
                )
                moves += 1
            db.execute("UPDATE games SET last_message_id = ? WHERE id = ?", (last, gid))
            if has_clocks:
                db.execute(
                    "INSERT INTO clocks (game_id, control, bank0_seconds, bank1_seconds,"
                    " turn_ply, turn_seat, turn_started_at, reminders_sent, due_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?)",
                    clock_row(gid, stored, moment),
                )
        db.execute("COMMIT")
    finally:
        db.close()
    return moves


async def until_idle(pid: int, quiet: float, limit: float) -> float:
    """Seconds until the process used (almost) no CPU for ``quiet`` seconds; the time of
    its last busy sample is returned, measured from the call."""
    start = time.perf_counter()
    last_busy, used = start, cpu_seconds(pid)
    while time.perf_counter() - last_busy < quiet and time.perf_counter() - start < limit:
        await asyncio.sleep(0.05)
        now_used = cpu_seconds(pid)
        if now_used - used > 0.01:
            last_busy = time.perf_counter()
        used = now_used
    return last_busy - start


async def startup_row(workdir: Path, stored: int, seed: int, clocks: bool = True) -> Row:
    async with TimedFake() as fake:
        guild = fake.add_guild("Bench Club")
        channel = fake.add_text_channel(guild, "games")
        players = [fake.add_member(guild, f"member{i}").id for i in range(200)]
        moves = 0
        if stored:
            moves = write_database(
                workdir / "bot.sqlite3",
                guild.id,
                channel.id,
                players,
                stored,
                random.Random(seed),
                clocks=clocks,
            )
        proc = BotProcess(fake, workdir)
        try:
            start = time.perf_counter()
            await proc.start(*COMMANDS, timeout=300)
            ready = time.perf_counter() - start
            assert proc.proc is not None
            pid = proc.proc.pid
            at_ready = memory(pid)["VmRSS"]
            warm = ready + await until_idle(pid, quiet=1.0, limit=120)
            mem = memory(pid)
        finally:
            await proc.stop()
    what = f"start with {stored:,} live games" if stored else "start, empty database"
    if stored and not clocks:
        what += ", no clock rows yet"
    note = (
        f"ready = commands synced + gateway connected; RSS {at_ready / 1024:.0f} MiB at "
        f"ready, {mem['VmRSS'] / 1024:.0f} MiB warm ({mem['VmHWM'] / 1024:.0f} peak)"
    )
    if stored:
        note += f"; {moves:,} stored moves"
    return Row(what, f"{stored:,} games", f"ready {ready:.2f} s", f"warm {warm:.2f} s", "", note)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few games for a few seconds")
    parser.add_argument("--games", type=int, help="games played at once (default 40)")
    parser.add_argument("--rate", type=float, default=100.0, help="offered moves per second")
    parser.add_argument("--seconds", type=float, help="length of the paced phase (default 30)")
    parser.add_argument(
        "--stored", type=int, help="live games in the start-up database (default 10000)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="record the bot with py-spy during the paced phase (collapsed stacks in FILE)",
    )
    parser.add_argument("--only-play", action="store_true", help="skip the start-up runs")
    parser.add_argument(
        "--without-clocks",
        action="store_true",
        help="also start on stored games without clock rows (a database from "
        "before the clocks: the bot gives each one a clock at start-up)",
    )
    args = parser.parse_args(argv)
    games = args.games or (4 if args.quick else 40)
    paced = args.seconds or (2.0 if args.quick else 30.0)
    light, flat = (1.0, 1.5) if args.quick else (10.0, 15.0)
    stored = args.stored if args.stored is not None else (100 if args.quick else 10_000)
    rate = min(args.rate, 10.0) if args.quick else args.rate
    asyncio.run(
        _run(
            games,
            rate,
            (light, paced, flat),
            None if args.only_play else stored,
            args.seed,
            args.profile,
            args.without_clocks,
        )
    )


async def _run(
    games: int,
    rate: float,
    seconds: tuple[float, float, float],
    stored: int | None,
    seed: int,
    profile: Path | None,
    without_clocks: bool = False,
) -> None:
    rows: list[Row] = []
    steps = [("play", lambda d: play_bench(d, games, rate, *seconds, seed, profile))]
    if stored is not None:
        steps += [
            ("empty", lambda d: startup_row(d, 0, seed)),
            ("stored", lambda d: startup_row(d, stored, seed)),
        ]
        if without_clocks:
            steps.append(("unclocked", lambda d: startup_row(d, stored, seed, clocks=False)))
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        for name, step in steps:
            workdir = Path(tmp) / name
            workdir.mkdir()
            result = await step(workdir)
            rows += result if isinstance(result, list) else [result]
    print_table("Whole bot (real bot process, fake Discord on loopback, SQLite)", rows)


if __name__ == "__main__":
    main()
