"""What the competitions' end-to-end tests share: members who sign up and play a
tournament's rounds through the real bot, each game ended by a resignation or a loss
on time, and the standings worked out again here, independently of the bot's code."""

from __future__ import annotations

import asyncio
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.fakediscord import Channel, FakeDiscord, Member, Message

from .driver import (
    QUICK_GAME,
    QUICK_OPTIONS,
    WAIT,
    GameThread,
    command_reply,
    open_games,
    resign_game,
    run_out_of_time,
)

#: How a game ends: the first seat or the second resigns, or the first seat (to move
#: at the start) runs out of time.
FIRST_RESIGNS, SECOND_RESIGNS, FIRST_TIMES_OUT = "first resigns", "second resigns", "time"
_PAIRING = re.compile(r"^- (\S+) – (\S+)(?:: (1–0|0–1|½–½) \(forfeit\))?$")
_BYE = re.compile(r"^- (\S+): a bye$")
_ROW = re.compile(r"^\s*(\d+) (\S+)\s+(\S+)\s+(\S+)\s+(\d+)-(\d+)-(\d+)$")
_POINTS = {"1–0": 1.0, "0–1": 0.0, "½–½": 0.5}


@dataclass
class Played:
    """What members saw of a competition: each game (first seat, second seat, the first
    seat's points), forfeits included, and the byes."""

    games: list[tuple[str, str, float]] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)
    #: The round posts seen, by number.
    rounds: dict[int, Message] = field(default_factory=dict)


def expected_standings(
    names: list[str], ids: dict[str, int], played: Played, ratings: dict[str, float] | None = None
) -> list[tuple[int, str, float, float, str]]:
    """The standings by the issue's rules, computed here: (rank, name, points,
    Sonneborn–Berger, W-D-L), by score, then S-B, then head-to-head among those level
    on both, then rating (then the member's id); those level on all four share a rank."""
    rating = ratings or dict.fromkeys(names, 1500.0)
    score: dict[str, float] = dict.fromkeys(names, 0.0)
    wdl = {n: [0, 0, 0] for n in names}
    for a, b, p in played.games:
        score[a] += p
        score[b] += 1 - p
        for who, got in ((a, p), (b, 1 - p)):
            wdl[who][{1.0: 0, 0.5: 1, 0.0: 2}[got]] += 1
    for n in played.byes:
        score[n] += 1
    sb = dict.fromkeys(names, 0.0)
    for a, b, p in played.games:
        sb[a] += p * score[b]
        sb[b] += (1 - p) * score[a]
    h2h = dict.fromkeys(names, 0.0)
    for a, b, p in played.games:
        if (score[a], sb[a]) == (score[b], sb[b]):
            h2h[a] += p
            h2h[b] += 1 - p

    def key(n: str) -> tuple[float, float, float, float]:
        return (-score[n], -sb[n], -h2h[n], -rating[n])

    order = sorted(names, key=lambda n: (*key(n), ids[n]))
    table: list[tuple[int, str, float, float, str]] = []
    for i, n in enumerate(order):
        rank = table[-1][0] if i and key(order[i - 1]) == key(n) else i + 1
        table.append((rank, n, score[n], round(sb[n], 2), "-".join(map(str, wdl[n]))))
    return table


def posted_standings(text: str) -> list[tuple[int, str, float, float, str]]:
    """The standings table of a post, as the bot wrote it."""
    rows = []
    for line in text.splitlines():
        found = _ROW.match(line)
        if found:
            rank, name, pts, sb, w, d, lo = found.groups()
            rows.append((int(rank), name, float(pts), float(sb), f"{w}-{d}-{lo}"))
    return rows


def pairings(post: Message) -> tuple[list[tuple[str, str, float | None]], list[str]]:
    """A round post's games (a forfeit with its points) and byes."""
    games, byes = [], []
    for line in post.content.splitlines():
        if line.startswith("Standings after"):
            break
        if found := _PAIRING.match(line):
            games.append((found[1], found[2], None if found[3] is None else _POINTS[found[3]]))
        elif found := _BYE.match(line):
            byes.append(found[1])
    return games, byes


