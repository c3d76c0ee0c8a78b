"""Every refusal: a clear message for the member, and nothing changed anywhere."""

from __future__ import annotations

import pytest

import rules
from bot.challenges.service import Challenges
from bot.core.game_settings import challenge_settings
from bot.model import UserError
from bot.storage import Connection, Query
from tests.bot.conftest import (
    ANA,
    BO,
    CHANNEL,
    CY,
    GUILD,
    OTHER_GUILD,
    ROBOT,
    Env,
    start_game,
)


async def refused(env: Env, call, message: str) -> None:
    """``call()`` raises UserError containing ``message``; no table and no post changed."""
    tables = await env.dump()
    posts = len(env.poster.sent)
    with pytest.raises(UserError) as caught:
        await call()
    assert message in caught.value.message
    assert caught.value.message[-1] in ".!?", "a refusal is a sentence, with its full stop"
    assert await env.dump() == tables
    assert len(env.poster.sent) == posts


def any_game() -> str:
    return next(iter(rules.GAMES))


def challenge(env: Env, **kwargs):
    arguments = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "challenger": ANA,
        "game": any_game(),
        "opponent": BO,
    }
    arguments.update(kwargs)
    return lambda: env.challenges.create(**arguments)


# -- challenges ---------------------------------------------------------------


async def test_challenging_yourself(env: Env) -> None:
    await refused(env, challenge(env, opponent=ANA), "You can't challenge yourself")


async def test_challenging_a_bot(env: Env) -> None:
    await refused(env, challenge(env, opponent=ROBOT), "Robot is a bot and can't play")


async def test_a_duplicate_pending_challenge(env: Env) -> None:
    first = await challenge(env)()
    await refused(
        env,
        challenge(env),
        f"You already have a pending {rules.GAMES[first.game].title} challenge to Bo: cancel it",
    )


async def test_a_duplicate_open_challenge(env: Env) -> None:
    await challenge(env, opponent=None)()
    await refused(env, challenge(env, opponent=None), "challenge open to anyone")


async def test_an_unknown_game(env: Env) -> None:
    await refused(env, challenge(env, game="chess"), "There is no game called 'chess'")


async def test_an_option_out_of_range(env: Env) -> None:
    await refused(env, challenge(env, options={"size": 99}), "size must be at most")


async def test_an_option_the_game_does_not_take(env: Env) -> None:
    await refused(
        env,
        challenge(env, game="sliglube", options={"opening": "weak-pie"}),
        "unknown option 'opening' (this game takes: size)",
    )


async def test_a_bad_opening_choice(env: Env) -> None:
    await refused(
        env,
        challenge(env, game="lifeline", options={"opening": "no-pie"}),
        "opening must be one of",
    )


async def test_a_bad_first_player_choice(env: Env) -> None:
    await refused(env, challenge(env, first="whoever"), "Who plays first must be one of")


# -- answering challenges ---------------------------------------------------------


async def test_accepting_your_own_challenge(env: Env) -> None:
    pending = await challenge(env, opponent=None)()
    await refused(
        env,
        lambda: env.challenges.accept(guild_id=GUILD, challenge_id=pending.id, member=ANA),
        "can't accept your own challenge",
    )


async def test_accepting_someone_elses_challenge(env: Env) -> None:
    pending = await challenge(env)()
    await refused(
        env,
        lambda: env.challenges.accept(guild_id=GUILD, challenge_id=pending.id, member=CY),
        "This challenge is for Bo, not you",
    )


async def test_a_bot_accepting_an_open_challenge(env: Env) -> None:
    pending = await challenge(env, opponent=None)()
    await refused(
        env,
        lambda: env.challenges.accept(guild_id=GUILD, challenge_id=pending.id, member=ROBOT),
        "Bots can't play",
    )


async def test_accepting_twice(env: Env) -> None:
    pending = await challenge(env, opponent=None)()
    await env.challenges.accept(guild_id=GUILD, challenge_id=pending.id, member=BO)
    await refused(
        env,
        lambda: env.challenges.accept(guild_id=GUILD, challenge_id=pending.id, member=CY),
        "already accepted",
    )


async def test_accepting_a_cancelled_challenge(env: Env) -> None:
    pending = await challenge(env)()
    await env.challenges.cancel(guild_id=GUILD, challenge_id=pending.id, member=ANA)
    await refused(
        env,
        lambda: env.challenges.accept(guild_id=GUILD, challenge_id=pending.id, member=BO),
        "already cancelled",
    )


