from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import App, build
from bot.challenges.expiry import ChallengeExpiry
from bot.challenges.service import Challenges
from bot.conditional.service import Conditional
from bot.config import Settings
from bot.core.autocomplete import Autocomplete
from bot.core.boards import Boards
from bot.core.endings import Endings
from bot.core.games import Games
from bot.core.members import MemberSettings
from bot.core.moves import Moves
from bot.correspondence.clocks import Clocks
from bot.correspondence.notify import Messenger, Notifier
from bot.correspondence.service import Correspondence
from bot.events import Events
from bot.learning.analysis import Analyses
from bot.learning.sandbox import Sandboxes
from bot.model import Member, Poster, Renderer
from bot.outbox import Outbox
from bot.pictures import replay_gif
from bot.practice.service import Practice
from bot.ratings.ranking import Ratings
from bot.review.browser import Browser
from bot.review.epilogue import Epilogue
from bot.review.records import Records
from bot.services import Services
from bot.storage import Database, open_database
from bot.timers import Sleep
from rules.testing import SMALL_OPTIONS
from tests.bot.fakes import FakeClock, FakePoster, InProcessAI, fake_renderer

#: The lease of a process alone on its database: longer than any test's fake time.
ONE_PROCESS = 365 * 24 * 3600.0
GUILD = 111
OTHER_GUILD = 222
CHANNEL = 333
ANA = Member(1, "Ana")
BO = Member(2, "Bo")
CY = Member(3, "Cy")
ROBOT = Member(9, "Robot", bot=True)

#: Small boards keep whole random games quick (the first set of rules.testing's table).
SMALL = {name: sets[0] for name, sets in SMALL_OPTIONS.items()}
ALL_GAMES = tuple(SMALL)


