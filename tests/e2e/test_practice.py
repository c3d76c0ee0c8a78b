"""Practice games against the real bot process through the fake Discord: a complete
game of each game against the bot (its tiny test budget, AI_TEST_PLAYOUTS), a member's
/move answered by the bot's own board post; and another member's command answered
while the AI thinks (a bigger budget, so that it thinks long enough to be overtaken)."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from tests.fakediscord import Member, Message
from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .conftest import World
from .driver import PLANS, WAIT, Table

#: The bot's move in its post: ``played `c3```, or a colour choice, ``chose white``.
BOT_MOVE = re.compile(r"(?:played `([^`]+)`|chose (\w+)\.)")


async def _bot(world: World, tmp_path: Path, playouts: int) -> BotProcess:
    proc = BotProcess(world.fake, tmp_path, AI_TEST_PLAYOUTS=str(playouts))
    await proc.start("practice", "move", "profile")
    return proc


@pytest.fixture
async def botproc(world: World, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = await _bot(world, tmp_path, 8)
    try:
        yield proc
    finally:
        await proc.stop()
        print(proc.log())


async def _practice(world: World, game: str, options: dict, **more: object) -> Table:
    """Alice starts a practice game; returns its table once the opening board is up."""
    fake = world.fake
    mark = fake.mark()
    ix = await fake.run_command(
        world.alice, "practice", {"game": game, **options, **more}, channel=world.channel
    )
    answer = await ix.reply(WAIT)
    assert not answer.ephemeral and "not rated" in answer.content, answer.content
    bot = world.guild.members[fake.bot_user.id]

    def opening() -> Message | None:
        for channel in fake.channels.values():
            if channel.parent is world.channel:
                posts = [m for m in fake.posts(channel, after=mark) if m.attachments]
                if posts:
                    return posts[0]
        return None

    post = await fake.wait_until(opening, WAIT, "the practice game's opening board")
    table = Table(fake, game, (world.alice, bot), post.channel, rules.get_game(game).new(**options))
    table.posts.append(post)
    return table


async def _bots_answer(table: Table, after: Message) -> Message:
    post = await table.next_post(after.seq)
    found = BOT_MOVE.search(post.content)
    assert found, post.content
    table.state = table.state.play(found[1] or found[2])
    table.check_post(post)
    table.posts.append(post)
    return post


@pytest.mark.parametrize("game", sorted(PLANS))
async def test_a_complete_practice_game(world: World, botproc: BotProcess, game: str) -> None:
    options, seed = PLANS[game]
    table = await _practice(world, game, options)
    pick = random.Random(seed)
    post = table.posts[-1]
    while not table.state.is_over:  # a player may move twice running (a colour choice)
        if table.to_move is world.alice:
            post = await table.play(pick.choice(table.state.legal_moves()))
        else:
            post = await _bots_answer(table, post)
    end = table.posts[-1]
    assert "Game over" in end.content and end.attachment(".gif") and end.attachment(".txt")
    assert "Rating" not in end.content  # practice is never rated
    typing = [
        r
        for r in world.fake.requests
        if r.operation_id == "trigger_typing_indicator" and str(table.thread.id) in r.path
    ]
    assert typing, "the bot showed no typing indicator while it thought"
    ix = await world.fake.run_command(world.alice, "profile", {}, channel=world.channel)
    profile = await ix.reply(WAIT)
    shown = str(profile.embeds)
    assert "Practice against me" in shown and "**easy**: " in shown, shown


async def test_commands_are_answered_while_the_bot_thinks(
    world: World, tmp_path: Path, carol: Member
) -> None:
    proc = await _bot(world, tmp_path, 3_000)
    try:
        table = await _practice(world, "astralis", {"size": 8}, level="hard")
        move = random.Random(1).choice(table.state.legal_moves())
        post = await table.play(move)
        ix = await world.fake.run_command(carol, "profile", {}, channel=world.channel)
        answered = await ix.reply(WAIT)
        reply = await _bots_answer(table, post)
        assert answered.seq < reply.seq, "carol waited for the AI"
        assert (ix.response_delay or 0) < seconds(3)
    finally:
        await proc.stop()
        print(proc.log())


async def test_challenging_the_bot_starts_a_practice_game(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    bot = world.guild.members[fake.bot_user.id]
    ix = await fake.run_command(
        world.alice,
        "challenge",
        {"game": "lifeline", "opponent": bot, "size": 3, "level": "medium"},
        channel=world.channel,
    )
    answer = await ix.reply(WAIT)
    assert "level **medium**, not rated" in answer.content, answer.content


async def test_two_practice_commands_at_once_start_one_game_and_refuse_privately(
    world: World, botproc: BotProcess
) -> None:
    fake = world.fake
    mark = fake.mark()
    asked = [
        await fake.run_command(
            world.alice, "practice", {"game": "lifeline", "size": 3}, channel=world.channel
        )
        for _ in range(2)
    ]

    def answered() -> list[Message] | None:
        shown = {m.id: m for ix in asked for m in ix.messages if not m.deleted and not m.loading}
        return list(shown.values()) if len(shown) == 2 else None

    shown = await fake.wait_until(answered, WAIT, "both answers")
    public = [m for m in shown if not m.ephemeral]
    private = [m for m in shown if m.ephemeral]
    assert len(public) == 1 and "practises" in public[0].content, public
    assert len(private) == 1 and "already setting up" in private[0].content, private
    assert "cancel" not in private[0].content
    posted = [m.content for m in fake.posts(world.channel, after=mark)]
    assert posted == [public[0].content], posted  # no refusal, no placeholder, in public
