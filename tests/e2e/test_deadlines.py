"""What members see of the clock: each board post and /board say when the player to
move runs out of time, as a Discord relative timestamp."""

from __future__ import annotations

import re
import time

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, start_game

DAY = 24 * 3600


def deadline_in(text: str, name: str) -> float:
    """Seconds from now to the deadline the text gives ``name``."""
    found = re.search(rf"{name}'s time for this move runs out <t:(\d+):R>", text)
    assert found, text
    return int(found[1]) - time.time()


async def test_boards_show_the_deadline_of_the_player_to_move(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "astralis", {"size": 7})
    assert 3 * DAY - 60 < deadline_in(table.posts[-1].content, "Alice") <= 3 * DAY
    await table.play("a6")
    assert 3 * DAY - 60 < deadline_in(table.posts[-1].content, "Bob") <= 3 * DAY
    assert "Alice's time" not in table.posts[-1].content

    ix = await fake.run_command(alice, "board", {}, channel=table.thread)
    board = await ix.reply(WAIT)
    assert board.ephemeral and 3 * DAY - 60 < deadline_in(board.content, "Bob") <= 3 * DAY


async def test_no_deadline_without_a_time_limit(world: World, botproc: BotProcess) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    mark = fake.mark()
    ix = await fake.run_command(
        alice,
        "challenge",
        {"game": "astralis", "opponent": bob, "size": 7, "time_control": "none"},
        channel=world.channel,
    )
    await ix.reply(WAIT)
    challenge = await fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    click = await fake.click(bob, challenge, label="Accept")
    await click.reply(WAIT)
    thread = fake.channels[challenge.id]
    opening = await fake.wait_for_message(thread, lambda m: bool(m.attachments), timeout=WAIT)
    assert "runs out" not in opening.content and "your turn" in opening.content
