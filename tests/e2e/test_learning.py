"""Learning through the real bot: /rules' guide turns its pages privately, after a
restart too; /board marks is private; a finished game's /review offers Analysis (the
chart and the AI's move) and Explore (a sandbox where the member plays both sides and
asks the AI), and the sandbox never touches the game."""

from __future__ import annotations

from tests.fakediscord import Member, Message
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import PLANS, WAIT, planned_moves, start_game


def button_id(message: Message, prefix: str, suffix: str = "") -> str:
    return next(
        b["custom_id"]
        for b in message.buttons
        if b["custom_id"].startswith(prefix) and b["custom_id"].endswith(suffix)
    )


async def test_the_guide_turns_its_pages_after_a_restart(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    fake = world.fake
    await botproc.kill()
    await botproc.start("rules", "board")
    ix = await fake.run_command(carol, "rules", {"game": "sliglube"}, channel=world.channel)
    guide = await ix.reply(WAIT)
    assert guide.ephemeral and guide.embeds[0]["title"] == "Sliglube: The goal: stalemate wins"
    assert guide.attachment("sliglube-goal.png").data.startswith(b"\x89PNG")
    assert "url" not in guide.embeds[0]  # RULES_URL_BASE is not set: no link
    page = await (await fake.click(carol, guide, custom_id="bb:guide:sliglube:1")).reply(WAIT)
    assert page is guide and page.embeds[0]["title"] == "Sliglube: Loops and control"
    assert [a.filename for a in page.attachments] == ["sliglube-loops.png"]

    await botproc.kill()
    await botproc.start("rules", "board")
    page = await (await fake.click(carol, page, custom_id="bb:guide:sliglube:2")).reply(WAIT)
    assert page.embeds[0]["title"] == "Sliglube: Flips and removals"
    last = await (await fake.select(carol, page, ["5"])).reply(WAIT)
    assert last.embeds[0]["title"] == "Sliglube: Playing it here" and not last.attachments


async def test_analysis_and_explore_of_a_finished_game(
    world: World, botproc: BotProcess, carol: Member
) -> None:
    fake = world.fake
    options, seed = PLANS["asli"]
    moves = planned_moves("asli", options, seed)
    table = await start_game(fake, world.channel, world.alice, world.bob, "asli", options)
    hints = await (
        await fake.run_command(
            world.alice, "board", {"marks": True, "public": True}, channel=table.thread
        )
    ).reply(WAIT)
    assert hints.ephemeral and hints.attachment(".png")  # asked in public, shown privately
    for move in moves:
        await table.play(move)
    posted = len(table.thread.visible_messages())

    await botproc.kill()
    await botproc.start("review", "explore")
    browser = await (
        await fake.run_command(carol, "review", {"game": "1", "move": 3}, channel=world.channel)
    ).reply(WAIT)
    assert browser.button(label="Analysis") and browser.button(label="Explore")
    analysis = await (await fake.click(carol, browser, label="Analysis")).reply(WAIT)
    assert analysis.ephemeral and "analysis" in analysis.content
    assert analysis.attachment("-chart.png") and analysis.attachment("-3.png")

    sandbox = await (await fake.click(carol, browser, label="Explore")).reply(WAIT)
    assert sandbox.ephemeral and "opened at move 3 of game #1" in sandbox.content
    choices = await fake.autocomplete(
        carol, "explore", {"move": ""}, "move", channel=world.channel, timeout=WAIT
    )
    assert choices
    played = await (
        await fake.run_command(
            carol, "explore", {"move": choices[0]["value"]}, channel=world.channel
        )
    ).reply(WAIT)
    assert f"Move 4: `{choices[0]['value']}`." in played.content
    asked = await (await fake.click(carol, played, label="AI move")).reply(WAIT)
    assert "The AI played `" in asked.content and "Move 5:" in asked.content
    assert len(table.thread.visible_messages()) == posted  # nothing reached the game
