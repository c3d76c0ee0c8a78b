"""A server that never installed the bot, where two members installed the app to their
own accounts: /challenge answers with the card and its Accept works, each /move there
is answered with the new board, and everything later reaches the players' DMs with a
link back; the bot is killed half-way. With external apps off, every answer is private
and the card reaches the opponent's DMs; a card the bot can no longer update (its
token dead) answers with where the game lives now."""

from __future__ import annotations

from bot import places
from tests.fakediscord import Channel, FakeDiscord, Member, Message
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import PLANS, WAIT, decode_png, planned_moves
from .test_anywhere_dms import boards, next_boards


class ManualClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def botless(fake: FakeDiscord, *, external_apps: bool = True) -> tuple[Channel, Member, Member]:
    """A server without the bot, its channel, and two members who installed the app."""
    guild = fake.add_guild("Elsewhere", with_bot=False)
    guild.external_apps = external_apps
    room = fake.add_text_channel(guild, "general")
    return room, fake.join(guild, fake.add_user("dana")), fake.join(guild, fake.add_user("eli"))


async def challenge(
    fake: FakeDiscord, room: Channel, dana: Member, eli: Member, options: dict[str, object]
) -> Message:
    ix = await fake.run_command(
        dana,
        "challenge",
        {"game": "lifeline", "opponent": eli, **options, "first": "challenger"},
        channel=room,
    )
    card = await ix.reply(WAIT)
    assert card.button(label="Accept") and "Lifeline" in card.content, card.content
    return card


async def test_a_game_made_in_a_server_without_the_bot(world: World, botproc: BotProcess) -> None:
    fake = world.fake
    room, dana, eli = botless(fake)
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)

    card = await challenge(fake, room, dana, eli, options)
    assert not card.ephemeral and card.channel is room  # the card is the command's answer
    copy = await fake.wait_for_message(
        fake.dm_channel(eli), lambda m: bool(m.buttons), timeout=WAIT
    )
    assert "Lifeline" in copy.content

    mark = fake.mark()
    click = await fake.click(eli, card, label="Accept")  # in the server, on the card
    await click.reply(WAIT)
    assert "Accepted" in card.content and not card.buttons
    first = await next_boards(fake, (dana.user, eli.user), mark)
    link = f"https://discord.com/channels/{room.guild.id}/{room.id}/{card.id}"
    assert all(link in post.content for post in first), first[0].content
    await fake.wait_until(lambda: "Accepted" in copy.content, WAIT, "the DM copy answered")
    assert not copy.buttons

    players = (dana, eli)
    for ply, move in enumerate(moves):
        if ply == 1:
            await botproc.kill()
            await botproc.start("challenge", "move")
        mover, waiting = players[ply % 2], players[1 - ply % 2]
        mark = fake.mark()
        ix = await fake.run_command(mover, "move", {"move": move}, channel=room)
        answer = await ix.reply(WAIT)  # the new board, answered in the server
        assert not answer.ephemeral and answer.channel is room
        assert "your move is played" in answer.content
        decode_png(answer)
        posted = await next_boards(fake, (dana.user, eli.user), mark)
        assert all(link in post.content for post in posted)
        if ply < len(moves) - 1:  # the turn notice: the other player, pinged in their DMs
            assert waiting.id in posted[1 - ply % 2].pinged
    final = boards(fake, fake.dm_channel(dana.user), 0)[-1]
    assert "Game over" in final.content
    assert [m for m in fake.posts(room) if not m.interaction] == []  # never posted itself


async def test_external_apps_off_and_a_stale_card(world: World, botproc: BotProcess) -> None:
    fake = world.fake
    fake.clock = clock = ManualClock()
    room, dana, eli = botless(fake, external_apps=False)
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)

    card = await challenge(fake, room, dana, eli, options)
    assert card.ephemeral  # the server allows no public answer: the DM copy is the way
    copy = await fake.wait_for_message(
        fake.dm_channel(eli), lambda m: bool(m.buttons), timeout=WAIT
    )
    clock.now += 16 * 60  # the challenge's token is dead: its card can't be updated
    mark = fake.mark()
    click = await fake.click(eli, copy, label="Accept")
    await click.reply(WAIT)
    assert "Accepted" in copy.content
    await next_boards(fake, (dana.user, eli.user), mark)
    assert card.button(label="Accept")  # stale: shown as it was

    stale = await fake.click(dana, card, label="Cancel")
    answer = await stale.followup(0, WAIT)
    assert answer.ephemeral and "already accepted" in answer.content
    assert "DMs" in answer.content, answer.content

    mark = fake.mark()
    ix = await fake.run_command(dana, "move", {"move": moves[0]}, channel=room)
    answer = await ix.reply(WAIT)
    assert answer.ephemeral and answer.attachments  # private, with the board
    assert places.moved_here("Lifeline #1").split(":")[0] in answer.content
    await next_boards(fake, (dana.user, eli.user), mark)


async def test_a_challenge_in_a_group_dm(world: World, botproc: BotProcess) -> None:
    fake = world.fake
    dana, eli = fake.add_user("dana"), fake.add_user("eli")
    group = fake.group_dm(dana, eli)
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)
    ix = await fake.run_command(
        dana,
        "challenge",
        {"game": "lifeline", "opponent": eli.id, **options, "first": "challenger"},
        channel=group,
    )
    card = await ix.reply(WAIT)
    assert ix.context == 2 and not card.ephemeral and card.button(label="Accept")
    mark = fake.mark()
    await (await fake.click(eli, card, label="Accept")).reply(WAIT)
    await next_boards(fake, (dana, eli), mark)
    mark = fake.mark()
    played = await fake.run_command(dana, "move", {"move": moves[0]}, channel=group)
    answer = await played.reply(WAIT)
    assert not answer.ephemeral and answer.attachments and answer.channel is group
    await next_boards(fake, (dana, eli), mark)
    assert [m for m in group.messages if not m.interaction] == []  # never posted itself
