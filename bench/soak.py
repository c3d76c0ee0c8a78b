"""Soak: the real bot (``python -m bot``, its SQLite file in a temporary folder) against
the loopback fake Discord, killed with SIGKILL and started again, cycle after cycle,
while members play and plan conditional replies; with faults after the action (Discord
acts, then answers 5xx, and discord.py sends the request again) and gateway drops. Then
it counts what members would check.

    python -m bench soak [--cycles 200] [--games 6] [--seed 13] [--quick]

Each cycle: faults after the action are armed on a few routes at random (a board's or
an answer's message, a thread, a deferral, a challenge message's edit); sometimes the
gateway drops (resumed, or a fresh session); a *calm* batch of moves is played and
answered (these are the interactions timed against Discord's 3 seconds); then a
*crash* batch of moves (and sometimes a new challenge and its Accept) is sent and the
bot is killed at a random moment while it works, and started again. Before the calm
batch, in some games the member waiting plans a reply to one move of the member to
move (``/conditional add``), who then mostly plays that move, in a calm batch or in a
crash one: the reply is the bot's to play, kill or not.

At the end, from the bot's database and from what the fake shows:

- **answered moves lost**: a move whose /move was answered "You played …" and which
  is not stored;
- **board posts lost**: a stored move (or a game's opening) without its board post;
- **posts doubled**: a board posted twice, a /move answered twice;
- **half-opened games**: a game without its thread, its opening board, or a challenge
  message still showing Accept;
- **conditional replies owed**: a reply planned (its /conditional add answered
  "Saved") whose trigger move is stored and the reply not (or another move instead),
  once the bot is back;
- **conditional replies doubled**: a move stored as conditional that no plan sent
  accounts for (a reply played twice), or a reply's board posted twice;
- **answered within 3 s**: every interaction of the calm batches, first answer by
  Discord's deadline (those of crash batches cut off by the kill are counted apart).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import shutil
import sqlite3
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rules
from bench.common import Row, latency_row, print_table
from tests.fakediscord import Channel, FakeDiscord, Guild, Interaction, Member
from tests.fakediscord.process import BotProcess

#: Small boards of every game, played in turn.
MIX: list[tuple[str, dict[str, Any]]] = [
    ("lifeline", {"size": 5}),
    ("astralis", {"size": 7}),
    ("asli", {"size": 7}),
    ("sliglube", {"size": 5}),
]
COMMANDS = ("challenge", "move", "conditional")
#: The share of games (without a plan) where the member waiting plans a reply, each
#: cycle; and how often the member to move then plays the move planned for.
PLANS = 0.5
PLANNED_MOVE = 0.8
#: Routes armed with a fault after the action, and what each stands for.
FAULT_ROUTES = {
    "create_message": "a board or note posted, answered 500",
    "create_thread_from_message": "a game's thread made, answered 500",
    "create_interaction_response": "a first answer made, answered 500",
    "update_original_webhook_message": "a deferred answer filled in, answered 502",
    "update_message": "a challenge message edited, answered 500",
}
#: Routes a request is held on (unanswered) when the bot is killed.
STALL_ROUTES = (
    "create_message",
    "create_message",
    "create_interaction_response",
    "update_original_webhook_message",
    "create_thread_from_message",
    "update_message",
)
#: Those only an Accept takes.
ACCEPT_ROUTES = ("create_thread_from_message", "update_message")
WAIT = 20.0
DEADLINE = 3.0  # Discord's, for the first answer to an interaction
_BOARD = re.compile(r"(?P<game>[a-z]+)-(?P<id>[0-9]+)-(?P<ply>[0-9]+)\.png")
_GAME_NUMBER = re.compile(r"#([0-9]+)")


@dataclass
class Seat:
    game_id: int
    kind: str
    options: dict[str, Any]
    seats: tuple[Member, Member]
    thread: Channel
    known: int = 0  # stored moves already replayed into ``state``
    state: rules.State | None = None
    #: The waiting member's plan, saved: the ply it was made at, the move of the member
    #: to move it answers (move ply + 1) and the reply (move ply + 2).
    plan: Plan | None = None


@dataclass(frozen=True)
class Plan:
    game_id: int
    ply: int
    trigger: str
    reply: str

    def owed(self, history: list[str]) -> bool:
        """The trigger is stored; the reply must be too."""
        return len(history) > self.ply and history[self.ply] == self.trigger


@dataclass
class Tally:
    cycles: int = 0
    kills: int = 0
    drops: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    faults_hit: Counter[str] = field(default_factory=Counter)
    #: Kills made while a request was held in flight, by route and moment.
    held: Counter[str] = field(default_factory=Counter)
    moves_sent: int = 0
    challenges_sent: int = 0
    calm: list[Interaction] = field(default_factory=list)
    crash: list[Interaction] = field(default_factory=list)
    #: (game id, ply, canonical move) of every /move answered "You played".
    answered: list[tuple[int, int, str]] = field(default_factory=list)
    #: Every /conditional add sent, and those answered "Saved".
    plans_sent: list[Plan] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)
    restarts: list[float] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class Findings:
    """What members would check, at the end; every list should be empty."""

    answered_lost: list[str] = field(default_factory=list)
    boards_lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    half_opened: list[str] = field(default_factory=list)
    #: Conditional replies whose trigger is stored and the reply not, or twice.
    replies_owed: list[str] = field(default_factory=list)
    replies_doubled: list[str] = field(default_factory=list)
    replies_played: int = 0
    #: Pending challenges that nobody can see (no message).
    unposted: list[str] = field(default_factory=list)
    late: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    stored_moves: int = 0
    board_posts: int = 0
    games: int = 0
    delays: list[float] = field(default_factory=list)
    cut_off: int = 0

    @property
    def clean(self) -> bool:
        return not (
            self.answered_lost
            or self.boards_lost
            or self.doubled
            or self.half_opened
            or self.replies_owed
            or self.replies_doubled
            or self.unposted
            or self.late
            or self.violations
        )


class Soak:
    """The members, the games they play, and the kill/restart loop."""

    def __init__(
        self,
        fake: FakeDiscord,
        guild: Guild,
        channel: Channel,
        bot: BotProcess,
        *,
        rng: random.Random,
        games: int,
    ) -> None:
        self.fake, self.guild, self.channel, self.bot = fake, guild, channel, bot
        self.rng = rng
        self.wanted = games
        self.tables: dict[int, Seat] = {}
        self.tally = Tally()
        self._members = 0
        #: The members of each accepted challenge, by its message id, until its game
        #: shows up in the database.
        self.pending_seats: dict[int, tuple[str, dict[str, Any], tuple[Member, Member]]] = {}

    @property
    def database(self) -> Path:
        return self.bot.workdir / "bot.sqlite3"

    # -- the loop --------------------------------------------------------------------

    async def run(self, cycles: int) -> Tally:
        started = time.monotonic()
        while len(self.tables) < self.wanted:
            await self.open_game(wait=True)
            await self.sync()
        for _ in range(cycles):
            await self.cycle()
        await self.settle()
        self.tally.seconds = time.monotonic() - started
        return self.tally

    async def cycle(self) -> None:
        fake, rng, tally = self.fake, self.rng, self.tally
        tally.cycles += 1
        for route in rng.sample(sorted(FAULT_ROUTES), k=rng.randint(0, 2)):
            status = 502 if route == "update_original_webhook_message" else 500
            fake.inject(route, status, after=True)
            tally.faults[route] += 1
        if rng.random() < 0.08:  # the gateway drops: resumed, or a fresh session
            await fake.drop_gateway(invalidate=rng.random() < 0.3)
            tally.drops += 1
            await fake.wait_until_ready(timeout=WAIT)
        await self.sync()
        while len(self.tables) < self.wanted - 1:  # games that ended are replaced
            await self.open_game(wait=True)
            await self.sync()
        for table in self.playable(len(self.tables)):
            if table.plan is None and rng.random() < PLANS:
                await self.plan(table)
        calm = [self.move(table, tally.calm) for table in self.playable(2)]
        await asyncio.gather(*calm)
        await self.sync()
        # The kill: half the time on a request held in flight (the bot has stored the
        # change and is telling Discord; Discord acted or not), else at a random moment.
        held = None
        if rng.random() < 0.5:
            route = rng.choice(STALL_ROUTES)
            held = fake.inject(route, 500, stall=True, after=rng.random() < 0.5)
            tally.held[f"{route} {'after' if held.after else 'before'} Discord acted"] += 1
        crash = [
            asyncio.ensure_future(self.move(table, tally.crash, wait=False))
            for table in self.playable(3)
        ]
        if (held is not None and held.route in ACCEPT_ROUTES) or rng.random() < 0.3:
            crash.append(asyncio.ensure_future(self.open_game(wait=False)))
        if held is not None:
            with contextlib.suppress(TimeoutError):  # else killed all the same
                await fake.wait_until(lambda: held.hits, 3.0, "the held request")
        else:
            await asyncio.sleep(rng.choice((0.0, rng.uniform(0, 0.05), rng.uniform(0, 0.3))))
        await self.bot.kill()
        tally.kills += 1
        if held is not None:
            held.release()
            held.times = held.hits
        await asyncio.gather(*crash, return_exceptions=True)
        for fault in fake.faults:
            fault.times = fault.hits  # what was not hit is disarmed
        began = time.monotonic()
        await self.bot.start(*COMMANDS, timeout=60)
        tally.restarts.append(time.monotonic() - began)

    async def settle(self) -> None:
        """After the last restart: until every stored move has its board (the bot
        delivers what it owed before it connects; this waits for the last answers)."""
        await self.sync()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            games, moves = self.stored()
            expected = {
                (game_id, ply)
                for game_id in games
                for ply in range(len(moves.get(game_id, [])) + 1)
            }
            if expected <= set(self.boards()) and not self.owed(moves):
                return
            await asyncio.sleep(0.2)

    # -- members acting ----------------------------------------------------------------

    def playable(self, count: int) -> list[Seat]:
        tables = [t for t in self.tables.values() if t.state is not None and not t.state.is_over]
        return self.rng.sample(tables, k=min(count, len(tables)))

    async def move(self, table: Seat, log: list[Interaction], *, wait: bool = True) -> None:
        """The member to move plays a random legal move with /move in the game's thread."""
        state = table.state
        assert state is not None and state.to_move is not None
        plan = table.plan
        if plan is not None and plan.owed(list(state.history)):
            return  # the planner's turn: the bot plays their reply
        if plan is not None and plan.ply == state.ply and self.rng.random() < PLANNED_MOVE:
            move = plan.trigger
        else:
            move = self.rng.choice(state.legal_moves())
        try:
            ix = await self.fake.run_command(
                table.seats[state.to_move], "move", {"move": move}, channel=table.thread
            )
        except (RuntimeError, ValueError):
            return  # the bot is away (a kill), or the thread is gone
        self.tally.moves_sent += 1
        log.append(ix)
        ix.soak_game = (table.game_id, state.ply + 1)  # type: ignore[attr-defined]
        if wait:
            await ix.reply(WAIT)

    async def plan(self, table: Seat) -> None:
        """The member waiting plans a reply to one move of the member to move, with
        /conditional add in the game's thread (a calm interaction)."""
        state = table.state
        assert state is not None and state.to_move is not None
        planner = 1 - state.to_move
        after = state.play(self.rng.choice(state.legal_moves()))
        if after.to_move != planner:
            return  # over, or the mover moves again (a decision): nothing to answer
        replied = after.play(self.rng.choice(after.legal_moves()))
        plan = Plan(table.game_id, state.ply, after.history[-1], replied.history[-1])
        line = f"{plan.trigger}, {plan.reply}"
        try:
            ix = await self.fake.run_command(
                table.seats[planner], "conditional add", {"line": line}, channel=table.thread
            )
        except (RuntimeError, ValueError):
            return
        self.tally.plans_sent.append(plan)
        self.tally.calm.append(ix)
        try:
            answer = await ix.reply(WAIT)
        except TimeoutError:
            return
        if answer.content.startswith("Saved") and "after your next move" not in answer.content:
            table.plan = plan
            self.tally.plans.append(plan)

    async def open_game(self, *, wait: bool) -> None:
        """Two new members: /challenge, then Accept (not awaited while a kill looms)."""
        fake, tally = self.fake, self.tally
        self._members += 1
        a = fake.add_member(self.guild, f"soak{self._members}a")
        b = fake.add_member(self.guild, f"soak{self._members}b")
        kind, options = MIX[self._members % len(MIX)]
        batch = tally.calm if wait else tally.crash
        try:
            mark = fake.mark()
            ix = await fake.run_command(
                a,
                "challenge",
                {"game": kind, "opponent": b, **options, "first": "challenger"},
                channel=self.channel,
            )
            tally.challenges_sent += 1
            batch.append(ix)
            await ix.reply(WAIT if wait else 2.0)  # told privately; the message is the channel's
            challenge = await fake.wait_for_message(
                self.channel,
                lambda m: bool(m.buttons) and b.mention in m.content,
                after=mark,
                timeout=WAIT if wait else 2.0,
            )
            click = await fake.click(b, challenge, label="Accept")
        except (TimeoutError, RuntimeError, ValueError, LookupError):
            return  # cut off by the kill before the Accept was sent
        batch.append(click)
        self.pending_seats[challenge.id] = (kind, options, (a, b))
        if wait:
            await fake.wait_until(
                lambda: fake.channels.get(challenge.id), WAIT, "the new game's thread"
            )

    # -- what is stored --------------------------------------------------------------------

    def stored(self) -> tuple[dict[int, sqlite3.Row], dict[int, list[str]]]:
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=30) as conn:
            conn.row_factory = sqlite3.Row
            games = {row["id"]: row for row in conn.execute("SELECT * FROM games")}
            moves: dict[int, list[str]] = {}
            for row in conn.execute("SELECT game_id, move FROM moves ORDER BY game_id, ply"):
                moves.setdefault(row["game_id"], []).append(row["move"])
        conn.close()
        return games, moves

    def conditional_moves(self) -> set[tuple[int, int]]:
        """(game id, index in its history) of every move stored as conditional."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=30) as conn:
            found = conn.execute("SELECT game_id, ply FROM moves WHERE conditional = 1").fetchall()
        conn.close()
        return {(game_id, ply - 1) for game_id, ply in found}

    def owed(self, moves: dict[int, list[str]]) -> list[str]:
        """The planned replies whose trigger is stored and the reply not (or another
        move in its place)."""
        conditional = self.conditional_moves()
        owed = []
        for plan in self.tally.plans:
            history = moves.get(plan.game_id, [])
            if not plan.owed(history):
                continue
            at = plan.ply + 1
            if len(history) <= at:
                owed.append(f"game {plan.game_id} move {at + 1}: `{plan.reply}` not played")
            elif history[at] != plan.reply or (plan.game_id, at) not in conditional:
                owed.append(f"game {plan.game_id} move {at + 1}: `{history[at]}` in its place")
        return owed

    def unposted_challenges(self) -> list[int]:
        """The pending challenges whose message is not posted."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=30) as conn:
            found = conn.execute(
                "SELECT id FROM challenges WHERE status = 'pending' AND message_id IS NULL"
            ).fetchall()
        conn.close()
        return [row[0] for row in found]

    async def sync(self) -> None:
        """The members' view of every game, from what the bot stored."""
        games, moves = self.stored()
        for game_id, row in games.items():
            table = self.tables.get(game_id)
            if table is None:
                seats = self.pending_seats.pop(row["challenge_message_id"] or 0, None)
                thread = self.fake.channels.get(row["thread_id"] or 0)
                if seats is None or thread is None:
                    continue  # not ours, or its thread is not made yet
                kind, options, members = seats
                table = self.tables[game_id] = Seat(game_id, kind, options, members, thread)
                table.state = rules.get_game(kind).new(**options)
            history = moves.get(game_id, [])
            assert table.state is not None
            for move in history[table.known :]:
                table.state = table.state.play(move)
            table.known = len(history)
            if table.plan is not None and table.known > table.plan.ply + 1:
                table.plan = None  # answered, or not taken
        for game_id in [g for g, t in self.tables.items() if t.state and t.state.is_over]:
            del self.tables[game_id]

    def boards(self) -> Counter[tuple[int, int]]:
        """(game id, ply) of every board post the fake shows, counted."""
        found: Counter[tuple[int, int]] = Counter()
        for channel in self.fake.channels.values():
            if channel.guild is not self.guild:
                continue
            for message in channel.visible_messages():
                for attachment in message.attachments:
                    match = _BOARD.fullmatch(attachment.filename)
                    if match:
                        found[int(match["id"]), int(match["ply"])] += 1
        return found

    # -- the findings ------------------------------------------------------------------------

    def findings(self) -> Findings:
        fake, tally = self.fake, self.tally
        out = Findings()
        games, moves = self.stored()
        boards = self.boards()
        out.unposted = [f"challenge {i}: no message" for i in self.unposted_challenges()]
        out.games, out.board_posts = len(games), sum(boards.values())
        out.stored_moves = sum(len(history) for history in moves.values())
        for ix in [*tally.calm, *tally.crash]:
            answer = ix.messages[0] if ix.messages else None
            if len(ix.messages) > 1:
                out.doubled.append(f"{ix.name} answered {len(ix.messages)} times")
            if answer is None or "You played `" not in answer.content:
                continue
            game_id, ply = getattr(ix, "soak_game", (0, 0))
            move = answer.content.split("`")[1]
            stored = moves.get(game_id, [])
            if len(stored) < ply or stored[ply - 1] != move:
                out.answered_lost.append(f"game {game_id} move {ply} `{move}`")
        for game_id, row in games.items():
            for ply in range(len(moves.get(game_id, [])) + 1):
                count = boards[game_id, ply]
                if count == 0:
                    out.boards_lost.append(f"game {game_id} ply {ply}")
                elif count > 1:
                    out.doubled.append(f"game {game_id} ply {ply}: {count} boards")
            thread = fake.channels.get(row["thread_id"] or 0)
            challenge = fake.messages.get(row["challenge_message_id"] or 0)
            if thread is None or not thread.is_thread or thread.deleted:
                out.half_opened.append(f"game {game_id}: no thread")
            if challenge is None or "Accepted" not in challenge.content or challenge.buttons:
                out.half_opened.append(f"game {game_id}: its challenge message still asks")
        for ix in tally.calm:
            if ix.response_delay is None or ix.response_delay > DEADLINE:
                out.late.append(f"{ix.name}: first answer after {ix.response_delay}")
            else:
                out.delays.append(ix.response_delay)
        for ix in tally.crash:
            if ix.response_delay is None:
                out.cut_off += 1
            elif ix.response_delay > DEADLINE:
                out.late.append(f"{ix.name} (crash batch): after {ix.response_delay:.2f} s")
            else:
                out.delays.append(ix.response_delay)
        out.replies_owed = self.owed(moves)
        sent = {
            (p.game_id, p.ply + 1) for p in tally.plans_sent if p.owed(moves.get(p.game_id, []))
        }
        for game_id, at in sorted(self.conditional_moves()):
            if (game_id, at) not in sent:
                out.replies_doubled.append(f"game {game_id} move {at + 1}: no plan of it")
            elif boards[game_id, at + 1] > 1:
                out.replies_doubled.append(f"game {game_id} move {at + 1}: posted twice")
            else:
                out.replies_played += 1
        tally.faults_hit.update(f.route for f in fake.faults if f.hits and not f.stall)
        out.violations = list(fake.violations)
        return out


