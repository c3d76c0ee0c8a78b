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
    for move in moves:
        await table.play(move)
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
