"""**Save as conditional moves** in a sandbox opened from a game in progress: the line
played there becomes a branch of the member's tree, checked as ``/conditional add``
checks a line; a forged or stale button changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.learning.commands import LearningCommands
from bot.learning.views import ExploreButton, SandboxButton
from bot.storage import queries
from tests.bot.conditional.test_service import opened, play, stored_moves, stored_plans
from tests.bot.conftest import CY, Env
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.interactions import invoke
from tests.bot.learning.support import Reader, click

#: The sandboxes and plans are stored the same on either database.
pytestmark = pytest.mark.both_backends

ITEMS = (ExploreButton, SandboxButton)


@pytest.fixture
async def env(database_url: Path | str) -> AsyncIterator[Env]:
    environment = await Env.start(database_url, plans=FakeMessenger())
    yield environment
    assert environment.conditional is not None and environment.outbox is not None
    await environment.conditional.stop()
    await environment.outbox.stop()
    await environment.db.close()


async def explore(env: Env, member, text: str | None = None) -> Reader:
    reader = Reader(env, member)
    await invoke(LearningCommands.explore, LearningCommands(), reader, text)
    return reader


def save_button(reader: Reader) -> str:
    [found] = [c.custom_id for c in reader.answer["view"].children if c.custom_id.endswith("save")]
    return found


async def test_the_line_played_in_the_sandbox_is_saved_and_then_played(env: Env) -> None:
    game_id, _, me = await opened(env)
    first = await click(env, me, f"bb:explore:{game_id}:2", items=ITEMS)
    assert not [c for c in first.answer["view"].children if c.custom_id.endswith("save")]
    await explore(env, me, "c3")  # their move
    played = await explore(env, me, "d4")  # my reply

    saved = await click(env, me, save_button(played), items=ITEMS)
    assert "Saved as conditional moves" in saved.answer["content"]
    assert saved.answer["ephemeral"] is True
    assert await stored_plans(env, game_id) == [(me.id, 2, {"c3": ["d4", {}]})]

    await play(env, game_id, "c3")
    assert (await stored_moves(env, game_id))[-1] == ("d4", True)


async def test_a_forged_or_stale_save_button_changes_nothing(env: Env) -> None:
    game_id, them, me = await opened(env)
    await click(env, me, f"bb:explore:{game_id}:2", items=ITEMS)
    played = await explore(env, me, "c3")
    button = save_button(played)
    # Someone else's sandbox: refused.
    forged = await click(env, CY, button, items=ITEMS)
    assert "someone else's" in forged.answer["content"]
    # A line ending with their move: refused, nothing saved.
    odd = await click(env, me, button, items=ITEMS)
    assert "add your reply" in odd.answer["content"]
    # An older message of the sandbox.
    await explore(env, me, "d4")
    stale = await click(env, me, button, items=ITEMS)
    assert "moved on" in stale.answer["content"]
    # The opponent's sandbox, from their own turn: a line starting with their own move.
    await click(env, them, f"bb:explore:{game_id}:2", items=ITEMS)
    theirs = await explore(env, them, "c3")
    sandbox = await env.db.read(queries.latest_sandbox(them.id))
    assert sandbox is not None
    await click(env, them, save_button(theirs), items=ITEMS)
    assert await stored_plans(env, game_id) == []