def rows(tally: Tally, found: Findings) -> list[Row]:
    def count(what: str, value: object, target: str = "0", note: str = "") -> Row:
        return Row(what, "", str(value), "", target, note)

    hit = sum(tally.faults_hit.values())
    restarts = sorted(tally.restarts) or [0.0]
    return [
        count(
            "kill/restart cycles",
            tally.cycles,
            "≥ 200",
            f"{tally.seconds:.0f} s; restart to ready: median "
            f"{restarts[len(restarts) // 2]:.2f} s, longest {restarts[-1]:.2f} s",
        ),
        count(
            "move attempts",
            tally.moves_sent,
            "",
            f"{len(tally.answered)} answered 'You played'; {found.stored_moves} moves stored "
            f"in {found.games} games; {tally.challenges_sent} challenges",
        ),
        count(
            "faults after the action",
            hit,
            "",
            ", ".join(f"{route} {n}" for route, n in sorted(tally.faults_hit.items())),
        ),
        count(
            "kills with a request in flight",
            sum(tally.held.values()),
            "",
            ", ".join(f"{what} {n}" for what, n in sorted(tally.held.items())),
        ),
        count("gateway drops", tally.drops, ""),
        count(
            "answered moves lost", len(found.answered_lost), "0", "; ".join(found.answered_lost[:3])
        ),
        count(
            "board posts lost",
            len(found.boards_lost),
            "0",
            f"{found.board_posts} board posts; " + "; ".join(found.boards_lost[:3]),
        ),
        count("posts doubled", len(found.doubled), "0", "; ".join(found.doubled[:3])),
        count(
            "conditional replies owed",
            len(found.replies_owed),
            "0",
            f"{len(tally.plans)} plans saved, {found.replies_played} replies played; "
            + "; ".join(found.replies_owed[:3]),
        ),
        count(
            "conditional replies doubled",
            len(found.replies_doubled),
            "0",
            "; ".join(found.replies_doubled[:3]),
        ),
        count("half-opened games", len(found.half_opened), "0", "; ".join(found.half_opened[:3])),
        count(
            "challenges without a message", len(found.unposted), "0", "; ".join(found.unposted[:3])
        ),
        latency_row(
            "first answer to an interaction",
            f"{len(found.delays)} answered",
            found.delays or [0.0],
            "≤ 3 s each",
            f"{len(found.late)} later than 3 s; {found.cut_off} cut off by a kill "
            "(sent just before it)",
        ),
        count(
            "requests Discord would reject",
            len(found.violations),
            "0",
            "; ".join(found.violations[:2]),
        ),
    ]


