"""What ``/profile`` (the ratings area) may ask of the competitions: the tournaments,
leagues and ladders a member is in here, one line each. The competitions area
implements it; the root registers it under this kind."""

from __future__ import annotations

from typing import Protocol


class MemberCompetitions(Protocol):
    async def competitions_of(self, guild_id: int, member_id: int) -> list[str]:
        """One line per competition ``member_id`` is in here (a tournament signing up
        or being played, a league not left, a ladder), in words; [] for none."""
        ...
