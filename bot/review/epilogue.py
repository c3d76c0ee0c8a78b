"""The last word in a finished game's thread (a listener of the games' ends, told
after the ratings): an animated replay of the whole game, then a summary: the result
and how the game ended, the number of moves, how long it lasted, the rating change,
and the record (inline when it fits a message, and always as an attached text file).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from bot import texts
from bot.model import GameUpdate, Post, Poster, Replayer, names
from bot.ratings import ranking
from bot.review import records
from bot.storage import Database, RatingChangeRow, queries

log = logging.getLogger(__name__)

class Epilogue:
    def __init__(self, db: Database, poster: Poster, *, replayer: Replayer) -> None:
        self.db = db
        self.poster = poster
        self.replayer = replayer

    async def game_ended(self, update: GameUpdate) -> None:
        row = update.game
        async with self.db.reading() as conn:
            moves = await queries.moves_of_game(conn, row.id)
            change = await queries.get_rating_change(conn, row.id)  # rated just before
        if row.status == "aborted" and not moves:
            return  # nothing to replay or to record
        stored = records.Stored(row, moves, update.state)
        try:
            gif = await self.replayer(row.game, row.options, stored.history, names(row))
            await self.poster.post(row, Post(
                content=f"**{texts.label(row)}**, move by move ({_count(len(moves))}).",
                picture=gif, filename=f"{row.game}-{row.id}.gif"))
        except Exception:
            log.exception("could not post the replay of game %d", row.id)
        try:
            await self.poster.post(row, Post(
                content=summary(stored, change), picture=records.record_text(stored).encode(),
                filename=f"{row.game}-{row.id}.txt"))
        except Exception:
            log.exception("could not post the summary of game %d", row.id)


def summary(stored: records.Stored, change: RatingChangeRow | None) -> str:
    """The last word in a finished game's thread."""
    row, state = stored.row, stored.state
    how = row.end_reason.description if row.end_reason else row.status
    lines = [f"**{texts.label(row)}: summary**",
             f"Result: {row.result or row.status} ({how})."]
    started, finished = row.created_at, row.finished_at
    duration = f" · lasted {_duration(finished - started)}" if started and finished else ""
    lines.append(f"{texts.player(row, state, 0)} vs {texts.player(row, state, 1)} · "
                 f"{_count(len(stored.moves))}{duration}.")
    if change is not None:
        lines.append(ranking.change_line(row, change))
    elif not row.rated:
        lines.append("A casual game: ratings are unchanged.")
    elif row.status == "aborted":
        lines.append("Aborted games don't change ratings.")
    elif len(stored.moves) < 2:
        lines.append("Fewer than two moves were played: ratings are unchanged.")
    closing = ("The record is attached; `/export` gives it as JSON too, "
               "and `/review` browses the game move by move.")
    inline = f"Record: `{records.moves_inline(stored)}`" if stored.moves else ""
    text = "\n".join([*lines, inline, closing]) if inline else "\n".join([*lines, closing])
    if len(text) <= records.MESSAGE_LIMIT:
        return text
    return "\n".join([*lines, "The record is too long to show here: " + closing[0].lower()
                      + closing[1:]])


def _count(moves: int) -> str:
    return "1 move" if moves == 1 else f"{moves} moves"


def _duration(span: timedelta) -> str:
    """``2 days 3 hours``, ``4 hours 10 minutes``, ``under a minute``."""
    minutes = int(span.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    shown = [f"{n} {unit}" + ("s" if n != 1 else "") for n, unit in parts if n]
    if days:
        shown = shown[:2] if hours else shown[:1]
    return " ".join(shown[:2]) or "under a minute"
