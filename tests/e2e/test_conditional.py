"""Conditional moves against the real bot process: a tree planned with /conditional add
in the game's thread, played through by the opponent's real /moves (each reply posted
once, marked), a move outside it clearing it with a DM, the tree never shown to the
opponent, and a reply owed when the bot was killed played once it is back."""

from __future__ import annotations

import pytest

from tests.fakediscord import Member, Message
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, Table, start_game
from .test_crash_windows import killed_while

OPTIONS = {"size": 5}


async def opened(world: World) -> Table:
    """A Sliglube game past its opening: Bob (seat 1) to move, Alice planning."""
    table = await start_game(world.fake, world.channel, world.alice, world.bob, "sliglube", OPTIONS)
    await table.play("a1")
    await table.play("white")
    assert table.to_move is world.bob
    return table


async def plan(table: Table, member: Member, line: str) -> Message:
    ix = await table.fake.run_command(
        member, "conditional add", {"line": line}, channel=table.thread
    )
    answer = await ix.reply(WAIT)
    assert answer.ephemeral, answer.content
    return answer


def dms_to(table: Table, member: Member) -> list[Message]:
    channel = table.fake.dm_channels.get(member.id)
    return [] if channel is None else list(channel.messages)


async def reply_post(table: Table, mark: int, move: str) -> Message:
    """The board of the conditional reply ``move`` after ``mark``."""

    def find() -> Message | None:
        found = [
            m
            for m in table.fake.posts(table.thread, after=mark)
            if m.attachments and "(conditional move)" in m.content
        ]
        return found[0] if found else None

    post = await table.fake.wait_until(find, WAIT, f"the conditional move {move}")
    assert f"`{move}`" in post.content
    table.state = table.state.play(move)
    table.check_post(post)
    table.posts.append(post)
    return post


