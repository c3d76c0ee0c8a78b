"""What the services take and give: members, posts, updates, and the interfaces they
are given (a :class:`Poster` for Discord, a :data:`Renderer` for pictures, the
:class:`Listener` of what happens to games). Plain values, no Discord, no database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from bot.i18n import _
from bot.storage import ChallengeRow, GameRow
from rules import Decision, Outcome, State


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
    return _(
        "{what} was **not saved**: {reason}. Nothing changed. The bot's operator has "
        "been told; please try again once they have fixed it.",
        what=what,
        reason=reason,
    )


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    name: str
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a post besides its picture (a replay, a record)."""

    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Post:
    """A message for a game's thread."""

    content: str
    picture: bytes | None = None
    mentions: tuple[int, ...] = ()
    #: The decisions of the player to move offered as buttons (``state.decisions()``),
    #: valid only while the game is at ``ply``.
    decisions: tuple[Decision, ...] = ()
    ply: int = 0
    filename: str = "board.png"
    #: Extra buttons by name (``rematch``, ``takeback:<request id>``): the client knows
    #: which area's buttons each stands for.
    actions: tuple[str, ...] = ()
    #: More files, after the picture.
    attachments: tuple[Attachment, ...] = ()
    #: A game of the DMs: the text in each of its readers' languages (catalogue ->
    #: text), composed when staged; empty for a server's game (``content`` for all).
    text_by_locale: Mapping[str, str] = field(default_factory=dict)

    def text_for(self, locale: str) -> str:
        """The text a reader of ``locale`` gets: theirs, else ``content``."""
        return self.text_by_locale.get(locale, self.content)

    @property
    def asks(self) -> bool:
        """Whether the post asks the player to move for a decision by buttons."""
        return bool(self.decisions)


@dataclass(frozen=True, slots=True)
class Posted:
    message_id: int | None
    #: Where the game lives after posting: its thread, a replacement thread,
    #: or None when the poster fell back to the game's channel.
    thread_id: int | None
    #: The channel or thread the message is in (None: unknown).
    channel_id: int | None = None
    #: (channel, message) of the same post sent elsewhere too: a game that lives in its
    #: players' DMs gets one message in each (the first is ``message_id``).
    others: tuple[tuple[int, int], ...] = ()


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

    async def remove_buttons(self, channel_id: int, message_id: int) -> None:
        """Take the buttons off a message (gone or forbidden: nothing to do)."""

    async def edit_text(self, channel_id: int, message_id: int, text: str) -> None:
        """Show a post of the bot as ``text``, its buttons kept (gone or forbidden:
        nothing to do)."""

    async def post_challenge(self, challenge: ChallengeRow, text: str) -> int | None:
        """Post a new challenge's message, with its buttons, in its channel, mentioning
        the member challenged; its id, or None if it can never be posted there (no such
        channel, or one that takes no messages from the bot)."""

    async def show_challenge(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool = False
    ) -> None:
        """Show a challenge's message as ``text``: without buttons once answered, with
        its buttons disabled once it expired."""

    async def copy_challenge(self, challenge: ChallengeRow, text: str) -> tuple[int, int] | None:
        """Send the challenge's card, with its buttons, to its opponent's DMs (a
        challenge of no server the bot is in): (channel, message), or None if the bot
        can't DM them."""


#: The theme of the pictures in a game's thread (a member's own views use theirs).
DEFAULT_THEME = "dark"


class Renderer(Protocol):
    async def __call__(
        self,
        state: State,
        names: Mapping[int, str],
        *,
        theme: str = DEFAULT_THEME,
        outcome: Outcome | None = None,
        preview: bool = False,
    ) -> bytes | None:
        """The picture of ``state`` for the players named by seat (None: no picture).
        ``outcome``: how the game ended when it ended off the board (resignation, time,
        abort), which the position itself cannot say. ``preview``: the last move is
        shown before it is played (to confirm it), and the picture says so."""


class Replayer(Protocol):
    async def __call__(
        self,
        game: str,
        options: Mapping,
        moves: list[str],
        names: Mapping[int, str],
        *,
        theme: str = DEFAULT_THEME,
        outcome: Outcome | None = None,
    ) -> bytes:
        """The animated replay (GIF) of a whole game; ``outcome`` as for a Renderer."""


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
    #: The member's challenges nobody has answered yet.
    challenges: list[ChallengeRow] = field(default_factory=list)


class _HearsStarts(Protocol):
    async def game_started(self, update: GameUpdate) -> None: ...


class _HearsMoves(Protocol):
    async def move_played(self, update: GameUpdate) -> None: ...


class _HearsTakebacks(Protocol):
    async def move_taken_back(self, update: GameUpdate) -> None: ...


class _HearsEndings(Protocol):
    async def game_ended(self, update: GameUpdate) -> None: ...


#: Told after a change is stored and posted (under the game's lock), through
#: :class:`bot.events.Events`: a listener has any of these methods (at least one). A
#: listener's exception is logged and does not undo anything.
Listener = _HearsStarts | _HearsMoves | _HearsTakebacks | _HearsEndings


class Finale(Protocol):
    async def final_words(
        self, row: GameRow, state: State, *, files: bool = True
    ) -> tuple[list[str], tuple[Attachment, ...]]:
        """What the one post at a game's end says besides its board and result (the
        summary, the rating changes: the game is rated first) and the files it carries
        (the replay, the record; none when not ``files``: the words again, in another
        reader's language)."""


#: The game setting naming the player the bot plays itself (in a practice game): its
#: clock never runs, and the game's posts speak for it in the first person.
UNTIMED = "untimed_player"


def automatic_seat(row: GameRow) -> int | None:
    """The seat the bot plays itself (a practice game's), None for a game of members."""
    bot = row.settings.get(UNTIMED)
    return row.player_ids.index(bot) if bot is not None and bot in row.player_ids else None


def members_of(row: GameRow) -> tuple[int, ...]:
    """The ids of the game's players who are members (the bot is no one to ping)."""
    return tuple(m for seat, m in enumerate(row.player_ids) if seat != automatic_seat(row))


def names(row: GameRow) -> dict[int, str]:
    """The players' names by seat, for pictures."""
    return {0: row.player_names[0], 1: row.player_names[1]}