@dataclass
class Competitor:
    """The members of a competition, by the names the bot shows."""

    fake: FakeDiscord
    channel: Channel
    members: list[Member]
    database: str

    @property
    def by_name(self) -> dict[str, Member]:
        return {m.user.username.title(): m for m in self.members}

    @property
    def ids(self) -> dict[str, int]:
        return {name: m.id for name, m in self.by_name.items()}


async def sign_up(fake: FakeDiscord, post: Message, members: list[Member]) -> None:
    """Each member presses Join on the sign-up post, one after the other."""
    for member in members:
        click = await fake.click(member, post, label="Join")
        answer = await click.reply(WAIT)
        assert answer.ephemeral and "You're in" in answer.content, answer.content


async def make(
    fake: FakeDiscord, organiser: Member, channel: Channel, what: str, options: dict[str, object]
) -> tuple[int, Message]:
    """``/what create``: the new competition's number and the bot's private answer."""
    answer = await command_reply(
        fake,
        organiser,
        f"{what} create",
        {"game": QUICK_GAME, **QUICK_OPTIONS, **options},
        channel,
    )
    assert answer.ephemeral, answer.content
    found = re.search(r"#(\d+)", answer.content)
    assert found, answer.content
    return int(found[1]), answer


async def end_games(
    who: Competitor,
    games: list[GameThread],
    decide: Callable[[GameThread], str],
    played: Played,
) -> None:
    """End each game as ``decide`` says, all at once; record the results."""
    resigning, timing_out = [], []
    for game in games:
        how = decide(game)
        first, second = game.seats
        if how == FIRST_TIMES_OUT:
            timing_out.append(game.game_id)
            played.games.append((first, second, 0.0))
        else:
            loser = first if how == FIRST_RESIGNS else second
            resigning.append(resign_game(who.fake, who.by_name[loser], game))
            played.games.append((first, second, 0.0 if loser == first else 1.0))
    if timing_out:
        await run_out_of_time(who.database, timing_out)
    await asyncio.gather(*resigning)
    for game in games:
        await who.fake.wait_until(lambda g=game: g.over, WAIT, f"the end of #{game.game_id}")


async def round_games(
    who: Competitor, thread: Channel, number: int, played: Played
) -> list[GameThread]:
    """Round ``number``'s post in the tournament's thread, and its games once open (its
    forfeits and byes recorded)."""
    post = await who.fake.wait_for_message(
        thread, lambda m: f"**Round {number}**" in m.content, timeout=WAIT
    )
    played.rounds[number] = post
    games, byes = pairings(post)
    played.byes += byes
    to_play = Counter((a, b) for a, b, points in games if points is None)
    for a, b, points in games:
        if points is not None:
            played.games.append((a, b, points))

    def opened() -> list[GameThread] | None:
        found = [g for g in open_games(who.fake, who.channel) if g.seats in to_play]
        return found if Counter(g.seats for g in found) == to_play else None

    return await who.fake.wait_until(opened, WAIT, f"the games of round {number}")


def seat_balance(played: Played) -> dict[str, int]:
    """Each player's first seats minus second seats."""
    balance: dict[str, int] = defaultdict(int)
    for a, b, _ in played.games:
        balance[a] += 1
        balance[b] -= 1
    return balance


def decide_by_board(game: GameThread) -> str:
    """A spread of endings: by the game's number, a resignation of either seat or a
    loss on time."""
    return (SECOND_RESIGNS, FIRST_RESIGNS, FIRST_TIMES_OUT)[game.game_id % 3]


def bot_settings(database_url: object) -> dict[str, str]:
    """The bot's settings for these tests: its database (a SQLite file or PostgreSQL),
    its timers reading the database again every second (a loss on time is a clock moved
    back in the database), and the AI's analysis of each finished game at its tiny test
    budget (hundreds of games end here)."""
    where = str(database_url)
    found = {"PROCESS_LEASE_SECONDS": "1", "AI_TEST_PLAYOUTS": "16"}
    if where.startswith("postgresql"):
        found["DATABASE_URL"] = where
    else:
        found["DATABASE_PATH"] = where
    return found


def database_of(bot: object) -> str:
    settings = bot.settings  # type: ignore[attr-defined]
    return str(settings.get("DATABASE_URL") or settings["DATABASE_PATH"])