@dataclass(eq=False)
class Env:
    """The bot's services over a real database (a SQLite file; PostgreSQL in the tests
    marked ``both_backends``), built by the composition root (:func:`bot.app.build`)
    as in the bot, with a fake poster, messenger and clock, the AI in this process, and
    a stand-in for board pictures (real replay GIFs). Nothing is started: a test starts
    the clocks, the expiry or the analysis it looks at. ``restart`` closes everything
    and starts again from the file, as the bot does. Its ``services`` are the stand-in
    interactions' ``client.services``."""

    path: Path | str  # the database's file or URL
    poster: Poster
    clock: FakeClock
    db: Database
    options: dict[str, Any]
    app: App
    events: Events
    games: Games
    boards: Boards
    endings: Endings
    moves: Moves
    challenges: Challenges
    autocomplete: Autocomplete
    expiry: ChallengeExpiry
    ratings: Ratings
    browser: Browser
    records: Records
    epilogue: Epilogue
    clocks: Clocks
    settings: MemberSettings
    analyses: Analyses
    sandboxes: Sandboxes
    ai: InProcessAI
    notifier: Notifier
    correspondence: Correspondence
    practice: Practice
    outbox: Outbox
    conditional: Conditional

    @property
    def now(self) -> FakeClock:
        return self.clock

    @contextlib.contextmanager
    def without(self, listener: object) -> Iterator[None]:
        """The games' events not told to ``listener`` meanwhile (that part of the bot
        down, or a bot of an earlier version without it)."""
        listening = self.events._listeners  # the root's subscriptions, as a test sees them
        place = listening.index(listener)  # type: ignore[arg-type]
        listening.remove(listener)  # type: ignore[arg-type]
        try:
            yield
        finally:
            listening.insert(place, listener)  # type: ignore[arg-type]

    @property
    def services(self) -> Services:
        """The services as the commands and buttons find them (``client.services``)."""
        return self.app.services

    @classmethod
    async def start(
        cls,
        path: Path | str,
        poster: Poster | None = None,
        clock: FakeClock | None = None,
        **options: Any,
    ) -> Env:
        db = await open_database(path)
        return cls.compose(path, db, poster or FakePoster(), clock or FakeClock(), **options)

    @classmethod
    def compose(
        cls,
        path: Path | str,
        db: Database,
        poster: Poster,
        clock: FakeClock,
        *,
        renderer: Renderer = fake_renderer,
        rng: random.Random | None = None,
        messenger: Messenger | None = None,
        sleep: Sleep = asyncio.sleep,
        rules_url_base: str = "",
        plans: Messenger | None = None,
    ) -> Env:
        """``messenger`` (or ``plans``): where the DMs go (turn notices, conditional
        moves' private notices)."""
        options = {
            "plans": plans,
            "renderer": renderer,
            "rng": rng,
            "messenger": messenger,
            "sleep": sleep,
            "rules_url_base": rules_url_base,
        }
        thinker = InProcessAI()
        app = build(
            db,
            poster,
            messenger or plans or _NoDMs(),
            settings=Settings(
                rules_url_base=rules_url_base,
                challenge_expiry_days=0,
                ai_test_playouts=8,
                # one process: no other to look for (the timers sleep until what is due)
                process_lease=ONE_PROCESS,
            ),
            now=clock,
            renderer=renderer,
            replayer=replay_gif,
            rng=rng or random.Random(7),
            sleep=sleep,
            thinker=thinker,
        )
        app.analyses.budget = InProcessAI.TINY
        return cls(
            path=path,
            poster=poster,
            clock=clock,
            db=db,
            options=options,
            app=app,
            events=app.events,
            games=app.games,
            boards=app.boards,
            endings=app.endings,
            moves=app.moves,
            challenges=app.challenges,
            autocomplete=app.autocomplete,
            expiry=app.expiry,
            ratings=app.ratings,
            browser=app.browser,
            records=app.records,
            epilogue=app.epilogue,
            clocks=app.clocks,
            settings=app.settings,
            analyses=app.analyses,
            sandboxes=app.sandboxes,
            ai=thinker,
            notifier=app.notifier,
            correspondence=app.correspondence,
            practice=app.practice,
            outbox=app.outbox,
            conditional=app.conditional,
        )

    async def restart(self) -> Env:
        """Close everything and start again from the database; the services are new."""
        await self.clocks.stop()
        await self.conditional.stop()
        await self.practice.stop()
        await self.outbox.stop()
        await self.analyses.stop()
        await self.db.close()
        fresh = await Env.start(self.path, self.poster, self.clock, **self.options)
        self.__dict__.update(fresh.__dict__)
        await self.outbox.start()  # what the last run still owed, as the bot does
        return self

    async def dump(self) -> dict[str, list[tuple]]:
        """Every row of every table, to assert that nothing changed."""
        tables = {}
        async with self.db.reading() as conn:
            for table in ("challenges", "games", "moves"):
                rows = await conn.fetch_all(f"SELECT * FROM {table} ORDER BY id")
                tables[table] = [tuple(row) for row in rows]
        return tables


class _NoDMs:
    async def dm(self, member_id: int, text: str) -> bool:
        return False


@pytest.fixture
async def env(database_url: Path | str) -> AsyncIterator[Env]:
    environment = await Env.start(database_url)
    yield environment
    if environment.outbox is not None:
        await environment.outbox.stop()
    await environment.db.close()


async def start_game(
    env: Env,
    game: str,
    *,
    challenger: Member = ANA,
    opponent: Member | None = BO,
    accepter: Member | None = None,
    guild: int = GUILD,
    **options,
) -> int:
    """Challenge and accept through the services; the new game's id."""
    challenge = await env.challenges.create(
        guild_id=guild,
        channel_id=CHANNEL,
        challenger=challenger,
        game=game,
        options=options or SMALL.get(game, {}),
        opponent=opponent,
    )
    await env.challenges.set_message(challenge.id, 5000 + challenge.id)
    update = await env.challenges.accept(
        guild_id=guild, challenge_id=challenge.id, member=accepter or opponent or BO
    )
    return update.game.id
