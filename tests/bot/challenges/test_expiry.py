"""Pending challenges expire after CHALLENGE_EXPIRY_DAYS: one task sleeping until the
oldest is due (no polling), a sweep of what expired while the bot was down, and a
polite refusal for a click that comes first."""

from __future__ import annotations

import asyncio
import math
import sqlite3
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.challenges.expiry import ChallengeExpiry
from bot.model import UserError
from bot.storage import ChallengeRow
from bot.storage.migrations import MIGRATIONS
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, Env

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


class Expiring:
    def __init__(self, env: Env, days: int = 7) -> None:
        self.env = env
        self.sleeps: list[float] = []
        self.expired: list[ChallengeRow] = []
        self.expiry = ChallengeExpiry(
            env.db, now=env.clock, days=days, on_expired=self.shown, sleep=self.sleep
        )

    async def shown(self, challenge: ChallengeRow) -> None:
        self.expired.append(challenge)

    async def sleep(self, seconds: float) -> None:
        """Time passes at once: the fake clock moves on by what was asked."""
        self.sleeps.append(seconds)
        self.env.clock.advance(seconds=seconds)
        await asyncio.sleep(0)

    async def challenge(self, challenger=ANA, opponent=BO) -> ChallengeRow:
        row = await self.env.challenges.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=challenger,
            game="lifeline",
            options={"size": 4},
            opponent=opponent,
        )
        self.expiry.poke()
        return row


@pytest.fixture
async def expiring(env: Env) -> AsyncIterator[Expiring]:
    e = Expiring(env)
    yield e
    await e.expiry.stop()


async def settle(condition, rounds: int = 500) -> None:
    """Let the expiry task run (its database work happens in aiosqlite's thread)."""
    for _ in range(rounds):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the expiry task did not get there")


async def status(env: Env, challenge_id: int) -> str:
    return (await env.challenges.get(GUILD, challenge_id)).status


async def test_a_challenge_expires_after_seven_days_and_not_before(expiring: Expiring) -> None:
    env = expiring.env
    started = env.clock()
    await expiring.expiry.start()
    first = await expiring.challenge()
    env.clock.advance(days=2)
    second = await expiring.challenge(opponent=None)  # an open one, two days younger
    await settle(lambda: len(expiring.expired) == 2)
    assert [c.id for c in expiring.expired] == [first.id, second.id]
    assert [c.status for c in expiring.expired] == ["expired", "expired"]
    # It slept until each was due (a day at most at once), and no more: no polling. (Fake
    # time passes whenever the task sleeps, even while a challenge is being made.)
    assert env.clock() == second.created_at + timedelta(days=7)
    days = math.ceil((env.clock() - started) / timedelta(days=1))
    pokes = 2  # a poke wakes it early, once per challenge
    assert len(expiring.sleeps) <= days + pokes and max(expiring.sleeps) <= 86400
    with pytest.raises(UserError, match="already expired"):
        await env.challenges.accept(guild_id=GUILD, challenge_id=first.id, member=BO)


async def test_an_answered_challenge_does_not_expire(expiring: Expiring) -> None:
    env = expiring.env
    answered = await expiring.challenge()
    await env.challenges.decline(guild_id=GUILD, challenge_id=answered.id, member=BO)
    env.clock.advance(days=8)
    assert await expiring.expiry.expire_due() == []
    assert await status(env, answered.id) == "declined"


async def test_a_click_after_the_deadline_is_refused_and_expires_it(expiring: Expiring) -> None:
    env = expiring.env
    challenge = await expiring.challenge()
    env.clock.advance(days=6, hours=23)
    await expiring.expiry.refuse_if_expired(challenge)  # still in time: no refusal
    env.clock.advance(hours=1)
    with pytest.raises(UserError, match="has expired"):
        await expiring.expiry.refuse_if_expired(challenge)
    assert await status(env, challenge.id) == "expired"
    assert [c.id for c in expiring.expired] == [challenge.id]


async def test_what_expired_while_the_bot_was_down_is_expired_at_start_up(env: Env) -> None:
    before = Expiring(env)
    old = await before.challenge()
    young = await before.challenge(challenger=CY)
    await env.restart()
    env.clock.advance(days=7)
    young_row = await env.challenges.get(GUILD, young.id)
    assert young_row.created_at == old.created_at  # both due now
    after = Expiring(env)
    await after.expiry.start()
    try:
        await settle(lambda: len(after.expired) == 2)
    finally:
        await after.expiry.stop()
    assert {await status(env, old.id), await status(env, young.id)} == {"expired"}


async def test_zero_days_means_challenges_never_expire(env: Env) -> None:
    never = Expiring(env, days=0)
    challenge = await never.challenge()
    env.clock.advance(days=3650)
    await never.expiry.start()
    assert await never.expiry.expire_due() == []
    await never.expiry.refuse_if_expired(challenge)
    assert await status(env, challenge.id) == "pending"


async def test_challenges_stored_before_expiry_survive_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:  # a database as the bot left it before expiry
        for script in MIGRATIONS[:3]:
            conn.executescript(script)
        conn.execute("PRAGMA user_version = 3")
        conn.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, "
            "challenger_name, game, options, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                GUILD,
                CHANNEL,
                ANA.id,
                ANA.name,
                "lifeline",
                '{"size": 4}',
                "2025-12-01T12:00:00+00:00",
            ),
        )
    env = await Env.start(path)  # migrates
    try:
        expiring = Expiring(env)
        (expired,) = await expiring.expiry.expire_due()
        assert (expired.challenger_name, expired.status) == (ANA.name, "expired")
    finally:
        await env.db.close()
