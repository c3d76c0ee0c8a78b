"""Opening decisions that are not cells: offered as buttons, played like any move."""

from __future__ import annotations

import pytest

from bot.model import UserError
from tests.bot.conftest import ANA, BO, CY, GUILD, Env, start_game


async def last_post(env: Env, game_id: int):
    return env.poster.posts_for(game_id)[-1]


def choices(post) -> tuple[str, ...]:
    """The moves a post offers as buttons."""
    return tuple(decision.move for decision in post.decisions if decision.move)


def komi(post) -> tuple[int, int] | None:
    """The range of the number a post asks for by a form (the komi), if any."""
    asked = [decision.number for decision in post.decisions if decision.number]
    return (asked[0].minimum, asked[0].maximum) if asked else None


async def click(env: Env, game_id: int, member, move: str):
    """What a decision button does: the move, valid only at the ply it was posted for."""
    post = await last_post(env, game_id)
    return await env.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=member, text=move, expected_ply=post.ply
    )


async def test_lifeline_swap(env: Env) -> None:
    game_id = await start_game(env, "lifeline", size=4)
    assert choices(await last_post(env, game_id)) == ()
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="a1 c3")
    post = await last_post(env, game_id)
    assert (choices(post), komi(post), post.ply) == (("swap",), None, 1)
    update = await click(env, game_id, BO, "swap")
    assert update.state.color_of(1) == "black"  # Bo took over Ana's stones
    assert "Bo (black) played `swap`" in (await last_post(env, game_id)).content
    assert choices(await last_post(env, game_id)) == ()


@pytest.mark.parametrize(
    ("game", "options"), [("lifeline", {"size": 4, "opening": "komi-pie"}), ("asli", {"size": 5})]
)
async def test_komi_then_colour(env: Env, game: str, options: dict) -> None:
    game_id = await start_game(env, game, **options)
    post = await last_post(env, game_id)
    assert komi(post) is not None and komi(post)[0] == 0 and post.ply == 0
    # The komi button opens its form only for the player to move.
    with pytest.raises(UserError, match="You are not playing in"):
        await env.moves.check_turn(guild_id=GUILD, game_id=game_id, member=CY, expected_ply=0)
    with pytest.raises(UserError, match="It's not your turn"):
        await env.moves.check_turn(guild_id=GUILD, game_id=game_id, member=BO, expected_ply=0)
    await env.moves.check_turn(guild_id=GUILD, game_id=game_id, member=ANA, expected_ply=0)
    await click(env, game_id, ANA, "komi 3")
    post = await last_post(env, game_id)
    assert (choices(post), komi(post)) == (("black", "white"), None)
    update = await click(env, game_id, BO, "white")
    assert update.state.color_of(1) == "white"
    # The colour buttons are spent: a second click is out of date.
    with pytest.raises(UserError, match="out of date"):
        await env.moves.play_move(
            guild_id=GUILD, game_id=game_id, member=BO, text="black", expected_ply=post.ply
        )


async def test_a_komi_out_of_range_is_refused(env: Env) -> None:
    game_id = await start_game(env, "asli", size=5)
    with pytest.raises(UserError, match="`komi 99` can't be played"):
        await click(env, game_id, ANA, "komi 99")


async def test_sliglube_colour_choice(env: Env) -> None:
    game_id = await start_game(env, "sliglube", size=5)
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="c3")
    assert choices(await last_post(env, game_id)) == ("black", "white")
    update = await click(env, game_id, BO, "black")
    assert update.state.color_of(1) == "black"
    # Black's stone is already down: White (Ana) moves next.
    assert (await last_post(env, game_id)).mentions == (ANA.id,)
