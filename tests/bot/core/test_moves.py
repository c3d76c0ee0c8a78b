"""Whole games through the same service calls the slash commands make."""

from __future__ import annotations

import random

import pytest

import rules
from bot.model import Member
from bot.storage import queries
from rules import Outcome, Termination
from tests.bot.conftest import ALL_GAMES, ANA, BO, CHANNEL, GUILD, SMALL, Env, start_game
from tests.bot.fakes import PNG_SIGNATURE
from tests.bot.support import play_out
from tests.e2e.driver import PLANS, planned_moves

#: The services' work is the same on either database.
pytestmark = pytest.mark.both_backends


async def play_random(env: Env, game_id: int, rng: random.Random, *, stop_at: int | None = None):
    """Play random legal moves, each by the member whose turn it is, until the game
    ends (or ``stop_at`` moves have been played). Returns the last update."""
    update = None
    while True:
        row = await env.games.get_game(GUILD, game_id)
        state = await env.games.state_of(row)
        if state.is_over or (stop_at is not None and state.ply >= stop_at):
            return update
        mover = Member(row.player_ids[state.to_move], row.player_names[state.to_move])
        move = rng.choice(state.legal_moves())
        update = await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=mover, text=move)
        assert update.move == move


@pytest.mark.parametrize("game", ALL_GAMES)
async def test_a_complete_game_from_challenge_to_result(env: Env, game: str) -> None:
    game_id = await start_game(env, game)
    row = await env.games.get_game(GUILD, game_id)
    assert row.player_ids == (ANA.id, BO.id)  # the challenger moves first by default
    title = rules.get_game(game).title
    assert env.poster.threads[row.thread_id] == f"{title} #{game_id} · Ana vs Bo"
    opening = env.poster.posts_for(game_id)[0]
    assert opening.picture.startswith(PNG_SIGNATURE)
    assert opening.mentions == (ANA.id,)
    assert f"<@{ANA.id}>, your turn" in opening.content

    update = await play_random(env, game_id, random.Random(5))

    final = update.state
    assert final.is_over
    stored = await env.games.get_game(GUILD, game_id)
    assert stored.status == "finished"
    assert stored.end_reason == final.outcome.termination and stored.end_reason.by_rules
    assert stored.result == final.result
    assert stored.winner_seat == final.winner
    async with env.db.reading() as conn:
        assert [m.move for m in await queries.moves_of_game(conn, game_id)] == list(final.history)
    posts = env.poster.posts_for(game_id)
    assert len(posts) == 1 + final.ply  # the opening board, then one per move
    assert all(post.picture.startswith(PNG_SIGNATURE) for post in posts)
    assert "Game over." in posts[-1].content and final.result in posts[-1].content
    assert set(posts[-1].mentions) == {ANA.id, BO.id}
    # After every move but the last, the player to move was pinged with what to do.
    replay = rules.get_game(game).new(**SMALL[game])
    for post, move in zip(posts[1:-1], final.history, strict=False):
        replay = replay.play(move)
        to_move = stored.player_ids[replay.to_move]
        assert post.mentions == (to_move,)
        assert f"<@{to_move}>, your turn" in post.content
        assert f"played `{move}`" in post.content or f" chose {move}." in post.content


@pytest.mark.parametrize("game", ALL_GAMES)
async def test_a_restart_in_the_middle_loses_nothing(env: Env, game: str) -> None:
    game_id = await start_game(env, game)
    rng = random.Random(11)
    await play_random(env, game_id, rng, stop_at=6)
    before = await env.games.state_of(await env.games.get_game(GUILD, game_id))

    await env.restart()

    row = await env.games.get_game(GUILD, game_id)
    after = await env.games.state_of(row)
    assert after.history == before.history
    assert after.to_move == before.to_move
    update = await play_random(env, game_id, rng)
    assert update.state.is_over
    assert update.state.history[:6] == before.history
    assert (await env.games.get_game(GUILD, game_id)).result == update.state.result


async def test_a_challenge_survives_a_restart_and_can_be_accepted(env: Env) -> None:
    game = next(iter(rules.GAMES))
    challenge = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game=game, opponent=None
    )
    await env.restart()
    update = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    assert update.game.player_ids == (ANA.id, BO.id)


async def test_the_opponent_can_be_given_the_first_move(env: Env) -> None:
    game = next(iter(rules.GAMES))
    challenge = await env.challenges.create(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game=game, opponent=BO, first="opponent"
    )
    update = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    assert update.game.player_ids == (BO.id, ANA.id)
    assert update.posted is not None
    assert env.poster.posts_for(update.game.id)[0].mentions == (BO.id,)


async def test_resigning_ends_the_game_for_the_opponent(env: Env) -> None:
    game = next(iter(rules.GAMES))
    game_id = await start_game(env, game)
    env.clock.advance(days=2)
    update = await env.moves.resign(guild_id=GUILD, game_id=game_id, member=BO)
    row = update.game
    assert (row.status, row.winner_seat, row.end_reason) == ("finished", 0, Termination.RESIGNATION)
    assert row.finished_at == env.clock()
    assert "resigned" in row.result
    final = env.poster.posts_for(game_id)[-1]
    assert final.picture.startswith(PNG_SIGNATURE)
    assert "Game over." in final.content and "Ana wins" in final.content


async def test_games_list_shows_active_then_finished(env: Env) -> None:
    game = next(iter(rules.GAMES))
    first = await start_game(env, game)
    second = await start_game(env, game, challenger=BO, opponent=ANA)
    await env.moves.resign(guild_id=GUILD, game_id=first, member=ANA)
    listing = await env.games.list_games(guild_id=GUILD, member_id=ANA.id)
    assert [row.id for row, _ in listing.active] == [second]
    assert [row.id for row in listing.finished] == [first]


