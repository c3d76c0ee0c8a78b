"""Tournaments through the services, on a real database: signed up, started at the
deadline (or by the organiser), their games ordinary games started by challenges and
played to the end with resignations (a draw ended through the core's endings), the next
round paired as the last game of one ends, the champion found; a restart mid-round
loses nothing; bad input is refused and changes nothing."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest

from bot.competitions.pairing import round_robin
from bot.competitions.service import Tournaments
from bot.model import Member, UserError
from bot.storage import TournamentGameRow, queries
from rules import Outcome, Termination
from tests.bot.conftest import CHANNEL, GUILD, SMALL, Env

GAME = "lifeline"
PLAYERS = [Member(100 + i, f"P{i}") for i in range(12)]
ORGANISER = Member(7, "Org")


def service(env: Env) -> Tournaments:
    """The tournaments of the bot (the composition root's, listening to the games)."""
    return env.app.tournaments


async def create(svc: Tournaments, env: Env, **given) -> int:
    settings = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "organiser": ORGANISER,
        "name": "Winter cup",
        "format": "swiss",
        "game": GAME,
        "options": SMALL[GAME],
        "starts_at": env.clock() + timedelta(days=2),
        "min_players": 4,
        "max_players": 16,
        **given,
    }
    made = await svc.create(**settings)
    return made.id


def name(member_id: int) -> str:
    return next(m.name for m in PLAYERS if m.id == member_id)


async def finish(env: Env, g: TournamentGameRow, points: float) -> None:
    """End the game of ``g`` with player 0's ``points``: the loser resigns; a draw is
    ended through the core (as a rule's draw would be)."""
    assert g.game_id is not None and g.player1_id is not None
    if points == 0.5:
        await env.endings.end_game(
            game_id=g.game_id,
            outcome=lambda row, state: Outcome(None, Termination.REPETITION, "Drawn"),
        )
        return
    loser = g.player1_id if points == 1.0 else g.player0_id
    await env.moves.resign(guild_id=GUILD, game_id=g.game_id, member=Member(loser, name(loser)))


async def play_round(
    env: Env, svc: Tournaments, tid: int, decide: Callable[[TournamentGameRow], float]
) -> list[TournamentGameRow]:
    table = await svc.table(GUILD, tid)
    current = [g for g in table.games if g.round == table.tournament.round]
    for g in current:
        if g.points is None:
            await finish(env, g, decide(g))
    return current


def stronger_wins(seeds: dict[int, int]) -> Callable[[TournamentGameRow], float]:
    def decide(g: TournamentGameRow) -> float:
        assert g.player1_id is not None
        return 1.0 if seeds[g.player0_id] < seeds[g.player1_id] else 0.0

    return decide


@pytest.mark.both_backends
async def test_a_ten_player_swiss_of_four_rounds_is_played_to_the_end(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, rounds=4, min_players=8)
    for member in PLAYERS[:10]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    assert await svc.start_due() == []  # not yet
    env.clock.advance(days=2)
    assert await svc.start_due() == [tid]
    assert await svc.start_due() == []  # once
    table = await svc.table(GUILD, tid)
    seeds = {e.member_id: e.seed for e in table.entrants}
    assert sorted(seeds.values()) == list(range(10))
    met: set[frozenset[int]] = set()
    for number in range(1, 5):
        table = await svc.table(GUILD, tid)
        assert table.tournament.round == number
        current = [g for g in table.games if g.round == number]
        assert sorted(p for g in current for p in (g.player0_id, g.player1_id)) == sorted(seeds)
        for g in current:
            assert g.game_id is not None
            game = await env.games.get_game(GUILD, g.game_id)
            assert game.player_ids == (g.player0_id, g.player1_id)
            assert (game.settings["tournament"], game.settings["round"]) == (tid, number)
            assert game.thread_id is not None  # an ordinary game, in its thread
            pair = frozenset((g.player0_id, g.player1_id))
            assert pair not in met
            met.add(pair)
        # the first board drawn, the others won by the stronger
        await play_round(env, svc, tid, lambda g: 0.5 if g.board == 0 else stronger_wins(seeds)(g))
    table = await svc.table(GUILD, tid)
    assert table.tournament.status == "finished"
    assert table.tournament.champion_id == table.standings[0].player
    assert len(table.games) == 20 and all(g.points is not None for g in table.games)
    assert sum(s.score for s in table.standings) == 20
    seats = Counter()
    for g in table.games:
        seats[g.player0_id] += 1
        seats[g.player1_id] -= 1
    assert all(abs(s) <= 2 for s in seats.values())


