"""The services with the clock, notifications and correspondence features attached
(wired as :func:`bot.app.build` does), over the same real SQLite file and fake clock
as :class:`tests.bot.conftest.Env`."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.game_settings import challenge_settings
from bot.correspondence.clocks import Clocks
from bot.correspondence.notify import Notifier
from bot.correspondence.service import Correspondence
from bot.model import GameUpdate, Member
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, SMALL, Env
from tests.bot.fakes import FakeClock


@dataclass
class FakeMessenger:
    """Direct messages: recorded, or refused for members with closed DMs."""

    closed: set[int] = field(default_factory=set)
    sent: list[tuple[int, str]] = field(default_factory=list)

    async def dm(self, member_id: int, text: str) -> bool:
        if member_id in self.closed:
            return False
        self.sent.append((member_id, text))
        return True

    def to(self, member_id: int) -> list[str]:
        return [text for who, text in self.sent if who == member_id]


@dataclass
class Table:
    env: Env
    messenger: FakeMessenger
    sleeps: list[float] = field(default_factory=list)
    #: Cleared, the dispatcher's sleeps wait (for a test to act first at the present time).
    time_flows: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.time_flows.set()

    @classmethod
    async def open(cls, path: Path | str, *, clock: FakeClock | None = None) -> Table:
        """``clock``: another table's (two bot processes on one database, say)."""
        table = cls(None, FakeMessenger())  # type: ignore[arg-type]
        table.env = await Env.start(
            path,
            clock=clock,
            messenger=table.messenger,
            sleep=table.fake_sleep,
        )
        return table

    @property
    def clocks(self) -> Clocks:
        assert self.env.clocks is not None
        return self.env.clocks

    @property
    def notifier(self) -> Notifier:
        assert self.env.notifier is not None
        return self.env.notifier

    @property
    def corr(self) -> Correspondence:
        assert self.env.correspondence is not None
        return self.env.correspondence

    async def fake_sleep(self, seconds: float) -> None:
        """Time passes at once (once it flows): the fake clock moves on by what was asked."""
        await self.time_flows.wait()
        self.sleeps.append(seconds)
        self.env.clock.advance(seconds=seconds)

    async def restart(self) -> None:
        await self.env.restart()

    async def play(self, game_id: int, move: str | None = None) -> GameUpdate:
        """The player to move plays ``move`` (default: their last legal move)."""
        row = await self.env.games.get_game(GUILD, game_id)
        state = await self.env.games.state_of(row)
        seat = state.to_move
        mover = Member(row.player_ids[seat], row.player_names[seat])
        return await self.env.moves.play_move(
            guild_id=GUILD, game_id=game_id, member=mover, text=move or state.legal_moves()[-1]
        )

    async def row(self, game_id: int):
        return await self.env.games.get_game(GUILD, game_id)


@asynccontextmanager
async def open_table(database_url: Path | str) -> AsyncIterator[Table]:
    """For a test module's ``table`` fixture (``database_url``: the fixture's)."""
    t = await Table.open(database_url)
    try:
        yield t
    finally:
        await t.clocks.stop()
        if t.env.outbox is not None:
            await t.env.outbox.stop()
        await t.env.db.close()


async def start(
    table: Table,
    game: str = "astralis",
    *,
    challenger: Member = ANA,
    opponent: Member = BO,
    time_control: str | None = None,
    takebacks: bool | None = None,
    vacation: bool | None = None,
) -> int:
    """Challenge with the clock options and accept: the new game's id (the challenger
    has seat 0 and moves first)."""
    challenge = await table.env.challenges.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=challenger,
        game=game,
        options=SMALL[game],
        opponent=opponent,
        settings=challenge_settings(time_control, takebacks, vacation),
    )
    await table.env.challenges.set_message(challenge.id, 5000 + challenge.id)
    update = await table.env.challenges.accept(
        guild_id=GUILD, challenge_id=challenge.id, member=opponent
    )
    return update.game.id
