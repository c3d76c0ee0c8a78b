"""The real bot killed (SIGKILL) between storing a change and showing it on Discord, and
Discord failing *after* it acted: every answered move gets its board exactly once, and
every accepted challenge becomes a whole game (a thread, its opening board, the
challenge message saying so), nothing doubled.

The fake holds the bot's request in flight (``stall``): before carrying it out (the
bot dies, Discord never saw it) or after (Discord acted, the bot never heard), then
the bot is killed and started again."""

from __future__ import annotations

import sqlite3

import pytest

import rules
from tests.fakediscord import FakeDiscord, Fault, Message
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, Table, accept, planned_moves, post_challenge, start_game

OPTIONS = {"size": 3}
SEED = 1  # a 14-ply Lifeline game
WHEN = [False, True]
WHEN_IDS = ["before Discord acted", "after Discord acted"]


def boards(fake: FakeDiscord, table: Table, *, after: int) -> list[Message]:
    parent = table.thread.parent or table.thread
    places = [parent, *[c for c in fake.channels.values() if c.parent is parent]]
    return sorted(
        (
            m
            for c in places
            for m in fake.posts(c, after=after)
            if m.attachments and m.attachments[0].filename.endswith(".png")
        ),
        key=lambda m: m.seq,
    )


async def killed_while(botproc: BotProcess, held: Fault, what: str) -> None:
    """Wait for the held request, kill the bot, let the request go (to nobody)."""
    try:
        await botproc.fake.wait_until(lambda: held.hits == 1, WAIT, what)
        await botproc.kill()
    finally:
        held.release()
    await botproc.start("challenge", "move")


@pytest.mark.parametrize("after", WHEN, ids=WHEN_IDS)
async def test_a_move_killed_before_its_board_gets_it_once_at_restart(
    world: World, botproc: BotProcess, after: bool
) -> None:
    fake = world.fake
    moves = planned_moves("lifeline", OPTIONS, SEED)
    table = await start_game(fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS)
    mark = fake.mark()
    held = fake.inject("create_message", 500, stall=True, after=after)  # the board's post
    await fake.run_command(table.to_move, "move", {"move": moves[0]}, channel=table.thread)
    await killed_while(botproc, held, "the board's post")

    post = await table.next_post(mark)
    table.state = table.state.play(moves[0])
    assert f"played `{moves[0]}`" in post.content
    table.check_post(post)
    table.posts.append(post)
    for move in moves[1:4]:  # the game goes on
        await table.play(move)
    assert len(boards(fake, table, after=mark)) == 4  # one board per move, none doubled


ACCEPT_STEPS = ["create_thread_from_message", "update_message", "create_message"]


@pytest.mark.parametrize("after", WHEN, ids=WHEN_IDS)
@pytest.mark.parametrize("step", ACCEPT_STEPS, ids=["thread", "challenge message", "board"])
async def test_an_accept_killed_anywhere_opens_the_whole_game_at_restart(
    world: World, botproc: BotProcess, step: str, after: bool
) -> None:
    fake = world.fake
    challenge = await post_challenge(
        fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS
    )
    held = fake.inject(step, 500, stall=True, after=after)
    await fake.click(world.bob, challenge, label="Accept")
    await killed_while(botproc, held, f"the Accept's {step}")

    thread = await fake.wait_until(
        lambda: fake.channels.get(challenge.id), WAIT, "the game's thread, grown from the challenge"
    )
    opening = await fake.wait_for_message(thread, lambda m: bool(m.attachments), timeout=WAIT)
    await fake.wait_until(
        lambda: "✅ Accepted by Bob" in challenge.content,
        WAIT,
        "the challenge message to say it was accepted",
    )
    assert not challenge.buttons and f"<#{thread.id}>" in challenge.content
    assert [m for m in thread.visible_messages() if m.attachments] == [opening]
    assert fake.posts(world.channel) == [challenge]  # nothing fell back to the channel
    table = Table(
        fake,
        "lifeline",
        (world.alice, world.bob),
        thread,
        rules.get_game("lifeline").new(**OPTIONS),
        [opening],
    )
    table.check_post(opening)
    await table.play(planned_moves("lifeline", OPTIONS, SEED)[0])


async def test_a_thread_made_twice_is_found_again(world: World, botproc: BotProcess) -> None:
    """Discord makes the game's thread, then answers 500; discord.py asks again and gets
    160004 (the message has a thread already): the game lives in that thread, not in
    the channel beside an empty one."""
    fake = world.fake
    challenge = await post_challenge(
        fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS
    )
    fault = fake.inject("create_thread_from_message", 500, after=True)
    table = await accept(fake, challenge, world.alice, world.bob, "lifeline", OPTIONS)
    await table.play(planned_moves("lifeline", OPTIONS, SEED)[0])
    assert fault.hits == 1 and fake.posts(world.channel) == [challenge]
    assert len(boards(fake, table, after=0)) == 2 and table.posts[-1].channel is table.thread


