"""A member's competitions for ``/profile`` (:class:`bot.core.competing.MemberCompetitions`)."""

from __future__ import annotations

from bot.i18n import _
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
        state = _("signing up") if status == "signup" else _("round {number}", number=place or 1)
        return _("🏆 {name} (tournament #{number}, {state})", name=name, number=row_id, state=state)
    if kind == "league":
        state = _("season {number}", number=place) if place else _("first season to come")
        return _("🏅 {name} (league #{number}, {state})", name=name, number=row_id, state=state)
    return _("🪜 {name} (ladder #{number}, place {place})", name=name, number=row_id, place=place)
