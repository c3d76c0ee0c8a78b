"""Conditional moves in a practice game, with the services wired as the bot wires them
(bot.app.build): the bot's move is answered at once from the member's plan, and the
bot answers that in turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import queries
from tests.bot.conftest import ANA, CHANNEL, GUILD, SMALL
from tests.bot.practice.test_service import BOT, Harness

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def harness(database_url: Path | str) -> AsyncIterator[Harness]:
    harness = Harness(database_url)
    await harness.start()
    yield harness
    await harness.stop()


async def test_a_plan_answers_the_bots_move(harness: Harness) -> None:
    app = harness.app
    assert app is not None
    started = await app.practice.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        member=ANA,
        game="astralis",
        options=SMALL["astralis"],
        level="easy",
    )
    game_id = started.game.id
    state = started.state
    assert state.ply == 0 and state.to_move == 0  # Ana's turn: she plans for after it
    mine = state.legal_moves()[0]
    after = state.play(mine)
    for theirs in after.legal_moves():  # whatever the bot plays
        answer = after.play(theirs).legal_moves()[0]
        await app.conditional.add(
            guild_id=GUILD, game_id=game_id, member=ANA, line=f"{theirs}, {answer}"
        )

    await app.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text=mine)
    await harness.heard.at_ply(game_id, 4)  # the bot, the plan, the bot again

    async with app.db.reading() as conn:
        moves = await queries.moves_of_game(conn, game_id)
    assert [(m.member_id, m.conditional) for m in moves] == [
        (ANA.id, False),
        (BOT.id, False),
        (ANA.id, True),  # at once, from the plan
        (BOT.id, False),  # and the bot answered it
    ]
    assert await app.db.read(queries.plans_of_game(game_id)) == []
