"""/review and /replay, and what a finished game's thread ends with: the browser's
pages, its ends, its jump menu, after a restart; the replay GIF and the summary."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.core.options import AnyGame
from bot.model import Member
from bot.review import browser as review
from bot.review.commands import ReviewCommands
from bot.review.views import ITEMS as REVIEW_ITEMS
from rules.record import parse_record, replay_record
from tests.bot.conftest import ANA, BO, CY, GUILD, OTHER_GUILD, Env, start_game
from tests.bot.interactions import invoke
from tests.bot.support import StandIn, gif_frames, play_out
from tests.e2e.driver import PLANS, planned_moves


async def finished(env: Env, game: str = "asli") -> tuple[int, list[str]]:
    options, seed = PLANS[game]
    moves = planned_moves(game, options, seed)
    game_id = await start_game(env, game, **options)
    await play_out(env, game_id, moves)
    return game_id, moves


async def open_browser(env: Env, member: Member = CY, **options: Any) -> StandIn:
    asked = StandIn(env, member)
    options = {"game": None, "move": None, "public": False} | options
    await invoke(
        ReviewCommands.review,
        ReviewCommands(),
        asked,
        options["game"],
        options["move"],
        options["public"],
    )
    return asked


def controls(answer: dict[str, Any]) -> dict[str, Any]:
    """The browser's items by what they do: first/prev/next/last, jump, analysis and
    explore."""
    found = {}
    for child in answer["view"].children:
        kind = (
            child.custom_id.split(":")[-1]
            if child.custom_id.startswith("bb:review:")
            else "jump"
            if child.custom_id.startswith("bb:reviewjump:")
            else child.custom_id.split(":")[1]
        )  # analysis, explore
        found[kind] = child
    return found


def shown_ply(interaction: StandIn) -> int:
    """Which position the picture shows (the stand-in renderer writes its ply)."""
    _, data = interaction.file()
    return int(data.decode(errors="replace").rsplit("ply ", 1)[1].split()[0])


async def click(
    env: Env, member: Member, item: Any, *, ephemeral: bool = True, values: list[str] | None = None
) -> StandIn:
    """``member`` uses ``item`` of a browser, as discord.py dispatches a dynamic item:
    rebuilt from its custom_id alone."""
    for factory in REVIEW_ITEMS:
        match = factory.__discord_ui_compiled_template__.fullmatch(item.custom_id)
        if match:
            rebuilt = await factory.from_custom_id(None, item.item, match)
            break
    else:
        raise AssertionError(f"no dynamic item for {item.custom_id}")
    clicked = StandIn(env, member, on_message=ephemeral, values=values)
    await rebuilt.callback(clicked)
    return clicked


async def test_a_member_who_did_not_play_browses_a_game_to_both_ends(env: Env) -> None:
    game_id, moves = await finished(env)
    opened = await open_browser(env, CY, game=str(game_id))
    assert opened.calls[0] == ("defer", {"ephemeral": True, "thinking": True})
    answer = opened.answer
    assert answer["ephemeral"]
    assert f"Move {len(moves)} of {len(moves)}" in answer["content"]
    assert f"`{moves[-1]}`" in answer["content"] and "Game over" in answer["content"]
    assert shown_ply(opened) == len(moves)
    items = controls(answer)
    assert [items[k].item.disabled for k in review.NAVIGATION] == [False, False, True, True]
    assert [item.item.emoji.name for item in list(items.values())[:4]] == ["⏮", "◀", "▶", "⏭"]

    start = await click(env, CY, items["first"])
    assert start.calls[0] == ("defer", {})  # the private browser turns its own page
    assert start.calls[-1][0] == "edit" and shown_ply(start) == 0
    assert "Start of the game" in start.answer["content"]
    at_start = controls(start.answer)
    assert [at_start[k].item.disabled for k in review.NAVIGATION] == [True, True, False, False]

    still = await click(env, CY, at_start["prev"])  # a stale click at the start stays there
    assert shown_ply(still) == 0
    one = await click(env, CY, at_start["next"])
    assert shown_ply(one) == 1
    assert f"Move 1 of {len(moves)}" in one.answer["content"]
    assert f"played `{moves[0]}`" in one.answer["content"]
    back = await click(env, CY, controls(one.answer)["prev"])
    assert shown_ply(back) == 0
    end = await click(env, CY, controls(one.answer)["last"])
    assert shown_ply(end) == len(moves)

    jump = controls(one.answer)["jump"]
    assert [o.value for o in jump.item.options] == [str(p) for p in range(len(moves) + 1)]
    jumped = await click(env, CY, jump, values=["4"])
    assert shown_ply(jumped) == 4 and f"played `{moves[3]}`" in jumped.answer["content"]


async def test_browser_buttons_made_before_a_restart_still_work(env: Env) -> None:
    game_id, moves = await finished(env)
    opened = await open_browser(env, CY, game=str(game_id), move=2)
    assert shown_ply(opened) == 2
    items = controls(opened.answer)
    await env.restart()
    forward = await click(env, BO, items["next"])
    assert shown_ply(forward) == 3 and f"`{moves[2]}`" in forward.answer["content"]
    jumped = await click(env, ANA, items["jump"], values=["0"])
    assert shown_ply(jumped) == 0


async def test_a_public_browser_opens_a_private_copy_for_whoever_clicks(env: Env) -> None:
    game_id, _ = await finished(env)
    posted = await open_browser(env, ANA, game=str(game_id), move=1, public=True)
    assert posted.answer["ephemeral"] is False
    clicked = await click(env, CY, controls(posted.answer)["next"], ephemeral=False)
    assert clicked.calls[0] == ("defer", {"ephemeral": True, "thinking": True})
    assert clicked.calls[-1][0] == "followup" and clicked.answer["ephemeral"]
    assert shown_ply(clicked) == 2


async def test_a_live_game_is_browsed_in_its_thread_and_the_latest_is_current(env: Env) -> None:
    game_id = await start_game(env, "asli", size=5)
    row = await env.games.get_game(GUILD, game_id)
    asked = StandIn(env, CY, channel_id=row.thread_id)
    await invoke(ReviewCommands.review, ReviewCommands(), asked, None, None, False)
    assert "Start of the game (0 moves so far)" in asked.answer["content"]
    assert "current position" in asked.answer["content"]
    assert "jump" not in controls(asked.answer)  # nothing to jump to yet
    items = controls(asked.answer)
    assert all(items[k].item.disabled for k in review.NAVIGATION)
    await play_out(env, game_id, ["komi 3"])
    latest = await click(env, CY, items["last"])  # "latest" follows the game
    assert shown_ply(latest) == 1 and "Move 1 of 1" in latest.answer["content"]


async def test_another_servers_game_is_never_shown(env: Env) -> None:
    game_id, _ = await finished(env)
    asked = StandIn(env, CY, guild_id=OTHER_GUILD)
    await invoke(ReviewCommands.review, ReviewCommands(), asked, str(game_id), None, False)
    assert asked.answer == {
        "content": f"There is no game #{game_id} in this server.",
        "ephemeral": True,
    }
    choices = await AnyGame().autocomplete(StandIn(env, CY, guild_id=OTHER_GUILD), "")
    assert choices == []
    here = await AnyGame().autocomplete(StandIn(env, CY), "")
    assert [c.value for c in here] == [str(game_id)]
    assert here[0].name.startswith(f"Asli #{game_id} · Ana vs Bo · ")


def test_the_jump_menu_is_a_window_of_25_around_the_move_shown() -> None:
    assert review.jump_window(0, 4) == [0, 1, 2, 3, 4]
    assert review.jump_window(20, 100) == list(range(8, 33))
    assert review.jump_window(100, 100) == list(range(76, 101))
    assert review.jump_window(0, 100) == list(range(0, 25))
    assert review.jump_window(3, 24) == list(range(0, 25))


async def test_the_replay_gif_on_request(env: Env) -> None:
    game_id, moves = await finished(env)
    asked = StandIn(env, CY)
    await invoke(ReviewCommands.replay, ReviewCommands(), asked, str(game_id), False)
    name, data = asked.file()
    assert name == f"asli-{game_id}.gif" and asked.answer["ephemeral"]
    assert gif_frames(data) == len(moves) + 1


async def test_the_thread_ends_with_one_post_of_board_summary_replay_and_record(env: Env) -> None:
    env.endings.finale = env.epilogue  # as in bot.app
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)
    game_id = await start_game(env, "lifeline", **options)
    env.clock.advance(days=2, hours=3)
    await play_out(env, game_id, moves)
    posts = env.poster.posts_for(game_id)
    assert len(posts) == len(moves) + 1  # the opening board, then one post per move
    final = posts[-1]
    row = await env.games.get_game(GUILD, game_id)
    text = final.content
    assert text.startswith(f"**Lifeline #{game_id}** · move {len(moves)}: ")
    assert f"**Game over.** {row.result}." in text and "(by the rules)" not in text
    assert row.end_reason.by_rules
    assert f"{len(moves)} moves · lasted 2 days 3 hours." in text
    assert "Ratings: " in text and "1500 → " in text
    assert "Record: `1. " + moves[0] in text
    assert text.endswith("Well played, <@1> <@2>!") and set(final.mentions) == {ANA.id, BO.id}
    assert final.actions == ("rematch",)
    assert final.filename.endswith(".png")
    replay, record_file = final.attachments
    assert replay.filename == f"lifeline-{game_id}.gif"
    frames = Image.open(io.BytesIO(replay.data))
    assert frames.format == "GIF" and frames.n_frames == len(moves) + 1
    assert record_file.filename == f"lifeline-{game_id}.txt"
    record = parse_record(record_file.data.decode())
    assert list(record.moves) == moves and record.termination.by_rules
    assert replay_record(record).result == row.result


async def test_a_resigned_casual_game_says_so_and_keeps_ratings(env: Env) -> None:
    env.endings.finale = env.epilogue  # as in bot.app
    challenge = await env.challenges.create(
        guild_id=GUILD,
        channel_id=1,
        challenger=ANA,
        game="asli",
        options={"size": 5},
        opponent=BO,
        rated=False,
    )
    update = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    game_id = update.game.id
    await play_out(env, game_id, planned_moves("asli", {"size": 5}, 225)[:3])
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    summary = env.poster.posts_for(game_id)[-1]
    assert "resigned. Bo wins." in summary.content
    # The replay's last frame says how it ended too, though the position cannot.
    replay = Image.open(io.BytesIO(summary.attachments[0].data))
    assert replay.n_frames == 4
    assert "casual game: ratings are unchanged" in summary.content
