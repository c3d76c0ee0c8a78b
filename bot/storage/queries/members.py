"""What belongs to a member rather than a game: vacations and how they hear of their turn."""

from __future__ import annotations

from datetime import datetime

from bot.storage.database import Connection, Statement, query
from bot.storage.rows import VacationRow, _instant, _time, stamp

# -- vacations --------------------------------------------------------------------


@query
async def all_vacations(conn: Connection) -> dict[int, list[VacationRow]]:
    """Every member's vacations, by member."""
    found: dict[int, list[VacationRow]] = {}
    for row in await conn.fetch_all("SELECT * FROM vacations ORDER BY start_at"):
        found.setdefault(row["member_id"], []).append(VacationRow.from_row(row))
    return found


async def vacations_of(conn: Connection, member_id: int) -> list[VacationRow]:
    rows = await conn.fetch_all(
        "SELECT * FROM vacations WHERE member_id = ? ORDER BY start_at", (member_id,)
    )
    return [VacationRow.from_row(row) for row in rows]


async def insert_vacation(
    conn: Connection, member_id: int, start_at: datetime, end_at: datetime
) -> int:
    return await conn.insert(
        "INSERT INTO vacations (member_id, start_at, end_at) VALUES (?, ?, ?)",
        (member_id, stamp(start_at), stamp(end_at)),
    )


async def set_vacation_end(conn: Connection, vacation_id: int, end_at: datetime) -> None:
    await conn.change("UPDATE vacations SET end_at = ? WHERE id = ?", (stamp(end_at), vacation_id))


# -- notification preferences -------------------------------------------------------


async def get_notify(conn: Connection, member_id: int) -> str:
    row = await conn.fetch_one("SELECT notify FROM member_prefs WHERE member_id = ?", (member_id,))
    return row["notify"] if row else "thread"


async def set_notify(
    conn: Connection, member_id: int, notify: str, digest_due_at: datetime | None
) -> None:
    await conn.change(
        "INSERT INTO member_prefs (member_id, notify, digest_due_at) VALUES (?, ?, ?)"
        " ON CONFLICT (member_id) DO UPDATE SET notify = excluded.notify,"
        " digest_due_at = excluded.digest_due_at",
        (member_id, notify, stamp(digest_due_at) if digest_due_at else None),
    )


async def digests_due(conn: Connection, now: datetime) -> list[tuple[int, datetime]]:
    """(member id, when it was due) of each daily digest due by ``now``."""
    rows = await conn.fetch_all(
        "SELECT member_id, digest_due_at FROM member_prefs WHERE notify = 'digest'"
        " AND digest_due_at <= ? ORDER BY digest_due_at",
        (stamp(now),),
    )
    return [(row[0], _instant(row[1])) for row in rows]


async def get_digest_due(conn: Connection, member_id: int) -> datetime | None:
    """When the member's next digest is due (None: they take no digest)."""
    row = await conn.fetch_one(
        "SELECT digest_due_at FROM member_prefs WHERE member_id = ? AND notify = 'digest'",
        (member_id,),
    )
    return _time(row[0]) if row else None


async def set_digest_due(
    conn: Connection, member_id: int, due_at: datetime, *, was: datetime
) -> bool:
    """Move the member's next digest from ``was`` to ``due_at``; False if it was not
    due at ``was`` any more."""
    return (
        await conn.change(
            "UPDATE member_prefs SET digest_due_at = ? WHERE member_id = ? AND digest_due_at = ?",
            (stamp(due_at), member_id, stamp(was)),
        )
        == 1
    )


@query
async def vacations_of_members(
    conn: Connection, member_ids: tuple[int, ...]
) -> dict[int, list[VacationRow]]:
    """The vacations of a few members, by member (the players of a game about to start)."""
    found: dict[int, list[VacationRow]] = {member_id: [] for member_id in member_ids}
    marks = ", ".join("?" * len(member_ids))
    for row in await conn.fetch_all(
        f"SELECT * FROM vacations WHERE member_id IN ({marks}) ORDER BY start_at", member_ids
    ):
        found[row["member_id"]].append(VacationRow.from_row(row))
    return found


# -- settings (/settings) -------------------------------------------------------------


@query
async def member_settings(conn: Connection, member_id: int) -> tuple[str, str, bool]:
    """(how they hear of their turn, picture theme, confirm moves) of a member; the
    defaults for a member who never chose."""
    row = await conn.fetch_one(
        "SELECT notify, theme, confirm_moves FROM member_prefs WHERE member_id = ?", (member_id,)
    )
    if row is None:
        return "thread", "dark", False
    return row[0], row[1], bool(row[2])


def set_theme_statement(member_id: int, theme: str) -> Statement:
    return (
        "INSERT INTO member_prefs (member_id, theme) VALUES (?, ?)"
        " ON CONFLICT (member_id) DO UPDATE SET theme = excluded.theme",
        (member_id, theme),
    )


def set_confirm_moves_statement(member_id: int, confirm: bool) -> Statement:
    return (
        "INSERT INTO member_prefs (member_id, confirm_moves) VALUES (?, ?)"
        " ON CONFLICT (member_id) DO UPDATE SET confirm_moves = excluded.confirm_moves",
        (member_id, 1 if confirm else 0),
    )
