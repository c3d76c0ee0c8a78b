"""A seek whose players share no server with the bot: made in one member's DM with
the bot, accepted from a server's lobby by a member of that server only, its game is
played in both players' DMs; the bot killed after the accept loses nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import Channel, FakeDiscord, Message, User
from tests.fakediscord.process import BotProcess

from .driver import PLANS, WAIT, decode_png, planned_moves
from .test_seeks import Servers, servers  # noqa: F401 (the fixture)

GAME = "lifeline"
OPTIONS, SEED = PLANS[GAME]


@pytest.fixture
async def bot(servers: Servers, tmp_path: Path) -> AsyncIterator[BotProcess]:  # noqa: F811
    proc = BotProcess(servers.fake, tmp_path)
    try:
        await proc.start("seek", "lobby", "move")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())  # shown by pytest when the test fails


def boards(fake: FakeDiscord, dm: Channel, after: int) -> list[Message]:
    return [m for m in fake.posts(dm, after=after) if m.attachments]


async def both_boards(fake: FakeDiscord, users: tuple[User, User], after: int) -> list[Message]:
    dms = [fake.dm_channel(u) for u in users]
    found = await fake.wait_until(
        lambda: (
            all(boards(fake, dm, after) for dm in dms)
            and [boards(fake, dm, after)[0] for dm in dms]
        ),
        WAIT,
        "a board in both players' DMs",
    )
    for post in found:
        decode_png(post)
    return found


async def test_a_seek_from_a_dm_is_played_in_both_players_dms(
    servers: Servers,  # noqa: F811
    bot: BotProcess,
) -> None:
    s, fake = servers, servers.fake
    told = await (
        await fake.run_command(s.mod_b, "lobby channel", {"channel": s.lobby_b}, channel=s.lobby_b)
    ).reply(WAIT)
    assert f"<#{s.lobby_b.id}>" in told.content
    dana = fake.add_user("dana")  # in no server of the bot's: the app on her account
    mark = fake.mark()
    ix = await fake.run_command(
        dana, "seek create", {"game": GAME, **OPTIONS}, channel=fake.dm_channel(dana)
    )
    answer = await ix.reply(WAIT)
    assert answer.ephemeral and "posted in the lobby of 1 server" in answer.content, answer.content
    card = await fake.wait_for_message(
        s.lobby_b,
        lambda m: bool(m.buttons) and "dana" in m.content.lower(),
        after=mark,
        timeout=WAIT,
    )
    mark = fake.mark()
    click = await fake.click(s.bob, card, label="Accept")
    started = await click.reply(WAIT)
    assert started.ephemeral and "played in your DMs" in started.content, started.content
    players = (dana, s.bob.user)
    first = await both_boards(fake, players, mark)
    assert all(dana.mention in post.content for post in first)  # dana plays first
    await fake.wait_until(lambda: "taken by bob" in card.content.lower(), WAIT, "the card taken")
    assert not card.buttons
    assert not any(c.is_thread for c in fake.channels.values())  # no server holds it

    await bot.kill()  # the bot dies after the accept: the game goes on from the DMs
    await bot.start("move")
    moves = planned_moves(GAME, OPTIONS, SEED)
    for ply, move in enumerate(moves[:2]):
        mover = players[ply % 2]
        mark = fake.mark()
        ix = await fake.run_command(mover, "move", {"move": move}, channel=fake.dm_channel(mover))
        assert (await ix.reply(WAIT)).ephemeral
        posted = await both_boards(fake, players, mark)
        assert all(f"`{move}`" in post.content for post in posted), [p.content for p in posted]
    assert "Traceback" not in bot.log(tail=10_000)
