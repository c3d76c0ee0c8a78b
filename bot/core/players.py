"""The two kinds of player the core knows: a member, who moves with ``/move`` and the
board's buttons, and an automatic player the bot plays itself (its AI, in practice
games), which the area that brings it (:mod:`bot.practice`) registers here.

The other areas ask :class:`Players`, never that area: whether a challenge or a game
is against an automatic player, and what it does where a member would be asked (it
accepts a challenge at once, a rematch starts at once, a takeback is granted at
once). An automatic player's clock never runs (:data:`UNTIMED`) and its games are
never rated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.model import UNTIMED as UNTIMED  # the game setting naming the bot's seat
from bot.model import GameUpdate, Member
from bot.storage import ChallengeRow, GameRow
from rules import State


def untimed(row: GameRow, seat: int) -> bool:
    """Whether ``seat``'s clock never runs (the bot's, in a practice game)."""
    return row.settings.get(UNTIMED) == row.player_ids[seat]


@dataclass(frozen=True, slots=True)
class LevelRecord:
    """A member's finished games against an automatic player at one of its levels."""

    level: str
    wins: int
    losses: int
    draws: int


class AutomaticPlayer(Protocol):
    """A player the bot plays itself."""

    #: Its member (None until the bot is logged in: it plays nobody yet).
    me: Member | None

    @property
    def level_names(self) -> Sequence[str]:
        """The strengths it plays at, weakest first."""
        ...

    def plays_in(self, row: GameRow) -> bool:
        """Whether ``row`` is a game against it."""
        ...

    def check(self, game: str, options: Mapping[str, Any] | None, level: str | None) -> str:
        """Refuse now (a UserError) what :meth:`start_game` would refuse; the level."""
        ...

    async def start_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        member: Member,
        game: str,
        options: Mapping[str, Any] | None = None,
        level: str | None = None,
        first: str = "challenger",
        settings: Mapping[str, Any] | None = None,
    ) -> GameUpdate:
        """A game of ``member`` against it: accepted at once, never rated."""
        ...

    async def rematch(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        """The same game again, seats swapped: it starts at once."""
        ...

    async def take_back(self, *, guild_id: int, game_id: int, member: Member) -> GameUpdate:
        """``member``'s last move taken back (and its answer): granted at once."""
        ...

    async def record(self, *, guild_id: int, member_id: int) -> list[LevelRecord]:
        """``member_id``'s finished games against it, by level."""
        ...

    async def own_record(self, *, guild_id: int) -> list[LevelRecord]:
        """Its own finished games against every member here, by level (its wins)."""
        ...

    async def resume(self) -> int:
        """At start-up: its turns owed since before the restart, taken up."""
        ...

    async def stop(self) -> None:
        """No more thinking (the bot stops)."""
        ...


class GameOpener(Protocol):
    """What an automatic player starts its games with, as members do: a challenge,
    which it accepts at once (the challenges' service)."""

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger: Member,
        game: str,
        options: Mapping[str, Any] | None = None,
        opponent: Member | None = None,
        first: str = "challenger",
        rated: bool = True,
        settings: Mapping[str, Any] | None = None,
        post: bool = True,
    ) -> ChallengeRow: ...

    async def accept(self, *, guild_id: int, challenge_id: int, member: Member) -> GameUpdate: ...

    async def cancel(self, *, guild_id: int, challenge_id: int, member: Member) -> ChallengeRow:
        """Withdraw a pending challenge (``member``: its challenger); its message says so."""
        ...


class TurnClock(Protocol):
    """The clock of a game's turn (the correspondence clocks)."""

    async def restart_turn(self, row: GameRow, state: State) -> None:
        """The turn starts afresh now (after a takeback)."""
        ...


class Players:
    """The automatic players, registered by the areas that bring them."""

    def __init__(self) -> None:
        self._automatic: list[AutomaticPlayer] = []

    def register(self, player: AutomaticPlayer) -> None:
        self._automatic.append(player)

    @property
    def automatic(self) -> tuple[AutomaticPlayer, ...]:
        return tuple(self._automatic)

    def automatic_member(self, member_id: int) -> AutomaticPlayer | None:
        """The automatic player that is the member ``member_id`` (None: a member)."""
        return next((p for p in self._automatic if p.me is not None and p.me.id == member_id), None)

    def automatic_in(self, row: GameRow) -> AutomaticPlayer | None:
        """The automatic player of the game ``row`` (None: two members play it)."""
        return next((p for p in self._automatic if p.plays_in(row)), None)
