"""The outbox: what a change must show reaches Discord even when the bot dies between
storing the change and posting it, and a repeated delivery doubles nothing.

A crash is played out for real: the poster stops dead in the middle of a send (before
Discord acted, or after), the service's task is cancelled and the services are closed
and built again from the database file, as after a SIGKILL; the poster honours nonces
as Discord does, so a message sent again with the same nonce is the first one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.challenges.expiry import ChallengeExpiry
from bot.model import DeliveryDelayed, Member, Post, Posted, UserError
from bot.outbox import next_nonce
from bot.storage import ChallengeRow, GameRow, Query, queries
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, Env, start_game
from tests.bot.fakes import FakeClock, FakePoster

#: The outbox's queries and its delivery are the same on either database.
pytestmark = pytest.mark.both_backends


@dataclass
class Discordish(FakePoster):
    """A FakePoster that keeps Discord's promise about nonces, and that can die in the
    middle of its next send: ``stall`` is ``"before"`` (Discord never got it) or
    ``"after"`` (Discord acted; nobody heard the answer); ``delays``: how many sends
    in a row fail with Discord out of reach."""

    stall: str | None = None
    stall_on: str = "post"
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    delays: int = 0
    by_nonce: dict[str, Posted] = field(default_factory=dict)
    nonces: list[str | None] = field(default_factory=list)

    async def _maybe_die(self, moment: str, what: str) -> None:
        if self.stall == moment and self.stall_on == what:
            self.stall = None
            self.reached.set()
            await asyncio.Event().wait()  # dead: never answers

    async def post(self, game: GameRow, post: Post) -> Posted:
        nonce = next_nonce()
        self.nonces.append(nonce)
        if nonce is not None and nonce in self.by_nonce:
            return self.by_nonce[nonce]  # Discord returns the first message
        if self.delays:
            self.delays -= 1
            raise DeliveryDelayed("Discord answered 503")
        await self._maybe_die("before", "post")
        posted = await super().post(game, post)
        if nonce is not None:
            self.by_nonce[nonce] = posted
        await self._maybe_die("after", "post")
        return posted

    async def open_thread(self, game: GameRow, name: str) -> int | None:
        await self._maybe_die("before", "thread")
        if name in self.threads.values():  # found again, as the real poster does
            return next(t for t, n in self.threads.items() if n == name)
        thread_id = await super().open_thread(game, name)
        await self._maybe_die("after", "thread")
        return thread_id

    async def post_challenge(self, challenge: ChallengeRow, text: str) -> int | None:
        nonce = next_nonce()
        if nonce is not None and nonce in self.by_nonce:
            return self.by_nonce[nonce].message_id  # Discord returns the first message
        await self._maybe_die("before", "challenge_post")
        message_id = await super().post_challenge(challenge, text)
        if nonce is not None:
            self.by_nonce[nonce] = Posted(message_id, None, challenge.channel_id)
        await self._maybe_die("after", "challenge_post")
        return message_id

    async def show_challenge(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool = False
    ) -> None:
        await self._maybe_die("before", "challenge")
        await super().show_challenge(challenge, text, disabled_buttons=disabled_buttons)

    def boards(self, game_id: int) -> list[Post]:
        return [post for post in self.posts_for(game_id) if post.picture is not None]


@pytest.fixture
async def world(database_url: Path | str) -> AsyncIterator[tuple[Env, Discordish]]:
    poster = Discordish()
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    env = await Env.start(database_url, poster, FakeClock(), sleep=sleep)
    env.pauses = pauses  # type: ignore[attr-defined]
    yield env, poster
    await env.outbox.stop()
    await env.db.close()


async def crash_during(env: Env, poster: Discordish, work: Awaitable[Any]) -> None:
    """Run ``work`` until the poster dies in it; then the process is gone: its tasks
    with it, and the services are built again from the file (delivering what was owed
    before anything else)."""
    task = asyncio.ensure_future(work)
    reached = asyncio.ensure_future(poster.reached.wait())
    await asyncio.wait({task, reached}, return_when=asyncio.FIRST_COMPLETED)
    assert poster.reached.is_set(), "the work finished without reaching the poster"
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    poster.reached.clear()
    await env.restart()


def to_move(row: GameRow, state) -> Member:
    return ANA if row.player_ids[state.to_move] == ANA.id else BO


async def play(env: Env, game_id: int, move: str | None = None):
    row = await env.games.get_game(GUILD, game_id)
    state = await env.games.state_of(row)
    return env.moves.play_move(
        guild_id=GUILD,
        game_id=game_id,
        member=to_move(row, state),
        text=move or state.legal_moves()[0],
    )


async def moves_stored(env: Env, game_id: int) -> list[Any]:
    async with env.db.reading() as conn:
        return await queries.moves_of_game(conn, game_id)


@pytest.mark.parametrize("moment", ["before", "after"])
async def test_a_move_s_board_survives_a_crash_after_the_move_was_stored(
    world: tuple[Env, Discordish], moment: str
) -> None:
    env, poster = world
    game_id = await start_game(env, "astralis", size=7)
    poster.stall = moment
    await crash_during(env, poster, await play(env, game_id, "a6"))

    [stored] = await moves_stored(env, game_id)
    boards = poster.boards(game_id)
    assert [board.ply for board in boards] == [0, 1]  # the opening board, then the move's
    assert "played `a6`" in boards[1].content
    assert stored.message_id is not None  # where it went is recorded, as without a crash
    # The game goes on.
    update = await (await play(env, game_id))
    assert update.posted is not None and [b.ply for b in poster.boards(game_id)] == [0, 1, 2]


@pytest.mark.parametrize(
    ("moment", "on"),
    [
        ("before", "thread"),
        ("after", "thread"),
        ("before", "challenge"),
        ("before", "post"),
        ("after", "post"),
    ],
)
async def test_an_accept_interrupted_anywhere_opens_the_whole_game(
    world: tuple[Env, Discordish], moment: str, on: str
) -> None:
    env, poster = world
    challenge = await env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="astralis",
        opponent=BO,
        options={"size": 7},
    )
    await env.challenges.set_message(challenge.id, 4242)
    poster.stall, poster.stall_on = moment, on
    await crash_during(
        env, poster, env.challenges.accept(guild_id=GUILD, challenge_id=challenge.id, member=BO)
    )

    row = await env.games.get_game(GUILD, 1)
    assert row.thread_id is not None and list(poster.threads) == [row.thread_id]
    assert [board.ply for board in poster.boards(row.id)] == [0]  # the opening board, once
    [(shown_id, text, disabled)] = poster.shown  # the challenge message, shown accepted
    assert shown_id == challenge.id and "Accepted by Bo" in text and not disabled
    assert f"<#{row.thread_id}>" in text


async def test_a_delayed_delivery_is_tried_again_and_the_move_answered(
    world: tuple[Env, Discordish],
) -> None:
    env, poster = world
    game_id = await start_game(env, "astralis", size=7)
    poster.delays = 3
    update = await (await play(env, game_id, "a6"))
    assert update.posted is not None
    assert [board.ply for board in poster.boards(game_id)] == [0, 1]
    assert env.pauses == [0.5, 1.0, 2.0]  # type: ignore[attr-defined]  # growing pauses


async def test_items_are_delivered_in_order_within_a_game(world: tuple[Env, Discordish]) -> None:
    """Two moves stored while the bot could not post: after the restart the boards come
    in the order of the moves, each once, each with its own nonce."""
    env, poster = world
    game_id = await start_game(env, "astralis", size=7)
    poster.stall = "before"
    await crash_during(env, poster, await play(env, game_id, "a6"))
    poster.stall = "after"
    await crash_during(env, poster, await play(env, game_id))
    assert [board.ply for board in poster.boards(game_id)] == [0, 1, 2]
    opening, first, again, second, repeated = (n for n in poster.nonces if n is not None)
    # Each board its own nonce; a board sent again after a crash, the same one.
    assert first == again and second == repeated and len({opening, first, second}) == 3


async def test_a_finished_game_loses_its_stale_buttons_even_across_a_crash(
    world: tuple[Env, Discordish],
) -> None:
    """The komi pie asks by buttons; Ana resigns instead of answering: the decision
    board's buttons go, although the bot died right after storing the resignation."""
    env, poster = world
    game_id = await start_game(env, "lifeline", size=4, opening="komi-pie")
    [opening] = poster.posts_for(game_id)
    assert opening.asks  # a decision asked with a button
    poster.stall = "before"
    await crash_during(env, poster, env.moves.resign(guild_id=GUILD, game_id=game_id, member=ANA))
    row = await env.games.get_game(GUILD, game_id)
    assert row.status == "finished"
    assert "Game over" in poster.boards(game_id)[-1].content
    first_board = 1000 + len(poster.threads)  # the fake's ids: thread, then the board
    assert [message for _, message in poster.removed] == [first_board]


