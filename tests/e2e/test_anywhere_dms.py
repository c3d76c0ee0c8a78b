"""A whole game in two members' DMs with the bot (they share no server with it): the
challenge made in one DM reaches the other's, each DM is its player's view of the game
(boards, turns, /move), the bot is killed half-way, and what a member must not do is
refused privately, changing nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules
from bot import places
from tests.fakediscord import Channel, FakeDiscord, Message, User
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import PLANS, WAIT, decode_png, planned_moves


def boards(fake: FakeDiscord, dm: Channel, after: int) -> list[Message]:
    return [m for m in fake.posts(dm, after=after) if m.attachments]


async def next_boards(fake: FakeDiscord, users: tuple[User, User], after: int) -> list[Message]:
    """The next board in each player's DM (posted after the mark ``after``)."""
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


async def test_a_whole_game_in_two_members_dms(world: World, botproc: BotProcess) -> None:
    fake = world.fake
    dana, eli = fake.add_user("dana"), fake.add_user("eli")  # in no server of the bot's
    carol = fake.add_user("carol")
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)
    dana_dm, eli_dm = fake.dm_channel(dana), fake.dm_channel(eli)

    # A command that needs a server, used in a DM (as an out-of-date app may offer it).
    refused = await fake.run_command_raw(dana, "settings", [], channel=dana_dm)
    answer = await refused.reply(WAIT)
    assert answer.ephemeral and answer.content == places.SERVER_ONLY

    # An open challenge in a DM: nobody else would see it.
    lonely = await fake.run_command(dana, "challenge", {"game": "lifeline"}, channel=dana_dm)
    answer = await lonely.reply(WAIT)
    assert answer.ephemeral and answer.content == places.OPEN_CHALLENGE_IN_DM

    mark = fake.mark()
    ix = await fake.run_command(
        dana,
        "challenge",
        {"game": "lifeline", "opponent": eli.id, **options, "first": "challenger"},
        channel=dana_dm,
    )
    answer = await ix.reply(WAIT)
    assert answer.ephemeral and answer.content == places.sent_to_dms("Eli"), answer.content
    card = await fake.wait_for_message(eli_dm, lambda m: bool(m.buttons), after=mark, timeout=WAIT)
    assert "Lifeline" in card.content and card.button(label="Accept")

    mark = fake.mark()
    click = await fake.click(eli, card, label="Accept")
    await click.reply(WAIT)
    assert "Accepted" in card.content and "DMs" in card.content and not card.buttons
    first = await next_boards(fake, (dana, eli), mark)
    assert all(dana.mention in post.content for post in first)  # dana moves first

    # Someone who plays no game there: a private answer, nothing played.
    mark = fake.mark()
    carol_dm = fake.dm_channel(carol)
    stranger = await fake.run_command(carol, "move", {"move": moves[0]}, channel=carol_dm)
    answer = await stranger.reply(WAIT)
    assert answer.ephemeral and "no game in progress" in answer.content, answer.content
    game_id = re.search(r"Lifeline #(\d+)", first[0].content)[1]  # type: ignore[index]
    named = await fake.run_command(
        carol, "move", {"move": moves[0], "game": game_id}, channel=fake.dm_channel(carol)
    )
    answer = await named.reply(WAIT)
    assert answer.ephemeral and answer.content == f"Game #{game_id} is not one of yours."
    assert boards(fake, dana_dm, mark) == [] and boards(fake, eli_dm, mark) == []

    listed = await fake.run_command(dana, "games", channel=dana_dm)
    answer = await listed.reply(WAIT)
    assert answer.ephemeral and f"Lifeline #{game_id} (in DMs) vs Eli" in answer.text()
    nosy = await fake.run_command(carol, "games", {"member": dana.id}, channel=carol_dm)
    answer = await nosy.reply(WAIT)
    assert answer.ephemeral and answer.content == places.OWN_GAMES_ONLY

    players = (dana, eli)
    for ply, move in enumerate(moves):
        if ply == 1:  # killed half-way: the game goes on from the DMs
            await botproc.kill()
            await botproc.start("challenge", "move")
        mover = players[ply % 2]
        mark = fake.mark()
        ix = await fake.run_command(mover, "move", {"move": move}, channel=fake.dm_channel(mover))
        answer = await ix.reply(WAIT)
        assert answer.ephemeral and "your DMs" in answer.content, answer.content
        posted = await next_boards(fake, players, mark)
        assert all(f"`{move}`" in post.content for post in posted), [p.content for p in posted]
    final = [boards(fake, fake.dm_channel(u), 0)[-1] for u in players]
    assert all("Game over" in post.content for post in final), [p.content for p in final]
    for dm in (dana_dm, eli_dm):  # one board per move and the opening one, each once
        assert len(boards(fake, dm, 0)) == len(moves) + 1
    assert fake.posts(world.channel) == []  # nothing in the bot's server


