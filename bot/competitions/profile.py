"""A member's competitions for ``/profile`` (:class:`bot.core.competing.MemberCompetitions`)."""

from __future__ import annotations

from bot.storage import Database, queries


class Memberships:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def competitions_of(self, guild_id: int, member_id: int) -> list[str]:
        async with self.db.reading() as conn:
            found = await queries.competitions_of_member(conn, guild_id, member_id)
        return [membership_line(*row) for row in found]


def membership_line(kind: str, row_id: int, name: str, status: str, place: int | None) -> str:
    if kind == "tournament":
        state = "signing up" if status == "signup" else f"round {place or 1}"
        return f"🏆 {name} (tournament #{row_id}, {state})"
    if kind == "league":
        state = f"season {place}" if place else "first season to come"
        return f"🏅 {name} (league #{row_id}, {state})"
    return f"🪜 {name} (ladder #{row_id}, place {place})"
