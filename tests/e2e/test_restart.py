"""The bot is killed (SIGKILL) mid-game and started again: buttons posted before the
kill still work, and the game goes on to its end."""

from __future__ import annotations

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import PLANS, accept, planned_moves, post_challenge


async def test_buttons_survive_a_kill(world: World, botproc: BotProcess) -> None:
    fake = world.fake
    options, seed = PLANS["asli"]
    moves = planned_moves("asli", options, seed)
    assert moves[0].startswith("komi ") and moves[1] in ("black", "white")  # the komi pie

    challenge = await post_challenge(fake, world.channel, world.alice, world.bob, "asli", options)
    await botproc.kill()
    await botproc.start("challenge", "move")
    table = await accept(fake, challenge, world.alice, world.bob, "asli", options)

    await table.play(moves[0])  # the komi form, through its button
    decision = table.posts[-1]
    assert decision.button(label=table.decision_for(moves[1])[0].label)
    await botproc.kill()
    await botproc.start("challenge", "move")
    await table.play(moves[1])  # a button of a post made before the kill
    assert table.posts[-2] is decision and not decision.buttons  # used, then removed
    for move in moves[2:]:
        await table.play(move)
    assert table.state.is_over
    posts = table.thread.visible_messages()
    final = next(i for i, post in enumerate(posts) if post is table.posts[-1])
    assert final == len(moves) == len(posts) - 1  # the opening board, one post per move
    assert posts[final].attachment(".gif") and posts[final].attachment(".txt")
    assert fake.gateway_log.count("identify") == 3