async def test_a_planned_tree_plays_through_and_stays_secret(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    table = await opened(world)
    answer = await plan(table, alice, "c3, d4, b2, e5")
    assert "c3 → d4" in answer.content and answer.attachment(".png")
    await plan(table, alice, "c2; d2")

    # Bob sees nothing of it: his board, the thread.
    ix = await fake.run_command(bob, "board", {}, channel=table.thread)
    looked = await ix.reply(WAIT)
    assert "d4" not in looked.content and "e5" not in looked.content
    ix = await fake.run_command(bob, "conditional show", {}, channel=table.thread)
    assert "no conditional moves" in (await ix.reply(WAIT)).content

    mark = fake.mark()
    await table.play("c3", answered=True)  # no ping for Alice: her reply follows
    await reply_post(table, mark, "d4")
    mark = fake.mark()
    await table.play("b2", answered=True)
    await reply_post(table, mark, "e5")
    # Once each: nothing more than Bob's two moves and Alice's two replies.
    boards = [m for m in fake.posts(table.thread) if m.attachments]
    assert [b.content.count("(conditional move)") for b in boards[-4:]] == [0, 1, 0, 1]
    assert sum("(conditional move)" in b.content for b in boards) == 2

    # The tree is played through: nothing left to show.
    ix = await fake.run_command(alice, "conditional show", {}, channel=table.thread)
    assert "no conditional moves" in (await ix.reply(WAIT)).content


async def test_a_move_outside_the_tree_clears_it_and_a_kill_loses_no_reply(
    world: World, botproc: BotProcess
) -> None:
    fake, alice = world.fake, world.alice
    table = await opened(world)
    await plan(table, alice, "c3, d4, b3, e4")
    await plan(table, alice, "b2, d2")
    mark = fake.mark()
    await table.play("c3", answered=True)
    await reply_post(table, mark, "d4")
    await table.play("a2")  # not in the tree: cleared, and Alice is told privately
    told = await fake.wait_until(
        lambda: [m for m in dms_to(table, alice) if "`a2`" in m.content],
        WAIT,
        "the DM saying the tree is cleared",
    )
    assert "cleared" in told[0].content
    ix = await fake.run_command(alice, "conditional show", {}, channel=table.thread)
    assert "no conditional moves" in (await ix.reply(WAIT)).content

    # A new plan, the bot killed, Bob's move and the reply on the bot's return.
    await table.play("e1")  # Alice by hand; Bob to move
    await plan(table, alice, "e2, e3")
    await botproc.kill()
    await botproc.start()
    mark = fake.mark()
    await table.play("e2", answered=True)
    await reply_post(table, mark, "e3")


@pytest.mark.parametrize(
    "after", [False, True], ids=["before Discord acted", "after Discord acted"]
)
async def test_killed_between_the_opponents_move_and_the_reply(
    world: World, botproc: BotProcess, after: bool
) -> None:
    """The bot dies posting the board of Bob's move (the reply not played yet): back,
    it posts that board once and plays the reply once."""
    fake, alice = world.fake, world.alice
    table = await opened(world)
    await plan(table, alice, "c3, d4")
    mark = fake.mark()
    held = fake.inject("create_message", 500, stall=True, after=after)
    await fake.run_command(table.to_move, "move", {"move": "c3"}, channel=table.thread)
    await killed_while(botproc, held, "the board of Bob's move")

    post = await table.next_post(mark)
    assert "played `c3`" in post.content
    table.state = table.state.play("c3")
    table.posts.append(post)
    await reply_post(table, mark, "d4")
    boards = [m for m in fake.posts(table.thread, after=mark) if m.attachments]
    assert len(boards) == 2, [b.content for b in boards]  # Bob's move and the reply, once each


async def test_a_reply_become_illegal_is_dropped_with_a_private_notice(
    world: World, botproc: BotProcess
) -> None:
    """Planned on her own turn (after her next move), Alice's reply `d4` is taken by
    that very move: when Bob plays as planned, nothing is played for her, she is told
    privately, and it is her turn by hand."""
    fake, alice = world.fake, world.alice
    table = await opened(world)
    await table.play("c3")  # Bob; Alice to move
    answer = await plan(table, alice, "b2, d4")
    assert "after your next move" in answer.content
    await table.play("d4")  # Alice by hand: the cell of her planned reply
    mark = fake.mark()
    await table.play("b2")  # Bob, as planned: the reply can't be played
    told = await fake.wait_until(
        lambda: [m for m in dms_to(table, alice) if "`d4`" in m.content],
        WAIT,
        "the DM saying the reply was dropped",
    )
    assert "can't be played" in told[0].content
    assert table.to_move is alice
    assert not [m for m in fake.posts(table.thread, after=mark) if "(conditional" in m.content]
    ix = await fake.run_command(alice, "conditional show", {}, channel=table.thread)
    assert "no conditional moves" in (await ix.reply(WAIT)).content


async def test_a_line_explored_in_a_sandbox_is_saved_and_played(
    world: World, botproc: BotProcess
) -> None:
    """Alice explores from the game's position (/review's Explore), plays Bob's likely
    move and her reply there, and saves them: when Bob plays it, her reply follows."""
    fake, alice = world.fake, world.alice
    table = await opened(world)
    browser = await (await fake.run_command(alice, "review", {}, channel=table.thread)).reply(WAIT)
    sandbox = await (await fake.click(alice, browser, label="Explore")).reply(WAIT)
    assert sandbox.ephemeral, sandbox.content
    for move in ("c3", "d4"):
        played = await (
            await fake.run_command(alice, "explore", {"move": move}, channel=table.thread)
        ).reply(WAIT)
    saved = await (await fake.click(alice, played, label="Save as conditional moves")).reply(WAIT)
    assert saved.ephemeral and "Saved as conditional moves" in saved.content, saved.content
    mark = fake.mark()
    await table.play("c3", answered=True)
    await reply_post(table, mark, "d4")
