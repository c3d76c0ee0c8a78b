"""Interactions the bot did not see coming: a form opened before a restart and
submitted after it, a form or a button that is out of date, a button of a message
format the bot no longer knows. Each gets an answer (never "This interaction
failed"), and only a current one changes anything."""

from __future__ import annotations

from tests.fakediscord import Member, Message, text_inputs
from tests.fakediscord.interactions import Interaction
from tests.fakediscord.models import snowflake
from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .conftest import World
from .driver import PLANS, WAIT, Table, planned_moves, start_game


async def open_komi_form(table: Table) -> tuple[Interaction, str]:
    """The player to move clicks the button of the number the game asks for (the komi);
    the form the bot opened."""
    post = table.posts[-1]
    komi = next(d for d in table.state.decisions() if d.number)
    button = next(b for b in post.buttons if b["label"] == komi.label)
    opened = await table.fake.click(table.to_move, post, custom_id=button["custom_id"])
    field = text_inputs(await opened.modal(WAIT))[0]["custom_id"]
    return opened, field


async def asli(world: World) -> tuple[Table, list[str]]:
    options, seed = PLANS["asli"]
    moves = planned_moves("asli", options, seed)
    assert moves[0].startswith("komi ")  # the komi pie opens with the form
    return await start_game(
        world.fake, world.channel, world.alice, world.bob, "asli", options
    ), moves


async def answered_privately(ix: Interaction) -> Message:
    answer = await ix.reply(WAIT)
    assert answer.ephemeral, answer.content
    assert ix.response_delay is not None and ix.response_delay < seconds(3)
    return answer


async def test_a_form_opened_before_a_restart_is_submitted_after_it(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    table, moves = await asli(world)
    opened, field = await open_komi_form(table)
    await botproc.kill()
    await botproc.start("challenge", "move")

    mark = fake.mark()
    submitted = await fake.submit_modal(table.to_move, opened, {field: moves[0].split()[1]})
    answer = await answered_privately(submitted)
    assert f"`{moves[0]}`" in answer.content
    post = await table.next_post(mark)
    table.state = table.state.play(moves[0])
    table.check_post(post)
    table.posts.append(post)
    await table.play(moves[1])  # and the game goes on
    assert "Traceback" not in botproc.log(tail=10_000)


async def test_a_form_for_a_move_already_made_is_refused_politely(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    table, moves = await asli(world)
    mover = table.to_move
    opened, field = await open_komi_form(table)
    await table.play(moves[0], prefer_buttons=False)  # the komi chosen with /move instead

    mark = fake.mark()
    submitted = await fake.submit_modal(mover, opened, {field: "3"})
    answer = await answered_privately(submitted)
    assert "out of date" in answer.content
    assert fake.posts(table.thread, after=mark) == []
    await table.play(moves[1])  # nothing changed: the game goes on


async def test_a_garbled_komi_is_refused_and_the_form_can_be_used_again(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    fake = world.fake
    table, moves = await asli(world)
    opened, field = await open_komi_form(table)
    for member, text in ((table.to_move, "lots"), (table.to_move, "-1"), (carol, "3")):
        mark = fake.mark()
        answer = await answered_privately(await fake.submit_modal(member, opened, {field: text}))
        assert "Sorry" not in answer.content, answer.content
        assert fake.posts(table.thread, after=mark) == []
    answer = await answered_privately(
        await fake.submit_modal(table.to_move, opened, {field: moves[0].split()[1]})
    )
    assert f"`{moves[0]}`" in answer.content
    assert "Traceback" not in botproc.log(tail=10_000)


async def answer_to(ix: Interaction) -> Message:
    """What the member sees: the reply, or the followup after a deferred update."""
    first = await ix.response(WAIT)
    assert ix.response_delay is not None and ix.response_delay < seconds(3)
    answer = await (ix.followup(0, WAIT) if first["type"] == 6 else ix.reply(WAIT))
    assert answer.ephemeral and answer.pinged == set(), answer.content
    return answer


async def test_buttons_the_bot_does_not_know_are_answered_politely(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    mark = fake.mark()
    ix = await fake.run_command(
        alice, "challenge", {"game": "lifeline", "opponent": bob}, channel=world.channel
    )
    await ix.reply(WAIT)
    challenge = await fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    before, original = challenge.content, list(challenge.components)

    async def click_each(custom_ids: list[str]) -> list[str]:
        """Put the buttons on the message (one row, as Discord allows) and click each."""
        challenge.components = [
            *original,
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": f"test {n}", "custom_id": custom_id}
                    for n, custom_id in enumerate(custom_ids)
                ],
            },
        ]
        said = []
        for custom_id in custom_ids:
            answer = await answer_to(await fake.click(bob, challenge, custom_id=custom_id))
            assert "Sorry" not in answer.content, (custom_id, answer.content)
            said.append(answer.content)
        return said

    # Buttons as an older version of the bot (or another bot's message format) made them.
    said = await click_each(
        [
            "challenge_accept_1",
            "bb:challenge:accept:notanumber",
            "bb:nosuchthing:1",
            "bb:choice:1:0:SWAP",
            "x" * 100,
        ]
    )
    assert all("out of date" in text for text in said), said
    # Well-formed ids of things that do not exist (any more): refused by their handlers.
    await click_each(
        [
            "bb:challenge:accept:99999999",
            "bb:choice:99999999:0:swap",
            "bb:rematch:99999999",
            "bb:takeback:accept:99999999",
            "bb:resign:99999999:1",
        ]
    )
    huge = "9" * 30  # more than SQLite's integers hold
    await click_each(
        [
            f"bb:challenge:accept:{huge}",
            f"bb:choice:{huge}:0:swap",
            f"bb:rematch:{huge}",
            f"bb:takeback:accept:{huge}",
            f"bb:resign:{huge}:{huge}",
        ]
    )
    await click_each(
        [
            f"bb:review:{huge}:0:next",
            f"bb:review:1:{huge}:next",
            f"bb:number:{huge}:0:0",
            f"bb:number:1:{huge}:0",
        ]
    )
    too_big = "9" * 19  # 19 digits, as row ids may have, but above 2**63 - 1
    await click_each(
        [
            f"bb:challenge:accept:{too_big}",
            f"bb:review:{too_big}:0:next",
            f"bb:rematch:{too_big}",
            f"bb:resign:{too_big}:{too_big}",
            f"bb:takeback:decline:{too_big}",
        ]
    )
    challenge.components = original
    assert challenge.content == before and challenge.button(label="Accept")
    log = botproc.log(tail=10_000)
    assert "Traceback" not in log and " ERROR " not in log, log


async def test_a_command_the_bot_no_longer_has_is_answered_politely(
    world: World, botproc: BotProcess
) -> None:
    """Discord's app may still offer a command removed in a newer version of the bot."""
    fake = world.fake
    fake.global_commands.append(
        {
            "id": str(snowflake()),
            "application_id": str(fake.application_id),
            "name": "oldgames",
            "type": 1,
            "description": "gone",
            "options": [],
            "version": "1",
        }
    )
    ix = await fake.run_command(world.alice, "oldgames", {}, channel=world.channel)
    answer = await answered_privately(ix)
    assert "out of date" in answer.content
    assert "Traceback" not in botproc.log(tail=10_000)
