"""The composition root: every service of the bot, built once and wired here, and
nowhere else. Discord-free: the client (:mod:`bot.client`) gives it a
:class:`~bot.model.Poster` and a :class:`~bot.correspondence.notify.Messenger` that
talk to Discord; the tests give it fakes.

The order of the listeners is stated here. A game's end is one post, made before
the listeners are told (see :mod:`bot.core.endings`): the final board with the
result, the summary and rating change (the epilogue rates the game first), the
replay and the record attached, and the Rematch button.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta

from ai.pool import AIPool
from bot.challenges.expiry import ChallengeExpiry, Expired
from bot.challenges.service import ChallengeMessages, Challenges, Elsewhere
from bot.claims import Claims, process_name
from bot.competitions.ladders import Ladders
from bot.competitions.leagues import Leagues
from bot.competitions.posts import TournamentPosts
from bot.competitions.profile import Memberships
from bot.competitions.service import Tournaments
from bot.conditional.service import Conditional, PlanGuard, PlannedReplies
from bot.config import Settings
from bot.core.autocomplete import Autocomplete
from bot.core.boards import Boards
from bot.core.competing import MemberCompetitions
from bot.core.endings import Endings
from bot.core.game_settings import GameDeadlines
from bot.core.games import Games
from bot.core.members import MemberSettings
from bot.core.moves import Moves
from bot.core.plans import ConditionalPlans, PrivateNotes
from bot.core.players import Players
from bot.correspondence.clocks import Clocks
from bot.correspondence.deadlines import DeadlinePoster
from bot.correspondence.notify import Messenger, Notifier
from bot.correspondence.service import Correspondence
from bot.events import Events
from bot.i18n.languages import Languages
from bot.learning.analysis import Analyses, Thinker
from bot.learning.sandbox import Sandboxes
from bot.liveness import Liveness
from bot.model import Poster, Renderer, Replayer, utc_now
from bot.outbox import Outbox
from bot.pictures import change_summary, render_board, replay_gif
from bot.practice.service import Practice, Typing
from bot.practice.service import levels as practice_levels
from bot.processes import Processes, TakenOver
from bot.ratings.ranking import Ratings
from bot.review.browser import Browser
from bot.review.epilogue import Epilogue
from bot.review.records import Records
from bot.seeks.posts import SeekPosts
from bot.seeks.service import Seeks
from bot.services import Services
from bot.storage import Database
from bot.timers import Sleep

log = logging.getLogger(__name__)


#: The settings of ``.env.example``, untouched.
DEFAULTS = Settings()
#: Seconds between two looks for outbox items nobody delivers (a process that died
#: with them).
OUTBOX_SWEEP = 30.0

#: The areas of the bot, each a folder of bot/ whose ``commands`` module is a discord.py
#: extension: its ``setup()`` adds the area's commands, buttons, forms and post actions.
AREAS = (
    "challenges",
    "play",
    "correspondence",
    "review",
    "ratings",
    "settings",
    "learning",
    "practice",
    "conditional",
    "competitions",
    "seeks",
)


@dataclass(eq=False)
class App:
    """Every service, built once; the commands and buttons find them by type in
    ``services`` (``interaction.client.services``)."""

    db: Database
    now: Callable[[], datetime]
    events: Events
    games: Games
    boards: Boards
    endings: Endings
    moves: Moves
    autocomplete: Autocomplete
    challenges: Challenges
    expiry: ChallengeExpiry
    notifier: Notifier
    clocks: Clocks
    correspondence: Correspondence
    ratings: Ratings
    browser: Browser
    records: Records
    epilogue: Epilogue
    settings: MemberSettings
    analyses: Analyses
    sandboxes: Sandboxes
    #: Thinks for the bot in other processes (an AIPool).
    ai: Thinker
    practice: Practice
    #: Conditional moves (played at once on a player's behalf) and private notes.
    conditional: Conditional
    #: Tournaments: sign-up, rounds, standings (their starts a claimed timer).
    tournaments: Tournaments
    #: Leagues: seasons of divisions, each a tournament; the next begins by itself.
    leagues: Leagues
    #: Ladders: challenges up the ladder; an unanswered one lost (a claimed timer).
    ladders: Ladders
    #: Seeks: open challenges to anyone from any server, posted in every lobby.
    seeks: Seeks
    outbox: Outbox
    players: Players
    config: Settings
    #: This process among those sharing the database: its lease on its shards.
    processes: Processes
    #: ``/healthz`` on ``HEALTH_PORT`` (None: no port set).
    liveness: Liveness | None = None
    #: The language of each server and member (bot.i18n).
    languages: Languages | None = None
    services: Services = field(default_factory=Services)
    _warm_up: asyncio.Task[int] | None = None
    _buttons: asyncio.Task[int] | None = None
    _sweeps: set[asyncio.Task[int]] = field(default_factory=set)

    async def enter(self) -> None:
        """Take this process's shards among the processes sharing the database (before
        Discord is reached): :class:`bot.processes.ShardsTaken` if another runs them,
        and keep them from now on (logging in may take longer than the lease); then
        listen on ``HEALTH_PORT`` (:class:`bot.liveness.CannotListen`)."""
        await self.processes.enter()
        self.processes.start()
        if self.liveness is not None:
            await self.liveness.start()

    async def start(self) -> None:
        """Take this process's shards (if not yet); deliver what the last run still owed
        Discord (before any new work); replay the active games of its shards in the
        background; start the clocks and the expiry of challenges (both first apply what
        fell due while the bot was down); beat, taking over the processes that die. The
        AI's worker processes start first, in threads of their own (the event loop runs
        on), so that they are up before the bot takes its first interaction."""
        await self.enter()
        start_ai = getattr(self.ai, "start", None)
        if start_ai is not None:
            await start_ai()
        if self.languages is not None:  # the servers' languages, before their owed posts
            await self.languages.start()
        await self.outbox.start()
        self._warm_up = asyncio.create_task(self.games.warm_up(), name="replay active games")
        self._buttons = asyncio.create_task(
            self.boards.remove_ended_buttons(self.config.shards),
            name="remove the buttons of ended games",
        )
        await self.clocks.start()
        await self.expiry.start()
        await self.tournaments.start()  # goes on with the running ones, then the deadlines
        await self.leagues.start()  # a season over while down: the next begins
        await self.ladders.start()  # ladder challenges unanswered in time are lost
        await self.ratings.rebuild_global()  # games rated before global ratings existed
        await self.seeks.start()  # games of seeks taken just before a crash; expiry
        await self.analyses.start()  # finished games not analysed yet, in the background
        for player in self.players.automatic:  # their turns waiting since before the restart
            await player.resume()
        await self.conditional.resume()  # the replies owed since before the restart
        self.processes.watch()  # the work of processes that die: this one can go on with it

    async def take_over(self, dead: TakenOver) -> None:
        """Go on with the work of a process that died (:mod:`bot.processes`): its clocks
        and expiries, due for whoever looks, are looked at now (its claims were given
        back), and the boards it owed are delivered."""
        self.clocks.poke()
        self.expiry.poke()
        self.tournaments.timer.poke()
        self.leagues.timer.poke()
        self.ladders.timer.poke()
        self.seeks.timer.poke()
        # the conditional replies it owed (played once: a move names the ply it answers)
        await self.conditional.resume(everywhere=True)
        if dead.servers is not None:  # the AI's moves and analyses owed in its servers
            await self.practice.resume(dead.servers)
            await self.analyses.take_over(dead.servers)
        for lane in dead.lanes:
            self.outbox.kick(lane)
        # What it staged and had not begun to deliver (no lease): the sweep's, in the
        # background (it waits for the deliveries).
        self._sweeps.add(sweep := asyncio.create_task(self.outbox.sweep(), name="take-over sweep"))
        sweep.add_done_callback(self._sweeps.discard)

    async def stop(self) -> None:
        for player in self.players.automatic:
            await player.stop()
        await self.conditional.stop()
        for task in (self._warm_up, self._buttons, *self._sweeps):
            if task is not None:
                task.cancel()
        await self.clocks.stop()
        await self.expiry.stop()
        await self.tournaments.stop()
        await self.leagues.stop()
        await self.ladders.stop()
        await self.seeks.stop()
        await self.analyses.stop()
        close = getattr(self.ai, "close", None)
        if close is not None:
            await close()
        await self.outbox.stop()
        await self.processes.stop()  # its shards free at once
        if self.liveness is not None:
            await self.liveness.stop()


def build(
    db: Database,
    poster: Poster,
    messenger: Messenger,
    *,
    settings: Settings = DEFAULTS,
    now: Callable[[], datetime] = utc_now,
    renderer: Renderer = render_board,
    replayer: Replayer = replay_gif,
    rng: random.Random | None = None,
    on_expired: Expired | None = None,
    sleep: Sleep = asyncio.sleep,
    thinker: Thinker | None = None,
    typing: Typing | None = None,
    on_lost: Callable[[], object] | None = None,
    gateway: Callable[[], bool] = lambda: True,
) -> App:
    """Build and wire every service. ``poster`` and ``messenger`` reach Discord (an
    expired challenge's message is shown so through the outbox; ``on_expired`` is told
    after);
    ``thinker`` is the AI (default: a pool of ``settings.ai_workers`` processes);
    ``on_lost`` stops the process once another took its shards over; ``gateway`` says
    whether it is connected to Discord (for ``/healthz``)."""
    shards = settings.shards
    # This process to the others sharing the database: the owner of its claims and of
    # its lease on its shards, which lasts ``process_lease`` without a heartbeat.
    owner = process_name()
    lease = timedelta(seconds=settings.process_lease)
    # Board posts say when the player to move runs out of time.
    poster = DeadlinePoster(poster, db)
    # Each reminder, deadline, digest and expiry is done by the one process claiming it.
    claims = Claims(db, now=now, owner=owner)
    events = Events()
    players = Players()
    # Each process replays the active games of its own shards.
    games = Games(db, shards=shards)
    # What must reach Discord is stored with the change that causes it, and delivered
    # in order per game by one loop; boards tell the listeners after their post.
    # Several processes may share the database: a game's items are delivered by one of
    # them at a time (a lease in the name of its shards).
    outbox = Outbox(db, now=now, sleep=sleep, owner=shards.name, sweep_every=OUTBOX_SWEEP)
    # A turn a conditional reply answers at once pings nobody: no mention, no DM.
    planned = PlannedReplies(db)
    notifier = Notifier(db, messenger, poster, now=now, planned=planned)
    # Members who asked for DMs or a digest are not pinged by board posts.
    boards = Boards(
        db,
        poster,
        renderer=renderer,
        games=games,
        events=events,
        outbox=outbox,
        mention_filter=notifier.filter_mentions,
        planned=planned,
        now=now,
    )
    messages = ChallengeMessages(
        db, poster, outbox, now=now, expiry_days=settings.challenge_expiry_days
    )
    ratings = Ratings(db, now=now)
    # The end of a game is one post: the epilogue gives its summary (rating the game
    # first), its replay and its record.
    epilogue = Epilogue(db, ratings, replayer=replayer)
    endings = Endings(db, games, boards, events, now=now, finale=epilogue)
    clocks = Clocks(
        db,
        games,
        endings,
        notifier,
        now=now,
        reminder_share=settings.reminder_share,
        vacation_days=settings.vacation_days,
        sleep=sleep,
        claims=claims,
        # Other processes add and move clocks: read them again at least once a lease.
        reread=lease,
        # No loss on time for a turn a conditional reply answers (owed across a restart).
        planned=planned,
    )
    # The clock refuses moves out of time and stores the next turn with each move, and
    # is stored with each new game; each move advances or clears the players'
    # conditional moves in its own transaction.
    moves = Moves(
        db,
        games,
        boards,
        events,
        endings,
        now=now,
        guards=[clocks, PlanGuard(now=now)],
        describe=change_summary,
    )
    challenges = Challenges(
        db, games, boards, events, now=now, rng=rng, starters=[clocks], messages=messages
    )
    correspondence = Correspondence(db, games, boards, events, endings, clocks, now=now)
    ai = thinker if thinker is not None else AIPool(settings.ai_workers)
    analyses = Analyses(db, games, ai, shards=shards)
    # The bot's moves in practice games: the same AI, thinking in its worker processes.
    practice = Practice(
        db,
        games,
        boards,
        events,
        challenges,
        moves,
        clocks,
        think=ai.choose,
        levels=practice_levels(settings.ai_test_playouts),
        shards=shards,
        **({"typing": typing} if typing else {}),
    )
    players.register(practice)  # the bot itself, as an opponent
    conditional = Conditional(db, games, moves, outbox, messenger, now=now, shards=shards)
    # Tournament games are challenges accepted at once; a round over pairs the next.
    tournaments = Tournaments(
        db,
        challenges,
        now=now,
        claims=claims,
        endings=endings,
        news=TournamentPosts(db, poster, outbox, now=now),
        sleep=sleep,
        reread=lease,
    )
    leagues = Leagues(db, tournaments, now=now, claims=claims, sleep=sleep, reread=lease)
    ladders = Ladders(db, challenges, now=now, claims=claims, sleep=sleep, reread=lease)
    # Seeks start their games as challenges accepted at once; their cards in the
    # lobbies go through the outbox.
    SeekPosts(db, poster, outbox, now=now)
    seeks = Seeks(
        db,
        challenges,
        outbox,
        now=now,
        days=settings.challenge_expiry_days,
        claims=claims,
        sleep=sleep,
        reread=lease,
        # no server in common: the game is played in both players' DMs
        in_dms=lambda: Elsewhere("dms"),
    )
    events.subscribe(
        notifier,  # DMs: your turn, the game is over
        clocks,  # wakes the dispatcher for the new due time; stops an ended clock
        practice,  # the bot's turn in a practice game: it thinks, then moves
        # after the board of the opponent's move: the planned reply, played at once;
        # a takeback or the end deletes the trees
        conditional,
        tournaments,  # a tournament game's end: scored, and the next round paired
        leagues,  # after it: a league's last division over, the next season begins
        ladders,  # a ladder game started (answered in time), or over: who climbs
        analyses,  # last: queues a finished game for the AI's analysis
    )
    app = App(
        db=db,
        now=now,
        events=events,
        games=games,
        boards=boards,
        endings=endings,
        moves=moves,
        autocomplete=Autocomplete(games),
        challenges=challenges,
        expiry=ChallengeExpiry(
            db,
            now=now,
            days=settings.challenge_expiry_days,
            on_expired=on_expired,
            sleep=sleep,
            messages=messages,
            claims=claims,
            reread=lease,
        ),
        notifier=notifier,
        clocks=clocks,
        correspondence=correspondence,
        ratings=ratings,
        browser=Browser(db, games, renderer=renderer, replayer=replayer),
        records=Records(db, now=now),
        epilogue=epilogue,
        settings=MemberSettings(db, notifier, on_notify=clocks.poke),
        analyses=analyses,
        sandboxes=Sandboxes(db, games, ai, now=now),
        ai=ai,
        practice=practice,
        conditional=conditional,
        tournaments=tournaments,
        leagues=leagues,
        ladders=ladders,
        seeks=seeks,
        outbox=outbox,
        players=players,
        config=settings,
        # A process that dies leaves its work to the one that sees it first.
        processes=Processes(
            db,
            shards=shards,
            owner=owner,
            now=now,
            lease=lease,
            on_take_over=lambda dead: app.take_over(dead),
            on_lost=on_lost,
        ),
        liveness=None
        if settings.health_port is None
        else Liveness(db, port=settings.health_port, gateway=gateway, now=now),
        languages=Languages(db),
    )
    for one in (settings, *(getattr(app, f.name) for f in fields(App) if f.name in _SERVICES)):
        app.services.add(one)
    app.services.add(clocks, kind=GameDeadlines)  # as the core sees them
    app.services.add(conditional, kind=ConditionalPlans)  # the sandbox saves lines
    app.services.add(conditional, kind=PrivateNotes)  # /board and /review show notes
    app.services.add(Memberships(db), kind=MemberCompetitions)  # /profile lists them
    return app


#: The fields of :class:`App` that commands and buttons may look up by type.
_SERVICES = (
    "games",
    "boards",
    "endings",
    "moves",
    "autocomplete",
    "challenges",
    "expiry",
    "notifier",
    "clocks",
    "correspondence",
    "ratings",
    "browser",
    "records",
    "epilogue",
    "settings",
    "analyses",
    "sandboxes",
    "practice",
    "conditional",
    "tournaments",
    "leagues",
    "ladders",
    "players",
    "seeks",
    "languages",
)
