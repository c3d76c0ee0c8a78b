"""Leagues, without Discord: seasons of divisions, each a double round robin (a
tournament of :class:`~bot.competitions.service.Tournaments`).

Members join once and stay in from season to season until they leave. The first
season starts at the sign-up deadline (a claimed :class:`~bot.timers.DueTimer`), its
divisions made by rating (:func:`divide`); each next season starts by itself when the
last division of the one before is over (the listener :meth:`Leagues.game_ended`, told
after the tournaments'), the top 2 of each division going up and the bottom 2 down
(:func:`next_order`), newcomers at the bottom. A season begins behind a conditional
statement (one process begins it); earlier seasons stay in the database to be viewed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import math
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.claims import Claims
from bot.competitions.service import (
    UNRATED,
    Tournaments,
    byes_of,
    results_of,
)
from bot.competitions.standings import Standing, standings
from bot.core.competing import TOURNAMENT
from bot.core.game_settings import challenge_settings, game_options
from bot.core.games import game_rules
from bot.i18n import _, _n, speaking
from bot.i18n.languages import guild_language
from bot.model import GameUpdate, Member, UserError
from bot.storage import Connection, Database, LeagueRow, TournamentRow, queries
from bot.timers import DueTimer, Sleep

log = logging.getLogger(__name__)

#: A division's size, as the organiser may set it.
SMALLEST_DIVISION, LARGEST_DIVISION = 6, 10
#: Who go up from a division, and down.
PROMOTED = RELEGATED = 2
#: The fewest members a league starts a season with.
FEWEST = 4
#: The pause between a season's last game and the next season, unless the organiser
#: sets another (hours, in the league's settings: ``season_break_hours``).
SEASON_BREAK_HOURS = 24
#: The longest pause the organiser may set (hours).
LONGEST_BREAK_HOURS = 30 * 24


def season_break(settings: Mapping[str, Any]) -> timedelta:
    hours = settings.get("season_break_hours", SEASON_BREAK_HOURS)
    return timedelta(hours=hours if isinstance(hours, int | float) else SEASON_BREAK_HOURS)


def divide(order: Sequence[int], size: int) -> list[list[int]]:
    """``order`` (best first) cut into divisions of about ``size``: as many as make
    them closest to it but none larger than :data:`LARGEST_DIVISION`, their sizes
    differing by one at most, the larger on top."""
    if not order:
        return []
    count = max(1, round(len(order) / size), math.ceil(len(order) / LARGEST_DIVISION))
    base, extra = divmod(len(order), count)
    cut, at = [], 0
    for i in range(count):
        width = base + (1 if i < extra else 0)
        cut.append(list(order[at : at + width]))
        at += width
    return cut


def next_divisions(
    finished: Sequence[Sequence[int]], staying: set[int], newcomers: Sequence[int], size: int
) -> list[list[int]]:
    """The next season's divisions from the standings of the last (top division first,
    each best first): the top :data:`PROMOTED` of each go up and the bottom
    :data:`RELEGATED` down (:func:`next_order`), those not ``staying`` leave, the
    ``newcomers`` join the bottom division; cut again (:func:`divide`) only if a
    division would be too small or too large."""
    moved = [[m for m in one if m in staying] for one in _moved(finished)]
    moved = [one for one in moved if one]
    if moved:
        moved[-1] += newcomers
    else:
        moved = [list(newcomers)]
    if all(SMALLEST_DIVISION <= len(one) <= LARGEST_DIVISION for one in moved) or (
        len(moved) == 1 and len(moved[0]) <= LARGEST_DIVISION
    ):
        return moved
    return divide([m for one in moved for m in one], size)


def next_order(finished: Sequence[Sequence[int]]) -> list[int]:
    """The order of the next season from the standings of each division (top division
    first, each best first): the top :data:`PROMOTED` of a division change places with
    the bottom :data:`RELEGATED` of the one above."""
    return [member for division in _moved(finished) for member in division]


def _moved(finished: Sequence[Sequence[int]]) -> list[list[int]]:
    moved = [list(one) for one in finished]
    for upper, lower in itertools.pairwise(moved):
        if len(upper) <= RELEGATED or len(lower) <= PROMOTED:
            continue
        down, up = upper[-RELEGATED:], lower[:PROMOTED]
        upper[-RELEGATED:] = up
        lower[:PROMOTED] = down
    return moved


def division_name(league: LeagueRow, season: int, number: int) -> str:
    """A season's division, named once in the server's language (a tournament's name)."""
    with speaking(guild_language(league.guild_id)):
        return _(
            "{name}: season {season}, division {number}",
            name=league.name,
            season=season,
            number=number,
        )


class Leagues:
    def __init__(
        self,
        db: Database,
        tournaments: Tournaments,
        *,
        now: Callable[[], datetime],
        claims: Claims,
        sleep: Sleep = asyncio.sleep,
        reread: timedelta | None = None,
    ) -> None:
        self.db = db
        self.tournaments = tournaments
        self.now = now
        self.claims = claims
        self._lock = asyncio.Lock()
        self.timer = DueTimer(
            "league starts",
            handle_due=self.start_due,
            next_due=self._next_start,
            now=now,
            sleep=sleep,
            reread=reread,
        )

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Member,
        name: str,
        game: str,
        starts_at: datetime,
        options: Mapping[str, Any] | None = None,
        time_control: str | None = None,
        division_size: int = 8,
        rated: bool = True,
        break_hours: int = SEASON_BREAK_HOURS,
        vacation: bool = False,
    ) -> LeagueRow:
        rule_set = game_rules(game)
        resolved = game_options(rule_set, options)
        settings = {
            **challenge_settings(time_control, takebacks=False, vacation=vacation),
            "rated": bool(rated),
            "season_break_hours": break_hours,
        }
        if not 0 <= break_hours <= LONGEST_BREAK_HOURS:
            raise UserError(
                _(
                    "The pause between seasons is 0 to {most} hours, not {count}.",
                    most=LONGEST_BREAK_HOURS,
                    count=break_hours,
                )
            )
        name = " ".join(name.split())
        if not name:
            raise UserError(_("Give the league a name."))
        if starts_at <= self.now():
            raise UserError(_("The sign-up deadline is in the past: pick a moment to come."))
        if not SMALLEST_DIVISION <= division_size <= LARGEST_DIVISION:
            raise UserError(
                _(
                    "A division has {least} to {most} players, not {count}.",
                    least=SMALLEST_DIVISION,
                    most=LARGEST_DIVISION,
                    count=division_size,
                )
            )
        async with self.db.transaction() as tx:
            league_id = await queries.insert_league(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser.id,
                organiser_name=organiser.name,
                name=name[:80],
                game=rule_set.name,
                options=resolved,
                settings=settings,
                division_size=division_size,
                starts_at=starts_at,
                created_at=self.now(),
            )
            made = await queries.get_league(tx, league_id)
        assert made is not None
        self.timer.poke()
        return made

    async def get(self, guild_id: int, league_id: int) -> LeagueRow:
        async with self.db.reading() as conn:
            found = await queries.get_league(conn, league_id)
        if found is None or found.guild_id != guild_id:
            raise UserError(_("That league doesn't exist."))
        return found

    async def listed(self, guild_id: int) -> list[LeagueRow]:
        async with self.db.reading() as conn:
            return await queries.leagues_of_guild(conn, guild_id)

    async def join(self, *, guild_id: int, league_id: int, member: Member) -> LeagueRow:
        league = await self.get(guild_id, league_id)
        if member.bot:
            raise UserError(_("Bots can't play in leagues."))
        if league.status == "stopped":
            raise UserError(_("{name} is over.", name=league.name))
        async with self.db.transaction() as tx:
            if not await queries.join_league(
                tx, league.id, member_id=member.id, member_name=member.name, joined_at=self.now()
            ):
                raise UserError(_("You are already in {name}.", name=league.name))
        return league

    async def leave(self, *, guild_id: int, league_id: int, member: Member) -> LeagueRow:
        """Out of the seasons to come (a season being played is played to its end)."""
        league = await self.get(guild_id, league_id)
        async with self.db.transaction() as tx:
            if not await queries.leave_league(tx, league.id, member.id, self.now()):
                raise UserError(_("You are not in {name}.", name=league.name))
        return league

    # -- seasons ------------------------------------------------------------------------

    async def start(self) -> None:
        """At start-up: a season over while the bot was down is followed by the next."""
        async with self.db.reading() as conn:
            running = await queries.running_leagues(conn)
        for league in running:
            try:
                await self.turn(league.id)
            except Exception:
                log.exception("league %d could not go on", league.id)
        self.timer.start()

    async def stop(self) -> None:
        await self.timer.stop()

    async def _next_start(self) -> datetime | None:
        """The next first season's start, or the next season's after its break."""
        async with self.db.reading() as conn:
            first = await queries.next_league_start(conn)
            turns = [
                await self._next_season_at(conn, i, at)
                for i, at in await queries.seasons_over(conn)
            ]
        moments = [t for t in (first, *turns) if t is not None]
        return min(moments, default=None)

    async def _next_season_at(
        self, conn: Connection, league_id: int, over: datetime
    ) -> datetime | None:
        league = await queries.get_league(conn, league_id)
        return None if league is None else over + season_break(league.settings)

    async def start_due(self) -> list[int]:
        """Begin every first season whose deadline is past, and every next season whose
        break is over (each once: a claim, and a conditional statement)."""
        async with self.db.reading() as conn:
            due = await queries.leagues_due(conn, self.now())
            over = await queries.seasons_over(conn)
        started = []
        for league in due:
            async with self.claims.holding("league", league.id, league.starts_at) as mine:
                if mine and await self._season(league):
                    started.append(league.id)
        for league_id, _due in over:
            if await self.turn(league_id):
                started.append(league_id)
        return started

    async def game_ended(self, update: GameUpdate) -> None:
        tournament_id = update.game.settings.get(TOURNAMENT)
        if not isinstance(tournament_id, int):
            return
        async with self.db.reading() as conn:
            league_id = await queries.league_of_tournament(conn, tournament_id)
        if league_id is not None:
            await self.turn(league_id)

    async def turn(self, league_id: int) -> bool:
        """Begin the next season if every division of this one is over."""
        async with self.db.reading() as conn:
            league = await queries.get_league(conn, league_id)
            current = (
                [] if league is None else await queries.divisions(conn, league.id, league.season)
            )
        if league is None or league.status != "running":
            return False
        if not current:  # begun, but stopped before its divisions were made: make them
            async with self.db.reading() as conn:
                before = await queries.divisions(conn, league.id, league.season - 1)
            return await self._season(league, before, again=True)
        if any(t.status in ("signup", "running") for t in current):
            return False  # (a division stored and not yet started is not over)
        ended = max((t.finished_at for t in current if t.finished_at), default=None)
        if ended is not None and self.now() < ended + season_break(league.settings):
            self.timer.poke()  # the next season, after the break
            return False
        return await self._season(league, current)

    async def _season(
        self, league: LeagueRow, finished: Sequence[TournamentRow] = (), *, again: bool = False
    ) -> bool:
        """Begin the season after ``league.season`` (``again``: make the divisions of
        ``league.season``, begun without them): each division a tournament."""
        async with self._lock:
            async with self.db.reading() as conn:
                members = await queries.league_members(conn, league.id)
                ratings = await queries.member_ratings(
                    conn, league.guild_id, league.game, [m for m, _, _ in members]
                )
                tables = [await self._standings(conn, t) for t in finished]
            names = {m: name for m, name, _ in members}
            played = [[s.player for s in table] for table in tables]
            before = {m for one in played for m in one}
            newcomers = sorted(
                (m for m in names if m not in before),
                key=lambda m: (-ratings.get(m, UNRATED), m),
            )
            cut = next_divisions(played, set(names), newcomers, league.division_size)
            if sum(len(one) for one in cut) < FEWEST:
                if finished:  # too few left for another season: the league is over
                    async with self.db.transaction() as tx:
                        await queries.stop_league(tx, league.id)
                    log.info("league %d: too few members left, it ends", league.id)
                else:
                    log.info("league %d: too few members to start", league.id)
                return False
            season = league.season if again else league.season + 1
            # One transaction: the season's turn (one process makes it), every division
            # stored, due to start now, and the news of who went up and down. A crash
            # after it loses nothing: the tournaments' timer starts the divisions.
            async with self.db.transaction() as tx:
                if not again and not await queries.begin_season(tx, league.id, league.season):
                    return False  # begun by another process
                made = []
                for number, division in enumerate(cut, start=1):
                    one = await self.tournaments.insert_started(
                        tx,
                        guild_id=league.guild_id,
                        channel_id=league.channel_id,
                        organiser=Member(league.organiser_id, league.organiser_name),
                        name=division_name(league, season, number),
                        format="double_round_robin",
                        game=league.game,
                        options=league.options,
                        settings=league.settings,
                        players=[Member(m, names[m]) for m in division],
                    )
                    await queries.add_division(tx, league.id, season, number, one[0])
                    made.append(one)
                news = [
                    await self.tournaments.announce(
                        tx, t.id, "moves", season=season, **moves(played[i], i + 1, cut, names)
                    )
                    for i, t in enumerate(finished)
                ]
            await self.tournaments.send(*news)
            await self.tournaments.launch(made)
            log.info("league %d: season %d begins", league.id, season)
            return True

    async def _standings(self, conn: Connection, t: TournamentRow) -> list[Standing]:
        players = await queries.entrants(conn, t.id)
        games = await queries.tournament_games(conn, t.id)
        rated = {p.member_id: p.rating if p.rating is not None else UNRATED for p in players}
        return standings(rated, results_of(games), byes_of(games))

    async def season_tables(
        self, guild_id: int, league_id: int, season: int | None = None
    ) -> tuple[LeagueRow, int, list[tuple[TournamentRow, list[Standing]]]]:
        """A season's divisions (the current one by default) and their standings."""
        league = await self.get(guild_id, league_id)
        which = league.season if season is None else season
        if not 1 <= which <= max(1, league.season) or league.season == 0:
            raise UserError(
                _n(
                    "{name} has played {count} season: pick one of those.",
                    "{name} has played {count} seasons: pick one of those.",
                    league.season,
                    name=league.name,
                )
                if league.season
                else _("{name} has not started yet.", name=league.name)
            )
        async with self.db.reading() as conn:
            found = await queries.divisions(conn, league.id, which)
            tables = [(t, await self._standings(conn, t)) for t in found]
        return league, which, tables


def moves(
    finished: Sequence[int], number: int, cut: Sequence[Sequence[int]], names: Mapping[int, str]
) -> dict[str, list[tuple[str, int]]]:
    """Who of division ``number`` (its players, best first) went up and who down in
    the next season's divisions ``cut``: (name, new division), for its thread."""
    where = {m: i for i, one in enumerate(cut, start=1) for m in one}
    return {
        "up": [(names[m], where[m]) for m in finished if where.get(m, number) < number],
        "down": [(names[m], where[m]) for m in finished if where.get(m, number) > number],
        "gone": [(names.get(m, str(m)), 0) for m in finished if m not in where],
    }
