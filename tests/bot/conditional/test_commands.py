"""``/conditional`` and ``/note`` as discord.py calls them: every answer private; the
note shown in its author's own ``/board`` and ``/review`` only; the opponent's views
never show the plans."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.conditional.commands import ConditionalCommands
from bot.play.commands import PlayCommands
from bot.review.commands import ReviewCommands
from tests.bot.conditional.test_service import opened, play
from tests.bot.conftest import Env
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.interactions import Interaction, invoke


@pytest.fixture
async def env(database_url: Path | str) -> AsyncIterator[Env]:
    environment = await Env.start(database_url, plans=FakeMessenger())
    yield environment
    assert environment.conditional is not None and environment.outbox is not None
    await environment.conditional.stop()
    await environment.outbox.stop()
    await environment.db.close()


def everything_said(*interactions: Interaction) -> str:
    return "\n".join(str(said) for one in interactions for said in one.answers())


async def test_plans_are_shown_to_their_planner_only(env: Env) -> None:
    game_id, them, me = await opened(env)
    cog = ConditionalCommands()
    added = await invoke(ConditionalCommands.add, cog, Interaction(env, me), "c3, d4, b2, e5")
    [(kind, deferral)] = added.response.calls
    assert kind == "defer" and deferral["ephemeral"] is True
    [answer] = added.followup.sent
    assert "c3 → d4" in answer["content"] and answer["file"].filename == "conditional.png"

    shown = await invoke(ConditionalCommands.show, cog, Interaction(env, me), f"#{game_id}")
    assert "  b2 → e5" in shown.followup.sent[0]["content"]

    # Their own views: /board (even public), /review, /conditional show.
    looks = [
        await invoke(PlayCommands.board, PlayCommands(), Interaction(env, them), None, public)
        for public in (False, True)
    ]
    looks.append(await invoke(ReviewCommands.review, ReviewCommands(), Interaction(env, them)))
    looks.append(await invoke(ConditionalCommands.show, cog, Interaction(env, them)))
    said = everything_said(*looks)
    assert "d4" not in said and "e5" not in said
    assert "no conditional moves" in said

    cleared = await invoke(ConditionalCommands.clear, cog, Interaction(env, me), "c3")
    assert "cleared" in cleared.followup.sent[0]["content"]


async def test_an_illegal_line_is_refused_privately(env: Env) -> None:
    _, _, me = await opened(env)
    added = await invoke(
        ConditionalCommands.add, ConditionalCommands(), Interaction(env, me), "z9, c3"
    )
    said = everything_said(added)
    assert "Move 1 of the line, `z9`, can't be played" in said
    assert env.conditional is not None


async def test_a_note_is_in_its_authors_private_board_and_review_only(env: Env) -> None:
    _, them, me = await opened(env)
    cog = ConditionalCommands()
    saved = await invoke(ConditionalCommands.note, cog, Interaction(env, me), "their left is weak")
    assert "saved" in saved.followup.sent[0]["content"]
    too_long = await invoke(ConditionalCommands.note, cog, Interaction(env, me), "x" * 1001)
    assert "at most 1000" in everything_said(too_long)

    mine = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, me))
    assert "📝 Your note (only you see it): their left is weak" in everything_said(mine)
    review = await invoke(ReviewCommands.review, ReviewCommands(), Interaction(env, me))
    assert "their left is weak" in everything_said(review)
    public = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, me), None, True)
    theirs = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, them))
    assert "their left" not in everything_said(public, theirs)

    await invoke(ConditionalCommands.note, cog, Interaction(env, me))
    mine = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, me))
    assert "their left" not in everything_said(mine)


async def test_a_notice_no_dm_could_carry_is_in_the_planners_next_private_board(
    database_url: Path | str,
) -> None:
    """Closed DMs: "your conditional moves are cleared" waits in the planner's own
    private /board answer, once; nothing of it in the opponent's or a public one."""
    messenger = FakeMessenger()
    env = await Env.start(database_url, plans=messenger)
    try:
        game_id, them, me = await opened(env)
        messenger.closed.add(me.id)
        await invoke(ConditionalCommands.add, ConditionalCommands(), Interaction(env, me), "c3, d4")
        await play(env, game_id, "b4")  # not in the tree: cleared, the DM refused
        assert messenger.to(me.id) == []

        theirs = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, them))
        public = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, me), None, True)
        assert "conditional" not in everything_said(theirs, public)
        mine = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, me))
        said = everything_said(mine)
        assert "`b4`" in said and "cleared" in said
        again = await invoke(PlayCommands.board, PlayCommands(), Interaction(env, me))
        assert "cleared" not in everything_said(again)  # seen
    finally:
        assert env.conditional is not None
        await env.conditional.stop()
        await env.outbox.stop()
        await env.db.close()
