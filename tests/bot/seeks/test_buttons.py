"""The Accept button of a seek, as a member clicks it: a forged or stale one (a seek
that doesn't exist, or was cancelled) gets a clear private answer and changes nothing;
the button's id survives a restart (it holds the seek's number)."""

from __future__ import annotations

import pytest

from bot.seeks.views import SeekButton, listing_view
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, Env
from tests.bot.support import StandIn

pytestmark = pytest.mark.both_backends


async def games(env: Env) -> int:
    async with env.db.reading() as conn:
        row = await conn.fetch_one("SELECT COUNT(*) AS n FROM games")
    assert row is not None
    return int(row["n"])


async def test_forged_and_stale_accept_buttons_are_answered_privately(env: Env) -> None:
    forged = StandIn(env, BO)
    await SeekButton(424242).callback(forged)
    assert "doesn't exist" in forged.answer["content"]
    assert ("defer", {"ephemeral": True, "thinking": True}) in forged.calls

    seeks = env.app.seeks
    made, _ = await seeks.create(seeker=ANA, game="lifeline", guild_id=GUILD, channel_id=CHANNEL)
    view = listing_view([made])
    assert view is not None and [i.custom_id for i in view.children] == [  # type: ignore[attr-defined]
        f"bb:seek:accept:{made.id}"
    ]
    await seeks.cancel(member=ANA)
    stale = StandIn(env, BO)
    await SeekButton(made.id).callback(stale)
    assert "was cancelled by Ana" in stale.answer["content"]
    assert await games(env) == 0