async def test_accepting_from_another_server(env: Env) -> None:
    pending = await challenge(env)()
    await refused(
        env,
        lambda: env.challenges.accept(guild_id=OTHER_GUILD, challenge_id=pending.id, member=BO),
        "doesn't exist",
    )


async def test_declining_someone_elses_challenge(env: Env) -> None:
    pending = await challenge(env)()
    await refused(
        env,
        lambda: env.challenges.decline(guild_id=GUILD, challenge_id=pending.id, member=CY),
        "Only Bo can decline",
    )


async def test_declining_an_open_challenge(env: Env) -> None:
    pending = await challenge(env, opponent=None)()
    await refused(
        env,
        lambda: env.challenges.decline(guild_id=GUILD, challenge_id=pending.id, member=BO),
        "can't be declined",
    )


async def test_cancelling_someone_elses_challenge(env: Env) -> None:
    pending = await challenge(env)()
    await refused(
        env,
        lambda: env.challenges.cancel(guild_id=GUILD, challenge_id=pending.id, member=BO),
        "Only Ana can cancel",
    )


async def test_declined_and_cancelled_challenges_are_recorded(env: Env) -> None:
    first = await challenge(env)()
    declined = await env.challenges.decline(guild_id=GUILD, challenge_id=first.id, member=BO)
    second = await challenge(env)()  # no longer a duplicate
    cancelled = await env.challenges.cancel(guild_id=GUILD, challenge_id=second.id, member=ANA)
    assert (declined.status, cancelled.status) == ("declined", "cancelled")
    assert declined.closed_at == env.clock()


# -- moves -----------------------------------------------------------------------


def move(env: Env, game_id: int, member, text: str, guild: int = GUILD, **kwargs):
    return lambda: env.moves.play_move(
        guild_id=guild, game_id=game_id, member=member, text=text, **kwargs
    )


async def first_legal(env: Env, game_id: int) -> str:
    state = await env.games.state_of(await env.games.get_game(GUILD, game_id))
    return state.legal_moves()[-1]


async def test_a_move_by_a_spectator(env: Env) -> None:
    game_id = await start_game(env, any_game())
    legal = await first_legal(env, game_id)
    await refused(env, move(env, game_id, CY, legal), "You are not playing in")


async def test_a_move_out_of_turn(env: Env) -> None:
    game_id = await start_game(env, any_game())
    legal = await first_legal(env, game_id)
    await refused(env, move(env, game_id, BO, legal), "It's not your turn")
    await refused(env, move(env, game_id, BO, legal), "waiting for Ana")


async def test_garbage_text(env: Env) -> None:
    game_id = await start_game(env, any_game())
    await refused(env, move(env, game_id, ANA, "hello there"), "`hello there` can't be played")


async def test_an_illegal_move_says_why(env: Env) -> None:
    game_id = await start_game(env, "sliglube")
    await move(env, game_id, ANA, "c3")()
    await move(env, game_id, BO, "black")()
    row = await env.games.get_game(GUILD, game_id)
    state = await env.games.state_of(row)
    mover = ANA if row.player_ids[state.to_move] == ANA.id else BO
    with pytest.raises(rules.IllegalMove) as reason:
        state.play("c3")
    await refused(env, move(env, game_id, mover, "C3"), f"`C3` can't be played: {reason.value}")


async def test_a_move_in_a_finished_game(env: Env) -> None:
    game_id = await start_game(env, any_game())
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    legal = await first_legal(env, game_id)
    await refused(env, move(env, game_id, BO, legal), "is over: Bo wins")


async def test_a_move_in_another_servers_game(env: Env) -> None:
    game_id = await start_game(env, any_game())
    legal = await first_legal(env, game_id)
    await refused(
        env,
        move(env, game_id, ANA, legal, guild=OTHER_GUILD),
        f"There is no game #{game_id} in this server",
    )


async def test_an_out_of_date_button(env: Env) -> None:
    game_id = await start_game(env, any_game())
    legal = await first_legal(env, game_id)
    await move(env, game_id, ANA, legal)()
    after = await first_legal(env, game_id)
    await refused(env, move(env, game_id, BO, after, expected_ply=0), "out of date")


async def test_resigning_a_game_you_do_not_play(env: Env) -> None:
    game_id = await start_game(env, any_game())
    await refused(
        env,
        lambda: env.moves.resign(guild_id=GUILD, game_id=game_id, member=CY),
        "You are not playing in",
    )


