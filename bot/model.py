"""What the services take and give: members, posts, updates, and the interfaces they
are given (a :class:`Poster` for Discord, a :data:`Renderer` for pictures, the
:class:`Listener` of what happens to games). Plain values, no Discord, no database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from bot.storage import ChallengeRow, GameRow
from rules import State


def utc_now() -> datetime:
    return datetime.now(UTC)


class UserError(Exception):
    """A refusal. The message is shown to the member as it is; nothing changed."""

    @property
    def message(self) -> str:
        return str(self)


def not_saved(what: str, failure: Exception) -> str:
    """What a member is told when the database could not store their change (a
    :class:`bot.storage.WriteFailed`, whose ``reason`` is in plain words)."""
    reason = getattr(failure, "reason", str(failure))
    return (f"{what} was **not saved**: {reason}. Nothing changed. The bot's operator has "
            "been told; please try again once they have fixed it.")


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    name: str
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Post:
    """A message for a game's thread."""

    content: str
    picture: bytes | None = None
    mentions: tuple[int, ...] = ()
    #: Moves offered as buttons, valid only while the game is at ``ply``.
    choices: tuple[str, ...] = ()
    #: ``(lowest, highest)`` komi offered through a number field, or None.
    komi: tuple[int, int] | None = None
    ply: int = 0
    filename: str = "board.png"
    #: Extra buttons by name (``rematch``, ``takeback:<request id>``): the client knows
    #: which area's buttons each stands for.
    actions: tuple[str, ...] = ()

    @property
    def asks(self) -> bool:
        """Whether the post asks the player to move for a decision by buttons."""
        return bool(self.choices) or self.komi is not None


@dataclass(frozen=True, slots=True)
class Posted:
    message_id: int | None
    #: Where the game lives after posting: its thread, a replacement thread,
    #: or None when the poster fell back to the game's channel.
    thread_id: int | None
    #: The channel or thread the message itself went to (None: not known).
    channel_id: int | None = None


class DeliveryDelayed(Exception):
    """Discord could not be reached, or failed on its side, for now: the same delivery
    is worth trying again later (the outbox does)."""


class Poster(Protocol):
    """What reaches a game's thread and a challenge's message. Every call is safe to
    repeat: a thread already opened is found again, a message sent again while an
    outbox item is delivered carries the same nonce (see :mod:`bot.outbox`). Raises
    :class:`DeliveryDelayed` when Discord cannot be reached for now."""

    async def open_thread(self, game: GameRow, name: str) -> int | None:
        """Open the game's public thread (from the challenge message if possible), or
        find the one already opened; None if no thread could be made and posts must
        go to the channel."""

    async def post(self, game: GameRow, post: Post) -> Posted:
        """Send ``post`` where the game lives, unarchiving or falling back as needed."""

    async def clear_buttons(self, channel_id: int, message_id: int) -> None:
        """Remove the buttons of a message the bot posted (gone stale)."""

    async def show_challenge(self, challenge: ChallengeRow, text: str, *,
                             disabled_buttons: bool = False) -> None:
        """Show a challenge's message as ``text``: without buttons once answered, with
        its buttons disabled once it expired."""


#: Draws a position for the players named by seat (None: no picture).
Renderer = Callable[[State, Mapping[int, str]], Awaitable[bytes | None]]
#: Animates a whole game: (game name, options, moves, names by seat) -> GIF bytes.
Replayer = Callable[[str, Mapping, list[str], Mapping[int, str]], Awaitable[bytes]]
#: Narrows who a post notifies (members who asked for DMs instead of pings).
MentionFilter = Callable[[GameRow, tuple[int, ...]], Awaitable[tuple[int, ...]]]


@dataclass(frozen=True, slots=True)
class GameUpdate:
    """What a handler did to a game: the row and position after it."""

    game: GameRow
    state: State
    move: str | None = None
    posted: Posted | None = None


@dataclass(frozen=True, slots=True)
class GameListing:
    active: list[tuple[GameRow, State]]
    finished: list[GameRow]


class Listener(Protocol):
    """Told after a change is stored and posted (under the game's lock), through
    :class:`bot.events.Events`. Every method is optional. A listener's exception is
    logged and does not undo anything."""

    async def game_started(self, update: GameUpdate) -> None: ...
    async def move_played(self, update: GameUpdate) -> None: ...
    async def move_taken_back(self, update: GameUpdate) -> None: ...
    async def game_ended(self, update: GameUpdate) -> None: ...


def names(row: GameRow) -> dict[int, str]:
    """The players' names by seat, for pictures."""
    return {0: row.player_names[0], 1: row.player_names[1]}
