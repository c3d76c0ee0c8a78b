"""Ratings in the bot: updated by Glicko-2 at the end of each game that counts, stored
per member per game per server, shown as leaderboards and profiles."""

from __future__ import annotations

import pytest

from bot.ratings.commands import RatingCommands
from bot.ratings.glicko import Rating, update, update_after_game
from bot.storage import RatingRow
from bot.storage.queries import save_rating
from rules import Outcome, Termination
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, OTHER_GUILD, ROBOT, Env, start_game
from tests.bot.interactions import invoke
from tests.bot.support import StandIn, play_out
from tests.e2e.driver import PLANS, planned_moves

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends

ASLI_OPTIONS, ASLI_SEED = PLANS["asli"]


@pytest.fixture
def rated_env(env: Env) -> Env:
    env.endings.finale = env.epilogue  # rates each game as it ends, as in bot.app
    return env


async def play_game(env: Env, game: str = "asli", **kwargs) -> int:
    """A complete game of ``game`` (Ana challenges Bo unless told otherwise)."""
    options, seed = PLANS[game]
    game_id = await start_game(env, game, **kwargs, **options)
    await play_out(env, game_id, planned_moves(game, options, seed))
    return game_id


async def rating(env: Env, member_id: int, game: str = "asli", guild: int = GUILD) -> RatingRow:
    found = await env.ratings.profile(guild, member_id)
    [row] = [r for r in found.ratings if r.game == game]
    return row


async def test_after_a_real_game_the_winner_rises_and_the_loser_falls(rated_env: Env) -> None:
    game_id = await play_game(rated_env)
    row = await rated_env.games.get_game(GUILD, game_id)
    winner, loser = row.player_ids[row.winner_seat], row.player_ids[1 - row.winner_seat]
    won, lost = await rating(rated_env, winner), await rating(rated_env, loser)
    expected_won, expected_lost = update_after_game(Rating(), Rating())
    assert won.rating > 1500 > lost.rating
    assert won.rating == pytest.approx(expected_won.rating)
    assert won.deviation == pytest.approx(expected_won.deviation)
    assert won.deviation < 350
    assert lost.rating == pytest.approx(expected_lost.rating)
    assert (won.games, won.wins, won.losses) == (1, 1, 0)
    assert (lost.games, lost.wins, lost.losses) == (1, 0, 1)
    change = await rated_env.ratings.rating_change(game_id)
    assert change.before == (1500, 1500)
    # the same game is never rated twice
    assert await rated_env.ratings.rate_game(row, moves=6) is None
    assert (await rating(rated_env, winner)).games == 1


async def test_a_win_over_the_papers_first_opponent_matches_glicko2(rated_env: Env) -> None:
    """Glickman's worked example rates a 1500 ± 200 player (σ 0.06) against 1400 ± 30,
    1550 ± 100 and 1700 ± 300 in one period; a game here is a period of its own, so
    the part that fits is the first game: a win against 1400 ± 30."""
    async with rated_env.db.transaction() as tx:
        for member, (value, rd) in ((ANA, (1500, 200)), (BO, (1400, 30))):
            await save_rating(
                tx,
                RatingRow(GUILD, "asli", member.id, member.name, value, rd, 0.06, 0, 0, 0, 0),
                updated_at=rated_env.clock(),
            )
    game_id = await play_game(rated_env)
    row = await rated_env.games.get_game(GUILD, game_id)
    winner = row.player_ids[row.winner_seat]
    ana_won = winner == ANA.id
    ana = await rating(rated_env, ANA.id)
    expected = update(Rating(1500, 200, 0.06), [(Rating(1400, 30, 0.06), 1.0 if ana_won else 0.0)])
    assert ana.rating == pytest.approx(expected.rating, abs=1e-9)
    assert ana.deviation == pytest.approx(expected.deviation, abs=1e-9)
    assert ana.volatility == pytest.approx(expected.volatility, abs=1e-9)
    # By hand from the paper's step 3 values for that opponent (g(φ) = 0.9955, E = 0.639)
    # and σ' ≈ σ: RD 175.4, and 1563.6 after the win or 1387.3 after a loss.
    assert ana.deviation == pytest.approx(175.4, abs=0.05)
    assert ana.rating == pytest.approx(1563.6 if ana_won else 1387.3, abs=0.05)


async def test_casual_aborted_and_one_move_games_never_count(rated_env: Env) -> None:
    challenge = await rated_env.challenges.create(
        guild_id=GUILD,
        channel_id=1,
        challenger=ANA,
        game="asli",
        options=ASLI_OPTIONS,
        opponent=BO,
        rated=False,
    )
    casual = await rated_env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    await play_out(rated_env, casual.game.id, planned_moves("asli", ASLI_OPTIONS, ASLI_SEED))
    assert not (await rated_env.games.get_game(GUILD, casual.game.id)).rated

    aborted = await start_game(rated_env, "asli", **ASLI_OPTIONS)
    await play_out(rated_env, aborted, planned_moves("asli", ASLI_OPTIONS, ASLI_SEED)[:3])
    await rated_env.endings.end_game(
        game_id=aborted,
        outcome=lambda row, state: Outcome(None, Termination.ABORT, "Aborted by agreement"),
    )

    short = await start_game(rated_env, "asli", **ASLI_OPTIONS)
    await play_out(rated_env, short, ["komi 3"])
    await rated_env.moves.resign(guild_id=GUILD, game_id=short, member=BO)

    assert await rated_env.ratings.leaderboard(GUILD, "asli") == []
    assert "Aborted games don't change ratings." in rated_env.poster.posts_for(aborted)[-1].content
    assert "Fewer than two moves were played" in rated_env.poster.posts_for(short)[-1].content


