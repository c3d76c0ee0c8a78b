"""Named queries for correspondence play: clocks, vacations, notification
preferences and takeback requests (migration 3).

Timestamps in these tables are fixed-width ISO text in UTC (:func:`stamp`), so
that ``ORDER BY due_at`` and ``MIN(due_at)`` compare instants correctly.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import aiosqlite

from bot.storage.database import Statement

Conn = aiosqlite.Connection


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _seconds(value: float | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


# -- clocks -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ClockRow:
    game_id: int
    control: str
    banks: tuple[timedelta | None, timedelta | None]
    turn_ply: int
    turn_seat: int | None
    turn_started_at: datetime
    reminders_sent: int
    due_at: datetime | None

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> ClockRow:
        return cls(game_id=row["game_id"], control=row["control"],
                   banks=(_seconds(row["bank0_seconds"]), _seconds(row["bank1_seconds"])),
                   turn_ply=row["turn_ply"], turn_seat=row["turn_seat"],
                   turn_started_at=_time(row["turn_started_at"]),
                   reminders_sent=row["reminders_sent"], due_at=_time(row["due_at"]))


_CLOCK_COLUMNS = ("(game_id, control, bank0_seconds, bank1_seconds, turn_ply, turn_seat,"
                  " turn_started_at, reminders_sent, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


def _clock_values(clock: ClockRow) -> tuple[object, ...]:
    banks = [None if bank is None else bank.total_seconds() for bank in clock.banks]
    return (clock.game_id, clock.control, banks[0], banks[1], clock.turn_ply, clock.turn_seat,
            stamp(clock.turn_started_at), clock.reminders_sent,
            stamp(clock.due_at) if clock.due_at else None)


def save_clock_statement(clock: ClockRow) -> Statement:
    """Insert or replace a game's clock."""
    return "INSERT OR REPLACE INTO clocks " + _CLOCK_COLUMNS, _clock_values(clock)


async def save_clock(conn: Conn, clock: ClockRow) -> None:
    """Insert or replace a game's clock."""
    await conn.execute(*save_clock_statement(clock))


async def add_clocks(conn: Conn, clocks: list[ClockRow]) -> int:
    """Insert clocks for games that have none (a clock stored meanwhile is kept);
    returns how many were added."""
    cursor = await conn.executemany("INSERT OR IGNORE INTO clocks " + _CLOCK_COLUMNS,
                                    [_clock_values(clock) for clock in clocks])
    return cursor.rowcount


async def get_clock(conn: Conn, game_id: int) -> ClockRow | None:
    rows = await conn.execute_fetchall("SELECT * FROM clocks WHERE game_id = ?", (game_id,))
    return ClockRow.from_row(rows[0]) if rows else None


def clock_and_vacations(conn: sqlite3.Connection, game_id: int
                        ) -> tuple[ClockRow | None, dict[int, list[VacationRow]]]:
    """A game's clock and its players' vacations by member, read together (for
    :meth:`Database.run`)."""
    row = conn.execute("SELECT * FROM clocks WHERE game_id = ?", (game_id,)).fetchone()
    vacations: dict[int, list[VacationRow]] = {}
    for found in conn.execute(
            "SELECT vacations.* FROM vacations JOIN games ON games.id = ?"
            " WHERE vacations.member_id IN (games.player0_id, games.player1_id)"
            " ORDER BY vacations.start_at", (game_id,)):
        vacations.setdefault(found["member_id"], []).append(_vacation(found))
    return (ClockRow.from_row(row) if row else None), vacations


async def clocks_due(conn: Conn, now: datetime) -> list[ClockRow]:
    """Clocks of active games with something due by ``now``, earliest first."""
    rows = await conn.execute_fetchall(
        "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id"
        " WHERE due_at IS NOT NULL AND due_at <= ? AND games.status = 'active'"
        " ORDER BY due_at", (stamp(now),))
    return [ClockRow.from_row(row) for row in rows]


async def clocks_of_member(conn: Conn, member_id: int) -> list[ClockRow]:
    """Clocks of the member's active games (in every server)."""
    rows = await conn.execute_fetchall(
        "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id"
        " WHERE games.status = 'active' AND (player0_id = ? OR player1_id = ?)",
        (member_id, member_id))
    return [ClockRow.from_row(row) for row in rows]


async def active_games_without_clock(conn: Conn) -> list[int]:
    rows = await conn.execute_fetchall(
        "SELECT id FROM games WHERE status = 'active'"
        " AND id NOT IN (SELECT game_id FROM clocks) ORDER BY id")
    return [game_id for (game_id,) in rows]


async def next_due(conn: Conn) -> datetime | None:
    """The earliest time anything is due: a clock of an active game, or a digest."""
    ((due,),) = await conn.execute_fetchall(
        "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due FROM clocks JOIN games"
        " ON games.id = clocks.game_id WHERE games.status = 'active'"
        " UNION ALL SELECT MIN(digest_due_at) FROM member_prefs WHERE notify = 'digest')")
    return _time(due)


