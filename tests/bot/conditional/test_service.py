"""Conditional moves through the services, over a real database: planned lines, checked
with the rules and merged into a tree, played through by the opponent's real moves,
cleared by a move outside them, dropped when they became illegal, secret from the
opponent, and played once after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.conditional.service import Conditional, owed_reply
from bot.core.game_settings import challenge_settings
from bot.model import Member, UserError
from bot.outbox import game_lane
from bot.review.browser import caption
from bot.review.records import record_text
from bot.storage import GameRow, queries
from tests.bot.conftest import ANA, BO, CHANNEL, CY, GUILD, Env, start_game
from tests.bot.correspondence.table import FakeMessenger
from tests.bot.fakes import FakeClock, FakePoster
from tests.bot.test_outbox import Discordish, crash_during
from tests.timing import seconds

#: The plans and the moves they play are stored the same on either database.
pytestmark = pytest.mark.both_backends


@pytest.fixture
async def world(database_url: Path | str) -> AsyncIterator[tuple[Env, FakeMessenger]]:
    messenger = FakeMessenger()
    env = await Env.start(database_url, plans=messenger)
    yield env, messenger
    await plans(env).stop()
    if env.outbox is not None:
        await env.outbox.stop()
    await env.db.close()


def plans(env: Env) -> Conditional:
    assert env.conditional is not None
    return env.conditional


async def position(env: Env, game_id: int) -> tuple[GameRow, Member, Member]:
    """The game, the member to move and the other."""
    row = await env.games.get_game(GUILD, game_id)
    state = await env.games.state_of(row)
    assert state.to_move is not None
    mover = ANA if row.player_ids[state.to_move] == ANA.id else BO
    return row, mover, BO if mover == ANA else ANA


async def play(env: Env, game_id: int, move: str) -> None:
    """``move`` by whoever is to move, then whatever conditional reply it calls for."""
    _, mover, _ = await position(env, game_id)
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=mover, text=move)
    await replied(env, game_id)


async def replied(env: Env, game_id: int, *, within: float = 30.0) -> None:
    """Once the game owes no conditional reply any more (played, or dropped as no
    longer legal) and Discord was shown all of it (its boards and notices: nothing left
    in the game's outbox lane). The reply is played in the background, as in the bot:
    this looks at what is stored, for ``within`` seconds at most on a healthy machine."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds(within)
    while True:
        row = await env.games.get_game(GUILD, game_id)
        state = await env.games.state_of(row)
        stored = await env.db.read(queries.plans_of_game(game_id))
        owed = any(owed_reply(plan, row, state) for plan in stored)
        shown = not await env.db.read(queries.pending_outbox(game_lane(game_id)))
        if not owed and shown:
            return
        if loop.time() > deadline:
            raise AssertionError(f"game {game_id}: a conditional reply still owed")
        await asyncio.sleep(0.01)


async def opened(env: Env) -> tuple[int, Member, Member]:
    """A Sliglube game past its opening (``a1``, then the colour): the member to move
    (the opponent of the plans) and the other (the planner)."""
    game_id = await start_game(env, "sliglube")
    await play(env, game_id, "a1")
    await play(env, game_id, "white")
    _, mover, other = await position(env, game_id)
    return game_id, mover, other


async def stored_moves(env: Env, game_id: int) -> list[tuple[str, bool]]:
    async with env.db.reading() as conn:
        return [(m.move, m.conditional) for m in await queries.moves_of_game(conn, game_id)]


async def stored_plans(env: Env, game_id: int) -> list[tuple[int, int, dict]]:
    return [(p.member_id, p.ply, p.tree) for p in await env.db.read(queries.plans_of_game(game_id))]


async def add(env: Env, game_id: int, member: Member, line: str) -> str:
    shown = await plans(env).add(guild_id=GUILD, game_id=game_id, member=member, line=line)
    return shown.text


async def test_a_tree_of_three_plies_plays_through(world: tuple[Env, FakeMessenger]) -> None:
    env, messenger = world
    game_id, them, me = await opened(env)
    await add(env, game_id, me, "c3, d4, b2, e5, a3, e1")
    await add(env, game_id, me, "c3; d4; b3; e4")  # a second branch at depth 2
    text = await add(env, game_id, me, "C2, d2")  # and at the root; any case
    assert "c2 → d2" in text and "  b3 → e4" in text and "6 moves" not in text
    [(member_id, ply, tree)] = await stored_plans(env, game_id)
    assert (member_id, ply) == (me.id, 2)
    assert tree == {
        "c3": ["d4", {"b2": ["e5", {"a3": ["e1", {}]}], "b3": ["e4", {}]}],
        "c2": ["d2", {}],
    }

    await play(env, game_id, "c3")
    await play(env, game_id, "b2")
    await play(env, game_id, "a3")

    assert (await stored_moves(env, game_id))[2:] == [
        ("c3", False),
        ("d4", True),
        ("b2", False),
        ("e5", True),
        ("a3", False),
        ("e1", True),
    ]
    replies = [
        p.content for p in env.poster.posts_for(game_id) if "(conditional move)" in p.content
    ]
    assert len(replies) == 3  # each reply posted once, marked
    assert all(f"{me.name}" in content for content in replies)
    assert "played `d4` (conditional move)." in replies[0]
    assert await stored_plans(env, game_id) == []  # played through: nothing left
    assert messenger.sent == []
    page = await env.browser.open_page(guild_id=GUILD, game_id=game_id, ply=4)
    assert "played `d4` (conditional move)." in caption(page)  # /review says so too
    _, mover, _ = await position(env, game_id)
    assert mover == them


async def test_a_move_outside_the_tree_clears_it_and_says_so(
    world: tuple[Env, FakeMessenger],
) -> None:
    env, messenger = world
    game_id, them, me = await opened(env)
    await add(env, game_id, me, "c3, d4, b2, e5")

    await play(env, game_id, "c3")  # answered
    await play(env, game_id, "b4")  # not in the tree

    assert await stored_plans(env, game_id) == []
    assert [m for m, conditional in await stored_moves(env, game_id) if conditional] == ["d4"]
    [notice] = messenger.to(me.id)
    assert "`b4`" in notice and "cleared" in notice and "your turn" in notice
    assert messenger.to(them.id) == []
    _, mover, _ = await position(env, game_id)
    assert mover == me  # nothing played for them


async def test_a_reply_become_illegal_is_dropped_with_a_private_notice(
    world: tuple[Env, FakeMessenger],
) -> None:
    env, messenger = world
    game_id, _, me = await opened(env)
    await play(env, game_id, "c3")  # now it's "me" to move: planned after my next move
    text = await add(env, game_id, me, "b2, d4")
    assert "after your next move" in text
    assert await stored_plans(env, game_id) == [(me.id, 4, {"b2": ["d4", {}]})]

    await play(env, game_id, "d4")  # my own move takes the cell of my planned reply
    await play(env, game_id, "b2")  # their move, as planned: the reply can't be played

    assert await stored_plans(env, game_id) == []
    assert not any(conditional for _, conditional in await stored_moves(env, game_id))
    [notice] = messenger.to(me.id)
    assert "`d4` can't be played" in notice and "occupied" in notice
    _, mover, _ = await position(env, game_id)
    assert mover == me  # their turn to move, by hand


async def test_lines_are_refused_with_the_reason_and_nothing_is_saved(
    world: tuple[Env, FakeMessenger],
) -> None:
    env, _ = world
    game_id, _, me = await opened(env)
    with pytest.raises(UserError, match=r"Move 3 of the line, `c3`, can't be played: c3 is occ"):
        await add(env, game_id, me, "c3, d4, c3, e5")
    with pytest.raises(UserError, match="ends with your opponent's move `b2`"):
        await add(env, game_id, me, "c3, d4, b2")
    with pytest.raises(UserError, match="at most 40"):
        await add(env, game_id, me, ", ".join(["a2"] * 42))
    with pytest.raises(UserError, match="not playing in"):
        await add(env, game_id, CY, "c3, d4")
    await add(env, game_id, me, "c3, d4")
    with pytest.raises(UserError, match="already answer `c3` with `d4`"):
        await add(env, game_id, me, "c3, d5")
    assert await stored_plans(env, game_id) == [(me.id, 2, {"c3": ["d4", {}]})]


async def test_no_plans_in_a_finished_game(world: tuple[Env, FakeMessenger]) -> None:
    env, _ = world
    game_id, them, me = await opened(env)
    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=them)
    with pytest.raises(UserError, match="is over"):
        await add(env, game_id, me, "c3, d4")
    with pytest.raises(UserError, match="is over"):
        await plans(env).show(guild_id=GUILD, game_id=game_id, member=me)
    assert await stored_plans(env, game_id) == []