async def test_leaderboards_are_per_server_and_per_game(rated_env: Env) -> None:
    await play_game(rated_env, "asli")
    await play_game(rated_env, "asli", challenger=CY, opponent=BO)
    await play_game(rated_env, "lifeline", challenger=CY, opponent=ANA)
    await play_game(rated_env, "asli", challenger=CY, opponent=ANA, guild=OTHER_GUILD)

    here = await rated_env.ratings.leaderboard(GUILD, "asli")
    assert {row.member_id for row in here} == {ANA.id, BO.id, CY.id}
    assert [row.rating for row in here] == sorted((row.rating for row in here), reverse=True)
    assert sum(row.games for row in here) == 4  # two games, two players each
    lifeline = await rated_env.ratings.leaderboard(GUILD, "lifeline")
    assert {row.member_id for row in lifeline} == {ANA.id, CY.id}
    elsewhere = await rated_env.ratings.leaderboard(OTHER_GUILD, "asli")
    assert {row.member_id for row in elsewhere} == {ANA.id, CY.id}
    assert all(row.games == 1 for row in elsewhere)
    assert await rated_env.ratings.leaderboard(OTHER_GUILD, "lifeline") == []

    asked = StandIn(rated_env, CY, guild_id=OTHER_GUILD)
    await invoke(RatingCommands.leaderboard, RatingCommands(), asked, "asli", False)
    board = asked.answer["embed"]
    assert board.title == "Asli: leaderboard" and asked.answer["ephemeral"]
    lines = board.description.splitlines()
    assert len(lines) == 2 and "Bo" not in board.description
    assert lines[0].startswith("1. **") and " ± " in lines[0]
    empty = StandIn(rated_env, CY, guild_id=OTHER_GUILD)
    await invoke(RatingCommands.leaderboard, RatingCommands(), empty, "sliglube", False)
    assert empty.answer["embed"].description.startswith("Nobody is rated yet")
    unknown = StandIn(rated_env, CY)
    await invoke(RatingCommands.leaderboard, RatingCommands(), unknown, "chess", False)
    assert unknown.answer["ephemeral"] and "chess" in unknown.answer["content"].lower()


async def test_a_profile_shows_rating_deviation_record_and_current_games(rated_env: Env) -> None:
    first = await play_game(rated_env, "asli")
    live = await start_game(rated_env, "lifeline", size=4)
    row = await rated_env.games.get_game(GUILD, first)
    ana = await rating(rated_env, ANA.id)

    asked = StandIn(rated_env, BO)
    member = StandIn(rated_env, ANA).user
    await invoke(RatingCommands.profile, RatingCommands(), asked, member, False)
    embed = asked.answer["embed"]
    assert embed.title == "Ana's profile"
    fields = {field.name: field.value for field in embed.fields}
    won = row.winner_seat == row.seat_of(ANA.id)
    assert fields["Asli"] == (
        f"Rating **{ana.rating:.0f}** ± {ana.deviation:.0f}\n"
        f"1 rated game: {int(won)} won, {int(not won)} lost."
    )
    assert fields["Games in progress (1)"] == f"Lifeline #{live} vs Bo"


async def test_the_bots_profile_shows_its_practice_record_against_everyone(env: Env) -> None:
    assert env.practice is not None
    env.practice.me = ROBOT
    for member, level in ((ANA, "easy"), (BO, "easy"), (ANA, "hard")):
        started = await env.practice.start_game(
            guild_id=GUILD, channel_id=CHANNEL, member=member, game="lifeline", level=level
        )  # the member moves first, and resigns: the bot wins
        await env.moves.resign(guild_id=GUILD, game_id=started.game.id, member=member)
    await env.practice.start_game(
        guild_id=GUILD, channel_id=CHANNEL, member=CY, game="asli", level="easy"
    )  # still going

    asked = StandIn(env, CY)
    await invoke(RatingCommands.profile, RatingCommands(), asked, StandIn(env, ROBOT).user, False)
    embed = asked.answer["embed"]
    assert "No rated games" not in (embed.description or "")
    assert "never rated" in embed.description
    fields = {field.name: field.value for field in embed.fields}
    mine = fields["My practice games against members"]
    assert mine.splitlines() == ["**easy**: 2 won, 0 lost", "**hard**: 1 won, 0 lost"]
    assert "Practice against me (not rated)" not in fields  # not against itself
    [(name, going)] = [(n, v) for n, v in fields.items() if n.startswith("Games in progress")]
    assert name == "Games in progress (1)" and going.endswith("vs Cy")

    asked = StandIn(env, CY)
    await invoke(RatingCommands.profile, RatingCommands(), asked, StandIn(env, ANA).user, False)
    fields = {field.name: field.value for field in asked.answer["embed"].fields}
    assert fields["Practice against me (not rated)"].splitlines() == [
        "**easy**: 0 won, 1 lost",
        "**hard**: 0 won, 1 lost",
    ]
