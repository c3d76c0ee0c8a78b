"""/settings as a member meets it in Discord: a private panel; with confirm moves on,
/move shows the move on the board privately and plays it on Confirm; the move
autocomplete tells a member with nothing to play why."""

from __future__ import annotations

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, decode_png, start_game


async def test_confirm_moves_and_the_theme(world: World, botproc: BotProcess) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "astralis", {"size": 7})
    ix = await fake.run_command(
        alice, "settings", {"confirm_moves": True, "theme": "light"}, channel=table.thread
    )
    panel = await ix.reply(WAIT)
    assert (
        panel.ephemeral
        and "Confirm moves: **on**" in panel.content
        and "**light**" in panel.content
    )

    mark = fake.mark()
    ix = await fake.run_command(alice, "move", {"move": "a6"}, channel=table.thread)
    shown = await ix.reply(WAIT)
    assert shown.ephemeral and "`a6` is marked on the board" in shown.content
    light = decode_png(shown).convert("RGB").getpixel((2, 2))
    assert sum(light) > 3 * 180  # the light theme's background
    assert not [m for m in table.thread.visible_messages() if m.seq > mark]  # nothing played

    click = await fake.click(alice, shown, label="Confirm")
    done = await click.reply(WAIT)
    assert done.content.startswith("You played `a6` in [Astralis #1](") and not done.buttons
    post = await table.next_post(mark)
    table.state = table.state.play("a6")
    table.check_post(post)
    assert sum(decode_png(post).convert("RGB").getpixel((2, 2))) < 3 * 100  # the thread: dark

    [why] = await fake.autocomplete(
        alice, "move", {"move": ""}, "move", channel=table.thread, timeout=WAIT
    )
    assert why["name"] == "It's Bob's turn in Astralis #1: nothing for you to play yet."
    ix = await fake.run_command(alice, "move", {"move": why["value"]}, channel=table.thread)
    answer = await ix.reply(WAIT)
    assert answer.ephemeral and answer.content.startswith("Nothing was played: It's Bob's")
