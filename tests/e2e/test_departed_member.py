"""A player leaves the server mid-game. The game goes on: their clock keeps running
(they lose on time unless they come back), their opponent can still move, look,
ask for a takeback and resign, and what would ping or message them is harmless.
Nothing raises."""

from __future__ import annotations

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, start_game

OPTIONS = {"size": 7}


async def test_the_game_goes_on_when_a_player_leaves(world: World, botproc: BotProcess) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "astralis", OPTIONS)
    await table.play("a6")
    await table.play("m2")
    chosen = await fake.run_command(bob, "notify", {"how": "dm"}, channel=world.channel)
    await chosen.reply(WAIT)  # a DM to someone who left cannot be delivered
    fake.remove_member(bob)

    mark = fake.mark()  # Alice can still move; Bob's turn then, his clock running
    moved = await fake.run_command(alice, "move", {"move": "b6"}, channel=table.thread)
    assert "You played" in (await moved.reply(WAIT)).content
    board = await fake.wait_for_message(
        table.thread, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    assert "Bob's time for this move runs out" in board.content
    fallback = await fake.wait_for_message(
        table.thread, lambda m: m.mentions == [bob.id], after=mark, timeout=WAIT
    )
    assert "your turn" in fallback.content  # the DM bounced: a mention, harmless

    for command, options in (
        ("board", {}),
        ("games", {}),
        ("myturn", {}),
        ("takeback", {}),
        ("games", {"member": bob}),
    ):
        ix = await fake.run_command(alice, command, options, channel=table.thread)
        answer = await ix.reply(WAIT)
        assert answer.ephemeral and "Sorry" not in answer.content, (command, answer.content)
    request = await fake.wait_for_message(
        table.thread, lambda m: "take back" in m.content, after=mark, timeout=WAIT
    )
    assert request.mentions == [bob.id]

    resign = await fake.run_command(alice, "resign", {}, channel=table.thread)
    confirm = await resign.reply(WAIT)
    mark = fake.mark()
    await (await fake.click(alice, confirm, label="Yes, resign")).reply(WAIT)
    final = await fake.wait_for_message(
        table.thread, lambda m: "Game over" in m.content, after=mark, timeout=WAIT
    )
    assert "Bob wins" in final.content or "Cyan wins" in final.content, final.content
    offer = await fake.wait_for_message(
        table.thread,
        lambda m: any(b.get("label") == "Rematch" for b in m.buttons),
        after=mark,
        timeout=WAIT,
    )
    click = await fake.click(alice, offer, label="Rematch")
    answer = await click.reply(WAIT)
    assert answer.ephemeral and "Sorry" not in answer.content, answer.content
    again = await fake.run_command(
        alice, "challenge", {"game": "astralis", "opponent": bob}, channel=world.channel
    )
    answer = await again.reply(WAIT)
    assert answer.ephemeral and "not a member of this server" in answer.content, answer.content
    log = botproc.log(tail=10_000)
    assert "Traceback" not in log and " ERROR " not in log, log
