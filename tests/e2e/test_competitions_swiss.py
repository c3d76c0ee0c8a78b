"""A 10-player Swiss of 4 rounds through the real bot and the loopback Discord: sign-up
by the Join button, the start by its organiser, every game ended by a member
(resigned, or lost on time), one player withdrawing in round 3 and the bot killed
mid-round 2 and started again. Members see each round once, no rematch, seats balanced
within 2, and final standings equal to the ones worked out here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
from .driver import (
    WAIT,
    command_reply,
    decode_png,
    game_threads,
    grant_manage_server,
    open_games,
)

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def bot(world: World, tmp_path: Path, database_url: object) -> AsyncIterator[BotProcess]:
    proc = BotProcess(world.fake, tmp_path, **bot_settings(database_url))
    try:
        await proc.start("tournament", "resign")
        yield proc
    finally:
        await proc.stop()
        print(proc.log())


async def test_a_ten_player_swiss_of_four_rounds(world: World, bot: BotProcess) -> None:
    fake, channel, organiser = world.fake, world.channel, world.alice
    players = [fake.add_member(world.guild, f"swiss{i}") for i in range(10)]
    who = Competitor(fake, channel, players, database_of(bot))
    grant_manage_server(organiser)
    mark = fake.mark()
    number, _ = await make(
        fake,
        organiser,
        channel,
        "tournament",
        {
            "name": "Autumn Swiss",
            "format": "swiss",
            "deadline": "2d",
            "rounds": 4,
            "min_players": 10,
            "max_players": 12,
        },
    )
    post = await fake.wait_for_message(
        channel, lambda m: "Autumn Swiss" in m.content and bool(m.buttons), after=mark, timeout=WAIT
    )
    await sign_up(fake, post, players)
    await fake.wait_until(lambda: "10 so far" in post.content, WAIT, "the count on the post")
    started = await command_reply(
        fake, organiser, "tournament start", {"tournament": number}, channel
    )
    assert started.ephemeral and "has started" in started.content, started.content
    thread = fake.channels[post.id]
    played = Played()
    for round_number in range(1, 5):
        games = await round_games(who, thread, round_number, played)
        assert len(games) == (5 if round_number < 4 else 4)  # (4: one withdrew, a bye)
        if round_number == 2:  # killed with two games of the round ended, then started again
            await end_games(who, games[:2], decide_by_board, played)
            await bot.kill()
            await bot.start("tournament", "resign")
            games = games[2:]
        if round_number == 3:  # a player withdraws mid-game: the bot resigns it for them
            quitter = who.by_name[games[0].seats[1]]
            answer = await command_reply(
                fake, quitter, "tournament withdraw", {"tournament": number}, channel
            )
            assert answer.ephemeral and "withdrawn" in answer.content, answer.content
            await fake.wait_until(lambda g=games[0]: g.over, WAIT, "the withdrawn player's game")
            first, second = games[0].seats
            played.games.append((first, second, 1.0))
            games = games[1:]
        await end_games(who, games, decide_by_board, played)
    final = await fake.wait_for_message(thread, lambda m: "is over" in m.content, timeout=WAIT)
    names = list(who.by_name)
    expected = expected_standings(names, who.ids, played)
    assert posted_standings(final.content) == expected, final.content
    assert f"**{expected[0][1]}** wins it" in final.content
    # Nobody met anyone twice; seats within 2 of even; one bye (9 players in round 4)
    met = [frozenset((a, b)) for a, b, _ in played.games]
    assert len(met) == len(set(met))
    assert len(played.byes) == 1
    assert all(abs(b) <= 2 for b in seat_balance(played).values()), seat_balance(played)
    # Each round announced once, each game ended once, nothing left open
    rounds = [m for m in thread.visible_messages() if "**Round " in m.content]
    assert len(rounds) == 4
    assert not open_games(fake, channel)
    for game in game_threads(fake, channel):
        assert sum("Game over" in m.content for m in game.thread.visible_messages()) == 1
    assert sum("is over" in m.content for m in thread.visible_messages()) == 1
    said = [m.content for m in thread.visible_messages()]  # every post of it different
    assert len(said) == len(set(said)) == 10 + 1 + 4 + 1 + 1, said  # joins, start, rounds…
    # The standings on demand: the same table, and the crosstable picture
    shown = await command_reply(
        fake, players[0], "tournament standings", {"tournament": number}, channel
    )
    assert shown.ephemeral and posted_standings(shown.content) == expected
    assert decode_png(shown).width <= 1600
