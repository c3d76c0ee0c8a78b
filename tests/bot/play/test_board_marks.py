"""``/board marks:True``: the board with the hints of the player to move (where they
may place, where a pawn can go), drawn where ``legal_moves()`` says, and shown only
to the member who asked, even when they ask for it in public."""

from __future__ import annotations

import render
from bot.play.commands import PlayCommands
from tests.bot.conftest import ANA, BO, CY, Env, start_game
from tests.bot.interactions import Interaction, invoke
from tests.bot.support import play_out


async def test_marks_are_private_and_drawn_from_the_legal_moves(env: Env) -> None:
    game_id = await start_game(env, "sliglube", size=5)
    await play_out(env, game_id, ["e2", "black", "d2", "c5"])
    asked = Interaction(env, CY)
    await invoke(PlayCommands.board, PlayCommands(), asked, f"#{game_id}", True, True)
    [(_, deferred)] = asked.response.calls
    [shown] = asked.followup.sent
    assert deferred["ephemeral"] is True and shown["ephemeral"] is True
    row = await env.games.get_game(111, game_id)
    state = await env.games.state_of(row)
    expected = render.board_png(state, names={0: "Ana", 1: "Bo"}, marks=True)
    assert shown["file"].fp.read() == expected
    assert "may place" in " ".join(render.caption_text(state, marks=True))


async def test_without_marks_the_board_is_the_plain_one(env: Env) -> None:
    game_id = await start_game(env, "asli", size=5)
    asked = Interaction(env, ANA)
    await invoke(PlayCommands.board, PlayCommands(), asked, f"#{game_id}", True, False)
    [shown] = asked.followup.sent
    assert shown["ephemeral"] is False
    assert shown["file"].fp.read().endswith(b"asli ply 0 dark")  # the usual renderer's picture
    assert BO.name in shown["content"]
