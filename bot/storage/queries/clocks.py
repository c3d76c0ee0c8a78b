"""Game clocks: the turn running now, the banks, and the next moment something is due."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from bot.storage.database import Connection, Statement, query
from bot.storage.rows import ClockRow, VacationRow, _time, stamp

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


async def add_clocks(conn: Connection, clocks: list[ClockRow]) -> int:
    """Insert clocks for games that have none (a clock stored meanwhile is kept);
    returns how many were added."""
    cursor = await conn.executemany("INSERT OR IGNORE INTO clocks " + _CLOCK_COLUMNS,
                                    [_clock_values(clock) for clock in clocks])
    return cursor.rowcount


async def get_clock(conn: Connection, game_id: int) -> ClockRow | None:
    rows = await conn.execute_fetchall("SELECT * FROM clocks WHERE game_id = ?", (game_id,))
    return ClockRow.from_row(rows[0]) if rows else None


@query
def clock_and_vacations(conn: sqlite3.Connection, game_id: int
                        ) -> tuple[ClockRow | None, dict[int, list[VacationRow]]]:
    """A game's clock and its players' vacations by member, read together."""
    row = conn.execute("SELECT * FROM clocks WHERE game_id = ?", (game_id,)).fetchone()
    vacations: dict[int, list[VacationRow]] = {}
    for found in conn.execute(
            "SELECT vacations.* FROM vacations JOIN games ON games.id = ?"
            " WHERE vacations.member_id IN (games.player0_id, games.player1_id)"
            " ORDER BY vacations.start_at", (game_id,)):
        vacations.setdefault(found["member_id"], []).append(VacationRow.from_row(found))
    return (ClockRow.from_row(row) if row else None), vacations


async def clocks_due(conn: Connection, now: datetime) -> list[ClockRow]:
    """Clocks of active games with something due by ``now``, earliest first."""
    rows = await conn.execute_fetchall(
        "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id"
        " WHERE due_at IS NOT NULL AND due_at <= ? AND games.status = 'active'"
        " ORDER BY due_at", (stamp(now),))
    return [ClockRow.from_row(row) for row in rows]


async def clocks_of_member(conn: Connection, member_id: int) -> list[ClockRow]:
    """Clocks of the member's active games (in every server)."""
    rows = await conn.execute_fetchall(
        "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id"
        " WHERE games.status = 'active' AND (player0_id = ? OR player1_id = ?)",
        (member_id, member_id))
    return [ClockRow.from_row(row) for row in rows]


async def active_games_without_clock(conn: Connection) -> list[int]:
    rows = await conn.execute_fetchall(
        "SELECT id FROM games WHERE status = 'active'"
        " AND id NOT IN (SELECT game_id FROM clocks) ORDER BY id")
    return [game_id for (game_id,) in rows]


async def next_due(conn: Connection) -> datetime | None:
    """The earliest time anything is due: a clock of an active game, or a digest."""
    ((due,),) = await conn.execute_fetchall(
        "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due FROM clocks JOIN games"
        " ON games.id = clocks.game_id WHERE games.status = 'active'"
        " UNION ALL SELECT MIN(digest_due_at) FROM member_prefs WHERE notify = 'digest')")
    return _time(due)
