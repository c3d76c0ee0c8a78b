"""What ``/profile`` (the ratings area) may ask of the competitions: the tournaments,
leagues and ladders a member is in here, one line each. The competitions area
implements it; the root registers it under this kind."""

from __future__ import annotations

from typing import Protocol

from bot.storage import GameRow

#: The settings a competition tags its games with: a tournament's (or a league
#: division's) id, and a ladder challenge's.
TOURNAMENT = "tournament"
LADDER_CHALLENGE = "ladder_challenge"


def in_competition(row: GameRow) -> bool:
    """Whether ``row`` is a game of a tournament, a league or a ladder: its result is
    owed to the competition, so it cannot be aborted as if it had never been."""
    return row.settings.get(TOURNAMENT) is not None or (
        row.settings.get(LADDER_CHALLENGE) is not None
    )


class MemberCompetitions(Protocol):
    async def competitions_of(self, guild_id: int, member_id: int) -> list[str]:
        """One line per competition ``member_id`` is in here (a tournament signing up
        or being played, a league not left, a ladder), in words; [] for none."""
        ...
