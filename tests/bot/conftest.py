from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.challenges.expiry import ChallengeExpiry
from bot.challenges.service import ChallengeMessages, Challenges
from bot.conditional.service import Conditional, PlanGuard
from bot.config import Settings
from bot.core.autocomplete import Autocomplete
from bot.core.boards import Boards
from bot.core.endings import Endings
from bot.core.game_settings import GameDeadlines
from bot.core.games import Games
from bot.core.members import MemberSettings
from bot.core.moves import MoveGuard, Moves
from bot.core.plans import ConditionalPlans, PrivateNotes
from bot.core.players import Players
from bot.correspondence.clocks import Clocks
from bot.correspondence.deadlines import DeadlinePoster
from bot.correspondence.notify import Messenger, Notifier
from bot.correspondence.service import Correspondence
from bot.events import Events
from bot.learning.analysis import Analyses
from bot.learning.sandbox import Sandboxes
from bot.model import Member, Poster, Renderer
from bot.outbox import Outbox
from bot.pictures import change_summary, replay_gif
from bot.practice.service import Practice
from bot.practice.service import levels as practice_levels
from bot.ratings.ranking import Ratings
from bot.review.browser import Browser
from bot.review.epilogue import Epilogue
from bot.review.records import Records
from bot.services import Services
from bot.storage import Database, open_database
from bot.timers import Sleep
from rules.testing import SMALL_OPTIONS
from tests.bot.fakes import FakeClock, FakePoster, InProcessAI, fake_renderer

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


def require(game: str) -> None:
    if game not in rules.GAMES:
        pytest.skip(f"the {game} engine has not landed yet")


async def _no_ai(*args: Any) -> str:
    raise AssertionError("this test has no AI: tests/bot/practice gives one")


@dataclass(eq=False)
class Env:
    """The services over a real database (a SQLite file; PostgreSQL in the tests marked
    ``both_backends``), with a fake poster and clock, wired as
    :func:`bot.app.build` wires them but for what a test asks for: by default the
    game-playing core (no listener, no clock, no deadline lines; real replay GIFs, a
    stand-in for board pictures); with a ``messenger``
    also the notifier, the clocks and the correspondence courtesies, subscribed in the
    root's order; with ``deadlines``, board posts say when the player to move runs out
    of time, as in the bot. ``restart`` closes everything and starts again from the file, as
    the bot does. Also the ``app`` of the stand-in interactions of the command tests."""

    path: Path | str  # the database's file or URL
    poster: Poster
    clock: FakeClock
    db: Database
    options: dict[str, Any]
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
    clocks: Clocks  # always there to be asked; watching games only with a messenger
    settings: MemberSettings
    analyses: Analyses
    sandboxes: Sandboxes
    ai: InProcessAI
    notifier: Notifier | None = None
    correspondence: Correspondence | None = None
    practice: Practice | None = None  # there to be asked; never told the games' events
    rules_url_base: str = ""
    outbox: Outbox | None = None
    #: Conditional moves and notes (``plans=True``): a move guard, and the last listener.
    conditional: Conditional | None = None

    @property
    def now(self) -> FakeClock:
        return self.clock

    @property
    def services(self) -> Services:
        """The services as the commands and buttons find them (``client.services``)."""
        players = Players()
        if self.practice is not None:
            players.register(self.practice)
        found = Services(Settings(rules_url_base=self.rules_url_base), players)
        found.add(self.clocks, kind=GameDeadlines)
        if self.conditional is not None:
            found.add(self.conditional, kind=ConditionalPlans)
            found.add(self.conditional, kind=PrivateNotes)
        for name, value in vars(self).items():
            internal = name in ("path", "poster", "clock", "db", "options", "events", "ai")
            if not internal and value is not None and not isinstance(value, str | Outbox):
                found.add(value)
        return found

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
        deadlines: bool = False,
        plans: Messenger | None = None,
    ) -> Env:
        """``plans``: with conditional moves, whose private notices go to that messenger."""
        options = {
            "renderer": renderer,
            "rng": rng,
            "messenger": messenger,
            "sleep": sleep,
            "deadlines": deadlines,
            "plans": plans,
        }
        fake, poster = poster, DeadlinePoster(poster, db) if deadlines else poster
        events = Events()
        games = Games(db)
        outbox = Outbox(db, now=clock, sleep=sleep)
        notifier = None if messenger is None else Notifier(db, messenger, poster, now=clock)
        boards = Boards(
            db,
            poster,
            renderer=renderer,
            games=games,
            events=events,
            outbox=outbox,
            mention_filter=notifier.filter_mentions if notifier else None,
            now=clock,
        )
        messages = ChallengeMessages(db, poster, outbox, now=clock)
        # Settings are there to be asked; only the correspondence parts DM anyone.
        settings = MemberSettings(db, notifier or Notifier(db, _NoDMs(), poster, now=clock))
        ratings = Ratings(db, now=clock)
        epilogue = Epilogue(db, ratings, replayer=replay_gif)
        # The final words (rating, replay, record) only when a test asks for them:
        # ``env.endings.finale = env.epilogue``, as in bot.app.
        endings = Endings(db, games, boards, events, now=clock)
        correspondence = None
        # The clocks are there to be asked (``/board`` shows a deadline); they watch the
        # games (store a clock with each game and move) only with the correspondence parts.
        clocks = Clocks(
            db,
            games,
            endings,
            notifier,
            now=clock,
            reminder_share=0.8,
            vacation_days=14,
            sleep=sleep,
        )
        watch = [clocks] if notifier else []
        guards: list[MoveGuard] = [*watch, *([PlanGuard(now=clock)] if plans else [])]
        moves = Moves(
            db, games, boards, events, endings, now=clock, guards=guards, describe=change_summary
        )
        challenges = Challenges(
            db,
            games,
            boards,
            events,
            now=clock,
            rng=rng or random.Random(7),
            starters=watch,
            messages=messages,
        )
        # The AI is there to be asked, in this process; analysis only when a test starts it.
        thinker = InProcessAI()
        if notifier is not None:
            correspondence = Correspondence(db, games, boards, events, endings, clocks, now=clock)
            events.subscribe(notifier, clocks)
        conditional = None
        if plans is not None:
            conditional = Conditional(db, games, moves, outbox, plans, now=clock)
            events.subscribe(conditional)
        return cls(
            path=path,
            poster=fake,
            clock=clock,
            db=db,
            options=options,
            events=events,
            games=games,
            boards=boards,
            endings=endings,
            moves=moves,
            challenges=challenges,
            autocomplete=Autocomplete(games),
            expiry=ChallengeExpiry(db, now=clock, days=0, messages=messages),
            ratings=ratings,
            browser=Browser(db, games, renderer=renderer, replayer=replay_gif),
            records=Records(db, now=clock),
            epilogue=epilogue,
            notifier=notifier,
            clocks=clocks,
            settings=settings,
            correspondence=correspondence,
            ai=thinker,
            analyses=Analyses(db, games, thinker, budget=InProcessAI.TINY),
            sandboxes=Sandboxes(db, games, thinker, now=clock),
            practice=Practice(
                db,
                games,
                boards,
                events,
                challenges,
                moves,
                clocks,
                think=_no_ai,
                levels=practice_levels(8),
            ),
            outbox=outbox,
            conditional=conditional,
        )

    async def restart(self) -> Env:
        """Close everything and start again from the database; the services are new."""
        await self.clocks.stop()
        if self.conditional is not None:
            await self.conditional.stop()
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
