"""A member's games are shown in a server only to its players, or to anyone there when
both players are members of it (:mod:`bot.core.visibility`, applied by
``Games.find_game`` to every game looked up by number)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.visibility import shown_here
from bot.model import UserError
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, OTHER_GUILD, Env, start_game


async def test_a_game_by_number_is_shown_by_the_one_rule(env: Env) -> None:
    game_id = await start_game(env, "lifeline")  # Ana v Bo, in GUILD

    async def find(guild: int, member_id: int) -> int:
        row = await env.games.find_game(
            guild_id=guild, channel_id=CHANNEL, member_id=member_id, ref=f"#{game_id}"
        )
        return row.id

    assert await find(GUILD, CY.id) == game_id  # anyone in the server it is played in
    for member in (ANA, CY):  # another server sees nothing, its players included
        with pytest.raises(UserError, match=f"no game #{game_id} in this server"):
            await find(OTHER_GUILD, member.id)


async def test_in_dms_only_its_players_and_elsewhere_both_members(env: Env) -> None:
    row = await env.games.get_game(GUILD, await start_game(env, "lifeline"))
    assert shown_here(row, guild_id=None, viewer_id=ANA.id)
    assert not shown_here(row, guild_id=None, viewer_id=CY.id, both_members=True)
    assert shown_here(row, guild_id=GUILD, viewer_id=CY.id)
    assert not shown_here(row, guild_id=OTHER_GUILD, viewer_id=BO.id)
    assert shown_here(row, guild_id=OTHER_GUILD, viewer_id=CY.id, both_members=True)
    in_dms = replace(row, guild_id=0)  # a game played in direct messages
    assert shown_here(in_dms, guild_id=OTHER_GUILD, viewer_id=BO.id)  # its player
    assert not shown_here(in_dms, guild_id=OTHER_GUILD, viewer_id=CY.id)
    assert shown_here(in_dms, guild_id=OTHER_GUILD, viewer_id=CY.id, both_members=True)
