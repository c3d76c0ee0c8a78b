"""Helpers for the review, records and ratings tests: a stand-in Interaction that
records every answer (files included), playing a planned game to its end, and a
listener that lets a test await what happens to a game in the background."""

from __future__ import annotations

import asyncio
import io
import itertools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from bot.client import BoardBot
from bot.config import Settings
from bot.model import GameUpdate, Member, UserError
from bot.storage import queries
from bot.ui.areas import PostViews
from bot.ui.errors import report
from tests.bot.conftest import CHANNEL, GUILD, Env
from tests.timing import seconds

_ids = itertools.count(9000)


class StandIn:
    """What the cogs and views use of a discord.Interaction. ``on_message``: the
    message a component was on (``ephemeral`` says which kind); ``values``: the
    values picked in a select menu."""

    def __init__(
        self,
        env: Env,
        member: Member,
        *,
        guild_id: int = GUILD,
        channel_id: int = CHANNEL,
        on_message: bool | None = None,
        values: list[str] | None = None,
        **namespace: Any,
    ) -> None:
        self.client = SimpleNamespace(services=env.services)
        self.user = SimpleNamespace(
            id=member.id, display_name=member.name, bot=member.bot, mention=f"<@{member.id}>"
        )
        self.guild_id, self.channel_id = guild_id, channel_id
        #: From a server that installed the bot (False: a DM, or only the member's own
        #: install): see bot.ui.context.bot_in_server.
        self.guild_installed = guild_id is not None
        self.namespace = SimpleNamespace(**namespace)
        self.message = (
            None
            if on_message is None
            else SimpleNamespace(id=next(_ids), flags=SimpleNamespace(ephemeral=on_message))
        )
        self.data: dict[str, Any] = {"values": values} if values is not None else {}
        self.type = None
        self.command = None
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.response = SimpleNamespace(
            is_done=lambda: bool(self._responses()),
            defer=self._defer,
            send_message=self._send_message,
        )
        self.followup = SimpleNamespace(send=self._followup)

    def is_guild_integration(self) -> bool:
        return self.guild_installed

    def _responses(self) -> list[str]:
        return [name for name, _ in self.calls if name in ("defer", "send_message")]

    async def _defer(self, **kwargs: Any) -> None:
        assert not self._responses(), "answered twice"
        self.calls.append(("defer", kwargs))

    async def _send_message(self, content: str | None = None, **kwargs: Any) -> None:
        assert not self._responses(), "answered twice"
        self.calls.append(("send_message", {"content": content, **kwargs}))

    async def _followup(self, content: str | None = None, **kwargs: Any) -> None:
        self.calls.append(("followup", {"content": content, **kwargs}))

    async def edit_original_response(self, **kwargs: Any) -> None:
        self.calls.append(("edit", kwargs))

    @property
    def answer(self) -> dict[str, Any]:
        """The last message shown to the member (a reply, followup or edit)."""
        said = [kw for name, kw in self.calls if name != "defer"]
        assert said, f"no answer: {self.calls}"
        return said[-1]

    def file(self) -> tuple[str, bytes]:
        """(name, bytes) of the file in the last answer."""
        answer = self.answer
        file = answer.get("file") or (answer.get("attachments") or [None])[0]
        assert file is not None, answer
        file.fp.seek(0)
        return file.filename, file.fp.read()


async def run(call: Any, interaction: StandIn) -> StandIn:
    """Invoke like the command tree does: refusals go to the central handler."""
    try:
        await call
    except UserError as error:
        await report(interaction, error)  # type: ignore[arg-type]
    return interaction


async def play_out(env: Env, game_id: int, moves: list[str]) -> None:
    """Play ``moves`` in game ``game_id``, each by the member whose turn it is."""
    for move in moves:
        async with env.db.reading() as conn:
            row = await queries.get_game(conn, game_id)
        state = await env.games.state_of(row)
        seat = state.to_move
        member = Member(row.player_ids[seat], row.player_names[seat])
        await env.moves.play_move(guild_id=row.guild_id, game_id=game_id, member=member, text=move)


def gif_frames(data: bytes) -> int:
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return getattr(image, "n_frames", 1)


async def area_views() -> PostViews:
    """The buttons of the bot's posts as its areas add them when loaded (a bot that
    never connects)."""
    host = BoardBot(Settings(token="x.y.z"))
    await host.load_areas()
    await host.close()
    return host.views


#: What a test awaits of a game: whether an update told of it is the one.
Awaited = Callable[[GameUpdate], bool]


class Heard:
    """A listener of the app's events (subscribe it to ``app.events``, after the app's
    own) that keeps the last update told of each game and lets a test await the one it
    expects: what a background task does to a game (the bot's move in a practice game)
    is told like a member's move, once its board is posted."""

    def __init__(self) -> None:
        #: The last update told of each game, by game id.
        self.last: dict[int, GameUpdate] = {}
        #: What each awaiting test waits for: (game id, the test of an update).
        self._waiting: dict[asyncio.Future[GameUpdate], tuple[int, Awaited]] = {}

    async def game_started(self, update: GameUpdate) -> None:
        self._told(update)

    async def move_played(self, update: GameUpdate) -> None:
        self._told(update)

    async def move_taken_back(self, update: GameUpdate) -> None:
        self._told(update)

    async def game_ended(self, update: GameUpdate) -> None:
        self._told(update)

    def _told(self, update: GameUpdate) -> None:
        self.last[update.game.id] = update
        for future, (game_id, holds) in list(self._waiting.items()):
            if game_id == update.game.id and not future.done() and holds(update):
                future.set_result(update)

    async def until(self, game_id: int, holds: Awaited, *, within: float = 30.0) -> GameUpdate:
        """The update of game ``game_id`` for which ``holds``: the last one told if it
        does, else the first one told from now on (within ``within`` seconds on a
        healthy machine: a limit, never a pause)."""
        last = self.last.get(game_id)
        if last is not None and holds(last):
            return last
        future: asyncio.Future[GameUpdate] = asyncio.get_running_loop().create_future()
        self._waiting[future] = (game_id, holds)
        try:
            return await asyncio.wait_for(future, seconds(within))
        except TimeoutError:
            last = self.last.get(game_id)
            told = "nothing" if last is None else f"ply {last.state.ply}, {last.game.status}"
            raise AssertionError(
                f"game {game_id}: not told what was awaited (last told: {told})"
            ) from None
        finally:
            del self._waiting[future]

    async def at_ply(self, game_id: int, ply: int) -> GameUpdate:
        """Until game ``game_id`` is told to be at ``ply`` (moves played, fewer after a
        takeback)."""
        return await self.until(game_id, lambda update: update.state.ply == ply)

    async def turn_of(self, game_id: int, member_id: int) -> GameUpdate:
        """Until it is ``member_id``'s turn in game ``game_id``, or the game is over
        (the bot has answered their move, or has moved first)."""

        def theirs_or_over(update: GameUpdate) -> bool:
            seat = update.state.to_move
            return not update.game.is_active or (
                seat is not None and update.game.player_ids[seat] == member_id
            )

        return await self.until(game_id, theirs_or_over)
