"""A 6-player double round robin and an 8-player knockout through the real bot and
the loopback Discord (SQLite; the Swiss runs on both backends): every game ended by a
member, resigned or lost on time, a withdrawal in the round robin forfeiting the games
left, an /abort of a knockout game refused (a competition's result is owed; a drawn
game replayed with the seats swapped is tests/bot/competitions' knockout test); the
standings and the champion as worked out here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import Member
from tests.fakediscord.process import BotProcess

from .competitions import (
    Competitor,
    Played,
    bot_settings,
    database_of,
    decide_by_board,
    end_games,
    expected_standings,
    make,
    posted_standings,
    round_games,
    seat_balance,
    sign_up,
)
from .conftest import World
from .driver import WAIT, command_reply, decode_png, grant_manage_server, open_games


@pytest.fixture
async def bot(world: World, tmp_path: Path, database_url: object) -> AsyncIterator[BotProcess]:
    proc = BotProcess(world.fake, tmp_path, **bot_settings(database_url))
    try:
        await proc.start("tournament", "resign")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())


async def open_tournament(
    world: World, players: list[Member], options: dict[str, object]
) -> tuple[int, Competitor]:
    """Made by a moderator, joined by ``players``, started: its number."""
    fake, channel, organiser = world.fake, world.channel, world.alice
    mark = fake.mark()
    refused = await command_reply(  # checked at each call, not only by Discord's defaults
        fake,
        world.bob,
        "tournament create",
        {"game": "lifeline", "deadline": "1d", **options},
        channel,
    )
    assert refused.ephemeral and "Manage Server" in refused.content, refused.content
    assert fake.posts(channel, after=mark) == []
    grant_manage_server(organiser)
    number, _ = await make(fake, organiser, channel, "tournament", {"deadline": "1d", **options})
    post = await fake.wait_for_message(channel, lambda m: bool(m.buttons), after=mark, timeout=WAIT)
    await sign_up(fake, post, players)
    refused = await command_reply(
        fake, players[0], "tournament cancel", {"tournament": number}, channel
    )
    assert refused.ephemeral and "Only Alice" in refused.content, refused.content
    answer = await command_reply(
        fake, organiser, "tournament start", {"tournament": number}, channel
    )
    assert "has started" in answer.content, answer.content
    return post.id, Competitor(fake, channel, players, "")


async def test_a_six_player_double_round_robin(world: World, bot: BotProcess) -> None:
    fake = world.fake
    players = [fake.add_member(world.guild, f"robin{i}") for i in range(6)]
    post_id, who = await open_tournament(
        world,
        players,
        {"name": "Round and round", "format": "double_round_robin", "min_players": 6},
    )
    who.database = database_of(bot)
    thread = fake.channels[post_id]
    played = Played()
    quitter = None
    for number in range(1, 11):  # 5 rounds a leg
        games = await round_games(who, thread, number, played)
        if number == 7:  # someone withdraws: this game resigned, those to come forfeited
            quitter = games[0].seats[0]
            answer = await command_reply(
                fake, who.by_name[quitter], "tournament withdraw", {"tournament": 1}, who.channel
            )
            assert "withdrawn" in answer.content, answer.content
            await fake.wait_until(lambda g=games[0]: g.over, WAIT, "the resigned game")
            played.games.append((*games[0].seats, 0.0))
            games = games[1:]
        await end_games(who, games, decide_by_board, played)
    final = await fake.wait_for_message(thread, lambda m: "is over" in m.content, timeout=WAIT)
    expected = expected_standings(list(who.by_name), who.ids, played)
    assert posted_standings(final.content) == expected, final.content
    assert decode_png(final)  # the crosstable
    # Everyone met everyone twice, once in each seat; the withdrawn player's last
    # games forfeited, never played
    pairs = sorted((a, b) for a, b, _ in played.games)
    assert pairs == sorted((a, b) for a in who.by_name for b in who.by_name if a != b)
    assert set(seat_balance(played).values()) == {0}
    assert quitter is not None and all(
        quitter not in g.seats for g in open_games(fake, who.channel)
    )


async def test_an_eight_player_knockout(world: World, bot: BotProcess) -> None:
    fake = world.fake
    players = [fake.add_member(world.guild, f"cup{i}") for i in range(8)]
    post_id, who = await open_tournament(
        world, players, {"name": "The Cup", "format": "knockout", "min_players": 8}
    )
    who.database = database_of(bot)
    thread = fake.channels[post_id]
    played = Played()
    alive = set(who.by_name)
    for number, size in ((1, 4), (2, 2), (3, 1)):
        games = await round_games(who, thread, number, played)
        assert len(games) == size and {p for g in games for p in g.seats} <= alive
        if number == 1:  # a tournament game cannot be aborted: its result is owed
            first = games[0].seats[0]
            answer = await command_reply(fake, who.by_name[first], "abort", {}, games[0].thread)
            assert "competition game" in answer.content and answer.ephemeral, answer.content
        await end_games(who, games, decide_by_board, played)
        alive = {a if points == 1.0 else b for a, b, points in played.games[-size:]}
    (champion,) = alive
    final = await fake.wait_for_message(thread, lambda m: "is over" in m.content, timeout=WAIT)
    assert f"**{champion}** wins it" in final.content
    assert decode_png(final)  # the bracket
    shown = await command_reply(
        fake, players[0], "tournament standings", {"tournament": 1}, who.channel
    )
    assert f"→ **{champion}**" in shown.content
