"""One pool of players across servers, through the real bot: a seek made in one server
is posted in the lobby of every server that set one, accepted from another server,
and its game starts in a server both players share with the bot; two members
accepting at once make one game; the bot restarted in between loses nothing; a rated
game shows on the global leaderboard, not on a server's where nobody played."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import rules
from tests.fakediscord import Channel, FakeDiscord, Guild, Member, Message
from tests.fakediscord.models import Perm, Role
from tests.fakediscord.process import BotProcess

from .driver import PLANS, WAIT, Table, planned_moves

MANAGE_GUILD = 1 << 5
TABLES = ("games", "challenges")
GAME = "lifeline"
OPTIONS, SEED = PLANS[GAME]


@dataclass
class Servers:
    fake: FakeDiscord
    alpha: Guild
    beta: Guild
    lobby_a: Channel
    lobby_b: Channel
    general_a: Channel
    mod_a: Member
    mod_b: Member
    alice_a: Member  # alice in Alpha (where she seeks)
    alice_b: Member  # and in Beta
    bob: Member  # in Beta only
    carol: Member  # in Beta only


def moderator(fake: FakeDiscord, guild: Guild, name: str) -> Member:
    member = fake.add_member(guild, name)
    role = Role(id=guild.id + len(guild.roles) + 1, name="mods", permissions=Perm.MEMBER)
    role.permissions |= MANAGE_GUILD
    guild.roles.append(role)
    member.roles.append(role)
    return member


@pytest.fixture
def servers(fake: FakeDiscord) -> Servers:
    alpha, beta = fake.add_guild("Alpha"), fake.add_guild("Beta")
    lobby_a, general_a = fake.add_text_channel(alpha, "lobby"), fake.add_text_channel(alpha, "g")
    lobby_b = fake.add_text_channel(beta, "lobby")
    alice_a = fake.add_member(alpha, "alice")
    return Servers(
        fake,
        alpha,
        beta,
        lobby_a,
        lobby_b,
        general_a,
        moderator(fake, alpha, "moda"),
        moderator(fake, beta, "modb"),
        alice_a,
        fake.join(beta, alice_a.user),
        fake.add_member(beta, "bob"),
        fake.add_member(beta, "carol"),
    )


@pytest.fixture
async def bot(servers: Servers, tmp_path: Path) -> AsyncIterator[BotProcess]:
    proc = BotProcess(servers.fake, tmp_path)
    try:
        await proc.start("seek", "lobby", "leaderboard")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())  # shown by pytest when the test fails


async def answer(fake: FakeDiscord, member: Member, name: str, options: dict, channel: Channel):
    ix = await fake.run_command(member, name, options, channel=channel)
    return await ix.reply(WAIT)


async def set_lobbies(s: Servers) -> None:
    # a member without Manage Server is refused, and nothing is set
    refused = await answer(s.fake, s.bob, "lobby channel", {"channel": s.lobby_b}, s.lobby_b)
    assert refused.ephemeral and "Manage Server" in refused.content
    for mod, lobby in ((s.mod_a, s.lobby_a), (s.mod_b, s.lobby_b)):
        told = await answer(s.fake, mod, "lobby channel", {"channel": lobby}, lobby)
        assert told.ephemeral and f"<#{lobby.id}>" in told.content, told.content


async def seek(s: Servers) -> tuple[Message, Message]:
    """Alice seeks in Alpha: its card appears in both lobbies, with Accept."""
    mark = s.fake.mark()
    told = await answer(s.fake, s.alice_a, "seek create", {"game": GAME, **OPTIONS}, s.general_a)
    assert told.ephemeral and "posted in the lobby of 2 servers" in told.content, told.content
    cards = []
    for lobby in (s.lobby_a, s.lobby_b):
        cards.append(
            await s.fake.wait_for_message(
                lobby,
                lambda m: bool(m.buttons) and "alice" in m.content.lower(),
                after=mark,
                timeout=WAIT,
            )
        )
    assert all(c.button(label="Accept") for c in cards)
    return cards[0], cards[1]


def taken(card: Message, by: str) -> bool:
    return f"taken by {by}" in card.content.lower() and not card.buttons


async def game_thread(s: Servers, lobby: Channel) -> Channel:
    return await s.fake.wait_until(
        lambda: next((c for c in s.fake.channels.values() if c.parent is lobby), None),
        WAIT,
        "the game's thread in the lobby",
    )


async def test_a_seek_from_one_server_accepted_in_another(
    servers: Servers, bot: BotProcess
) -> None:
    s, fake = servers, servers.fake
    await set_lobbies(s)
    card_a, card_b = await seek(s)
    # the bot restarts with the seek open: its cards and buttons still work
    await bot.kill()
    await bot.start("seek")
    listed = await answer(fake, s.carol, "seek list", {}, s.lobby_b)
    assert listed.ephemeral and "#1 alice" in listed.content.lower() and listed.buttons
    own = await fake.click(s.alice_b, card_b, label="Accept")
    refused = await own.reply(WAIT)
    assert refused.ephemeral and "your own seek" in refused.content
    mark = fake.mark()
    click = await fake.click(s.bob, card_b, label="Accept")
    started = await click.reply(WAIT)
    assert started.ephemeral and "You accepted" in started.content, started.content
    # bob is not in Alpha: the game starts in Beta's lobby, where both are
    thread = await game_thread(s, s.lobby_b)
    board = await fake.wait_for_message(
        thread, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    assert board.pinged == {s.alice_b.id}  # alice plays first
    for card in (card_a, card_b):
        await fake.wait_until(lambda c=card: taken(c, "bob"), WAIT, "the card shown taken")
    assert not any(c.parent is s.lobby_a for c in fake.channels.values())
    nothing = await answer(fake, s.carol, "seek list", {}, s.lobby_b)
    assert "No open seeks" in nothing.content and not nothing.buttons
    assert "Traceback" not in bot.log(tail=10_000)


async def test_two_members_accepting_at_once_make_one_game(
    servers: Servers, bot: BotProcess
) -> None:
    s, fake = servers, servers.fake
    await set_lobbies(s)
    _, card_b = await seek(s)
    clicks = [await fake.click(m, card_b, label="Accept") for m in (s.bob, s.carol)]
    answers = await asyncio.gather(*(c.reply(WAIT) for c in clicks))
    won = [a for a in answers if "You accepted" in a.content]
    lost = [a for a in answers if "just before you" in a.content or "already taken" in a.content]
    assert len(won) == 1 and len(lost) == 1, [a.content for a in answers]
    assert all(a.ephemeral for a in answers)
    await game_thread(s, s.lobby_b)
    # both answers are in, so both accepts are over: one game, one challenge, one thread
    with sqlite3.connect(bot.workdir / "bot.sqlite3", timeout=10) as conn:
        counts = [conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES]
    assert counts == [1, 1], counts
    threads = [c for c in fake.channels.values() if c.is_thread]
    assert len(threads) == 1, threads
    await bot.kill()  # a restart: what it takes up at start makes no second game
    await bot.start("seek")
    with sqlite3.connect(bot.workdir / "bot.sqlite3", timeout=10) as conn:
        counts = [conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES]
    assert counts == [1, 1], counts
    # the cancelled and expired refusals: alice's next seek, cancelled, then clicked
    mark = fake.mark()
    await answer(fake, s.alice_a, "seek create", {"game": "asli", "size": 5}, s.general_a)
    card = await fake.wait_for_message(
        s.lobby_b, lambda m: bool(m.buttons), after=mark, timeout=WAIT
    )
    cancelled = await answer(fake, s.alice_a, "seek cancel", {}, s.general_a)
    assert cancelled.ephemeral and "Cancelled: seek #2" in cancelled.content
    await fake.wait_until(
        lambda: "cancelled by alice" in card.content.lower(), WAIT, "the card closed"
    )
    assert not card.buttons
    assert "Traceback" not in bot.log(tail=10_000)


async def test_a_rated_seek_game_is_on_the_global_leaderboard(
    servers: Servers, bot: BotProcess
) -> None:
    s, fake = servers, servers.fake
    await set_lobbies(s)
    _, card_b = await seek(s)
    mark = fake.mark()
    click = await fake.click(s.bob, card_b, label="Accept")
    await click.reply(WAIT)
    thread = await game_thread(s, s.lobby_b)
    first = await fake.wait_for_message(
        thread, lambda m: bool(m.attachments), after=mark, timeout=WAIT
    )
    table = Table(fake, GAME, (s.alice_b, s.bob), thread, rules.get_game(GAME).new(**OPTIONS))
    table.posts.append(first)
    moves = planned_moves(GAME, OPTIONS, SEED)
    half = len(moves) // 2
    for move in moves[:half]:
        await table.play(move)
    await bot.kill()  # a restart in the middle of the game
    await bot.start("move")
    for move in moves[half:]:
        await table.play(move)
    assert table.state.is_over
    # carol asks in Alpha, where nobody played: the server's board is empty, the
    # global one has both players
    here = await answer(fake, s.mod_a, "leaderboard", {"game": GAME}, s.lobby_a)
    assert "Nobody is rated yet" in here.embeds[0]["description"]
    wide = await answer(fake, s.mod_a, "leaderboard", {"game": GAME, "scope": "global"}, s.lobby_a)
    board = wide.embeds[0]
    assert board["title"].endswith("of every server")
    assert "alice" in board["description"].lower() and "bob" in board["description"].lower()
    assert "Traceback" not in bot.log(tail=10_000)