async def test_practice_and_rules_in_a_dm(world: World, tmp_path: Path) -> None:
    fake = world.fake
    proc = BotProcess(fake, tmp_path, AI_TEST_PLAYOUTS="8")
    await proc.start("practice", "rules", "move")
    try:
        dana = fake.add_user("dana")
        dm = fake.dm_channel(dana)
        rules_ix = await fake.run_command(dana, "rules", {"game": "lifeline"}, channel=dm)
        assert "Lifeline" in (await rules_ix.reply(WAIT)).text()

        mark = fake.mark()
        ix = await fake.run_command(
            dana, "practice", {"game": "lifeline", "size": 3, "first": "challenger"}, channel=dm
        )
        await ix.reply(WAIT)
        opening = (await next_boards(fake, (dana, dana), mark))[0]
        assert dana.mention in opening.content
        state = rules.get_game("lifeline").new(size=3)
        mark = fake.mark()
        move = state.legal_moves()[0]
        played = await fake.run_command(dana, "move", {"move": move}, channel=dm)
        assert (await played.reply(WAIT)).ephemeral
        await fake.wait_until(
            lambda: len(boards(fake, dm, mark)) >= 2, WAIT, "my board and the bot's answer"
        )
        assert f"`{move}`" in boards(fake, dm, mark)[0].content
        assert fake.posts(world.channel) == []
    finally:
        await proc.stop()
        print(proc.log())


@pytest.mark.parametrize("after", [False, True], ids=["before Discord acted", "after"])
async def test_a_board_killed_between_the_two_dms_reaches_each_once(
    world: World, botproc: BotProcess, after: bool
) -> None:
    fake = world.fake
    dana, eli = fake.add_user("dana"), fake.add_user("eli")
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)
    await fake.run_command(
        dana,
        "challenge",
        {"game": "lifeline", "opponent": eli.id, **options, "first": "challenger"},
        channel=fake.dm_channel(dana),
    )
    card = await fake.wait_for_message(
        fake.dm_channel(eli), lambda m: bool(m.buttons), timeout=WAIT
    )
    mark = fake.mark()
    await fake.click(eli, card, label="Accept")
    await next_boards(fake, (dana, eli), mark)

    mark = fake.mark()  # the board of the first move: Dana's DM first, then Eli's, held
    held = fake.inject(
        "create_message", 500, stall=True, after=after, where=str(fake.dm_channel(eli).id)
    )
    await fake.run_command(dana, "move", {"move": moves[0]}, channel=fake.dm_channel(dana))
    try:
        await fake.wait_until(lambda: held.hits == 1, WAIT, "the board's second DM")
        await botproc.kill()
    finally:
        held.release()
    await botproc.start("challenge", "move")
    posted = await next_boards(fake, (dana, eli), mark)
    assert all(f"`{moves[0]}`" in post.content for post in posted)
    mark2 = fake.mark()
    ix = await fake.run_command(eli, "move", {"move": moves[1]}, channel=fake.dm_channel(eli))
    await ix.reply(WAIT)
    await next_boards(fake, (dana, eli), mark2)
    for user in (dana, eli):  # one board per move in each DM, none doubled
        assert len(boards(fake, fake.dm_channel(user), mark)) == 2
