"""Correspondence courtesies against the real bot process: a takeback asked with
/takeback and answered with its buttons, the Rematch button under a finished game,
and a DM preference falling back to the thread when the member's DMs are closed.
(The clocks themselves are tested with a controllable clock in tests/bot.)"""

from __future__ import annotations

import rules
from tests.fakediscord import Member
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, accept, start_game

OPTIONS = {"size": 7}


async def test_a_takeback_asked_and_accepted_with_buttons(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "astralis", OPTIONS)
    await table.play("a6")
    await table.play("m2")

    mark = fake.mark()
    asked = await fake.run_command(bob, "takeback", {}, channel=table.thread)
    assert (await asked.reply(WAIT)).ephemeral
    request = await fake.wait_for_message(
        table.thread, lambda m: "take back" in m.content, after=mark, timeout=WAIT
    )
    assert "`m2`" in request.content and request.pinged == {alice.id}

    for wrong in (bob, carol):  # the requester and a bystander: refused privately
        mark = fake.mark()
        click = await fake.click(wrong, request, label="Accept takeback")
        refusal = await click.followup(0, WAIT)
        assert refusal.ephemeral and refusal.pinged == set(), refusal.content
        assert fake.posts(table.thread, after=mark) == [] and request.buttons

    mark = fake.mark()
    click = await fake.click(alice, request, label="Accept takeback")
    await click.reply(WAIT)
    assert "Accepted by" in request.content and not request.buttons
    board = await fake.wait_for_message(
        table.thread, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    assert "took back `m2`" in board.content and board.pinged == {bob.id}

    table.state = rules.get_game("astralis").new(**OPTIONS).play("a6")
    table.posts.append(board)
    await table.play("m3")  # Bo plays another move in its place


async def test_the_rematch_button_starts_the_same_game_with_seats_swapped(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await start_game(fake, world.channel, alice, bob, "astralis", OPTIONS)
    await table.play("a6")
    await table.play("m2")
    resign = await fake.run_command(alice, "resign", {}, channel=table.thread)
    confirm = await resign.reply(WAIT)
    mark = fake.mark()
    await (await fake.click(alice, confirm, label="Yes, resign")).reply(WAIT)
    offer = await fake.wait_for_message(
        table.thread,
        lambda m: any(b.get("label") == "Rematch" for b in m.buttons),
        after=mark,
        timeout=WAIT,
    )

    mark = fake.mark()
    click = await fake.click(bob, offer, label="Rematch")
    assert "Rematch offered" in (await click.reply(WAIT)).content
    challenge = await fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    assert challenge.pinged == {alice.id} and "Astralis" in challenge.content
    rematch = await accept(fake, challenge, bob, alice, "astralis", OPTIONS)  # Bo moves first
    await rematch.play("a2")
    await rematch.play("m6")


async def test_a_member_with_closed_dms_is_mentioned_in_the_thread(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    bob.user.dms_open = False
    chosen = await fake.run_command(bob, "notify", {"how": "dm"}, channel=world.channel)
    assert "direct message" in (await chosen.reply(WAIT)).content
    table = await start_game(fake, world.channel, alice, bob, "astralis", OPTIONS)

    mark = fake.mark()
    ix = await fake.run_command(alice, "move", {"move": "a6"}, channel=table.thread)
    await ix.reply(WAIT)
    board = await fake.wait_for_message(
        table.thread, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    assert board.pinged == set()  # he asked for DMs: the board does not ping him...
    fallback = await fake.wait_for_message(
        table.thread, lambda m: m.pinged == {bob.id}, after=mark, timeout=WAIT
    )
    assert "your turn in **Astralis" in fallback.content  # ...but the DM bounced