async def test_resigning_twice(env: Env) -> None:
    game_id = await start_game(env, any_game())
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA)
    await refused(
        env, lambda: env.moves.resign(guild_id=GUILD, game_id=game_id, member=BO), "is over"
    )


# -- which game -----------------------------------------------------------------


def find(env: Env, member=ANA, ref=None, guild=GUILD, channel=CHANNEL):
    return lambda: env.games.find_game(
        guild_id=guild, channel_id=channel, member_id=member.id, ref=ref
    )


async def test_no_game_in_progress(env: Env) -> None:
    await refused(env, find(env), "You have no game in progress here")


async def test_several_games_and_none_named(env: Env) -> None:
    await start_game(env, any_game())
    await start_game(env, any_game(), challenger=CY, opponent=ANA)
    await refused(env, find(env), "You have 2 games in progress")


async def test_a_game_reference_that_is_not_a_number(env: Env) -> None:
    await refused(env, find(env, ref="my game"), "'my game' is not a game number")


async def test_the_game_is_implied_by_its_thread_or_by_being_the_only_one(env: Env) -> None:
    first = await start_game(env, any_game())
    assert (await find(env)()).id == first
    second = await start_game(env, any_game(), challenger=CY, opponent=ANA)
    thread = (await env.games.get_game(GUILD, second)).thread_id
    assert (await find(env, channel=thread)()).id == second
    assert (await find(env, ref=f"#{first}", channel=thread)()).id == first
    await refused(
        env, find(env, guild=OTHER_GUILD, channel=thread), "You have no game in progress here"
    )


async def test_a_game_named_by_its_label(env: Env) -> None:
    game_id = await start_game(env, any_game())
    title = rules.GAMES[any_game()].title
    found = await find(env, ref=f"{title} #{game_id} vs Bo · your turn")()
    assert found.id == game_id


# -- hostile input ------------------------------------------------------------------


async def test_only_ascii_digits_make_a_game_number(env: Env) -> None:
    for _ in range(3):
        await start_game(env, any_game())  # games #1 to #3 exist
    for typed in ("٣", "#٣", "３", "#３", f"{rules.GAMES[any_game()].title} #٣"):
        await refused(env, find(env, ref=typed), "is not a game number")


async def test_refusals_quote_at_most_a_few_words_of_what_was_typed(env: Env) -> None:
    """Discord lets an option hold 6,000 characters; a message holds 2,000."""
    long = "x" * 6000
    calls = {
        "game": lambda: env.challenges.create(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ANA, game=long, opponent=BO
        ),
        "option": challenge(env, game="lifeline", options={"opening": long}),
        "time control": lambda: env.challenges.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ANA,
            game="lifeline",
            opponent=BO,
            settings=challenge_settings(long),
        ),
        "game number": find(env, ref=long),
    }
    for what, call in calls.items():
        with pytest.raises(UserError) as caught:
            await call()
        said = caught.value.message
        assert len(said) < 300 and "xxxx…" in said and "x" * 41 not in said, (what, said)


class DeclinedMeanwhile:
    """A game starter during whose look at the database the opponent declines: the
    race an Accept can lose."""

    def __init__(self, challenge_id: int, status: str = "declined") -> None:
        self.challenge_id, self.status = challenge_id, status

    def starting_facts(self, player_ids: tuple[int, int]) -> Query[None]:
        async def decline(conn: Connection) -> None:
            await conn.change(
                "UPDATE challenges SET status = ? WHERE id = ?", (self.status, self.challenge_id)
            )

        return Query("decline meanwhile", decline)

    def opening(self, row, state, facts) -> list:
        return []


@pytest.mark.parametrize(
    ("status", "told"),
    [
        ("declined", "This challenge was declined by Bo just before you clicked Accept."),
        ("cancelled", "This challenge was cancelled by Ana just before you clicked Accept."),
    ],
)
async def test_an_accept_that_loses_the_race_is_told_what_happened(
    env: Env, status: str, told: str
) -> None:
    pending = await challenge(env)()
    racing = Challenges(
        env.db,
        env.games,
        env.boards,
        env.events,
        now=env.clock,
        starters=[DeclinedMeanwhile(pending.id, status)],
    )
    with pytest.raises(UserError) as caught:
        await racing.accept(guild_id=GUILD, challenge_id=pending.id, member=BO)
    assert caught.value.message == told
    assert (await env.challenges.get(GUILD, pending.id)).game_id is None
