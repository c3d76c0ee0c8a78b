"""Discord misbehaving mid-game: rate limits, server errors, a dropped gateway, an
archived and then a deleted thread. The game still completes, with every move
posted exactly once."""

from __future__ import annotations

from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, planned_moves, start_game

OPTIONS = {"size": 3}
SEED = 1  # a 14-ply Lifeline game


async def test_game_completes_under_faults(world: World, botproc: BotProcess) -> None:
    fake = world.fake
    moves = planned_moves("lifeline", OPTIONS, SEED)
    assert len(moves) >= 12
    table = await start_game(fake, world.channel, world.alice, world.bob, "lifeline", OPTIONS)
    first_thread = table.thread
    faults = []
    for i, move in enumerate(moves):
        if i == 1:
            faults.append(fake.inject("POST /channels/{channel_id}/messages", 429, retry_after=0.2))
        elif i == 2:
            faults.append(fake.inject("create_message", 500))
        elif i == 3:
            faults.append(fake.inject("update_original_webhook_message", 502))  # /move's answer
        elif i == 4:
            faults.append(
                fake.inject("create_interaction_response", 429, retry_after=0.3, is_global=True)
            )
        elif i == 5:
            await fake.drop_gateway()  # resumed: the /move sent meanwhile is replayed
        elif i == 7:
            await fake.drop_gateway(invalidate=True)  # a fresh IDENTIFY, then READY
            await fake.wait_until(
                lambda: fake.gateway_log[-1] == "identify" and fake.connected,
                WAIT,
                "the bot to identify again",
            )
        elif i == 9:
            fake.archive_thread(table.thread)  # /move now comes from the channel
        elif i == 11:
            fake.delete_channel(table.thread)  # the bot must open a new thread
        await table.play(move)
        if i == 9:
            assert not first_thread.archived  # posting unarchived it
    assert table.state.is_over
    assert [f.hits for f in faults] == [1] * len(faults)
    assert fake.gateway_log == ["identify", "drop", "resume", "drop", "invalid_session", "identify"]
    assert first_thread.deleted and table.thread is not first_thread and table.thread.is_thread
    # Every move appears in exactly one board post, in order: none lost, none doubled.
    boards = [
        m
        for c in fake.channels.values()
        if c.guild is world.guild
        for m in c.messages
        if m.attachments and not m.ephemeral and m.attachments[0].filename.endswith(".png")
    ]  # not the replay or record
    boards.sort(key=lambda m: m.seq)
    assert len(boards) == len(moves) + 1
    for post, move in zip(boards[1:], moves, strict=True):
        assert f"played `{move}`" in post.content
