"""One complete game of each game, against the real bot process, from challenge to result,
through slash commands and buttons only."""

from __future__ import annotations

import pytest

from tests.fakediscord.process import BotProcess
from tests.timing import seconds

from .conftest import World
from .driver import PLANS, planned_moves, start_game


@pytest.mark.parametrize("game", sorted(PLANS))
async def test_complete_game(world: World, botproc: BotProcess, game: str) -> None:
    options, seed = PLANS[game]
    moves = planned_moves(game, options, seed)
    table = await start_game(world.fake, world.channel, world.alice, world.bob, game, options)
    before = len(world.fake.requests)
    for move in moves[:-1]:  # (the last one ends the game: its post and a rematch offer)
        await table.play(move)
    # Discord's global limit (about 50 requests a second for the whole bot, shared by its
    # processes) counts what the bot sends outside its answers to interactions.
    counted = [r for r in world.fake.requests[before:] if not _answering(r.operation_id)]
    assert len(counted) <= 3 * (len(moves) - 1), [r.operation_id for r in counted]
    await table.play(moves[-1])
    assert table.state.is_over
    # The opening board, one post per move (nothing lost, nothing doubled), the last
    # one the end of the game: the board, the result, the summary, the replay and the
    # record attached, the Rematch button; nothing after it.
    posts = table.thread.visible_messages()
    final = next(i for i, post in enumerate(posts) if post is table.posts[-1])
    assert final == len(moves) == len(posts) - 1
    end = posts[final]
    assert end.attachment(".png") and end.attachment(".gif") and end.attachment(".txt")
    assert f"{len(moves)} move" in end.content and end.button(label="Rematch")
    slowest = max(ix.response_delay or 0 for ix in world.fake.interactions.values())
    assert slowest < seconds(3)
    table.check_final_ping()


def _answering(operation: str | None) -> bool:
    """A request answering an interaction (its callback, its webhook): outside the
    global limit, as Discord documents it."""
    return operation is not None and ("interaction" in operation or "webhook" in operation)
