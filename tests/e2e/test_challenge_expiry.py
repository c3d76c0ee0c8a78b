"""Challenges nobody answers expire (CHALLENGE_EXPIRY_DAYS, 7 by default): the message
says so and its buttons are disabled; a click that comes first is refused politely.
The bot cannot be made to wait a week, so the challenge's creation time is moved a
week back in the bot's database."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from datetime import UTC, datetime, timedelta

from tests.fakediscord import Message
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT


def backdate(botproc: BotProcess, days: float) -> None:
    """Every pending challenge was made ``days`` ago."""
    when = (datetime.now(UTC) - timedelta(days=days)).isoformat()
    with sqlite3.connect(botproc.workdir / "bot.sqlite3", timeout=10) as conn:
        conn.execute("UPDATE challenges SET created_at = ? WHERE status = 'pending'", (when,))


async def challenge(world: World, botproc: BotProcess, opponent: bool = True) -> Message:
    """Alice's challenge, once the bot has stored which message it is (after answering)."""
    options = {"game": "lifeline", **({"opponent": world.bob} if opponent else {})}
    mark = world.fake.mark()
    ix = await world.fake.run_command(world.alice, "challenge", options, channel=world.channel)
    await ix.reply(WAIT)  # told privately where it is
    message = await world.fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    for _ in range(int(WAIT / 0.05)):
        with sqlite3.connect(botproc.workdir / "bot.sqlite3", timeout=10) as conn:
            if conn.execute(
                "SELECT 1 FROM challenges WHERE message_id = ?", (message.id,)
            ).fetchone():
                return message
        await asyncio.sleep(0.05)
    raise AssertionError("the bot did not store the challenge's message")


def shows_expired(message: Message) -> bool:
    return (
        "Expired" in message.content
        and bool(message.buttons)
        and all(b.get("disabled") for b in message.buttons)
    )


async def test_challenges_that_expired_while_the_bot_was_down(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    direct, open_ = await challenge(world, botproc), await challenge(world, botproc, opponent=False)
    for message in (direct, open_):  # each says when it expires: in a week
        found = re.search(r"It expires <t:(\d+):R>", message.content)
        assert found and abs(int(found[1]) - time.time() - 7 * 86400) < 60, message.content
    await botproc.kill()
    backdate(botproc, days=7.01)
    await botproc.start("challenge")
    for message in (direct, open_):
        await fake.wait_until(lambda m=message: shows_expired(m), WAIT, "the expired challenge")
    assert not any(c.is_thread for c in fake.channels.values())  # no game started
    assert "Traceback" not in botproc.log(tail=10_000)


async def test_accepting_an_expired_challenge_is_refused_politely(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    young, old = await challenge(world, botproc), None
    backdate(botproc, days=6.9)
    click = await fake.click(world.bob, young, label="Accept")  # six days on: still in time
    await click.reply(WAIT)
    assert "Accepted" in young.content

    old = await challenge(world, botproc, opponent=False)
    backdate(botproc, days=7.01)  # the bot's expiry task has not woken up for it yet
    mark = fake.mark()
    click = await fake.click(world.bob, old, label="Accept")
    answer = await click.followup(0, WAIT)
    assert answer.ephemeral and "expired" in answer.content, answer.content
    await fake.wait_until(lambda: shows_expired(old), WAIT, "the expired challenge")
    assert fake.posts(world.channel, after=mark) == []
    assert "Traceback" not in botproc.log(tail=10_000)