async def test_on_your_turn_a_line_starting_with_your_own_move_is_refused(
    world: tuple[Env, FakeMessenger],
) -> None:
    """Astralis: a pawn's move is its own player's only (its stones too)."""
    env, _ = world
    game_id = await start_game(env, "astralis")
    await play(env, game_id, "a2")
    await play(env, game_id, "m2")
    row, mine, _ = await position(env, game_id)
    state = await env.games.state_of(row)
    move = state.legal_moves()[0]
    answer = state.play(move).legal_moves()[0]
    with pytest.raises(UserError, match="starts with your own move"):
        await add(env, game_id, mine, f"{move}, {answer}")
    assert await stored_plans(env, game_id) == []


async def test_a_tree_holds_at_most_200_moves(world: tuple[Env, FakeMessenger]) -> None:
    """Lifeline: two stones a move ("c3 e5"), hundreds of moves to answer."""
    env, _ = world
    game_id = await start_game(env, "lifeline")
    row, _, me = await position(env, game_id)
    state = await env.games.state_of(row)
    lines = [(move, state.play(move).legal_moves()[-1]) for move in state.legal_moves()[:101]]
    # 100 branches of two moves: 200 moves; one more is refused.
    for move, answer in lines[:100]:
        await add(env, game_id, me, f"{move}, {answer}")
    with pytest.raises(UserError, match="would hold 202 moves"):
        await add(env, game_id, me, ", ".join(lines[100]))
    [(_, _, tree)] = await stored_plans(env, game_id)
    assert len(tree) == 100


