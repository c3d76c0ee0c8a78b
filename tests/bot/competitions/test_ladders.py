"""Ladders: join at the bottom, challenge up to 3 places above with at most 2 open
challenges each, a challenger who wins takes the defender's place, an unanswered
challenge is lost by its defender."""

from __future__ import annotations

import pytest

from bot.competitions.ladders import Ladders
from bot.model import Member, UserError
from bot.storage import queries
from tests.bot.competitions.test_service import GAME, ORGANISER
from tests.bot.conftest import CHANNEL, GUILD, SMALL, Env

M = [Member(300 + i, f"L{i}") for i in range(1, 7)]  # L1 … L6


def ladders_of(env: Env) -> Ladders:
    return env.app.ladders


async def places(ladders: Ladders, ladder_id: int) -> list[str]:
    return [r.member_name for r in (await ladders.view(GUILD, ladder_id)).rungs]


@pytest.mark.both_backends
async def test_a_ladder_climbed_by_a_win_and_by_an_unanswered_challenge(env: Env) -> None:
    ladders = ladders_of(env)
    ladder = await ladders.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser=ORGANISER,
        name="Ladder",
        game=GAME,
        options=SMALL[GAME],
        answer_days=3,
    )
    for i, member in enumerate(M[:5], start=1):
        assert await ladders.join(guild_id=GUILD, ladder_id=ladder.id, member=member) == i
    with pytest.raises(UserError, match="already on"):
        await ladders.join(guild_id=GUILD, ladder_id=ladder.id, member=M[0])
    with pytest.raises(UserError, match="the 3 places above"):
        await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[4], defender=M[0])
    with pytest.raises(UserError, match="3 places above"):
        await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[1], defender=M[3])
    with pytest.raises(UserError, match="not on"):
        await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[5], defender=M[0])
    # L5 challenges L2: a challenge message L2 accepts; L2 resigns; L5 takes 2nd place.
    made = await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[4], defender=M[1])
    assert made.challenge_id is not None
    assert [c[0] for c in env.poster.challenges] == [made.challenge_id]
    update = await env.challenges.accept(
        guild_id=GUILD, challenge_id=made.challenge_id, member=M[1]
    )
    assert update.game.settings["ladder_challenge"] == made.id
    with pytest.raises(UserError, match="competition game"):  # a ladder game is owed a result
        await env.app.correspondence.abort(guild_id=GUILD, game_id=update.game.id, member=M[4])
    await env.moves.resign(guild_id=GUILD, game_id=update.game.id, member=M[1])
    assert await places(ladders, ladder.id) == ["L1", "L5", "L2", "L3", "L4"]
    view = await ladders.view(GUILD, ladder.id)
    assert (view.won[M[4].id], view.lost[M[1].id], view.open) == (1, 1, [])
    # At most 2 open challenges each: L4 (5th) challenges L2 and L3; a third is refused,
    # and so is one to L2 from another member once L2 has two.
    first = await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[3], defender=M[2])
    await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[3], defender=M[1])
    with pytest.raises(UserError, match="You have 2 open ladder challenges"):
        await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[3], defender=M[4])
    await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[2], defender=M[1])
    await ladders.join(guild_id=GUILD, ladder_id=ladder.id, member=M[5])  # 6th
    with pytest.raises(UserError, match="L2 has 2 open"):
        await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[5], defender=M[1])
    # Nobody answers within 3 days: each defender loses; the challenges are withdrawn.
    assert await ladders.expire_due() == []
    env.clock.advance(days=3)
    expired = await ladders.expire_due()
    assert len(expired) == 3 and first.id in expired
    assert await ladders.expire_due() == []
    async with env.db.reading() as conn:
        assert (await queries.get_challenge(conn, first.challenge_id or 0)).status == "cancelled"
    # In the order made: L4 took L3's place (4th), then L2's (3rd); L3 then took L2's.
    assert await places(ladders, ladder.id) == ["L1", "L5", "L4", "L3", "L2", "L6"]
    assert (await ladders.view(GUILD, ladder.id)).open == []


async def test_leaving_moves_those_below_up_and_calls_challenges_off(env: Env) -> None:
    ladders = ladders_of(env)
    ladder = await ladders.create(
        guild_id=GUILD, channel_id=CHANNEL, organiser=ORGANISER, name="L", game=GAME
    )
    for member in M[:3]:
        await ladders.join(guild_id=GUILD, ladder_id=ladder.id, member=member)
    made = await ladders.challenge(guild_id=GUILD, ladder_id=ladder.id, member=M[2], defender=M[1])
    await ladders.leave(guild_id=GUILD, ladder_id=ladder.id, member=M[1])
    assert await places(ladders, ladder.id) == ["L1", "L3"]
    view = await ladders.view(GUILD, ladder.id)
    assert view.open == [] and view.rungs[1].place == 2
    async with env.db.reading() as conn:
        assert (await queries.get_challenge(conn, made.challenge_id or 0)).status == "cancelled"
    with pytest.raises(UserError, match="1 to 30 days"):
        await ladders.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            organiser=ORGANISER,
            name="L",
            game=GAME,
            answer_days=0,
        )
