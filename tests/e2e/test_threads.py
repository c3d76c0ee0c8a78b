"""A game lives in a thread of its own, even when the challenge was made inside another
game's thread: commands used in each thread mean that thread's game."""

from __future__ import annotations

import sqlite3

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, accept, start_game


async def test_a_challenge_in_a_games_thread_starts_a_game_in_its_own_thread(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    first = await start_game(fake, world.channel, alice, bob, "astralis", {"size": 7})

    mark = fake.mark()
    ix = await fake.run_command(
        alice,
        "challenge",
        {"game": "sliglube", "opponent": bob, "size": 5, "first": "challenger"},
        channel=first.thread,
    )
    answer = await ix.reply(WAIT)
    assert answer.ephemeral and f"<#{world.channel.id}>" in answer.content, answer.content
    challenge = await fake.wait_for_message(
        world.channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    assert challenge.pinged == {bob.id} and "Sliglube" in challenge.content
    assert not [m for m in first.thread.visible_messages() if m.buttons and m.seq > mark]

    second = await accept(fake, challenge, alice, bob, "sliglube", {"size": 5})
    assert second.thread is not first.thread and second.thread.parent is world.channel

    # Each thread implies its own game: an Astralis move in the first, Sliglube's in the second.
    await first.play("a6")
    await second.play("c3")
    assert first.state.history == ("a6",) and second.state.history == ("c3",)


async def test_a_challenge_in_a_forum_post_is_refused_politely_and_kept_nowhere(
    world: World, botproc: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    post = fake.add_forum_post(world.guild, "boards", "Who plays Asli? 🐉", alice)
    forum = post.parent
    assert forum is not None

    mark = fake.mark()
    ix = await fake.run_command(alice, "challenge", {"game": "asli", "opponent": bob}, channel=post)
    answer = await ix.reply(WAIT)
    answer = answer if answer.content else await ix.followup(0, WAIT)
    assert answer.ephemeral and f"I can't post in <#{forum.id}>" in answer.content, answer.content
    assert not [m for ch in (post, world.channel) for m in ch.visible_messages() if m.seq > mark]
    with sqlite3.connect(botproc.workdir / "bot.sqlite3", timeout=10) as conn:
        assert conn.execute("SELECT status FROM challenges").fetchall() == [("cancelled",)]
