"""Game clocks: the turn running now, the banks, and the next moment something is due."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Connection, Statement, query
from bot.storage.rows import ClockRow, VacationRow, _time, stamp

_CLOCK_COLUMNS = (
    "(game_id, control, bank0_seconds, bank1_seconds, turn_ply, turn_seat,"
    " turn_started_at, reminders_sent, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_CLOCK_UPDATE = (
    " ON CONFLICT (game_id) DO UPDATE SET control = excluded.control,"
    " bank0_seconds = excluded.bank0_seconds,"
    " bank1_seconds = excluded.bank1_seconds, turn_ply = excluded.turn_ply,"
    " turn_seat = excluded.turn_seat, turn_started_at = excluded.turn_started_at,"
    " reminders_sent = excluded.reminders_sent, due_at = excluded.due_at"
)


def _clock_values(clock: ClockRow) -> tuple[object, ...]:
    banks = [None if bank is None else bank.total_seconds() for bank in clock.banks]
    return (
        clock.game_id,
        clock.control,
        banks[0],
        banks[1],
        clock.turn_ply,
        clock.turn_seat,
        stamp(clock.turn_started_at),
        clock.reminders_sent,
        stamp(clock.due_at) if clock.due_at else None,
    )


def save_clock_statement(clock: ClockRow) -> Statement:
    """Insert or replace a game's clock."""
    return "INSERT INTO clocks " + _CLOCK_COLUMNS + _CLOCK_UPDATE, _clock_values(clock)


def update_clock_statement(clock: ClockRow, read: ClockRow) -> Statement:
    """Replace a game's clock as it was ``read``; changes nothing if it changed since
    (a move elsewhere started a new turn)."""
    values = _clock_values(clock)
    return (
        "UPDATE clocks SET control = ?, bank0_seconds = ?, bank1_seconds = ?,"
        " turn_ply = ?, turn_seat = ?, turn_started_at = ?, reminders_sent = ?, due_at = ?"
        " WHERE game_id = ? AND turn_ply = ? AND turn_started_at = ? AND reminders_sent = ?",
        (
            *values[1:],
            clock.game_id,
            read.turn_ply,
            stamp(read.turn_started_at),
            read.reminders_sent,
        ),
    )


async def add_clocks(conn: Connection, clocks: list[ClockRow]) -> int:
    """Insert clocks for games that have none (a clock stored meanwhile is kept);
    returns how many were added."""
    added = 0
    for clock in clocks:
        added += await conn.change(
            "INSERT INTO clocks " + _CLOCK_COLUMNS + " ON CONFLICT (game_id) DO NOTHING",
            _clock_values(clock),
        )
    return added


async def get_clock(conn: Connection, game_id: int) -> ClockRow | None:
    row = await conn.fetch_one("SELECT * FROM clocks WHERE game_id = ?", (game_id,))
    return ClockRow.from_row(row) if row else None


@query
async def clock_and_vacations(
    conn: Connection, game_id: int
) -> tuple[ClockRow | None, dict[int, list[VacationRow]]]:
    """A game's clock and its players' vacations by member, read together."""
    row = await conn.fetch_one("SELECT * FROM clocks WHERE game_id = ?", (game_id,))
    vacations: dict[int, list[VacationRow]] = {}
    for found in await conn.fetch_all(
        "SELECT vacations.* FROM vacations JOIN games ON games.id = ?"
        " WHERE vacations.member_id IN (games.player0_id, games.player1_id)"
        " ORDER BY vacations.start_at",
        (game_id,),
    ):
        vacations.setdefault(found["member_id"], []).append(VacationRow.from_row(found))
    return (ClockRow.from_row(row) if row else None), vacations


async def clocks_due(conn: Connection, now: datetime) -> list[ClockRow]:
    """Clocks of active games with something due by ``now``, earliest first."""
    rows = await conn.fetch_all(
        "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id"
        " WHERE due_at IS NOT NULL AND due_at <= ? AND games.status = 'active'"
        " ORDER BY due_at",
        (stamp(now),),
    )
    return [ClockRow.from_row(row) for row in rows]


async def clocks_of_member(conn: Connection, member_id: int) -> list[ClockRow]:
    """Clocks of the member's active games (in every server)."""
    rows = await conn.fetch_all(
        "SELECT clocks.* FROM clocks JOIN games ON games.id = clocks.game_id"
        " WHERE games.status = 'active' AND (player0_id = ? OR player1_id = ?)",
        (member_id, member_id),
    )
    return [ClockRow.from_row(row) for row in rows]


async def active_games_without_clock(conn: Connection) -> list[int]:
    rows = await conn.fetch_all(
        "SELECT id FROM games WHERE status = 'active'"
        " AND id NOT IN (SELECT game_id FROM clocks) ORDER BY id"
    )
    return [game_id for (game_id,) in rows]


async def next_due(conn: Connection) -> datetime | None:
    """The earliest time anything is due: a clock of an active game, or a digest."""
    row = await conn.fetch_one(
        "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due FROM clocks JOIN games"
        " ON games.id = clocks.game_id WHERE games.status = 'active'"
        " UNION ALL SELECT MIN(digest_due_at) FROM member_prefs WHERE notify = 'digest')"
        " AS dues"
    )
    assert row is not None  # an aggregate gives one row, of NULL when nothing is due
    return _time(row[0])
