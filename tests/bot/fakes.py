"""Stand-ins for Discord and the clock: the service talks to a Poster, these record it."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import ai
import rules
from ai import Analysis, Budget
from bot.model import Post, Posted
from bot.storage import ChallengeRow, GameRow
from rules import Outcome, State

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass
class Sent:
    game_id: int
    where: int  # thread or channel id
    post: Post
    message_id: int = 0


@dataclass
class FakePoster:
    """Records what would be sent to Discord. ``thread_fails`` makes thread creation
    fail (the game then lives in its channel)."""

    thread_fails: bool = False
    threads: dict[int, str] = field(default_factory=dict)  # thread id -> name
    sent: list[Sent] = field(default_factory=list)
    #: (channel id, message id) of each post whose buttons were removed, in order.
    removed: list[tuple[int, int]] = field(default_factory=list)
    #: (channel id, message id, text) of each post shown anew (edit_text).
    edited: list[tuple[int, int, str]] = field(default_factory=list)
    #: (challenge id, text, buttons disabled) of each challenge message shown anew.
    shown: list[tuple[int, str, bool]] = field(default_factory=list)
    #: (challenge id, text, message id) of each challenge message posted.
    challenges: list[tuple[int, str, int]] = field(default_factory=list)
    #: No channel takes the challenge messages (posting one is refused for good).
    challenge_fails: bool = False
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1000))

    async def open_thread(self, game: GameRow, name: str) -> int | None:
        if self.thread_fails:
            return None
        thread_id = next(self._ids)
        self.threads[thread_id] = name
        return thread_id

    async def post(self, game: GameRow, post: Post) -> Posted:
        message_id = next(self._ids)
        self.sent.append(Sent(game.id, game.where_id, post, message_id))
        return Posted(message_id, game.thread_id, game.where_id)

    async def remove_buttons(self, channel_id: int, message_id: int) -> None:
        self.removed.append((channel_id, message_id))

    async def edit_text(self, channel_id: int, message_id: int, text: str) -> None:
        self.edited.append((channel_id, message_id, text))

    async def post_challenge(self, challenge: ChallengeRow, text: str) -> int | None:
        if self.challenge_fails:
            return None
        message_id = 900_000 + challenge.id  # apart from the boards' ids, which tests count
        self.challenges.append((challenge.id, text, message_id))
        return message_id

    async def show_challenge(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool = False
    ) -> None:
        self.shown.append((challenge.id, text, disabled_buttons))

    async def copy_challenge(self, challenge: ChallengeRow, text: str) -> tuple[int, int] | None:
        if self.challenge_fails or challenge.opponent_id is None:
            return None
        message_id = 950_000 + challenge.id
        self.challenges.append((challenge.id, text, message_id))
        return 77, message_id

    def posts_for(self, game_id: int) -> list[Post]:
        return [sent.post for sent in self.sent if sent.game_id == game_id]

    def with_buttons(self, game_id: int) -> list[Post]:
        """The game's posts that still show buttons acting on its play (a decision, a
        takeback request): a rematch offer is not one of them."""
        gone = {message_id for _, message_id in self.removed}
        return [
            sent.post
            for sent in self.sent
            if sent.game_id == game_id
            and sent.message_id not in gone
            and (sent.post.asks or any(not a.startswith("rematch") for a in sent.post.actions))
        ]


class FakeClock:
    """A ``now()`` that only moves when told to."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 12, tzinfo=UTC)) -> None:
        self.current = start

    def __call__(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> None:
        self.current += timedelta(**delta)


async def fake_renderer(
    state: State,
    names: Mapping[int, str],
    *,
    theme: str = "dark",
    outcome: Outcome | None = None,
    preview: bool = False,
) -> bytes:
    """A stand-in picture that says which position it shows, in which theme, the
    ending it was told of (if any), and whether it is a preview."""
    ending = f" [{outcome.text}]" if outcome is not None else ""
    shown = " preview" if preview else ""
    return PNG_SIGNATURE + f"{state.game.name} ply {state.ply} {theme}{ending}{shown}".encode()


class InProcessAI:
    """The AI in the test's own process, with a tiny budget, counting its questions
    (the bot's AIPool asks the same functions in worker processes). ``gate``: when set,
    each analysis waits for it before answering."""

    TINY = Budget(playouts=40)

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []
        self.chosen: list[str] = []
        self.gate: asyncio.Event | None = None
        self.started = asyncio.Event()

    async def analyse(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        budget: Budget,
        seed: int | None = None,
    ) -> Analysis:
        self.asked.append((game_name, len(moves)))
        self.started.set()
        if self.gate is not None:
            await self.gate.wait()
        state = rules.get_game(game_name).replay(moves, **options)
        return await asyncio.to_thread(ai.analyse, state, budget, seed)

    async def choose(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: str = "medium",
        seed: int | None = None,
    ) -> str:
        state = rules.get_game(game_name).replay(moves, **options)
        move = await asyncio.to_thread(ai.choose_move, state, ai.Level("test", self.TINY), seed)
        self.chosen.append(move)
        return move