async def test_a_game_without_a_thread_lives_in_its_channel(env: Env) -> None:
    env.poster.thread_fails = True
    game_id = await start_game(env, next(iter(rules.GAMES)))
    row = await env.games.get_game(GUILD, game_id)
    assert row.thread_id is None
    assert env.poster.sent[-1].where == CHANNEL


async def test_start_up_replays_every_active_game(env: Env) -> None:
    game = next(iter(rules.GAMES))
    active = await start_game(env, game)
    finished = await start_game(env, game, challenger=BO, opponent=ANA)
    await env.moves.resign(guild_id=GUILD, game_id=finished, member=BO)
    await play_random(env, active, random.Random(2), stop_at=3)
    await env.restart()
    assert await env.games.warm_up() == 1
    assert env.games.cached(active).ply == 3
    assert env.games.cached(finished) is None


async def test_start_up_replays_many_games_a_page_at_a_time(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = next(iter(rules.GAMES))
    games = [await start_game(env, game) for _ in range(5)]
    for n, game_id in enumerate(games):
        await play_random(env, game_id, random.Random(n), stop_at=n % 3)
    await env.moves.resign(guild_id=GUILD, game_id=games[2], member=ANA)
    await env.restart()
    monkeypatch.setattr("bot.core.games.WARM_UP_PAGE", 2)
    assert await env.games.warm_up() == 4
    assert [env.games.cached(g).ply for g in games if g != games[2]] == [0, 1, 0, 1]


async def test_a_game_can_be_ended_outside_the_rules(env: Env) -> None:
    """What the clock will do on a timeout: store it and post the final board."""
    game_id = await start_game(env, next(iter(rules.GAMES)))
    env.clock.advance(days=3)
    update = await env.endings.end_game(
        game_id=game_id,
        outcome=lambda row, state: Outcome(1, Termination.TIMEOUT, "Bo wins on time"),
    )
    assert (update.game.status, update.game.end_reason, update.game.winner_seat) == (
        "finished",
        Termination.TIMEOUT,
        1,
    )
    assert update.game.finished_at == env.clock()
    final = env.poster.posts_for(game_id)[-1]
    assert "Bo wins on time" in final.content and f"<@{ANA.id}>" in final.content


@pytest.mark.parametrize("seed", range(6))
async def test_a_random_first_player_is_drawn_at_acceptance(env: Env, seed: int) -> None:
    env.challenges.rng = random.Random(seed)
    challenge = await env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game=next(iter(rules.GAMES)),
        opponent=None,
        first="random",
    )
    update = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    expected = random.Random(seed).choice(("challenger", "opponent"))
    assert update.game.player_ids == (
        (ANA.id, BO.id) if expected == "challenger" else (BO.id, ANA.id)
    )


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, int, int]] = []

    async def game_started(self, update) -> None:
        self.events.append(("started", update.game.id, update.state.ply))

    async def move_played(self, update) -> None:
        self.events.append(("move", update.game.id, update.state.ply))

    async def game_ended(self, update) -> None:
        self.events.append(("ended", update.game.id, update.state.ply))


class Broken:
    async def move_played(self, update) -> None:
        raise RuntimeError("a later feature's bug")


async def test_listeners_hear_of_starts_moves_and_ends(env: Env) -> None:
    recorder = Recorder()
    env.events.subscribe(Broken(), recorder)
    game_id = await start_game(env, "sliglube", size=5)
    update = await play_random(env, game_id, random.Random(4))
    resigned = await start_game(env, "astralis", size=7)
    await env.moves.resign(guild_id=GUILD, game_id=resigned, member=ANA)
    n = update.state.ply
    assert recorder.events == [
        ("started", game_id, 0),
        *(("move", game_id, ply) for ply in range(1, n + 1)),
        ("ended", game_id, n),
        ("started", resigned, 0),
        ("ended", resigned, 0),
    ]


@pytest.mark.parametrize(
    ("game", "ply", "words"),
    [
        ("asli", 6, "captured 2 black stones"),
        ("lifeline", 3, "removed 3 black stones"),
        ("sliglube", 38, "flipped 6 white stones, then removed 1 black stone"),
        ("astralis", 28, "bonus stones at a5, c9"),
    ],
)
async def test_a_moves_post_says_what_it_did(env: Env, game: str, ply: int, words: str) -> None:
    options, seed = PLANS[game]
    moves = planned_moves(game, options, seed)
    game_id = await start_game(env, game, **options)
    await play_out(env, game_id, moves[:ply])
    post = env.poster.posts_for(game_id)[-1]
    assert f" played `{moves[ply - 1]}`: {words}." in post.content
    before = env.poster.posts_for(game_id)[-2]
    assert ": " not in before.content.split("\n")[0].split("played", 1)[1]  # only placed


@pytest.mark.parametrize("color", ["white", "black"])
async def test_a_colour_choice_is_posted_as_a_choice(env: Env, color: str) -> None:
    game_id = await start_game(env, "sliglube", size=5)
    row = await env.games.get_game(GUILD, game_id)
    state = await env.games.state_of(row)
    await env.moves.play_move(
        guild_id=GUILD, game_id=game_id, member=ANA, text=state.legal_moves()[0]
    )
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=BO, text=color)
    post = env.poster.posts_for(game_id)[-1]
    line = post.content.splitlines()[0]
    assert line == f"**Sliglube #{game_id}** · move 2: Bo chose {color}."