async def test_clearing_a_branch_or_all(world: tuple[Env, FakeMessenger]) -> None:
    env, _ = world
    game_id, _, me = await opened(env)
    await add(env, game_id, me, "c3, d4, b2, e5")
    await add(env, game_id, me, "c2, d2")
    cleared = await plans(env).clear(guild_id=GUILD, game_id=game_id, member=me, line="c3, d4, b2")
    assert "c2 → d2" in cleared and "b2" not in cleared
    with pytest.raises(UserError, match="no branch"):
        await plans(env).clear(guild_id=GUILD, game_id=game_id, member=me, line="e1")
    assert await stored_plans(env, game_id) == [(me.id, 2, {"c3": ["d4", {}], "c2": ["d2", {}]})]
    await plans(env).clear(guild_id=GUILD, game_id=game_id, member=me)
    assert await stored_plans(env, game_id) == []
    with pytest.raises(UserError, match="no conditional moves"):
        await plans(env).clear(guild_id=GUILD, game_id=game_id, member=me)


async def test_show_draws_the_position_after_the_first_branch(
    world: tuple[Env, FakeMessenger],
) -> None:
    env, _ = world
    game_id, _, me = await opened(env)
    await add(env, game_id, me, "c3, d4, b2, e5")
    shown = await plans(env).show(guild_id=GUILD, game_id=game_id, member=me)
    assert shown.after is not None and shown.after.history[-4:] == ("c3", "d4", "b2", "e5")
    assert "c3 → d4" in shown.text and "secret" in shown.text


