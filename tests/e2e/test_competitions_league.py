"""A 20-member league run for two seasons through the real bot and the loopback
Discord, with no moderator action after its creation: the first season starts at the
deadline, three divisions (7, 7, 6) each play a double round robin, every game ended
by a member resigning; at the end of each season the top 2 of each division go up and
the bottom 2 down, said in each division's thread, and the next season begins by
itself once the break after its last game is over (a day: moved back in the bot's
database, as the deadline is). Each division's standings equal the ones worked out here."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import open_database
from bot.storage.rows import stamp
from tests.fakediscord import Channel, Message
from tests.fakediscord.process import BotProcess

from .competitions import (
    FIRST_RESIGNS,
    SECOND_RESIGNS,
    Competitor,
    Played,
    bot_settings,
    database_of,
    end_games,
    expected_standings,
    make,
    posted_standings,
    round_games,
)
from .conftest import World
from .driver import WAIT, GameThread, command_reply, grant_manage_server


def decide(game: GameThread) -> str:
    """Resignations only (a loss on time waits up to a second for the bot's clock to
    read the database again: the tournaments' tests have them)."""
    return SECOND_RESIGNS if game.game_id % 2 else FIRST_RESIGNS


SIZES = (7, 7, 6)  # 20 members cut into divisions of about 6
ROUNDS = {7: 14, 6: 10}  # a double round robin's rounds


@pytest.fixture
async def bot(world: World, tmp_path: Path, database_url: object) -> AsyncIterator[BotProcess]:
    proc = BotProcess(world.fake, tmp_path, **bot_settings(database_url))
    try:
        await proc.start("league", "resign")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())


async def time_passes(database: str, sql: str) -> None:
    """A deadline is moved into the past in the bot's database (its timers read it again
    within a second): nobody starts a season by hand."""
    db = await open_database(database)
    try:
        async with db.transaction() as tx:
            await tx.change(sql, (stamp(datetime.now(UTC) - timedelta(days=2)),))
    finally:
        await db.close()


def division_post(world: World, season: int, number: int) -> Message | None:
    for m in world.channel.visible_messages():
        if f"season {season}, division {number}**" in m.content:
            return m
    return None


async def play_season(
    world: World, who: Competitor, season: int
) -> list[tuple[Channel, list[str], Played]]:
    """Every division of the season played to its end: (thread, players, played)."""
    fake = world.fake
    divisions = []
    for number in range(1, 4):
        post = await fake.wait_until(
            lambda n=number: division_post(world, season, n), WAIT, f"division {number}"
        )
        names = re.search(r"Players: (.+)\.$", post.content, re.MULTILINE)
        assert names, post.content
        thread = await fake.wait_until(
            lambda p=post: fake.channels.get(p.id), WAIT, "the division's thread"
        )
        divisions.append((thread, names[1].split(", "), Played()))
    assert sorted(len(players) for _, players, _ in divisions) == sorted(SIZES)
    for number in range(1, max(ROUNDS.values()) + 1):
        games = []
        for thread, players, played in divisions:
            if number <= ROUNDS[len(players)]:
                games += await round_games(who, thread, number, played)
        await end_games(who, games, decide, Played())
        # (recorded per division below, from the seats members saw)
        for _, players, played in divisions:
            for g in games:
                if set(g.seats) <= set(players):
                    first, second = g.seats
                    how = decide(g)
                    played.games.append((first, second, 1.0 if how == SECOND_RESIGNS else 0.0))
    for thread, players, played in divisions:
        final = await fake.wait_for_message(thread, lambda m: "is over" in m.content, timeout=WAIT)
        expected = expected_standings(players, who.ids, played)
        assert posted_standings(final.content) == expected, final.content
    return divisions


def ranked(who: Competitor, division: tuple[Channel, list[str], Played]) -> list[str]:
    _, players, played = division
    return [name for _, name, *_ in expected_standings(players, who.ids, played)]


async def test_a_twenty_member_league_for_two_seasons(world: World, bot: BotProcess) -> None:
    fake, channel, organiser = world.fake, world.channel, world.alice
    members = [fake.add_member(world.guild, f"club{i:02}") for i in range(20)]
    who = Competitor(fake, channel, members, database_of(bot))
    grant_manage_server(organiser)
    number, _ = await make(
        fake,
        organiser,
        channel,
        "league",
        {"name": "Club", "deadline": "1d", "division_size": 6, "rated": False},
    )
    for member in members:
        answer = await command_reply(fake, member, "league join", {"league": number}, channel)
        assert answer.ephemeral and "You're in" in answer.content, answer.content
    await time_passes(who.database, "UPDATE leagues SET starts_at = ?")
    before = None
    for season in (1, 2):
        divisions = await play_season(world, who, season)
        # The next season waits for the break after the last game (a day): it passes
        assert division_post(world, season + 1, 1) is None
        await time_passes(
            who.database, "UPDATE tournaments SET finished_at = ? WHERE status = 'finished'"
        )
        order = [ranked(who, d) for d in divisions]
        if before is not None:  # this season's divisions: last season's, moved
            assert [sorted(d[1]) for d in divisions] == [sorted(d) for d in before]
        # The next season's divisions by the rules: top 2 up, bottom 2 down
        moved = [list(one) for one in order]
        for upper, lower in itertools.pairwise(moved):
            upper[-2:], lower[:2] = lower[:2], upper[-2:]
        before = moved
        for k, (thread, _, _) in enumerate(divisions, start=1):
            news = await fake.wait_for_message(
                thread, lambda m: "Season " in m.content and "begins" in m.content, timeout=WAIT
            )
            if k > 1:
                for name in order[k - 1][:2]:
                    assert f"{name} (division {k - 1})" in news.content.split("Relegated")[0]
            if k < 3:
                for name in order[k - 1][-2:]:
                    assert f"{name} (division {k + 1})" in news.content.split("Relegated")[1]
    # The third season began by itself too; the first two are there to see
    await fake.wait_until(lambda: division_post(world, 3, 3), WAIT, "season 3")
    shown = await command_reply(
        fake, members[0], "league standings", {"league": number, "season": 1}, channel
    )
    assert shown.ephemeral and "season 1" in shown.content
