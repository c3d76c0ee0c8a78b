"""The final words of a finished game (the :class:`~bot.model.Finale` of its last post):
the players and how long the game lasted, the rating change (the game is rated here,
first), the record inline when it is short, and as files the animated replay and the
record.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from bot import texts
from bot.core.endings import Rater
from bot.core.games import outcome_of
from bot.i18n import _, _n
from bot.model import Attachment, Replayer, automatic_seat, names
from bot.review import records
from bot.storage import Database, GameRow, queries
from rules import State

log = logging.getLogger(__name__)

#: The longest record shown inline in the final post (the file always has it).
INLINE_RECORD = 500


class Epilogue:
    def __init__(self, db: Database, ratings: Rater, *, replayer: Replayer) -> None:
        self.db = db
        self.ratings = ratings
        self.replayer = replayer

    async def final_words(
        self, row: GameRow, state: State, *, files: bool = True
    ) -> tuple[list[str], tuple[Attachment, ...]]:
        async with self.db.reading() as conn:
            moves = await queries.moves_of_game(conn, row.id)
        change = await self.ratings.rate_game(row, moves=len(moves))
        if change is None:
            change = await self.ratings.rating_change(row.id)  # rated already
        stored = records.Stored(row, moves, state)
        rated = None if change is None else self.ratings.change_line(row, change)
        if (row.status == "aborted" and not moves) or not files:
            return summary(stored, rated), ()  # nothing to replay or to record
        made = []
        try:
            gif = await self.replayer(
                row.game, row.options, stored.history, names(row), outcome=outcome_of(row)
            )
            made.append(Attachment(f"{row.game}-{row.id}.gif", gif))
        except Exception:
            log.exception("no replay of game %d", row.id)
        made.append(Attachment(f"{row.game}-{row.id}.txt", records.record_text(stored).encode()))
        return summary(stored, rated), tuple(made)


def summary(stored: records.Stored, rated: str | None) -> list[str]:
    """The lines under the result: who played, how long, the ratings (``rated``: the
    change in words, if the game changed them), the record."""
    row, state = stored.row, stored.state
    started, finished = row.created_at, row.finished_at
    first, second = texts.player(row, state, 0), texts.player(row, state, 1)
    count = len(stored.moves)
    lines = [
        _n(
            "{first} vs {second} · {count} move · lasted {duration}.",
            "{first} vs {second} · {count} moves · lasted {duration}.",
            count,
            first=first,
            second=second,
            duration=_duration(finished - started),
        )
        if started and finished
        else _n(
            "{first} vs {second} · {count} move.",
            "{first} vs {second} · {count} moves.",
            count,
            first=first,
            second=second,
        )
    ]
    if rated is not None:
        lines.append(rated)
    elif automatic_seat(row) is not None:
        lines.append(texts.PRACTICE)
    elif not row.rated:
        lines.append(_("A casual game: ratings are unchanged."))
    elif row.status == "aborted":
        lines.append(_("Aborted games don't change ratings."))
    elif len(stored.moves) < 2:
        lines.append(_("Fewer than two moves were played: ratings are unchanged."))
    if not stored.moves:
        return lines
    inline = records.moves_inline(stored)
    if len(inline) <= INLINE_RECORD:
        lines.append(_("Record: `{record}`", record=inline))
    lines.append(
        _(
            "The replay and the record are attached; `/review` browses the game move "
            "by move, and `/export` gives the record as JSON too."
        )
    )
    return lines


def _duration(span: timedelta) -> str:
    """``2 days 3 hours``, ``4 hours 10 minutes``, ``under a minute``."""
    minutes = int(span.total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [
        _n("{count} day", "{count} days", days) if days else "",
        _n("{count} hour", "{count} hours", hours) if hours else "",
        _n("{count} minute", "{count} minutes", minutes) if minutes else "",
    ]
    shown = [part for part in parts if part]
    if days:
        shown = shown[:2] if hours else shown[:1]
    return " ".join(shown[:2]) or _("under a minute")
