"""Explore: a private sandbox from any position of ``/review`` or an ``/import``ed
record, where a member plays both sides, steps back and asks the AI; nothing in it
ever reaches the game."""

from __future__ import annotations

import pytest

import rules
from bot.learning.commands import LearningCommands, sandbox_moves
from bot.learning.views import ExploreButton, SandboxButton
from bot.model import UserError
from bot.review.commands import ReviewCommands
from bot.storage import queries
from tests.bot.conftest import ANA, BO, CY, GUILD, Env, start_game
from tests.bot.interactions import invoke
from tests.bot.learning.support import Reader, click
from tests.bot.support import play_out
from tests.e2e.driver import PLANS, planned_moves

#: The same on either database (what they store: analyses, sandboxes, settings).
pytestmark = pytest.mark.both_backends

ITEMS = (ExploreButton, SandboxButton)


async def finished(env: Env) -> tuple[int, list[str]]:
    options, seed = PLANS["asli"]
    moves = planned_moves("asli", options, seed)
    game_id = await start_game(env, "asli", **options)
    await play_out(env, game_id, moves)
    return game_id, moves


def custom_ids(sent: dict) -> list[str]:
    return [child.custom_id for child in sent["view"].children]


async def explore(env: Env, member, text: str | None = None) -> Reader:
    reader = Reader(env, member)
    await invoke(LearningCommands.explore, LearningCommands(), reader, text)
    return reader


async def test_explore_from_a_review_position_plays_both_sides_and_steps_back(env: Env) -> None:
    game_id, moves = await finished(env)
    before = await env.dump()
    opened = await click(env, CY, f"bb:explore:{game_id}:3", items=ITEMS, ephemeral=False)
    sent = opened.answer
    assert sent["ephemeral"] is True and "opened at move 3 of game #" in sent["content"]
    [sandbox] = [row for row in [await env.db.read(queries.latest_sandbox(CY.id))] if row]
    assert sandbox.moves == tuple(moves[:3]) and sandbox.source_game_id == game_id
    assert custom_ids(sent) == [f"bb:sandbox:{sandbox.id}:3:back", f"bb:sandbox:{sandbox.id}:3:ai"]

    state = rules.get_game("asli").replay(moves[:3], size=5)
    choices = await sandbox_moves(Reader(env, CY), "")
    assert [c.value for c in choices] == state.legal_moves()[:25]
    first = state.legal_moves()[-1]
    played = await explore(env, CY, first)
    state = state.play(first)
    second = state.legal_moves()[0]  # the other side's move
    await explore(env, CY, second)
    assert (await env.db.read(queries.latest_sandbox(CY.id))).moves == (*moves[:3], first, second)

    back = await click(env, CY, custom_ids(played.answer)[0], items=ITEMS)  # an old message
    assert "moved on" in back.answer["content"]
    shown = await explore(env, CY)
    stepped = await click(env, CY, custom_ids(shown.answer)[0], items=ITEMS)
    assert stepped.calls[-1][0] == "edit" and f"`{first}`" in stepped.answer["content"]
    assert (await env.db.read(queries.latest_sandbox(CY.id))).moves == (*moves[:3], first)
    assert await env.dump() == before  # the game, its moves, its challenge: untouched


async def test_the_ai_moves_in_the_sandbox_of_a_finished_game(env: Env) -> None:
    game_id, moves = await finished(env)
    opened = await click(env, ANA, f"bb:explore:{game_id}:2", items=ITEMS)
    asked = await click(env, ANA, custom_ids(opened.answer)[1], items=ITEMS)
    [move] = env.ai.chosen
    assert f"The AI played `{move}`." in asked.answer["content"]
    assert move in rules.get_game("asli").replay(moves[:2], size=5).legal_moves()
    assert (await env.db.read(queries.latest_sandbox(ANA.id))).moves == (*moves[:2], move)


async def test_no_ai_in_a_sandbox_of_a_game_in_progress(env: Env) -> None:
    game_id = await start_game(env, "asli", size=5)
    await play_out(env, game_id, ["komi 3", "black"])
    opened = await click(env, BO, f"bb:explore:{game_id}:2", items=ITEMS)
    sandbox = await env.db.read(queries.latest_sandbox(BO.id))
    assert custom_ids(opened.answer) == [f"bb:sandbox:{sandbox.id}:2:back"]  # no AI button
    forged = await click(env, BO, f"bb:sandbox:{sandbox.id}:2:ai", items=ITEMS)
    assert "would coach a player" in forged.answer["content"]
    assert env.ai.chosen == []
    played = await explore(env, BO, "c3")  # moves for both sides are fine
    assert "Move 3: `c3`." in played.answer["content"]
    row = await env.games.get_game(GUILD, game_id)
    assert (await env.games.state_of(row)).ply == 2  # the game did not move


async def test_a_sandbox_is_its_owners_only(env: Env) -> None:
    game_id, _ = await finished(env)
    await click(env, ANA, f"bb:explore:{game_id}:1", items=ITEMS)
    sandbox = await env.db.read(queries.latest_sandbox(ANA.id))
    other = await click(env, CY, f"bb:sandbox:{sandbox.id}:1:back", items=ITEMS)
    assert "someone else's" in other.answer["content"]
    copied = await click(env, CY, f"bb:sandbox:{sandbox.id}:0:open", items=ITEMS)  # forged
    assert "someone else's" in copied.answer["content"]
    nothing = await explore(env, CY, "c3")
    assert "You have no sandbox yet" in nothing.answer["content"]


async def test_an_illegal_move_is_refused_with_the_reason(env: Env) -> None:
    game_id, _ = await finished(env)
    await click(env, ANA, f"bb:explore:{game_id}:0", items=ITEMS)
    refused = await explore(env, ANA, "c3")
    assert "can't be played there" in refused.answer["content"]
    assert (await env.db.read(queries.latest_sandbox(ANA.id))).moves == ()


async def test_an_imported_record_opens_a_sandbox_and_others_get_their_own(env: Env) -> None:
    record = '[Game "Asli"] [Size "5"] 1. komi 2 2. white 3. c3 4. d4'
    imported = Reader(env, ANA)
    await invoke(ReviewCommands.import_, ReviewCommands(), imported, record, None, True, None)
    sent = imported.answer
    [explore_id] = custom_ids(sent)
    mine = await click(env, ANA, explore_id, items=ITEMS, ephemeral=False)
    assert "an imported record" in mine.answer["content"]
    theirs = await click(env, BO, explore_id, items=ITEMS, ephemeral=False)
    assert "Move 4: `d4`." in theirs.answer["content"]
    ana = await env.db.read(queries.latest_sandbox(ANA.id))
    bo = await env.db.read(queries.latest_sandbox(BO.id))
    assert ana.id != bo.id and ana.moves == bo.moves == ("komi 2", "white", "c3", "d4")
    asked = await click(env, BO, custom_ids(theirs.answer)[1], items=ITEMS)  # AI: a record
    assert "The AI played" in asked.answer["content"]


async def test_a_member_keeps_five_sandboxes(env: Env) -> None:
    game_id, _ = await finished(env)
    for ply in range(7):
        await env.sandboxes.open_from_game(guild_id=GUILD, game_id=game_id, ply=ply, member=CY)
    async with env.db.reading() as conn:
        row = await conn.fetch_one("SELECT COUNT(*) FROM sandboxes WHERE member_id = ?", (CY.id,))
        assert row[0] == 5
    with pytest.raises(UserError, match="gone"):
        await env.sandboxes.get(1, CY.id)