async def test_the_opponent_never_sees_the_tree_and_the_end_deletes_it(
    world: tuple[Env, FakeMessenger],
) -> None:
    env, _ = world
    game_id, them, me = await opened(env)
    await add(env, game_id, me, "c3, d4, b2, e5")
    await add(env, game_id, me, "e2, a5")
    row = await env.games.get_game(GUILD, game_id)
    seen = [p.content for p in env.poster.posts_for(game_id)]
    seen.append(record_text(await env.records.load(row)))
    page = await env.browser.open_page(guild_id=GUILD, game_id=game_id, ply=None)
    seen.append(repr(page))
    assert not any("a5" in text or "e2" in text or "d4" in text for text in seen)
    # Their own plans: none.
    shown = await plans(env).show(guild_id=GUILD, game_id=game_id, member=them)
    assert "no conditional moves" in shown.text

    await env.moves.resign(guild_id=GUILD, game_id=game_id, member=them)
    assert await stored_plans(env, game_id) == []


async def test_a_takeback_clears_both_trees(database_url: Path | str) -> None:
    env = await Env.start(database_url, messenger=FakeMessenger(), plans=FakeMessenger())
    try:
        game_id, them, me = await opened(env)
        await play(env, game_id, "c3")
        await add(env, game_id, them, "d4, b2")
        await add(env, game_id, me, "e1, e2")  # their own turn: after their next move
        assert len(await stored_plans(env, game_id)) == 2
        assert env.correspondence is not None
        asked = await env.correspondence.request_takeback(
            guild_id=GUILD, game_id=game_id, member=them
        )
        await env.correspondence.answer_takeback(
            guild_id=GUILD, takeback_id=asked.id, member=me, accept=True
        )
        assert await stored_plans(env, game_id) == []
    finally:
        await plans(env).stop()
        await env.clocks.stop()
        await env.outbox.stop()
        await env.db.close()


async def test_the_clock_counts_the_reply_as_a_move_made_when_it_is_played(
    database_url: Path | str,
) -> None:
    env = await Env.start(database_url, messenger=FakeMessenger(), plans=FakeMessenger())
    try:
        challenge = await env.challenges.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=ANA,
            game="sliglube",
            options={"size": 5},
            opponent=BO,
            first="challenger",
            settings=challenge_settings("1d"),
        )
        accepted = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
        game_id = accepted.game.id
        await play(env, game_id, "a1")
        await play(env, game_id, "white")  # Bo (seat 1) chose, and moves again
        await add(env, game_id, ANA, "c3, d4")
        env.clock.advance(hours=20)
        await play(env, game_id, "c3")

        assert (await stored_moves(env, game_id))[-1] == ("d4", True)
        async with env.db.reading() as conn:
            clock = await queries.get_clock(conn, game_id)
        assert clock is not None
        assert (clock.turn_ply, clock.turn_seat) == (4, 1)  # Bo's turn, from the reply on
        assert clock.turn_started_at == env.clock()
    finally:
        await plans(env).stop()
        await env.clocks.stop()
        await env.outbox.stop()
        await env.db.close()


async def test_a_reply_owed_when_the_bot_died_is_played_once_at_start_up(
    database_url: Path | str,
) -> None:
    messenger, poster = FakeMessenger(), Discordish()
    env = await Env.start(database_url, poster, FakeClock(), plans=messenger)
    try:
        game_id, them, me = await opened(env)
        await add(env, game_id, me, "c3, d4, b2, e5")
        poster.stall = "before"  # dies posting the board of their move: the reply not played
        await crash_during(
            env,
            poster,
            env.moves.play_move(guild_id=GUILD, game_id=game_id, member=them, text="c3"),
        )
        await plans(env).resume()  # as the bot starts (after the outbox's own deliveries)
        await replied(env, game_id)

        assert (await stored_moves(env, game_id))[2:] == [("c3", False), ("d4", True)]
        replies = [p for p in poster.posts_for(game_id) if "(conditional move)" in p.content]
        assert len(replies) == 1
        await play(env, game_id, "b2")  # and the tree goes on
        assert (await stored_moves(env, game_id))[-1] == ("e5", True)
    finally:
        await plans(env).stop()
        await env.outbox.stop()
        await env.db.close()


