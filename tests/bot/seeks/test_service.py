"""Seeks: open challenges to anyone from any server, posted in every lobby, taken by
exactly one member, their game started where both players are."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot import places
from bot.model import UserError
from bot.seeks import texts
from bot.seeks.commands import SeekCommands
from bot.seeks.service import DEFAULT_DAYS, Seeks
from bot.storage import SeekRow, queries
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, OTHER_GUILD, ROBOT, Env
from tests.bot.fakes import FakePoster
from tests.bot.interactions import invoke
from tests.bot.support import StandIn

pytestmark = pytest.mark.both_backends

LOBBY = 401
OTHER_LOBBY = 402
THIRD_GUILD = 333_000


class Servers:
    """Who is a member of which server (as Discord would answer)."""

    def __init__(self, **members: set[int]) -> None:
        self.members = {int(g.removeprefix("g")): ids for g, ids in members.items()}
        self.asked = 0

    async def __call__(self, guild_id: int, member_id: int) -> bool:
        self.asked += 1
        return member_id in self.members.get(guild_id, set())


def everywhere() -> Servers:
    return Servers(
        **{f"g{GUILD}": {ANA.id, BO.id, CY.id}, f"g{OTHER_GUILD}": {ANA.id, BO.id, CY.id}}
    )


def seeks(env: Env) -> Seeks:
    return env.app.seeks


async def with_lobbies(env: Env) -> None:
    await seeks(env).set_lobby(GUILD, LOBBY, by=ANA)
    await seeks(env).set_lobby(OTHER_GUILD, OTHER_LOBBY, by=BO)


async def seek(env: Env, game: str = "asli", **settings) -> SeekRow:
    made, _ = await seeks(env).create(
        seeker=ANA,
        game=game,
        options={"size": 5} if game == "asli" else None,
        settings={"time_control": "3d", "rated": True, **settings},
        guild_id=GUILD,
        channel_id=CHANNEL,
    )
    return made


def cards(env: Env, seek_id: int) -> list:
    assert isinstance(env.poster, FakePoster)
    return [s for s in env.poster.sent if s.post.actions == (f"seek:{seek_id}",)]


def shown(env: Env, seek_id: int) -> list[str]:
    assert isinstance(env.poster, FakePoster)
    return [text for cid, text, _ in env.poster.shown if cid == -seek_id]


async def count(env: Env, table: str) -> int:
    async with env.db.reading() as conn:
        row = await conn.fetch_one(f"SELECT COUNT(*) AS n FROM {table}")
    assert row is not None
    return int(row["n"])


async def test_a_seek_is_posted_in_the_lobby_of_every_server_with_one(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    assert made.status == "open" and made.options == {"size": 5}
    posted = cards(env, made.id)
    assert sorted(s.where for s in posted) == [LOBBY, OTHER_LOBBY]
    assert all("Ana" in s.post.content and "Asli" in s.post.content for s in posted)
    assert [s.id for s in await seeks(env).open()] == [made.id]
    # one open seek per game at a time
    with pytest.raises(UserError, match="already have an open Asli seek"):
        await seek(env)


async def test_accepting_from_another_server_starts_the_game_in_its_lobby(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    game = await seeks(env).accept(
        seek_id=made.id, member=BO, shares=everywhere(), here=OTHER_GUILD
    )
    assert (game.guild_id, game.channel_id) == (OTHER_GUILD, OTHER_LOBBY)
    assert set(game.player_ids) == {ANA.id, BO.id} and game.is_active
    assert game.settings.get("rated") is True and game.options == {"size": 5}
    after = await seeks(env).get(made.id)
    assert (after.status, after.accepter_name, after.game_id) == ("accepted", "Bo", game.id)
    assert await seeks(env).open() == []
    # both cards now say who took it, and which game it is
    closed = shown(env, made.id)
    assert len(closed) == 2 and all("Taken by Bo" in t and f"#{game.id}" in t for t in closed)


async def test_the_game_goes_where_both_players_are(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    # Cy is not in the other server: the seek's own server's lobby
    servers = Servers(**{f"g{GUILD}": {ANA.id, CY.id}, f"g{OTHER_GUILD}": {ANA.id, BO.id}})
    game = await seeks(env).accept(seek_id=made.id, member=CY, shares=servers, here=OTHER_GUILD)
    assert (game.guild_id, game.channel_id) == (GUILD, LOBBY)


async def test_without_lobbies_the_seeks_own_channel_if_both_are_there(env: Env) -> None:
    made = await seek(env)
    assert cards(env, made.id) == []  # no lobby: only /seek list shows it
    game = await seeks(env).accept(seek_id=made.id, member=BO, shares=everywhere())
    assert (game.guild_id, game.channel_id) == (GUILD, CHANNEL)


async def test_without_a_shared_server_the_game_is_played_in_dms(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    apart = Servers(**{f"g{GUILD}": {ANA.id}, f"g{OTHER_GUILD}": {BO.id}})
    game = await seeks(env).accept(seek_id=made.id, member=BO, shares=apart, here=OTHER_GUILD)
    assert game.guild_id == places.DMS and set(game.player_ids) == {ANA.id, BO.id}
    assert game.is_active and game.settings.get("rated") is True
    after = await seeks(env).get(made.id)
    assert (after.status, after.game_guild_id, after.game_id) == ("accepted", places.DMS, game.id)
    assert "played in your DMs" in texts.started_text(game)
    # the game is found in the DMs' scope, as every DM game is
    assert (await env.games.get_game(places.DMS, game.id)).id == game.id


async def test_without_games_in_dms_no_shared_server_is_refused(env: Env) -> None:
    seeks(env).in_dms = None  # (a bot without games in DMs)
    made = await seek(env)
    apart = Servers(**{f"g{GUILD}": {ANA.id}, f"g{OTHER_GUILD}": {BO.id}})
    with pytest.raises(UserError, match="share no server"):
        await seeks(env).accept(seek_id=made.id, member=BO, shares=apart, here=OTHER_GUILD)
    assert (await seeks(env).get(made.id)).status == "open"
    assert await count(env, "games") == 0


async def test_your_own_seek_a_bot_and_a_forged_seek_are_refused(env: Env) -> None:
    made = await seek(env)
    with pytest.raises(UserError, match="your own seek"):
        await seeks(env).accept(seek_id=made.id, member=ANA, shares=everywhere())
    with pytest.raises(UserError, match="Bots"):
        await seeks(env).accept(seek_id=made.id, member=ROBOT, shares=everywhere())
    with pytest.raises(UserError, match="doesn't exist"):
        await seeks(env).accept(seek_id=made.id + 99, member=BO, shares=everywhere())
    assert (await seeks(env).get(made.id)).status == "open"
    assert await count(env, "games") == 0 and await count(env, "challenges") == 0


async def test_two_members_accepting_at_once_make_exactly_one_game(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    results = await asyncio.gather(
        seeks(env).accept(seek_id=made.id, member=BO, shares=everywhere(), here=GUILD),
        seeks(env).accept(seek_id=made.id, member=CY, shares=everywhere(), here=OTHER_GUILD),
        return_exceptions=True,
    )
    games = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, UserError)]
    assert len(games) == 1 and len(refused) == 1, results
    winner = (await seeks(env).get(made.id)).accepter_name
    assert f"{winner} accepted seek #{made.id} just before you" in str(refused[0]) or (
        "already taken" in str(refused[0])
    )
    assert await count(env, "games") == 1 and await count(env, "challenges") == 1


async def test_a_cancelled_seek_is_refused_and_its_cards_say_so(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    with pytest.raises(UserError, match="Only Ana can cancel"):
        await seeks(env).cancel(member=BO, seek_id=made.id)
    [closed] = await seeks(env).cancel(member=ANA)
    assert closed.id == made.id
    assert ["Cancelled by Ana" in t for t in shown(env, made.id)] == [True, True]
    with pytest.raises(UserError, match="was cancelled by Ana"):
        await seeks(env).accept(seek_id=made.id, member=BO, shares=everywhere())
    with pytest.raises(UserError, match="no open seek"):
        await seeks(env).cancel(member=ANA)
    assert await count(env, "games") == 0


async def test_an_unanswered_seek_expires(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    later = await seek(env, "lifeline")
    env.clock.advance(days=DEFAULT_DAYS, seconds=1)  # the env's challenges never expire
    # a click before the timer: refused, and expired on the spot
    with pytest.raises(UserError, match="expired"):
        await seeks(env).accept(seek_id=made.id, member=BO, shares=everywhere())
    assert (await seeks(env).get(made.id)).status == "expired"
    expired = await seeks(env).expire_due()
    assert [s.id for s in expired] == [later.id]
    assert any("Expired" in t for t in shown(env, later.id))
    assert await seeks(env).expire_due() == []
    assert await count(env, "games") == 0


async def test_a_crash_between_the_claim_and_the_game_is_taken_up(env: Env) -> None:
    await with_lobbies(env)
    made = await seek(env)
    async with env.db.transaction() as tx:  # claimed, then the bot died
        assert await queries.take_seek(
            tx,
            made.id,
            accepter_id=BO.id,
            accepter_name=BO.name,
            guild_id=OTHER_GUILD,
            channel_id=OTHER_LOBBY,
            at=env.clock(),
        )
    await env.restart()
    assert await seeks(env).resume() == 1
    after = await seeks(env).get(made.id)
    assert after.game_id is not None
    row = await env.games.get_game(OTHER_GUILD, after.game_id)
    assert set(row.player_ids) == {ANA.id, BO.id}
    assert await seeks(env).resume() == 0  # nothing twice
    assert await count(env, "games") == 1


async def test_lobby_is_for_moderators_and_changes_nothing_otherwise(env: Env) -> None:
    asked = StandIn(env, BO)
    asked.permissions = SimpleNamespace(manage_guild=False)  # type: ignore[attr-defined]
    channel = SimpleNamespace(id=LOBBY, guild=SimpleNamespace(id=GUILD))
    await invoke(SeekCommands.lobby_channel, SeekCommands(), asked, channel)
    assert asked.answer["ephemeral"] and "Manage Server" in asked.answer["content"]
    assert await count(env, "lobbies") == 0
    moderator = StandIn(env, ANA)
    moderator.permissions = SimpleNamespace(manage_guild=True)  # type: ignore[attr-defined]
    await invoke(SeekCommands.lobby_channel, SeekCommands(), moderator, channel)
    assert f"<#{LOBBY}>" in moderator.answer["content"]
    async with env.db.reading() as conn:
        assert await queries.get_lobby(conn, GUILD) == LOBBY
    cleared = StandIn(env, ANA)
    cleared.permissions = SimpleNamespace(manage_guild=True)  # type: ignore[attr-defined]
    await invoke(SeekCommands.lobby_channel, SeekCommands(), cleared, None)
    assert await count(env, "lobbies") == 0


class ClosedLobby(FakePoster):
    """A poster whose first lobby refuses the bot (as Discord's 403 would)."""

    async def post(self, game, post):  # type: ignore[no-untyped-def]
        if game.channel_id == LOBBY:
            raise PermissionError("Missing Permissions")
        return await super().post(game, post)


async def test_a_lobby_closed_to_the_bot_gets_no_card_and_stops_nothing(
    database_url: str,
) -> None:
    env = await Env.start(database_url, ClosedLobby())
    try:
        await with_lobbies(env)
        made = await seek(env)
        assert [s.where for s in cards(env, made.id)] == [OTHER_LOBBY]
        game = await seeks(env).accept(
            seek_id=made.id, member=BO, shares=everywhere(), here=OTHER_GUILD
        )
        assert game.channel_id == OTHER_LOBBY
        assert len(shown(env, made.id)) == 1  # only the card that exists is closed
    finally:
        await env.outbox.stop()
        await env.db.close()
