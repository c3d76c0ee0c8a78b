from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import rules
from bot.service import Member, Service
from bot.storage import Database
from tests.bot.fakes import FakeClock, FakePoster, fake_renderer

GUILD = 111
OTHER_GUILD = 222
CHANNEL = 333
ANA = Member(1, "Ana")
BO = Member(2, "Bo")
CY = Member(3, "Cy")
ROBOT = Member(9, "Robot", bot=True)

#: Small boards keep whole random games quick.
SMALL = {"asli": {"size": 5}, "lifeline": {"size": 4}, "sliglube": {"size": 5},
         "astralis": {"size": 7}}
ALL_GAMES = ("asli", "lifeline", "sliglube", "astralis")


def require(game: str) -> None:
    if game not in rules.GAMES:
        pytest.skip(f"the {game} engine has not landed yet")


@dataclass
class Env:
    """A service over a real SQLite file, with a fake poster and clock; ``restart``
    closes everything and starts again from the file, as the bot does."""

    path: Path
    poster: FakePoster
    clock: FakeClock
    db: Database
    service: Service

    @classmethod
    async def start(cls, path: Path, poster: FakePoster | None = None,
                    clock: FakeClock | None = None) -> Env:
        poster = poster or FakePoster()
        clock = clock or FakeClock()
        db = await Database.open(path)
        service = Service(db, poster, now=clock, renderer=fake_renderer, rng=random.Random(7))
        return cls(path, poster, clock, db, service)

    async def restart(self) -> None:
        await self.db.close()
        fresh = await Env.start(self.path, self.poster, self.clock)
        self.db, self.service = fresh.db, fresh.service

    async def dump(self) -> dict[str, list[tuple]]:
        """Every row of every table, to assert that nothing changed."""
        tables = {}
        async with self.db.reading() as conn:
            for table in ("challenges", "games", "moves"):
                cursor = await conn.execute(f"SELECT * FROM {table} ORDER BY rowid")
                tables[table] = [tuple(row) for row in await cursor.fetchall()]
        return tables


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    environment = await Env.start(tmp_path / "boardbot.sqlite3")
    yield environment
    await environment.db.close()


async def start_game(env: Env, game: str, *, challenger: Member = ANA,
                     opponent: Member | None = BO, accepter: Member | None = None,
                     guild: int = GUILD, **options) -> int:
    """Challenge and accept through the service; the new game's id."""
    challenge = await env.service.create_challenge(
        guild_id=guild, channel_id=CHANNEL, challenger=challenger, game=game,
        options=options or SMALL.get(game, {}), opponent=opponent)
    await env.service.set_challenge_message(challenge.id, 5000 + challenge.id)
    update = await env.service.accept_challenge(
        guild_id=guild, challenge_id=challenge.id, member=accepter or opponent or BO)
    return update.game.id
