"""Ratings in the bot: a Glicko-2 rating (:mod:`bot.ratings.glicko`) per member per game
per server, and one over every server (global: one pool of players), both updated
once, in one transaction, at the end of each game that counts, and read back as a
leaderboard (of a server, or global) or a member's profile.

Global ratings came after the per-server ones: the games rated before them are rated
globally at start-up (:meth:`Ratings.rebuild_global`, in the order they were rated,
each at most once), so the global pool starts from the whole history.

Which games count is :func:`bot.ratings.glicko.counts_for_rating`: rated games (not
casual), not aborted, of at least two moves. Each game is its own rating period,
and a game is rated at most once (its change is stored under its id).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.i18n import _
from bot.ratings.glicko import Rating, counts_for_rating, rate
from bot.storage import Connection, Database, GameRow, RatingChangeRow, RatingRow, queries

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10
#: Games rated globally per transaction of the rebuild.
REBUILD_PAGE = 200


def counts(row: GameRow, moves: int) -> bool:
    return counts_for_rating(rated=row.rated, termination=row.end_reason, moves=moves)


def _rating(row: RatingRow | None) -> Rating:
    return Rating() if row is None else Rating(row.rating, row.deviation, row.volatility)


def _score(seat: int, winner: int | None) -> tuple[int, int, int]:
    """(wins, losses, draws) to add for ``seat``."""
    if winner is None:
        return 0, 0, 1
    return (1, 0, 0) if winner == seat else (0, 1, 0)


def _rated(
    row: GameRow, seat: int, entry: RatingRow | None, new: Rating, *, guild_id: int
) -> RatingRow:
    """The rating of ``row``'s player in ``seat`` once the game is counted: ``new`` from
    the game's result, and the record ``entry`` (None: their first) with it added."""
    wins, losses, draws = _score(seat, row.winner_seat)
    return RatingRow(
        guild_id,
        row.game,
        row.player_ids[seat],
        row.player_names[seat],
        new.rating,
        new.deviation,
        new.volatility,
        (entry.games if entry else 0) + 1,
        (entry.wins if entry else 0) + wins,
        (entry.losses if entry else 0) + losses,
        (entry.draws if entry else 0) + draws,
    )


@dataclass(frozen=True, slots=True)
class Profile:
    member_id: int
    ratings: list[RatingRow]  # one per game played rated in this server
    current: list[GameRow]  # games in progress in this server


class Ratings:
    """The ratings: each game that counts is rated as it ends (by the epilogue, whose
    final post shows the change)."""

    def change_line(self, row: GameRow, change: RatingChangeRow) -> str:
        return change_line(row, change)

    def __init__(self, db: Database, *, now: Callable[[], datetime]) -> None:
        self.db = db
        self.now = now

    async def rate_game(self, row: GameRow, *, moves: int) -> RatingChangeRow | None:
        """Update both players' ratings after the finished game ``row`` of ``moves`` moves;
        the change, or None when the game does not count (or was already rated)."""
        if not counts(row, moves):
            return None
        score = 0.5 if row.winner_seat is None else 1.0 if row.winner_seat == 0 else 0.0
        async with self.db.transaction() as tx:
            stored = [
                await queries.get_rating(tx, row.guild_id, row.game, member_id)
                for member_id in row.player_ids
            ]
            before = [_rating(entry) for entry in stored]
            after = rate(before[0], before[1], score)
            if not await queries.insert_rating_change(
                tx,
                row.id,
                (before[0].rating, before[1].rating),
                (after[0].rating, after[1].rating),
                rated_at=self.now(),
            ):
                return None
            await self._rate_globally(tx, row, score)
            for seat, (entry, new) in enumerate(zip(stored, after, strict=True)):
                rated = _rated(row, seat, entry, new, guild_id=row.guild_id)
                await queries.save_rating(tx, rated, updated_at=self.now())
            return await queries.get_rating_change(tx, row.id)

    async def _rate_globally(self, tx: Connection, row: GameRow, score: float) -> bool:
        """The global ratings' share of rating ``row`` (in the caller's transaction);
        False if it was already rated globally."""
        stored = [await queries.get_global_rating(tx, row.game, m) for m in row.player_ids]
        before = [_rating(entry) for entry in stored]
        after = rate(before[0], before[1], score)
        if not await queries.insert_global_rating_change(
            tx,
            row.id,
            (before[0].rating, before[1].rating),
            (after[0].rating, after[1].rating),
            rated_at=self.now(),
        ):
            return False
        for seat, (entry, new) in enumerate(zip(stored, after, strict=True)):
            rated = _rated(row, seat, entry, new, guild_id=queries.GLOBAL)
            await queries.save_global_rating(tx, rated, updated_at=self.now())
        return True

    async def rebuild_global(self, *, page: int = REBUILD_PAGE) -> int:
        """Rate globally every game rated per server but not yet globally (those of
        before global ratings), in the order they were rated; how many. Safe to run
        again, and by several processes at once (each game at most once)."""
        done = 0
        while True:
            async with self.db.reading() as conn:
                waiting = await queries.games_rated_not_globally(conn, limit=page)
            if not waiting:
                return done
            async with self.db.transaction() as tx:  # a page at a time: one commit
                for game_id in waiting:
                    row = await queries.get_game(tx, game_id)
                    if row is None:
                        continue
                    score = 0.5 if row.winner_seat is None else 1.0 if row.winner_seat == 0 else 0.0
                    done += await self._rate_globally(tx, row, score)
            if len(waiting) < page:
                return done

    async def global_change(self, game_id: int) -> RatingChangeRow | None:
        async with self.db.reading() as conn:
            return await queries.get_global_rating_change(conn, game_id)

    async def global_leaderboard(self, game: str, limit: int = LEADERBOARD_SIZE) -> list[RatingRow]:
        """The best rated members of one game over every server, best first."""
        async with self.db.reading() as conn:
            return await queries.global_leaderboard(conn, game, limit=limit)

    async def rating_change(self, game_id: int) -> RatingChangeRow | None:
        async with self.db.reading() as conn:
            return await queries.get_rating_change(conn, game_id)

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = LEADERBOARD_SIZE
    ) -> list[RatingRow]:
        """The best rated members of one game in one server, best first."""
        async with self.db.reading() as conn:
            return await queries.leaderboard(conn, guild_id, game, limit=limit)

    async def profile(self, guild_id: int, member_id: int) -> Profile:
        async with self.db.reading() as conn:
            ratings = await queries.ratings_of_member(conn, guild_id, member_id)
            current = await queries.games_of_member(conn, guild_id, member_id, status="active")
        return Profile(member_id, ratings, current)


def change_line(row: GameRow, change: RatingChangeRow) -> str:
    """``Ratings: Ana 1500 → 1662 (+162), Bo 1500 → 1338 (−162).``"""
    parts = []
    for seat in (0, 1):
        before, after = change.before[seat], change.after[seat]
        delta = round(after) - round(before)
        sign = "+" if delta >= 0 else "−"
        parts.append(f"{row.player_names[seat]} {before:.0f} → {after:.0f} ({sign}{abs(delta)})")
    return _("Ratings: {changes}.", changes=", ".join(parts))
