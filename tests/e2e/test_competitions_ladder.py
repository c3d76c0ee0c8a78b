"""An 8-member ladder through the real bot and the loopback Discord: members join at
the bottom, challenge up to 3 places above (the challenge message's Accept button),
play their games to the end (resigned, or lost on time), and a challenge left
unanswered past the ladder's days is lost by its defender, with nobody acting. The
places members see equal the ones worked out here; a challenge out of reach, or one
too many, is refused privately and changes nothing."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import open_database
from bot.storage.rows import stamp
from tests.fakediscord import Member, Message
from tests.fakediscord.process import BotProcess

from .competitions import Competitor, bot_settings, database_of, make
from .conftest import World
from .driver import (
    WAIT,
    GameThread,
    command_reply,
    decode_png,
    game_threads,
    grant_manage_server,
    resign_game,
    run_out_of_time,
)

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def bot(world: World, tmp_path: Path, database_url: object) -> AsyncIterator[BotProcess]:
    proc = BotProcess(world.fake, tmp_path, **bot_settings(database_url))
    try:
        await proc.start("ladder", "resign")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())


class Ladder:
    """The ladder as the test keeps it: names, top first, and each one's won-lost."""

    def __init__(self, names: list[str]) -> None:
        self.places = list(names)
        self.won = dict.fromkeys(names, 0)
        self.lost = dict.fromkeys(names, 0)

    def result(self, challenger: str, defender: str, challenger_won: bool) -> None:
        winner, loser = (challenger, defender) if challenger_won else (defender, challenger)
        self.won[winner] += 1
        self.lost[loser] += 1
        if challenger_won and self.places.index(defender) < self.places.index(challenger):
            self.places.remove(challenger)
            self.places.insert(self.places.index(defender), challenger)

    def lines(self) -> list[str]:
        return [
            f"{i}. {n} ({self.won[n]}–{self.lost[n]})" for i, n in enumerate(self.places, start=1)
        ]


async def challenge(world: World, number: int, challenger: Member, defender: Member) -> Message:
    """``challenger`` challenges ``defender`` on the ladder: the challenge message."""
    fake = world.fake
    mark = fake.mark()
    answer = await command_reply(
        fake, challenger, "ladder challenge", {"ladder": number, "member": defender}, world.channel
    )
    assert answer.ephemeral and "Challenge posted" in answer.content, answer.content
    return await fake.wait_for_message(
        world.channel,
        lambda m: bool(m.buttons) and defender.mention in m.content,
        after=mark,
        timeout=WAIT,
    )


async def accepted(world: World, message: Message, defender: Member) -> GameThread:
    click = await world.fake.click(defender, message, label="Accept")
    await click.reply(WAIT)
    return await world.fake.wait_until(
        lambda: next(
            (g for g in game_threads(world.fake, world.channel) if g.thread.id == message.id), None
        ),
        WAIT,
        "the ladder game's thread",
    )


async def shown(world: World, member: Member, number: int) -> Message:
    answer = await command_reply(
        world.fake, member, "ladder show", {"ladder": number}, world.channel
    )
    assert answer.ephemeral
    return answer


def places_of(message: Message) -> list[str]:
    return [line for line in message.content.splitlines() if re.match(r"^\d+\. ", line)]


async def test_an_eight_member_ladder(world: World, bot: BotProcess) -> None:
    fake, channel, organiser = world.fake, world.channel, world.alice
    members = [fake.add_member(world.guild, f"rung{i}") for i in range(8)]
    who = Competitor(fake, channel, members, database_of(bot))
    by = who.by_name
    grant_manage_server(organiser)
    number, _ = await make(
        fake, organiser, channel, "ladder", {"name": "The Ladder", "answer_days": 2}
    )
    for place, member in enumerate(members, start=1):
        answer = await command_reply(fake, member, "ladder join", {"ladder": number}, channel)
        assert f"place {place}" in answer.content, answer.content
    ladder = Ladder(list(by))
    r = members

    # Out of reach (4 places up), and oneself: refused privately, nothing changes
    for target in (r[3], r[7]):
        mark = fake.mark()
        answer = await command_reply(
            fake, r[7], "ladder challenge", {"ladder": number, "member": target}, channel
        )
        assert answer.ephemeral and "challenge" in answer.content.lower(), answer.content
        assert not [m for m in fake.posts(channel, after=mark) if m.buttons]
    assert places_of(await shown(world, r[0], number)) == ladder.lines()

    # Rung7 (8th) beats Rung4 (5th): up to 5th. Rung3 (4th) v Rung1 (2nd): the first
    # seat runs out of time. Rung2 (3rd) challenges Rung0 (1st), who never answers.
    first = await accepted(world, await challenge(world, number, r[7], r[4]), r[4])
    second = await accepted(world, await challenge(world, number, r[3], r[1]), r[1])
    unanswered = [
        await challenge(world, number, r[2], r[0]),
        await challenge(world, number, r[6], r[4]),
    ]
    # Rung4 has two open challenges now: a third is one too many
    mark = fake.mark()
    answer = await command_reply(
        fake, r[5], "ladder challenge", {"ladder": number, "member": r[4]}, channel
    )
    assert answer.ephemeral and "2 open ladder challenges" in answer.content, answer.content
    assert not [m for m in fake.posts(channel, after=mark) if m.buttons]

    await resign_game(fake, r[4], first)
    ladder.result("Rung7", "Rung4", True)
    await run_out_of_time(who.database, [second.game_id])
    await fake.wait_until(lambda: second.over, WAIT, "the game lost on time")
    ladder.result("Rung3", "Rung1", second.seats[0] == "Rung1")

    db = await open_database(who.database)
    try:  # two days pass, as far as the bot's database says
        async with db.transaction() as tx:
            await tx.change(
                "UPDATE ladder_challenges SET expires_at = ? WHERE status = 'open'",
                (stamp(datetime.now(UTC) - timedelta(minutes=1)),),
            )
    finally:
        await db.close()
    ladder.result("Rung2", "Rung0", True)
    ladder.result("Rung6", "Rung4", True)
    for message in unanswered:  # withdrawn by the bot once lost
        await fake.wait_until(
            lambda m=message: (
                not any(b.get("label") == "Accept" and not b.get("disabled") for b in m.buttons)
            ),
            WAIT,
            "the unanswered challenge withdrawn",
        )
    final = await shown(world, r[0], number)
    assert places_of(final) == ladder.lines(), final.content
    assert decode_png(final)