async def test_a_delivery_the_disk_could_not_record_is_tried_again(tmp_path: Path) -> None:
    """The board is posted, then the database refuses to record it (read-only for a
    while): the item is tried again until the disk takes writes, and the board, sent
    again with its nonce, stays one board."""
    env: Env | None = None

    async def read_only(on: bool) -> None:
        assert env is not None
        await env.db.read(
            Query(
                "read-only",
                lambda conn: conn.change(f"PRAGMA query_only = {'ON' if on else 'OFF'}"),
            )
        )

    class ThenReadOnly(Discordish):
        failed = False

        async def post(self, game: GameRow, post: Post) -> Posted:
            posted = await super().post(game, post)
            if post.ply == 1 and not self.failed:  # the move's board: then the disk fails
                self.failed = True
                await read_only(True)
            return posted

    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 5:  # a while later, the operator makes room
            await read_only(False)

    poster = ThenReadOnly()
    env = await Env.start(tmp_path / "bot.sqlite3", poster, FakeClock(), sleep=sleep)
    try:
        game_id = await start_game(env, "astralis", size=7)
        update = await (await play(env, game_id, "a6"))
        assert update.posted is not None
        assert [board.ply for board in poster.boards(game_id)] == [0, 1]
        [stored] = await moves_stored(env, game_id)
        assert stored.message_id == update.posted.message_id
        assert len(pauses) == 5  # not given up after a few tries: the disk came back
    finally:
        await env.outbox.stop()
        await env.db.close()