@pytest.mark.both_backends
async def test_a_restart_mid_round_loses_nothing(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, format="round_robin", min_players=4)
    for member in PLAYERS[:4]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    table = await svc.table(GUILD, tid)
    seeds = {e.member_id: e.seed for e in table.entrants}
    first, second = [g for g in table.games if g.round == 1]
    await finish(env, first, 1.0)
    # The bot goes down; the last game of the round ends unheard of (its listener gone).
    env.events._listeners.remove(svc)
    await finish(env, second, 0.0)
    await env.restart()
    svc = service(env)
    await svc.start()  # goes on with what it missed
    try:
        table = await svc.table(GUILD, tid)
        assert table.tournament.round == 2
        assert [g.points for g in table.games if g.round == 1] == [1.0, 0.0]
        assert all(g.game_id is not None for g in table.games if g.round == 2)
        for _ in range(2):
            await play_round(env, svc, tid, stronger_wins(seeds))
        table = await svc.table(GUILD, tid)
        assert table.tournament.status == "finished"
        assert len(table.games) == 6
    finally:
        await svc.stop()


async def test_a_six_player_double_round_robin(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, format="double_round_robin", min_players=6, max_players=6)
    for member in PLAYERS[:6]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    with pytest.raises(UserError, match="full"):
        await svc.join(guild_id=GUILD, tournament_id=tid, member=PLAYERS[6])
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    seeds = {e.member_id: e.seed for e in await svc.entrants(tid)}
    for _ in range(10):
        await play_round(env, svc, tid, stronger_wins(seeds))
    table = await svc.table(GUILD, tid)
    assert table.tournament.status == "finished"
    meetings = Counter((g.player0_id, g.player1_id) for g in table.games)
    assert len(table.games) == 30
    for a, b in itertools.combinations(seeds, 2):
        assert meetings[(a, b)] == meetings[(b, a)] == 1  # both seats, once each
    assert [s.score for s in table.standings] == [10, 8, 6, 4, 2, 0]
    assert [seeds[s.player] for s in table.standings] == [0, 1, 2, 3, 4, 5]
    assert table.tournament.champion_id == table.standings[0].player


@pytest.mark.both_backends
async def test_an_eight_player_knockout_replays_a_draw_with_seats_swapped(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, format="knockout", min_players=8, max_players=8)
    for member in PLAYERS[:8]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    seeds = {e.member_id: e.seed for e in await svc.entrants(tid)}
    round_one = await play_round(
        env, svc, tid, lambda g: 0.5 if g.board == 0 else stronger_wins(seeds)(g)
    )
    assert len(round_one) == 4
    table = await svc.table(GUILD, tid)
    assert table.tournament.round == 1  # the drawn match is still to decide
    drawn, replay = [g for g in table.games if g.board == 0]
    assert (replay.replay, replay.player0_id, replay.player1_id) == (
        1,
        drawn.player1_id,
        drawn.player0_id,
    )
    assert replay.game_id is not None and replay.game_id != drawn.game_id
    await play_round(env, svc, tid, stronger_wins(seeds))
    for _ in range(2):
        table = await svc.table(GUILD, tid)
        assert table.tournament.status == "running"
        await play_round(env, svc, tid, stronger_wins(seeds))
    table = await svc.table(GUILD, tid)
    assert table.tournament.status == "finished"
    assert seeds[table.tournament.champion_id] == 0
    assert table.bracket is not None and [len(r) for r in table.bracket] == [4, 2, 1]
    assert len(table.games) == 8  # 4 + the replay + 2 + 1


