"""No live button on a game that is over: an abort at the komi takes the komi's button
away; a game lost on time while the bot was down loses its [Swap] when the bot starts."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, start_game


async def test_an_abort_at_the_komi_leaves_no_button(world: World, botproc: BotProcess) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "asli", {"size": 5})
    opening = table.posts[-1]
    assert opening.button(label="Choose the komi")
    mark = fake.mark()
    ix = await fake.run_command(bob, "abort", {}, channel=table.thread)
    assert "aborted" in (await ix.reply(WAIT)).content
    final = await fake.wait_for_message(
        table.thread, lambda m: "Game over" in m.content, after=mark, timeout=WAIT
    )
    assert not final.buttons and "Well played" not in final.content
    await fake.wait_until(lambda: not opening.buttons, WAIT, "the komi button to go")


async def test_a_game_lost_on_time_while_the_bot_was_down_loses_its_buttons(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "lifeline", {"size": 4})
    await table.play(table.state.legal_moves()[0])
    asking = table.posts[-1]
    assert asking.button(label="Swap")
    await botproc.kill()
    long_ago = (datetime.now(UTC) - timedelta(days=4)).isoformat(timespec="microseconds")
    with sqlite3.connect(botproc.workdir / "bot.sqlite3") as db:  # Bob's time runs out
        db.execute("UPDATE clocks SET turn_started_at = ?, due_at = ?", (long_ago, long_ago))
    mark = fake.mark()
    await botproc.start("challenge", "move")
    final = await fake.wait_for_message(
        table.thread, lambda m: "Game over" in m.content, after=mark, timeout=WAIT
    )
    assert "ran out of time" in final.content and "(on time)" not in final.content
    await fake.wait_until(lambda: not asking.buttons, WAIT, "the Swap button to go")
