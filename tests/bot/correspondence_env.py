"""The service with the clock, notifications and correspondence features attached,
over the same real SQLite file and fake clock as :class:`tests.bot.conftest.Env`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bot.clocks import Clocks
from bot.correspondence import Correspondence, challenge_settings
from bot.model import GameUpdate, Member
from bot.notify import Notifier
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, SMALL, Env


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
    clocks: Clocks = field(init=False)
    notifier: Notifier = field(init=False)
    corr: Correspondence = field(init=False)
    sleeps: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._attach()

    def _attach(self) -> None:
        self.notifier = Notifier(self.env.service, self.messenger)
        self.clocks = Clocks(self.env.service, self.notifier, reminder_share=0.8,
                             vacation_days=14, sleep=self.fake_sleep)
        self.corr = Correspondence(self.env.service, self.clocks)

    async def fake_sleep(self, seconds: float) -> None:
        """Time passes at once: the fake clock moves on by what was asked."""
        self.sleeps.append(seconds)
        self.env.clock.advance(seconds=seconds)

    async def restart(self) -> None:
        await self.clocks.stop()
        await self.env.restart()
        self._attach()

    async def play(self, game_id: int, move: str | None = None) -> GameUpdate:
        """The player to move plays ``move`` (default: their last legal move)."""
        row = await self.env.service.get_game(GUILD, game_id)
        state = await self.env.service.state_of(row)
        seat = state.to_move
        mover = Member(row.player_ids[seat], row.player_names[seat])
        return await self.env.service.play_move(guild_id=GUILD, game_id=game_id, member=mover,
                                                text=move or state.legal_moves()[-1])

    async def row(self, game_id: int):
        return await self.env.service.get_game(GUILD, game_id)


@asynccontextmanager
async def open_table(tmp_path: Path) -> AsyncIterator[Table]:
    """For a test module's ``table`` fixture."""
    env = await Env.start(tmp_path / "boardbot.sqlite3")
    t = Table(env, FakeMessenger())
    try:
        yield t
    finally:
        await t.clocks.stop()
        await t.env.db.close()


async def start(table: Table, game: str = "astralis", *, challenger: Member = ANA,
                opponent: Member = BO, time_control: str | None = None,
                takebacks: bool | None = None, vacation: bool | None = None) -> int:
    """Challenge with the clock options and accept: the new game's id (the challenger
    has seat 0 and moves first)."""
    challenge = await table.env.service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger=challenger, game=game,
        options=SMALL[game], opponent=opponent,
        settings=challenge_settings(time_control, takebacks, vacation))
    await table.env.service.set_challenge_message(challenge.id, 5000 + challenge.id)
    update = await table.env.service.accept_challenge(guild_id=GUILD, challenge_id=challenge.id,
                                                      member=opponent)
    return update.game.id
