"""What the other areas and the core may ask of the conditional moves and private
notes (the conditional area implements them; the root registers it under these kinds,
or hands it to the services that take it): the sandbox saves a line it played as
conditional moves, ``/board`` and ``/review`` show the asker their own note, and the
boards and turn notices leave out a turn a plan answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.model import Member
from bot.storage import GameRow
from rules import State


class ConditionalPlans(Protocol):
    async def save_line(
        self, *, guild_id: int, game_id: int, member: Member, moves: Sequence[str]
    ) -> str:
        """Add the line of ``moves`` played from the game's start (its moves so far,
        then the line) to ``member``'s conditional moves: what to tell them. Refused
        with a UserError, nothing saved."""
        ...


class PrivateNotes(Protocol):
    async def note_of(self, game_id: int, member_id: int) -> str | None:
        """``member_id``'s own note on the game (None: none)."""
        ...

    async def unseen_notice(self, game_id: int, member_id: int) -> str | None:
        """The private notice about ``member_id``'s conditional moves in the game that no
        DM could carry (closed DMs), now seen: their private answer shows it once (None:
        none)."""
        ...


class PlannedTurns(Protocol):
    async def answered(self, row: GameRow, state: State) -> frozenset[int]:
        """The members whose conditional moves answer the last move of ``state`` with a
        reply they can play: it follows at once, so the turn is not one to ping them
        for (a board's mention, a "your turn" DM)."""
        ...