async def test_a_withdrawal_forfeits_the_games_left(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, format="round_robin", min_players=4)
    for member in PLAYERS[:4]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    leaving = PLAYERS[0]
    await svc.withdraw(guild_id=GUILD, tournament_id=tid, member=leaving)
    with pytest.raises(UserError, match="already withdrawn"):
        await svc.withdraw(guild_id=GUILD, tournament_id=tid, member=leaving)
    table = await svc.table(GUILD, tid)
    theirs = [g for g in table.games if leaving.id in (g.player0_id, g.player1_id)]
    assert len(theirs) == 1  # round 1's game, resigned
    assert theirs[0].points == (0.0 if theirs[0].player0_id == leaving.id else 1.0)
    seeds = {e.member_id: e.seed for e in table.entrants}
    await play_round(env, svc, tid, stronger_wins(seeds))
    while (table := await svc.table(GUILD, tid)).tournament.status == "running":
        await play_round(env, svc, tid, stronger_wins(seeds))
    theirs = [g for g in table.games if leaving.id in (g.player0_id, g.player1_id)]
    assert len(theirs) == 3
    assert [g.forfeit for g in theirs] == [False, True, True]
    standing = next(s for s in table.standings if s.player == leaving.id)
    assert (standing.score, standing.losses) == (0, 3)
    assert sum(len(one.pairings) for one in round_robin(list(seeds))) == len(table.games)


