"""Looking back at a game through the real bot: at its end the thread gets the replay
GIF and the summary; a member who did not play finds it with /review's autocomplete,
turns the browser's pages and jumps to a move; /export and /import round-trip it;
/leaderboard and /profile show the ratings it changed."""

from __future__ import annotations

import io

from PIL import Image

from tests.fakediscord import Member, Message
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import PLANS, WAIT, planned_moves, start_game


def custom_id(message: Message, kind: str) -> str:
    return next(b["custom_id"] for b in message.buttons if b["custom_id"].endswith(f":{kind}"))


def shown(message: Message) -> Image.Image:
    image = Image.open(io.BytesIO(message.attachment(".png").data))
    image.load()
    return image


async def test_review_replay_records_and_ratings_of_a_finished_game(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    fake = world.fake
    options, seed = PLANS["lifeline"]
    moves = planned_moves("lifeline", options, seed)
    table = await start_game(fake, world.channel, world.alice, world.bob, "lifeline", options)
    for move in moves:
        await table.play(move)

    # The end of the game, one post: the result and summary, the replay and the record.
    posts = table.thread.visible_messages()
    summary = posts[len(moves)]
    gif = Image.open(io.BytesIO(summary.attachment(".gif").data))
    assert gif.format == "GIF" and gif.n_frames == len(moves) + 1
    assert summary.content.startswith(f"**Lifeline #1** · move {len(moves)}: ")
    assert f"{len(moves)} moves" in summary.content and "Ratings: " in summary.content
    record = summary.attachment(".txt").data.decode()
    assert record.startswith('[Game "Lifeline"]')

    # Carol, who did not play, finds the game and browses it privately.
    choices = await fake.autocomplete(
        carol, "review", {"game": ""}, "game", channel=world.channel, timeout=WAIT
    )
    assert choices[0]["value"] == "1" and choices[0]["name"].startswith("Lifeline #1 · ")
    ix = await fake.run_command(carol, "review", {"game": "1"}, channel=world.channel)
    browser = await ix.reply(WAIT)
    assert browser.ephemeral and f"Move {len(moves)} of {len(moves)}" in browser.content
    latest = shown(browser)
    assert [(b.get("label"), b.get("disabled", False)) for b in browser.buttons] == [
        (None, False),
        (None, False),
        (None, True),
        (None, True),  # ⏮ ◀ ▶ ⏭
        ("Analysis", False),
        ("Explore", False),
    ]

    click = await fake.click(carol, browser, custom_id=custom_id(browser, "first"))
    page = await click.reply(WAIT)
    assert page is browser and "Start of the game" in page.content
    assert shown(page).tobytes() != latest.tobytes()
    click = await fake.click(carol, page, custom_id=custom_id(page, "next"))
    page = await click.reply(WAIT)
    assert f"Move 1 of {len(moves)}" in page.content and f"`{moves[0]}`" in page.content
    jump = await fake.select(carol, page, [str(len(moves))])
    page = await jump.reply(WAIT)
    assert f"Move {len(moves)} of {len(moves)}" in page.content
    assert shown(page).tobytes() == latest.tobytes()

    # The bot restarts: the browser's buttons still work.
    await botproc.kill()
    await botproc.start("review", "export")
    click = await fake.click(carol, page, custom_id=custom_id(page, "prev"))
    page = await click.reply(WAIT)
    assert f"Move {len(moves) - 1} of {len(moves)}" in page.content

    # The record, exported and checked again by importing it.
    ix = await fake.run_command(carol, "export", {"game": "1"}, channel=world.channel)
    exported = await ix.reply(WAIT)
    assert exported.ephemeral and exported.attachment(".txt").data.decode() == record
    ix = await fake.run_command(carol, "import", {"record": record}, channel=world.channel)
    checked = await ix.reply(WAIT)
    assert checked.ephemeral and f"{len(moves)} moves, all legal" in checked.content
    shown(checked)

    # The game was rated: both players are on the leaderboard.
    ix = await fake.run_command(carol, "leaderboard", {"game": "lifeline"}, channel=world.channel)
    board = await ix.reply(WAIT)
    text = board.embeds[0]["description"]
    assert "alice" in text.lower() and "bob" in text.lower() and " ± " in text