@pytest.mark.parametrize("answer", ["decline", "cancel", "expire"])
async def test_a_closed_challenge_shows_it_even_across_a_crash(
    world: tuple[Env, Discordish], answer: str
) -> None:
    """Declined, cancelled or expired: the challenge's message says so (its buttons gone,
    or disabled once expired), although the bot died before it could edit it."""
    env, poster = world
    challenge = await env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=ANA,
        game="astralis",
        opponent=BO,
        options={"size": 7},
    )
    await env.challenges.set_message(challenge.id, 4242)
    poster.stall, poster.stall_on = "before", "challenge"
    if answer == "expire":
        expiry = ChallengeExpiry(env.db, now=env.clock, days=7, messages=env.challenges.messages)
        env.clock.advance(days=8)
        work = expiry.expire_due()
    else:
        close = env.challenges.decline if answer == "decline" else env.challenges.cancel
        work = close(
            guild_id=GUILD, challenge_id=challenge.id, member=BO if answer == "decline" else ANA
        )
    await crash_during(env, poster, work)
    [(shown_id, text, disabled)] = poster.shown
    said = {"decline": "Declined by Bo", "cancel": "Cancelled by Ana", "expire": "Expired"}
    assert shown_id == challenge.id and said[answer] in text
    assert disabled == (answer == "expire")


def challenging(env: Env, challenger: Member = ANA) -> Awaitable[ChallengeRow]:
    return env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=challenger,
        game="lifeline",
        options={"size": 4},
        opponent=BO,
    )


@pytest.mark.parametrize("moment", ["before", "after"])
async def test_a_challenge_s_message_is_posted_once_even_if_the_bot_dies_first(
    world: tuple[Env, Discordish], moment: str
) -> None:
    """The challenge and its message are stored together: killed before Discord got
    the message (or before the bot heard back), the restart posts it, once."""
    env, poster = world
    poster.stall, poster.stall_on = moment, "challenge_post"
    await crash_during(env, poster, challenging(env))
    [(challenge_id, text, message_id)] = poster.challenges
    assert "challenges <@2> to **Lifeline**" in text
    stored = await env.challenges.get(GUILD, challenge_id)
    assert (stored.status, stored.message_id) == ("pending", message_id)
    # seen, it can be answered: cancelled, and the next challenge goes up at once
    await env.challenges.cancel(guild_id=GUILD, challenge_id=challenge_id, member=ANA)
    again = await challenging(env)
    assert again.message_id is not None and len(poster.challenges) == 2


async def test_a_challenge_nobody_could_see_is_cancelled_and_refused(
    world: tuple[Env, Discordish],
) -> None:
    env, poster = world
    poster.challenge_fails = True  # e.g. a forum, which takes no messages
    with pytest.raises(UserError, match=f"I can't post in <#{CHANNEL}>"):
        await challenging(env)
    assert [c.status for c in await pending_or_not(env)] == ["cancelled"]
    poster.challenge_fails = False
    posted = await challenging(env)  # nothing pending stands in the way
    assert posted.message_id is not None


async def pending_or_not(env: Env) -> list[ChallengeRow]:
    async with env.db.reading() as conn:
        rows = await conn.fetch_all("SELECT id FROM challenges ORDER BY id")
    return [await env.challenges.get(GUILD, row[0]) for row in rows]