async def test_start_up_plays_a_reply_the_last_run_never_got_to(
    database_url: Path | str,
) -> None:
    """The opponent's move stored and posted by a process that died before replying."""
    messenger, poster, clock = FakeMessenger(), FakePoster(), FakeClock()
    env = await Env.start(database_url, poster, clock, plans=messenger)
    game_id, them, me = await opened(env)
    await add(env, game_id, me, "c3, d4")
    await plans(env).stop()
    await env.outbox.stop()
    await env.db.close()
    # A run that knows no plans (it died before the reply was asked for).
    bare = await Env.start(database_url, poster, clock)
    with bare.without(bare.conditional):
        await bare.moves.play_move(guild_id=GUILD, game_id=game_id, member=them, text="c3")
    await bare.outbox.stop()
    await bare.db.close()

    env = await Env.start(database_url, poster, clock, plans=messenger)
    try:
        await env.outbox.start()
        # The reply owed, not played yet: a new line now would lose it.
        with pytest.raises(UserError, match="`d4` is being played right now"):
            await add(env, game_id, me, "b2, e5")
        assert await plans(env).resume() == 1
        await plans(env).resume()  # twice: still one reply
        await replied(env, game_id)
        assert (await stored_moves(env, game_id))[2:] == [("c3", False), ("d4", True)]
        assert len([p for p in poster.posts_for(game_id) if "(conditional" in p.content]) == 1
    finally:
        await plans(env).stop()
        await env.outbox.stop()
        await env.db.close()


async def test_notes_are_their_authors_own(world: tuple[Env, FakeMessenger]) -> None:
    env, _ = world
    game_id, them, me = await opened(env)
    service = plans(env)
    await service.set_note(guild_id=GUILD, game_id=game_id, member=me, text="watch the e-file")
    assert await service.note_of(game_id, me.id) == "watch the e-file"
    assert await service.note_of(game_id, them.id) is None
    await service.set_note(guild_id=GUILD, game_id=game_id, member=me, text="  replaced ")
    assert await service.note_of(game_id, me.id) == "replaced"
    with pytest.raises(UserError, match="at most 1000"):
        await service.set_note(guild_id=GUILD, game_id=game_id, member=me, text="x" * 1001)
    assert await service.note_of(game_id, me.id) == "replaced"
    await service.set_note(guild_id=GUILD, game_id=game_id, member=me, text="")
    assert await service.note_of(game_id, me.id) is None


async def test_a_turn_the_plan_answers_pings_nobody_but_the_next_one_does(
    database_url: Path | str,
) -> None:
    """The board of the opponent's move in the tree mentions no one (nor does a DM say
    "your turn"): the planner's reply follows at once. The reply's board mentions the
    opponent; a move outside the tree pings the planner as ever."""
    messenger = FakeMessenger()
    env = await Env.start(database_url, plans=messenger)
    try:
        game_id, them, me = await opened(env)
        await env.notifier.set_preference(them.id, "dm")
        await add(env, game_id, me, "c3, d4")
        pinged_before = len(messenger.to(me.id))

        await play(env, game_id, "c3")  # in the tree: d4 follows

        *_, theirs, reply = env.poster.posts_for(game_id)
        assert "`c3`" in theirs.content and theirs.mentions == ()
        assert "`d4`" in reply.content and reply.mentions == ()  # them: by DM
        assert [t for t in messenger.to(them.id) if "Your turn" in t]
        await env.notifier.set_preference(me.id, "dm")
        await add(env, game_id, me, "b2, e5")
        await env.notifier.set_preference(them.id, "thread")

        await play(env, game_id, "b2")  # in the tree again: no DM for the planner
        assert not [t for t in messenger.to(me.id)[pinged_before:] if "Your turn" in t]
        assert env.poster.posts_for(game_id)[-1].mentions == (them.id,)

        await env.notifier.set_preference(me.id, "thread")
        await add(env, game_id, me, "a3, e1")
        await play(env, game_id, "b3")  # outside it: the planner's turn, pinged
        assert env.poster.posts_for(game_id)[-1].mentions == (me.id,)
    finally:
        await plans(env).stop()
        await env.outbox.stop()
        await env.db.close()


