"""Finding games: autocomplete, the games list, the board, and servers kept apart."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import rules
from bot.core.autocomplete import NOTHING_TO_PLAY
from bot.model import UserError
from bot.pictures import render_board
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, OTHER_GUILD, Env, start_game


async def test_move_autocomplete_in_the_games_thread(env: Env) -> None:
    game_id = await start_game(env, "lifeline", size=4)
    thread = (await env.games.get_game(GUILD, game_id)).thread_id
    first = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=thread, member_id=ANA.id, typed=""
    )
    state = await env.games.state_of(await env.games.get_game(GUILD, game_id))
    assert len(first) == 25
    # Every choice is a whole legal move, one per first stone so that typing narrows.
    assert all(s.value in state.legal_moves() and s.name == s.value for s in first)
    assert len({s.value.split()[0] for s in first}) == 25
    narrowed = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=thread, member_id=ANA.id, typed="b2 "
    )
    assert [s.value for s in narrowed] == [m for m in state.legal_moves() if m.startswith("b2 ")][
        :25
    ]


async def test_move_autocomplete_elsewhere_uses_the_game_option(env: Env) -> None:
    one = await start_game(env, "sliglube", size=5)
    two = await start_game(env, "astralis", size=7, challenger=CY, opponent=ANA)
    # Ana has two games: outside their threads, nothing is implied, and one choice
    # says so (sent, it plays nothing).
    [why] = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=CHANNEL, member_id=ANA.id, typed=""
    )
    assert (
        why.name.startswith("You have 2 games in progress: say which one with the `game` option")
        and len(why.name) <= 100
    )
    assert why.value.startswith(NOTHING_TO_PLAY)
    sliglube = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=CHANNEL, member_id=ANA.id, typed="a", ref=str(one)
    )
    assert [s.value for s in sliglube] == ["a1", "a2", "a3", "a4", "a5"]
    astralis = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=CHANNEL, member_id=ANA.id, typed="", ref=f"#{two}"
    )
    # Cy is Yellow and moves first: nothing to suggest to Ana yet, and she is told.
    assert [s.name for s in astralis] == [
        f"It's Cy's turn in Astralis #{two}: nothing for you to play yet."
    ]
    astralis = await env.autocomplete.move_suggestions(
        guild_id=GUILD, channel_id=CHANNEL, member_id=CY.id, typed="", ref=f"#{two}"
    )
    assert [s.value for s in astralis] == ["a2", "a3", "a4", "a5", "a6"]


async def test_game_autocomplete_lists_games_awaiting_the_member_first(env: Env) -> None:
    waiting = await start_game(env, "sliglube", size=5, challenger=BO, opponent=ANA)
    mine = await start_game(env, "astralis", size=7)
    choices = await env.autocomplete.game_suggestions(guild_id=GUILD, member_id=ANA.id, typed="")
    assert [(c.name, c.value) for c in choices] == [
        (f"Astralis #{mine} vs Bo · your turn", str(mine)),
        (f"Sliglube #{waiting} vs Bo · their turn", str(waiting)),
    ]
    typed = await env.autocomplete.game_suggestions(guild_id=GUILD, member_id=ANA.id, typed="slig")
    assert [c.value for c in typed] == [str(waiting)]


async def test_another_server_sees_nothing(env: Env) -> None:
    game_id = await start_game(env, "astralis", size=7)
    thread = (await env.games.get_game(GUILD, game_id)).thread_id
    assert (
        await env.autocomplete.game_suggestions(guild_id=OTHER_GUILD, member_id=ANA.id, typed="")
        == []
    )
    [why] = await env.autocomplete.move_suggestions(
        guild_id=OTHER_GUILD, channel_id=thread, member_id=ANA.id, typed=""
    )
    assert why.value.startswith(NOTHING_TO_PLAY) and "in progress here" in why.name
    [why] = await env.autocomplete.move_suggestions(
        guild_id=OTHER_GUILD, channel_id=CHANNEL, member_id=ANA.id, typed="", ref=str(game_id)
    )
    assert why.name == f"There is no game #{game_id} in this server."
    listing = await env.games.list_games(guild_id=OTHER_GUILD, member_id=ANA.id)
    assert (listing.active, listing.finished) == ([], [])
    for call in (
        env.games.get_game(OTHER_GUILD, game_id),
        env.moves.resign(guild_id=OTHER_GUILD, game_id=game_id, member=ANA),
    ):
        with pytest.raises(UserError, match=f"There is no game #{game_id} in this server"):
            await call
    assert (await env.games.get_game(GUILD, game_id)).is_active


async def test_the_same_members_play_apart_in_two_servers(env: Env) -> None:
    here = await start_game(env, "astralis", size=7)
    there = await start_game(env, "astralis", size=7, guild=OTHER_GUILD)
    assert (
        await env.games.find_game(guild_id=GUILD, channel_id=CHANNEL, member_id=ANA.id)
    ).id == here
    assert (
        await env.games.find_game(guild_id=OTHER_GUILD, channel_id=CHANNEL, member_id=ANA.id)
    ).id == there


async def test_the_board_is_a_real_picture(env: Env) -> None:
    """With the real renderer: the picture is a PNG that decodes."""
    service = Env.compose(env.path, env.db, env.poster, env.clock, renderer=render_board)
    for name in rules.GAMES:
        challenge = await service.challenges.create(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game=name, opponent=BO
        )
        update = await service.challenges.accept(
            guild_id=GUILD, challenge_id=challenge.id, member=BO
        )
        row = await service.games.get_game(GUILD, update.game.id)
        picture = await service.boards.picture(row, await service.games.state_of(row))
        with Image.open(io.BytesIO(picture)) as image:
            assert image.format == "PNG" and image.width > 100
        assert env.poster.posts_for(update.game.id)[0].picture == picture