# -- vacations --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class VacationRow:
    id: int
    member_id: int
    start_at: datetime
    end_at: datetime


def _vacation(row: sqlite3.Row) -> VacationRow:
    return VacationRow(row["id"], row["member_id"], _time(row["start_at"]), _time(row["end_at"]))


def all_vacations(conn: sqlite3.Connection) -> dict[int, list[VacationRow]]:
    """Every member's vacations, by member (for :meth:`Database.run`)."""
    found: dict[int, list[VacationRow]] = {}
    for row in conn.execute("SELECT * FROM vacations ORDER BY start_at"):
        found.setdefault(row["member_id"], []).append(_vacation(row))
    return found


async def vacations_of(conn: Conn, member_id: int) -> list[VacationRow]:
    rows = await conn.execute_fetchall(
        "SELECT * FROM vacations WHERE member_id = ? ORDER BY start_at", (member_id,))
    return [_vacation(row) for row in rows]


async def insert_vacation(conn: Conn, member_id: int, start_at: datetime,
                          end_at: datetime) -> int:
    cursor = await conn.execute(
        "INSERT INTO vacations (member_id, start_at, end_at) VALUES (?, ?, ?)",
        (member_id, stamp(start_at), stamp(end_at)))
    return cursor.lastrowid


async def set_vacation_end(conn: Conn, vacation_id: int, end_at: datetime) -> None:
    await conn.execute("UPDATE vacations SET end_at = ? WHERE id = ?",
                       (stamp(end_at), vacation_id))


# -- notification preferences -------------------------------------------------------

async def get_notify(conn: Conn, member_id: int) -> str:
    rows = await conn.execute_fetchall("SELECT notify FROM member_prefs WHERE member_id = ?",
                                       (member_id,))
    return rows[0]["notify"] if rows else "thread"


async def set_notify(conn: Conn, member_id: int, notify: str,
                     digest_due_at: datetime | None) -> None:
    await conn.execute(
        "INSERT INTO member_prefs (member_id, notify, digest_due_at) VALUES (?, ?, ?)"
        " ON CONFLICT (member_id) DO UPDATE SET notify = excluded.notify,"
        " digest_due_at = excluded.digest_due_at",
        (member_id, notify, stamp(digest_due_at) if digest_due_at else None))


async def digests_due(conn: Conn, now: datetime) -> list[tuple[int, datetime]]:
    """(member id, when it was due) of each daily digest due by ``now``."""
    rows = await conn.execute_fetchall(
        "SELECT member_id, digest_due_at FROM member_prefs WHERE notify = 'digest'"
        " AND digest_due_at <= ? ORDER BY digest_due_at", (stamp(now),))
    return [(row[0], _time(row[1])) for row in rows]


async def set_digest_due(conn: Conn, member_id: int, due_at: datetime) -> None:
    await conn.execute("UPDATE member_prefs SET digest_due_at = ? WHERE member_id = ?",
                       (stamp(due_at), member_id))


# -- takebacks ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TakebackRow:
    id: int
    game_id: int
    ply: int
    requester_id: int
    status: str


def _takeback(row: aiosqlite.Row) -> TakebackRow:
    return TakebackRow(row["id"], row["game_id"], row["ply"], row["requester_id"],
                       row["status"])


async def insert_takeback(conn: Conn, game_id: int, ply: int, requester_id: int,
                          created_at: datetime) -> int:
    cursor = await conn.execute(
        "INSERT INTO takebacks (game_id, ply, requester_id, created_at) VALUES (?, ?, ?, ?)",
        (game_id, ply, requester_id, stamp(created_at)))
    return cursor.lastrowid


async def get_takeback(conn: Conn, takeback_id: int) -> TakebackRow | None:
    rows = await conn.execute_fetchall("SELECT * FROM takebacks WHERE id = ?", (takeback_id,))
    return _takeback(rows[0]) if rows else None


async def takebacks_of_ply(conn: Conn, game_id: int, ply: int) -> list[TakebackRow]:
    rows = await conn.execute_fetchall(
        "SELECT * FROM takebacks WHERE game_id = ? AND ply = ? ORDER BY id", (game_id, ply))
    return [_takeback(row) for row in rows]


async def answer_takeback(conn: Conn, takeback_id: int, status: str,
                          answered_at: datetime) -> bool:
    """Close a pending request; False if it was already answered."""
    cursor = await conn.execute(
        "UPDATE takebacks SET status = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
        (status, stamp(answered_at), takeback_id))
    return cursor.rowcount == 1


async def delete_last_move(conn: Conn, game_id: int, ply: int) -> bool:
    """Remove move ``ply`` if it is the game's last; False if it is not (any more)."""
    cursor = await conn.execute(
        "DELETE FROM moves WHERE game_id = ? AND ply = ?"
        " AND ply = (SELECT MAX(ply) FROM moves WHERE game_id = ?)", (game_id, ply, game_id))
    return cursor.rowcount == 1
