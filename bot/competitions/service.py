"""Tournaments, without Discord: made by an organiser, joined during their sign-up,
started at the deadline (or by the organiser), then played round after round.

Their games are ordinary games (thread, clock, boards), started as the automatic
players start theirs: a challenge accepted at once (:class:`bot.core.players.GameOpener`,
the challenges' service), tagged with the tournament, its round and its game row
(``settings``). What a tournament does next is worked out from the database alone by
:meth:`Tournaments.advance`, which is safe to run again and from any process: it scores
the games that ended, starts the ones still to start, and when a round is over pairs
the next one (the round number moves on in one conditional statement: one process
does it) or ends the tournament. It runs when a tournament game ends (the listener
:meth:`Tournaments.game_ended`), at a start, and for every running tournament when the
bot starts (:meth:`Tournaments.start`): a restart mid-round loses nothing. The
starts at the sign-up deadline are a :class:`~bot.timers.DueTimer` whose work is
claimed (:mod:`bot.claims`); so is the start of each game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from bot.claims import Claims
from bot.competitions.pairing import (
    DRAW,
    WIN,
    Match,
    Result,
    champion,
    knockout,
    round_robin,
    swiss_round,
)
from bot.competitions.standings import Standing, standings
from bot.core.competing import TOURNAMENT
from bot.core.endings import Endings
from bot.core.game_settings import challenge_settings, game_options
from bot.core.games import game_rules
from bot.core.players import GameOpener
from bot.i18n import N_, _
from bot.model import GameUpdate, Member, UserError
from bot.outbox import Staged
from bot.storage import (
    ChallengeRow,
    Connection,
    Database,
    EntrantRow,
    GameRow,
    Statement,
    TournamentGameRow,
    TournamentRow,
    apply,
    queries,
)
from bot.timers import DueTimer, Sleep
from rules.outcome import resigned

log = logging.getLogger(__name__)

#: The formats, and how members read them.
FORMATS = {
    "round_robin": N_("round robin"),
    "double_round_robin": N_("double round robin"),
    "swiss": N_("Swiss"),
    "knockout": N_("knockout"),
}
#: A tournament's status, in words (shown as ``status_word(status)``).
STATUSES = {
    "signup": N_("open for sign-up"),
    "running": N_("running"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}


def status_word(status: str) -> str:
    """``running``, in the current language."""
    return _(STATUSES[status]) if status in STATUSES else status


#: The most players a tournament takes.
MOST_PLAYERS = 256
#: The rating of a member who has none at the game yet (Glicko's start).
UNRATED = 1500.0
#: The longest a tournament's name may be.
NAME_LENGTH = 80
#: How soon a game that failed to start (Discord out of reach…) is tried again.
STALLED_RETRY = timedelta(minutes=5)
#: The due moment of the claim on starting a tournament game (one claim per game).
_ONCE = datetime(2000, 1, 1, tzinfo=UTC)


class News(Protocol):
    """What a tournament shows on Discord (its sign-up post, its thread's news), staged
    in the transaction of the change (the area's posts, :mod:`bot.outbox`)."""

    def staged(self, tournament_id: int, news: str, **details: Any) -> Staged: ...

    async def send(self, *staged: Staged) -> None: ...


@dataclass(frozen=True, slots=True)
class Record:
    """Two members' finished games against each other: the first one's wins, draws
    and losses, by game, and the games themselves (oldest first)."""

    by_game: dict[str, tuple[int, int, int]]
    games: list[GameRow]

    @property
    def total(self) -> tuple[int, int, int]:
        return (
            sum(w for w, _d, _lo in self.by_game.values()),
            sum(d for _w, d, _lo in self.by_game.values()),
            sum(lo for _w, _d, lo in self.by_game.values()),
        )


async def head_to_head(
    db: Database, *, guild_id: int, member_id: int, other_id: int, game: str | None = None
) -> Record:
    """The record of ``member_id`` against ``other_id`` here (``/h2h``)."""
    async with db.reading() as conn:
        games = await queries.games_between(
            conn, guild_id=guild_id, member_id=member_id, other_id=other_id, game=game
        )
    tally: dict[str, list[int]] = {}
    for row in games:
        counts = tally.setdefault(row.game, [0, 0, 0])
        if row.winner_seat is None:
            counts[1] += 1
        elif row.player_ids[row.winner_seat] == member_id:
            counts[0] += 1
        else:
            counts[2] += 1
    return Record({name: (w, d, lo) for name, (w, d, lo) in tally.items()}, games)


@dataclass(frozen=True, slots=True)
class Table:
    """A tournament as it stands: its row, entrants (by seed), games and standings."""

    tournament: TournamentRow
    entrants: list[EntrantRow]
    games: list[TournamentGameRow]
    standings: list[Standing]
    #: Knockout: the bracket as far as it is decided.
    bracket: list[list[Match]] | None = None

    def name_of(self, member_id: int | None) -> str:
        for one in self.entrants:
            if one.member_id == member_id:
                return one.member_name
        return "—" if member_id is None else str(member_id)


def results_of(games: Sequence[TournamentGameRow]) -> list[Result]:
    """The games scored, as the pairings and standings take them (byes aside)."""
    return [
        Result(g.player0_id, g.player1_id, g.points)
        for g in games
        if g.player1_id is not None and g.points is not None
    ]


def byes_of(games: Sequence[TournamentGameRow]) -> list[int]:
    return [g.player0_id for g in games if g.player1_id is None]


def points_of(row: TournamentGameRow, game: GameRow) -> float:
    """Player 0's points in the game as it ended (a loss on time is a loss; an aborted
    game counts as a draw)."""
    if game.status != "finished" or game.winner_seat is None:
        return DRAW
    return WIN if game.player_ids[game.winner_seat] == row.player0_id else 1.0 - WIN


class Tournaments:
    def __init__(
        self,
        db: Database,
        opener: GameOpener,
        *,
        now: Callable[[], datetime],
        claims: Claims,
        endings: Endings | None = None,
        news: News | None = None,
        sleep: Sleep = asyncio.sleep,
        reread: timedelta | None = None,
    ) -> None:
        self.db = db
        self.opener = opener
        self.now = now
        self.claims = claims
        #: Ends a withdrawn player's game in progress.
        self.endings = endings
        #: The posts (None: nothing is shown, as in the tests of the logic).
        self.news = news
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.timer = DueTimer(
            "tournament starts",
            handle_due=self._due,
            next_due=self._next_start,
            now=now,
            sleep=sleep,
            reread=reread,
        )

    # -- sign-up ------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Member,
        name: str,
        format: str,
        game: str,
        starts_at: datetime,
        options: Mapping[str, Any] | None = None,
        time_control: str | None = None,
        min_players: int = 4,
        max_players: int = 16,
        rounds: int | None = None,
        rated: bool = True,
        vacation: bool = False,
    ) -> TournamentRow:
        """A tournament open for sign-up until ``starts_at``; everything checked first.
        Its games stop for no vacation unless ``vacation``."""
        rule_set = game_rules(game)
        resolved = game_options(rule_set, options)
        settings = {
            **challenge_settings(time_control, takebacks=False, vacation=vacation),
            "rated": bool(rated),
        }
        name = " ".join(name.split())
        if not name:
            raise UserError(_("Give the tournament a name."))
        if len(name) > NAME_LENGTH:
            raise UserError(
                _("A tournament's name is at most {count} characters.", count=NAME_LENGTH)
            )
        if format not in FORMATS:
            raise UserError(
                _(
                    "The format must be one of {formats}.",
                    formats=", ".join(_(word) for word in FORMATS.values()),
                )
            )
        if starts_at <= self.now():
            raise UserError(_("The sign-up deadline is in the past: pick a moment to come."))
        if not 2 <= min_players <= max_players:
            raise UserError(
                _("The least number of players must be at least 2, and no more than the most.")
            )
        if max_players > MOST_PLAYERS:
            raise UserError(_("A tournament takes at most {count} players.", count=MOST_PLAYERS))
        if format == "swiss":
            if rounds is None or rounds < 1:
                raise UserError(_("Say how many rounds the Swiss has (1 or more)."))
            if rounds >= min_players:
                raise UserError(
                    _(
                        "A Swiss of {rounds} rounds needs at least {count} players, so that "
                        "nobody meets anyone twice: raise the least number of players or play "
                        "fewer rounds.",
                        rounds=rounds,
                        count=rounds + 1,
                    )
                )
        elif rounds is not None:
            raise UserError(_("Only a Swiss takes a number of rounds."))
        async with self.db.transaction() as tx:
            tournament_id = await queries.insert_tournament(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser.id,
                organiser_name=organiser.name,
                name=name,
                format=format,
                rounds=rounds,
                game=rule_set.name,
                options=resolved,
                settings=settings,
                min_players=min_players,
                max_players=max_players,
                starts_at=starts_at,
                created_at=self.now(),
            )
            staged = await self._stage(tx, tournament_id, "created")
            made = await queries.get_tournament(tx, tournament_id)
        assert made is not None  # inserted just now
        self.timer.poke()
        await self._send(staged)
        return made

    async def start_with(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Member,
        name: str,
        format: str,
        game: str,
        options: Mapping[str, Any],
        settings: Mapping[str, Any],
        players: Sequence[Member],
        then: Callable[[Connection, int], Awaitable[None]] | None = None,
    ) -> TournamentRow:
        """A tournament of ``players`` that starts at once, without a sign-up (a
        league's division). ``then``: more to store with it, given its id."""
        async with self.db.transaction() as tx:
            made = await self.insert_started(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser=organiser,
                name=name,
                format=format,
                game=game,
                options=options,
                settings=settings,
                players=players,
            )
            if then is not None:
                await then(tx, made[0])
        await self.launch([made])
        return await self.get(guild_id, made[0])

    async def insert_started(
        self,
        tx: Connection,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Member,
        name: str,
        format: str,
        game: str,
        options: Mapping[str, Any],
        settings: Mapping[str, Any],
        players: Sequence[Member],
    ) -> tuple[int, Staged | None]:
        """Store, in ``tx``, a tournament of ``players`` due to start now (its id, and
        its first post staged): :meth:`launch` starts it, or, after a crash, the timer
        of the sign-up deadlines does (its deadline is now)."""
        now = self.now()
        tournament_id = await queries.insert_tournament(
            tx,
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser.id,
            organiser_name=organiser.name,
            name=name[:NAME_LENGTH],
            format=format,
            rounds=None,
            game=game,
            options=dict(options),
            settings=dict(settings),
            min_players=2,
            max_players=max(2, len(players)),
            starts_at=now,
            created_at=now,
        )
        for i, player in enumerate(players):
            await queries.add_entrant(
                tx,
                tournament_id,
                member_id=player.id,
                member_name=player.name,
                joined_at=now + timedelta(microseconds=i),  # their order: the seeding's
                max_players=len(players),
            )
        staged = await self._stage(tx, tournament_id, "created", signup=False)
        return tournament_id, staged

    async def launch(self, made: Sequence[tuple[int, Staged | None]]) -> None:
        """Post and start the tournaments :meth:`insert_started` stored (safe to repeat:
        one started meanwhile is left as it is)."""
        for _made, staged in made:
            await self._send(staged)
        for tournament_id, _staged in made:
            async with self.db.reading() as conn:
                t = await queries.get_tournament(conn, tournament_id)
            if t is not None and t.status == "signup":
                await self._begin(t)

    async def announce(
        self, tx: Connection, tournament_id: int, news: str, **details: Any
    ) -> Staged | None:
        """Stage news in the tournament's thread, in ``tx`` (send it after)."""
        return await self._stage(tx, tournament_id, news, **details)

    async def send(self, *staged: Staged | None) -> None:
        for one in staged:
            await self._send(one)

    async def get(self, guild_id: int, tournament_id: int) -> TournamentRow:
        async with self.db.reading() as conn:
            found = await queries.get_tournament(conn, tournament_id)
        if found is None or found.guild_id != guild_id:
            raise UserError(_("That tournament doesn't exist."))
        return found

    async def listed(self, guild_id: int, statuses: Sequence[str]) -> list[TournamentRow]:
        async with self.db.reading() as conn:
            return await queries.tournaments_of_guild(conn, guild_id, statuses)

    async def join(self, *, guild_id: int, tournament_id: int, member: Member) -> TournamentRow:
        t = await self.get(guild_id, tournament_id)
        if member.bot:
            raise UserError(_("Bots can't play in tournaments."))
        self._signing_up(t)
        async with self.db.transaction() as tx:
            joined = await queries.add_entrant(
                tx,
                t.id,
                member_id=member.id,
                member_name=member.name,
                joined_at=self.now(),
                max_players=t.max_players,
            )
            if not joined:
                everyone = await queries.entrants(tx, t.id)
                if any(e.member_id == member.id for e in everyone):
                    raise UserError(_("You are already in {name}.", name=t.name))
                current = await queries.get_tournament(tx, t.id)
                assert current is not None
                self._signing_up(current)
                raise UserError(
                    _("{name} is full ({count} players).", name=t.name, count=t.max_players)
                )
            staged = await self._stage(tx, t.id, "joined", member=member.id)
        await self._send(staged)
        return t

    async def leave(self, *, guild_id: int, tournament_id: int, member: Member) -> TournamentRow:
        t = await self.get(guild_id, tournament_id)
        self._signing_up(t, leaving=True)
        async with self.db.transaction() as tx:
            if not await queries.remove_entrant(tx, t.id, member.id):
                raise UserError(_("You are not in {name}.", name=t.name))
            staged = await self._stage(tx, t.id, "left", name=member.name)
        await self._send(staged)
        return t

    def _signing_up(self, t: TournamentRow, *, leaving: bool = False) -> None:
        if t.status == "signup":
            return
        if t.status == "running":
            if leaving:
                raise UserError(
                    _("{name} has started: use `/tournament withdraw` to leave it.", name=t.name)
                )
            raise UserError(_("{name} has started: it's too late to join.", name=t.name))
        raise UserError(_("{name} is {status}.", name=t.name, status=status_word(t.status)))

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        async with self.db.reading() as conn:
            return await queries.entrants(conn, tournament_id)

    # -- start and cancel ---------------------------------------------------------------

    def _may_run(self, t: TournamentRow, member: Member, manager: bool, what: str) -> None:
        if not manager and member.id != t.organiser_id:
            if what == "start":
                raise UserError(
                    _(
                        "Only {organiser} (or someone who may manage the server) can start {name}.",
                        organiser=t.organiser_name,
                        name=t.name,
                    )
                )
            raise UserError(
                _(
                    "Only {organiser} (or someone who may manage the server) can cancel {name}.",
                    organiser=t.organiser_name,
                    name=t.name,
                )
            )

    async def start_now(
        self, *, guild_id: int, tournament_id: int, member: Member, manager: bool = False
    ) -> TournamentRow:
        """The organiser starts the tournament before its deadline."""
        t = await self.get(guild_id, tournament_id)
        self._may_run(t, member, manager, "start")
        if t.status != "signup":
            raise UserError(
                _("{name} is already {status}.", name=t.name, status=status_word(t.status))
            )
        players = await self.entrants(t.id)
        problem = feasible(t, len(players))
        if problem is not None:
            raise UserError(problem)
        await self._begin(t)
        return await self.get(guild_id, tournament_id)

    async def cancel(
        self, *, guild_id: int, tournament_id: int, member: Member, manager: bool = False
    ) -> TournamentRow:
        t = await self.get(guild_id, tournament_id)
        self._may_run(t, member, manager, "cancel")
        if t.status not in ("signup", "running"):
            raise UserError(
                _("{name} is already {status}.", name=t.name, status=status_word(t.status))
            )
        await self._cancel(t, by=member.name)
        return await self.get(guild_id, tournament_id)

    async def _cancel(self, t: TournamentRow, *, by: str | None) -> bool:
        async with self.db.transaction() as tx:
            if not await queries.set_tournament_status(
                tx, t.id, old=t.status, new="cancelled", at=self.now()
            ):
                return False
            staged = await self._stage(tx, t.id, "cancelled", by=by)
        await self._send(staged)
        return True

    async def _begin(self, t: TournamentRow) -> None:
        """Seed the entrants by rating (then who joined first) and play round 1."""
        async with self.db.transaction() as tx:
            players = await queries.entrants(tx, t.id)
            ratings = await queries.member_ratings(
                tx, t.guild_id, t.game, [p.member_id for p in players]
            )
            if not await queries.set_tournament_status(tx, t.id, old="signup", new="running"):
                return  # started (or cancelled) by someone else meanwhile
            order = sorted(players, key=lambda p: (-ratings.get(p.member_id, UNRATED), p.joined_at))
            await queries.seed_entrants(
                tx,
                t.id,
                [(p.member_id, i, ratings.get(p.member_id, UNRATED)) for i, p in enumerate(order)],
            )
            staged = await self._stage(tx, t.id, "started")
        await self._send(staged)
        await self.advance(t.id)

    # -- the timer: starts at the deadline ---------------------------------------------

    async def start(self) -> None:
        """At start-up: go on with every running tournament, then watch the deadlines."""
        async with self.db.reading() as conn:
            running = await queries.running_tournaments(conn)
        for t in running:
            try:
                await self.advance(t.id)
            except Exception:
                log.exception("tournament %d could not go on", t.id)
        self.timer.start()

    async def stop(self) -> None:
        await self.timer.stop()

    async def _next_start(self) -> datetime | None:
        """The next deadline; sooner, a look again at games that failed to start."""
        async with self.db.reading() as conn:
            deadline = await queries.next_tournament_start(conn)
            stalled = await queries.stalled_tournaments(conn)
        if not stalled:
            return deadline
        again = self.now() + STALLED_RETRY
        return again if deadline is None else min(deadline, again)

    async def _due(self) -> None:
        await self.start_due()
        async with self.db.reading() as conn:
            stalled = await queries.stalled_tournaments(conn)
        for tournament_id in stalled:  # a game that failed to start: tried again
            await self.advance(tournament_id)

    async def start_due(self) -> list[int]:
        """Start (or, short of players, cancel) every tournament whose sign-up is over;
        the ids started."""
        async with self.db.reading() as conn:
            due = await queries.tournaments_due(conn, self.now())
        started = []
        for t in due:
            async with self.claims.holding("tournament", t.id, t.starts_at) as mine:
                if not mine:
                    continue
                players = await self.entrants(t.id)
                problem = feasible(t, len(players))
                if problem is None:
                    await self._begin(t)
                    started.append(t.id)
                else:
                    log.info("tournament %d cancelled at its deadline: %s", t.id, problem)
                    await self._cancel(t, by=None)
        return started

    # -- playing ------------------------------------------------------------------------

    async def game_ended(self, update: GameUpdate) -> None:
        """A game ended: if a tournament's, score it and go on."""
        tournament_id = update.game.settings.get(TOURNAMENT)
        if isinstance(tournament_id, int):
            await self.advance(tournament_id)

    async def advance(self, tournament_id: int) -> None:
        """Do what the tournament waits for: score the games that ended, start those to
        start, pair the next round when one is over, or end it. Safe to repeat."""
        async with self._locks[tournament_id]:
            while await self._step(tournament_id):
                pass

    async def _step(self, tournament_id: int) -> bool:
        """One step; True if it should be looked at again at once."""
        async with self.db.transaction() as tx:
            t = await queries.get_tournament(tx, tournament_id)
            if t is None or t.status != "running":
                return False
            for linked, game in await queries.ended_unscored_games(tx, t.id):
                await queries.score_tournament_game(tx, linked.id, points_of(linked, game))
            players = await queries.entrants(tx, t.id)
            games = await queries.tournament_games(tx, t.id)
        current = [g for g in games if g.round == t.round]
        if t.format == "knockout" and t.round and await self._replays(t, players, games):
            return True
        waiting = [g for g in current if g.points is None]
        if t.round and waiting:
            withdrawn = {p.member_id for p in players if p.withdrawn}
            for g in waiting:
                if g.game_id is None:
                    try:
                        await self._open(t, g, players, withdrawn)
                    except Exception:  # the others still start; this one on the next look
                        log.exception("tournament %d: game row %d did not start", t.id, g.id)
            return False
        # The round is over (or none began): the next, or the end.
        pairs = self._next_pairings(t, players, games)
        if pairs is None:
            await self._finish(t, players, games)
            return False
        withdrawn = {p.member_id for p in players if p.withdrawn}
        rows = []
        for board, (first, second) in enumerate(pairs):
            points, forfeit = _forfeit(first, second, withdrawn)
            rows.append((t.round + 1, board, 0, first, second, points, forfeit))
        async with self.db.transaction() as tx:
            if not await queries.next_round(tx, t.id, t.round):
                return True  # another process paired it: look again
            await queries.insert_tournament_games(tx, t.id, rows)
            staged = await self._stage(tx, t.id, "round", round=t.round + 1)
        await self._send(staged)
        return True

    def _next_pairings(
        self, t: TournamentRow, players: list[EntrantRow], games: list[TournamentGameRow]
    ) -> list[tuple[int, int | None]] | None:
        """The games of the round after ``t.round`` (a bye: a second None), or None when
        the tournament is over."""
        seeds = [p.member_id for p in sorted(players, key=lambda p: p.seed or 0)]
        following = t.round + 1
        if t.format in ("round_robin", "double_round_robin"):
            schedule = round_robin(seeds, 2 if t.format == "double_round_robin" else 1)
            if following > len(schedule):
                return None
            planned = schedule[following - 1]
            return [(p.first, p.second) for p in planned.pairings]
        if t.format == "swiss":
            if following > (t.rounds or 0):
                return None
            playing = [p.member_id for p in sorted(players, key=lambda p: p.seed or 0)]
            active = [m for m in playing if m not in _withdrawn(players)]
            if len(active) < 2:
                return None
            one = swiss_round(active, results_of(games), byes_of(games))
            pairs: list[tuple[int, int | None]] = [(p.first, p.second) for p in one.pairings]
            if one.bye is not None:
                pairs.append((one.bye, None))
            return pairs
        bracket = knockout(seeds, played_by_round(games))
        if following > len(bracket):
            return None
        found: list[tuple[int, int | None]] = []
        for match in bracket[following - 1]:
            game = match.next_game()
            if game is not None:
                found.append((game.first, game.second))
        return found

    async def _replays(
        self, t: TournamentRow, players: list[EntrantRow], games: list[TournamentGameRow]
    ) -> bool:
        """A knockout's drawn games of this round, each to play again, seats swapped;
        True if some were added."""
        seeds = [p.member_id for p in sorted(players, key=lambda p: p.seed or 0)]
        bracket = knockout(seeds, played_by_round(games))
        if t.round > len(bracket):
            return False
        withdrawn = _withdrawn(players)
        rows = []
        for match in bracket[t.round - 1]:
            game = match.next_game()
            if game is None or not match.games:
                continue
            if any(
                g.round == t.round
                and g.points is None
                and {g.player0_id, g.player1_id} == {*match.sides}
                for g in games
            ):
                continue  # its replay is already there
            board = next(
                g.board
                for g in games
                if g.round == t.round and {g.player0_id, g.player1_id} == {*match.sides}
            )
            points, forfeit = _forfeit(game.first, game.second, withdrawn)
            rows.append(
                (t.round, board, len(match.games), game.first, game.second, points, forfeit)
            )
        if not rows:
            return False
        async with self.db.transaction() as tx:
            await queries.insert_tournament_games(tx, t.id, rows)
            staged = await self._stage(tx, t.id, "replays", round=t.round)
        await self._send(staged)
        return True

    async def _open(
        self,
        t: TournamentRow,
        g: TournamentGameRow,
        players: list[EntrantRow],
        withdrawn: set[int],
    ) -> None:
        """Start the game ``g`` (once, whichever process claims it): a challenge, made
        and accepted at once. A challenge made before a crash is found and used."""
        assert g.player1_id is not None  # byes are scored when paired
        names = {p.member_id: p.member_name for p in players}
        first = Member(g.player0_id, names.get(g.player0_id, str(g.player0_id)))
        second = Member(g.player1_id, names.get(g.player1_id, str(g.player1_id)))
        async with self.claims.holding("tournament_game", g.id, _ONCE) as mine:
            if not mine:
                return
            async with self.db.reading() as conn:
                current = await queries.get_tournament_game(conn, g.id)
                earlier = [
                    c
                    for a, b in ((first, second), (second, first))
                    for c in await queries.challenges_between(
                        conn, guild_id=t.guild_id, challenger_id=a.id, opponent_id=b.id, game=t.game
                    )
                ]
            if current is None or current.game_id is not None or current.points is not None:
                return
            made = next((c for c in earlier if c.settings.get("tournament_game") == g.id), None)
            if made is not None and made.game_id is not None:
                game_id = made.game_id
            else:
                if made is None:
                    made = await self._challenge(t, g, first, second)
                accepter = second if made.challenger_id == first.id else first
                update = await self.opener.accept(
                    guild_id=t.guild_id, challenge_id=made.id, member=accepter
                )
                game_id = update.game.id
            async with self.db.transaction() as tx:
                await queries.link_tournament_game(tx, g.id, game_id)
        log.info("tournament %d round %d: game #%d started", t.id, g.round, game_id)

    async def _challenge(
        self, t: TournamentRow, g: TournamentGameRow, first: Member, second: Member
    ) -> ChallengeRow:
        """The game's challenge, player 0 taking seat 0: made by player 0, or, if they
        have a challenge of their own pending to player 1 at this game (one at a time),
        by player 1."""
        settings = {k: v for k, v in t.settings.items() if k != "rated"}
        tagged = {**settings, TOURNAMENT: t.id, "round": g.round, "tournament_game": g.id}
        try:
            return await self.opener.create(
                guild_id=t.guild_id,
                channel_id=t.channel_id,
                challenger=first,
                game=t.game,
                options=t.options,
                opponent=second,
                first="challenger",
                rated=t.rated,
                settings=tagged,
                post=False,
            )
        except UserError:
            return await self.opener.create(
                guild_id=t.guild_id,
                channel_id=t.channel_id,
                challenger=second,
                game=t.game,
                options=t.options,
                opponent=first,
                first="opponent",
                rated=t.rated,
                settings=tagged,
                post=False,
            )

    async def _finish(
        self, t: TournamentRow, players: list[EntrantRow], games: list[TournamentGameRow]
    ) -> None:
        if t.format == "knockout":
            seeds = [p.member_id for p in sorted(players, key=lambda p: p.seed or 0)]
            winner = champion(knockout(seeds, played_by_round(games)))
        else:
            table = standings(_ratings(players), results_of(games), byes_of(games))
            winner = table[0].player if table else None
        async with self.db.transaction() as tx:
            if not await queries.set_tournament_status(
                tx, t.id, old="running", new="finished", at=self.now(), champion_id=winner
            ):
                return
            staged = await self._stage(tx, t.id, "finished", champion=winner)
        await self._send(staged)

    # -- withdrawal ---------------------------------------------------------------------

    async def withdraw(self, *, guild_id: int, tournament_id: int, member: Member) -> TournamentRow:
        """Leave a tournament: during sign-up, as Leave; once it runs, every game left
        to play is lost (one in progress is resigned)."""
        t = await self.get(guild_id, tournament_id)
        if t.status == "signup":
            return await self.leave(guild_id=guild_id, tournament_id=tournament_id, member=member)
        if t.status != "running":
            raise UserError(_("{name} is {status}.", name=t.name, status=status_word(t.status)))
        async with self.db.transaction() as tx:
            if not await queries.withdraw_entrant(tx, t.id, member.id, self.now()):
                everyone = await queries.entrants(tx, t.id)
                if any(e.member_id == member.id for e in everyone):
                    raise UserError(_("You have already withdrawn from {name}.", name=t.name))
                raise UserError(_("You are not in {name}.", name=t.name))
            in_progress = []
            for g in await queries.tournament_games(tx, t.id):
                if g.points is not None or member.id not in (g.player0_id, g.player1_id):
                    continue
                if g.game_id is not None:
                    in_progress.append(g.game_id)
                elif g.player1_id is not None:
                    lost = 0.0 if g.player0_id == member.id else WIN
                    await queries.score_tournament_game(tx, g.id, lost, forfeit=True)
            staged = await self._stage(tx, t.id, "withdrawn", member=member.id)
        await self._send(staged)
        for game_id in in_progress:
            await self._resign(game_id, member.id)
        await self.advance(t.id)
        return t

    async def _resign(self, game_id: int, member_id: int) -> None:
        if self.endings is None:
            return
        with contextlib.suppress(UserError):  # it ended meanwhile: scored as it ended
            await self.endings.end_game(
                game_id=game_id,
                outcome=lambda row, state: resigned(state, row.player_seat(member_id)),
            )

    # -- standings ----------------------------------------------------------------------

    async def head_to_head(
        self, *, guild_id: int, member_id: int, other_id: int, game: str | None = None
    ) -> Record:
        if member_id == other_id:
            raise UserError(_("Name another member: your record against yourself is empty."))
        return await head_to_head(
            self.db, guild_id=guild_id, member_id=member_id, other_id=other_id, game=game
        )

    async def table(self, guild_id: int, tournament_id: int) -> Table:
        t = await self.get(guild_id, tournament_id)
        async with self.db.reading() as conn:
            players = await queries.entrants(conn, t.id)
            games = await queries.tournament_games(conn, t.id)
        bracket = None
        if t.format == "knockout" and t.status != "signup":
            seeds = [p.member_id for p in sorted(players, key=lambda p: p.seed or 0)]
            if len(seeds) >= 2:
                bracket = knockout(seeds, played_by_round(games))
        return Table(
            t,
            players,
            games,
            standings(_ratings(players), results_of(games), byes_of(games)),
            bracket,
        )

    # -- the posts ----------------------------------------------------------------------

    async def _stage(
        self, tx: Connection, tournament_id: int, news: str, **details: Any
    ) -> Staged | None:
        if self.news is None:
            return None
        staged = self.news.staged(tournament_id, news, **details)
        statements: list[Statement] = [staged.statement]
        await apply(tx, statements)
        return staged

    async def _send(self, staged: Staged | None) -> None:
        if staged is not None and self.news is not None:
            await self.news.send(staged)


def feasible(t: TournamentRow, players: int) -> str | None:
    """Why the tournament can't start with ``players`` entrants (None: it can)."""
    if players < t.min_players:
        return _(
            "{name} needs at least {least} players; {count} joined.",
            name=t.name,
            least=t.min_players,
            count=players,
        )
    if t.format == "swiss" and (t.rounds or 0) >= players:
        return _(
            "A Swiss of {rounds} rounds needs at least {least} players; {count} joined.",
            rounds=t.rounds,
            least=(t.rounds or 0) + 1,
            count=players,
        )
    return None


def _withdrawn(players: Sequence[EntrantRow]) -> set[int]:
    return {p.member_id for p in players if p.withdrawn}


def _ratings(players: Sequence[EntrantRow]) -> dict[int, float]:
    return {p.member_id: p.rating if p.rating is not None else UNRATED for p in players}


def played_by_round(games: Sequence[TournamentGameRow]) -> dict[int, list[Result]]:
    played: dict[int, list[Result]] = defaultdict(list)
    for g in games:
        if g.player1_id is not None and g.points is not None:
            played[g.round].append(Result(g.player0_id, g.player1_id, g.points))
    return played


def _forfeit(first: int, second: int | None, withdrawn: set[int]) -> tuple[float | None, bool]:
    """A new game's points if it is not to be played: a bye (a win), or a withdrawn
    player's forfeit."""
    if second is None:
        return WIN, False
    if first in withdrawn:
        return 0.0, True
    if second in withdrawn:
        return WIN, True
    return None, False