async def _timed_game(env: Env) -> int:
    """Sliglube, one day a move, past its opening: Bo to move, Ana planning."""
    challenge = await env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="sliglube",
        options={"size": 5},
        opponent=BO,
        first="challenger",
        settings=challenge_settings("1d"),
    )
    accepted = await env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    await play(env, accepted.game.id, "a1")
    await play(env, accepted.game.id, "white")
    return accepted.game.id


async def test_vacations_stop_no_reply_and_the_clocks_go_on_as_after_a_move(
    database_url: Path | str,
) -> None:
    """The planner on vacation: their reply is still played (their own decision, made in
    advance), and their vacation goes on. The opponent on vacation: their move in the
    tree is answered at once, and their clock stays stopped on their new turn."""
    env = await Env.start(database_url, messenger=FakeMessenger(), plans=FakeMessenger())
    try:
        game_id = await _timed_game(env)
        await add(env, game_id, ANA, "c3, d4, b2, e5")
        await env.clocks.start_vacation(ANA.id)
        env.clock.advance(hours=3)
        await play(env, game_id, "c3")
        assert (await stored_moves(env, game_id))[-1] == ("d4", True)
        assert await env.clocks.current_vacation(ANA.id) is not None
        row = await env.games.get_game(GUILD, game_id)
        assert await env.clocks.deadline_of(row) == env.clock() + timedelta(days=1)

        await env.clocks.end_vacation(ANA.id)
        await env.clocks.start_vacation(BO.id)
        env.clock.advance(days=3)  # Bo's clock stopped: still in time
        await play(env, game_id, "b2")
        assert (await stored_moves(env, game_id))[-1] == ("e5", True)
        row = await env.games.get_game(GUILD, game_id)
        env.clock.advance(days=3)
        deadline = await env.clocks.deadline_of(row)
        assert deadline is not None and deadline > env.clock()  # stopped: moves on with now
    finally:
        await plans(env).stop()
        await env.clocks.stop()
        await env.outbox.stop()
        await env.db.close()


async def test_a_reply_owed_across_a_long_outage_is_not_lost_on_time(
    database_url: Path | str,
) -> None:
    """The opponent's move stored, then the bot down longer than the planner's day: the
    reply was theirs in advance, owed since that move; it is played when the bot is
    back, not refused as late, and the planner does not lose on time."""
    poster, clock = FakePoster(), FakeClock()
    env = await Env.start(database_url, poster, clock, plans=FakeMessenger())
    game_id = await _timed_game(env)
    await add(env, game_id, ANA, "c3, d4")
    await plans(env).stop()
    await env.outbox.stop()
    await env.db.close()
    bare = await Env.start(database_url, poster, clock)  # dies before the reply
    with bare.without(bare.conditional):
        await bare.moves.play_move(guild_id=GUILD, game_id=game_id, member=BO, text="c3")
    await bare.outbox.stop()
    await bare.db.close()
    clock.advance(days=2)

    env = await Env.start(database_url, poster, clock, plans=FakeMessenger())
    try:
        await env.outbox.start()
        await env.clocks.run_due()  # the clocks start first (App.start)
        await plans(env).resume()
        await replied(env, game_id)
        row = await env.games.get_game(GUILD, game_id)
        assert row.is_active, row.result
        assert (await stored_moves(env, game_id))[-1] == ("d4", True)
        assert await env.clocks.deadline_of(row) == clock() + timedelta(days=1)  # Bo's turn
    finally:
        await plans(env).stop()
        await env.clocks.stop()
        await env.outbox.stop()
        await env.db.close()