async def test_bad_input_is_refused_and_changes_nothing(env: Env) -> None:
    svc = service(env)
    now = env.clock()
    refusals = [
        ({"rounds": 5, "min_players": 2}, "needs at least 6 players"),
        ({"rounds": 3, "starts_at": now - timedelta(minutes=1)}, "in the past"),
        ({"rounds": 3, "options": {"size": 999}}, "can't be played like that"),
        ({"rounds": 3, "format": "ladder"}, "format must be"),
        ({"format": "swiss"}, "how many rounds"),
        ({"format": "knockout", "rounds": 3}, "Only a Swiss"),
        ({"format": "knockout", "min_players": 9, "max_players": 8}, "at least 2"),
        ({"format": "knockout", "max_players": 1000}, "at most 256"),
        ({"format": "knockout", "time_control": "forever"}, "time control"),
    ]
    for given, said in refusals:
        with pytest.raises(UserError, match=said):
            await create(svc, env, **given)
    async with env.db.reading() as conn:
        assert await queries.tournaments_of_guild(conn, GUILD, ["signup"]) == []

    tid = await create(svc, env, format="knockout", min_players=2, max_players=3)
    await svc.join(guild_id=GUILD, tournament_id=tid, member=PLAYERS[0])
    with pytest.raises(UserError, match="already in"):
        await svc.join(guild_id=GUILD, tournament_id=tid, member=PLAYERS[0])
    with pytest.raises(UserError, match="Bots"):
        await svc.join(guild_id=GUILD, tournament_id=tid, member=Member(9, "Robot", bot=True))
    with pytest.raises(UserError, match="not in"):
        await svc.leave(guild_id=GUILD, tournament_id=tid, member=PLAYERS[1])
    with pytest.raises(UserError, match="doesn't exist"):
        await svc.join(guild_id=GUILD + 1, tournament_id=tid, member=PLAYERS[1])
    with pytest.raises(UserError, match="Only Org"):
        await svc.cancel(guild_id=GUILD, tournament_id=tid, member=PLAYERS[0])
    with pytest.raises(UserError, match="Only Org"):
        await svc.start_now(guild_id=GUILD, tournament_id=tid, member=PLAYERS[0])
    with pytest.raises(UserError, match="at least 2 players"):
        await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    assert [e.member_id for e in await svc.entrants(tid)] == [PLAYERS[0].id]
    await svc.join(guild_id=GUILD, tournament_id=tid, member=PLAYERS[1])
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=PLAYERS[5], manager=True)
    with pytest.raises(UserError, match="too late to join"):
        await svc.join(guild_id=GUILD, tournament_id=tid, member=PLAYERS[2])
    with pytest.raises(UserError, match="withdraw"):
        await svc.leave(guild_id=GUILD, tournament_id=tid, member=PLAYERS[1])
    cancelled = await svc.cancel(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    assert cancelled.status == "cancelled"
    with pytest.raises(UserError, match="already cancelled"):
        await svc.cancel(guild_id=GUILD, tournament_id=tid, member=ORGANISER)


async def test_too_few_players_at_the_deadline_cancels(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, format="round_robin", min_players=3)
    await svc.join(guild_id=GUILD, tournament_id=tid, member=PLAYERS[0])
    env.clock.advance(days=3)
    assert await svc.start_due() == []
    assert (await svc.get(GUILD, tid)).status == "cancelled"


async def test_a_game_that_cannot_start_yet_is_tried_again(env: Env) -> None:
    svc = service(env)
    tid = await create(svc, env, format="round_robin", min_players=2)
    a, b = PLAYERS[0], PLAYERS[1]
    for member in (a, b):
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    # Each has a challenge of their own pending to the other, at the same game: a
    # member has one at a time, so neither can challenge the other for the tournament.
    theirs = []
    for one, other in ((a, b), (b, a)):
        theirs.append(
            await env.challenges.create(
                guild_id=GUILD,
                channel_id=CHANNEL,
                challenger=one,
                game=GAME,
                options=SMALL[GAME],
                opponent=other,
            )
        )
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    [g] = (await svc.table(GUILD, tid)).games
    assert g.game_id is None
    async with env.db.reading() as conn:
        assert await queries.stalled_tournaments(conn) == [tid]
    assert await svc._next_start() == env.clock() + timedelta(minutes=5)
    # One withdraws theirs: the next look starts the game (challenged by whoever can).
    await env.challenges.cancel(guild_id=GUILD, challenge_id=theirs[0].id, member=a)
    env.clock.advance(minutes=5)
    await svc._due()
    [g] = (await svc.table(GUILD, tid)).games
    assert g.game_id is not None
    game = await env.games.get_game(GUILD, g.game_id)
    assert game.player_ids == (g.player0_id, g.player1_id)
    assert await svc._next_start() is None


@pytest.mark.parametrize("allowed", [False, True])
async def test_vacation_is_off_in_tournament_games_unless_allowed(env: Env, allowed: bool) -> None:
    """A tournament game's clock stops for a player's vacation only if the organiser
    allowed it when making the tournament."""
    svc = service(env)
    given = {"vacation": True} if allowed else {}
    tid = await create(svc, env, format="round_robin", min_players=2, **given)
    for member in PLAYERS[:2]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    [g] = (await svc.table(GUILD, tid)).games
    assert g.game_id is not None
    async with env.db.reading() as conn:
        row = await queries.get_game(conn, g.game_id)
    assert row is not None and row.settings["vacation"] is allowed
    assert row.settings["takebacks"] is False


@pytest.mark.both_backends
async def test_a_tournament_game_cannot_be_aborted(env: Env) -> None:
    """/abort ends a game as if it had never been, but a tournament's pairing is owed a
    result: its player is refused (pointed to resigning) and the game goes on."""
    svc = service(env)
    tid = await create(svc, env, format="round_robin", min_players=2)
    for member in PLAYERS[:2]:
        await svc.join(guild_id=GUILD, tournament_id=tid, member=member)
    await svc.start_now(guild_id=GUILD, tournament_id=tid, member=ORGANISER)
    [g] = (await svc.table(GUILD, tid)).games
    assert g.game_id is not None
    first = Member(g.player0_id, name(g.player0_id))
    with pytest.raises(UserError, match=r"competition game.*resign"):
        await env.app.correspondence.abort(guild_id=GUILD, game_id=g.game_id, member=first)
    async with env.db.reading() as conn:
        row = await queries.get_game(conn, g.game_id)
    assert row is not None and row.is_active
    [still] = (await svc.table(GUILD, tid)).games
    assert still.points is None