def record_answers(tally: Tally) -> None:
    for ix in [*tally.calm, *tally.crash]:
        answer = ix.messages[0] if ix.messages else None
        if answer is not None and "You played `" in answer.content:
            game_id, ply = getattr(ix, "soak_game", (0, 0))
            tally.answered.append((game_id, ply, answer.content.split("`")[1]))


async def soak(cycles: int, games: int, seed: int) -> tuple[Tally, Findings]:
    workdir = Path(tempfile.mkdtemp(prefix="boardbot-soak-"))
    try:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Soak")
            channel = fake.add_text_channel(guild, "games")
            bot = BotProcess(fake, workdir)
            await bot.start(*COMMANDS, timeout=60)
            runner = Soak(fake, guild, channel, bot, rng=random.Random(seed), games=games)
            try:
                tally = await runner.run(cycles)
                record_answers(tally)
                found = runner.findings()
            finally:
                for fault in fake.faults:
                    fault.release()
                await bot.stop()
            return tally, found
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench soak",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--games", type=int, default=6, help="games kept going at once")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--quick", action="store_true", help="5 cycles, 3 games")
    args = parser.parse_args(argv)
    cycles, games = (5, 3) if args.quick else (args.cycles, args.games)
    tally, found = asyncio.run(soak(cycles, games, args.seed))
    print_table(
        f"Soak: {cycles} kill/restart cycles, {games} games at once (seed {args.seed})",
        rows(tally, found),
    )
    print("\nall targets met" if found.clean else "\nTARGETS MISSED: see the notes above")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