@pytest.mark.parametrize(
    "routes",
    [
        ("create_interaction_response",),  # the deferral: 40060 the second time
        ("execute_webhook", "update_original_webhook_message"),  # the answer, however sent
        ("create_message",),  # the board
    ],
    ids=["deferral", "answer", "board"],
)
async def test_a_move_whose_request_was_answered_500_after_the_action(
    world: World, botproc: BotProcess, routes: tuple[str, ...]
) -> None:
    """Discord acts on a request of /move, then answers 500, and discord.py sends it
    again: the move goes on (a deferral acknowledged twice is 40060, not a failure),
    is answered once (filling in the deferred answer is an edit, the same however often
    it is sent) and its board posted once (the nonce)."""
    fake = world.fake
    moves = planned_moves("lifeline", OPTIONS, SEED)
    table = await start_game(fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS)
    mark = fake.mark()
    faults = [fake.inject(route, 500, after=True) for route in routes]
    await table.play(moves[0], typed=False)  # no autocomplete: the deferral is /move's
    await table.play(moves[1], typed=False)
    assert sum(f.hits for f in faults) == 1
    [failed] = [r for r in fake.requests if r.status == 500]
    await fake.wait_until(
        lambda: [
            r
            for r in fake.requests
            if r is not failed and (r.method, r.path) == (failed.method, failed.path)
        ],
        WAIT,
        "discord.py to send the request again",
    )
    [ix, _] = table.commands
    assert len(ix.messages) == 1 and not ix.followups, ix.messages  # answered once
    assert len(boards(fake, table, after=mark)) == 2  # one board per move
    log = botproc.log(tail=100_000)
    assert "Traceback" not in log, log[-5000:]


async def test_a_challenge_whose_answer_was_lost_goes_on(world: World, botproc: BotProcess) -> None:
    """/challenge's message is posted, but Discord answers 500 and discord.py sends it
    again (40060): the command goes on as answered, the challenge knows its message,
    and Accept opens the game."""
    fake = world.fake
    lost = fake.inject("create_interaction_response", 500, after=True)
    challenge = await post_challenge(
        fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS
    )
    await fake.wait_until(
        lambda: (
            [r.status for r in fake.requests if r.operation_id == "create_interaction_response"]
            == [500, 400]
        ),
        WAIT,
        "discord.py to send the answer again",
    )
    table = await accept(fake, challenge, world.alice, world.bob, "lifeline", OPTIONS)
    assert lost.hits == 1 and fake.posts(world.channel) == [challenge]
    await table.play(planned_moves("lifeline", OPTIONS, SEED)[0])
    assert stored_message(botproc) == challenge.id  # its message was stored all the same
    log = botproc.log(tail=100_000)
    assert "Traceback" not in log and " ERROR " not in log, log[-5000:]


def stored_message(botproc: BotProcess) -> int | None:
    with sqlite3.connect(botproc.workdir / "bot.sqlite3", timeout=10) as conn:
        (message_id,) = conn.execute("SELECT message_id FROM challenges").fetchone()
    conn.close()
    return message_id


@pytest.mark.parametrize("after", WHEN, ids=WHEN_IDS)
async def test_a_challenge_killed_before_its_message_is_posted_once_at_restart(
    world: World, botproc: BotProcess, after: bool
) -> None:
    """Killed while its message is on its way (before Discord posted it, or after, the
    bot never hearing back): the restart shows the challenge once, with its buttons,
    /games lists it with a Cancel, and the next challenge goes up at once."""
    fake, alice, bob = world.fake, world.alice, world.bob
    mark = fake.mark()
    held = fake.inject("create_message", 500, stall=True, after=after)  # the message's post
    await fake.run_command(
        alice, "challenge", {"game": "lifeline", "opponent": bob, **OPTIONS}, channel=world.channel
    )
    await killed_while(botproc, held, "the challenge message's post")

    posted = await fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    assert posted.pinged == {bob.id} and posted.button(label="Accept")
    listed = await fake.run_command(alice, "games", {}, channel=world.channel)
    shown = await listed.reply(WAIT)
    waiting = next(f for f in shown.embeds[0]["fields"] if f["name"].startswith("Challenges"))
    assert f"/{posted.id})" in waiting["value"]  # linked to its message
    cancel = await fake.click(alice, shown, label="Cancel")
    await cancel.reply(WAIT)
    await fake.wait_until(lambda: "Cancelled" in posted.content, WAIT, "the message to say so")
    assert not posted.buttons
    again = await post_challenge(fake, world.channel, alice, bob, "lifeline", OPTIONS)
    assert again.id != posted.id
    with sqlite3.connect(botproc.workdir / "bot.sqlite3", timeout=10) as conn:
        assert conn.execute(
            "SELECT COUNT(*) FROM challenges WHERE status = 'pending' AND message_id IS NULL"
        ).fetchone() == (0,)
    channel_posts = [m for m in fake.posts(world.channel, after=mark) if m.buttons or m.seq]
    assert len([m for m in channel_posts if "Lifeline" in m.content]) == 2  # none doubled
