"""Explore: a member's private sandbox, opened at a position of a game (from
``/review``) or of an imported record. The member plays moves for both sides, steps
back, and asks the AI for its move; the sandbox is its own row, and nothing in it
reaches a game.

Every change names the moves it was made on, so a click on an old message cannot
change a sandbox that moved on since (two quick clicks step back once, not twice).
The AI's move is offered for finished games and records only: in a game still in
progress it would coach a player.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import rules
from bot.core.games import Games
from bot.core.move_choices import MoveChoice, move_choices
from bot.i18n import N_, _
from bot.learning.analysis import Thinker
from bot.model import Member, UserError
from bot.storage import Database, SandboxRow, queries
from rules import IllegalMove, State

#: How strong the AI is when asked in a sandbox.
LEVEL = "medium"
NO_SANDBOX = N_(
    "You have no sandbox yet: open one with **Explore** under a game's "
    "`/review`, or under an `/import`ed record."
)
MOVED_ON = N_("That sandbox has moved on since: use its latest message.")


@dataclass(frozen=True, slots=True)
class Sandbox:
    row: SandboxRow
    state: State
    #: Whether the AI may be asked (a finished game, or a record).
    ai: bool

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def ply(self) -> int:
        return len(self.row.moves)


class Sandboxes:
    def __init__(
        self, db: Database, games: Games, thinker: Thinker, *, now: Callable[[], datetime]
    ) -> None:
        self.db = db
        self.games = games
        self.thinker = thinker
        self.now = now

    async def open_from_game(
        self, *, guild_id: int, game_id: int, ply: int, member: Member
    ) -> Sandbox:
        """A sandbox at move ``ply`` of a game of this server (clamped to its moves)."""
        row = await self.games.get_game(guild_id, game_id)
        async with self.db.reading() as conn:
            moves = [m.move for m in await queries.moves_of_game(conn, row.id)]
        moves = moves[: max(0, min(ply, len(moves)))]
        return await self._create(member, row.game, row.options, moves, source=row.id)

    async def open_from_record(
        self, *, member: Member, game: str, options: dict[str, Any], moves: Sequence[str]
    ) -> Sandbox:
        return await self._create(member, game, options, list(moves), source=None)

    async def _create(
        self,
        member: Member,
        game: str,
        options: dict[str, Any],
        moves: list[str],
        source: int | None,
    ) -> Sandbox:
        await self.db.write(
            queries.insert_sandbox_statements(
                member_id=member.id,
                game=game,
                options=options,
                moves=moves,
                opened_at=len(moves),
                source_game_id=source,
                now=self.now(),
            )
        )
        found = await self.db.read(queries.latest_sandbox(member.id))
        assert found is not None
        return await self._sandbox(found)

    async def _sandbox(self, row: SandboxRow) -> Sandbox:
        game = rules.get_game(row.game)
        state = await asyncio.to_thread(game.replay, row.moves, **row.options)
        ai = True
        if row.source_game_id is not None:
            async with self.db.reading() as conn:
                source = await queries.get_game(conn, row.source_game_id)
            ai = source is not None and not source.is_active
        return Sandbox(row, state, ai)

    async def get(self, sandbox_id: int | None, member_id: int) -> Sandbox:
        """The member's sandbox ``sandbox_id`` (None: their latest)."""
        row = await self.db.read(
            queries.latest_sandbox(member_id)
            if sandbox_id is None
            else queries.get_sandbox(sandbox_id)
        )
        if row is None:
            raise UserError(
                _(NO_SANDBOX)
                if sandbox_id is None
                else _(
                    "That sandbox is gone (you keep your five latest): open a new "
                    "one with **Explore**."
                )
            )
        if row.member_id != member_id:
            raise UserError(_("That sandbox is someone else's: open your own with **Explore**."))
        return await self._sandbox(row)

    async def open_copy(self, sandbox_id: int, member: Member) -> Sandbox:
        """The sandbox ``sandbox_id`` if it is the member's; another member gets a new
        sandbox of their own at the same position of an imported record (a public
        import's Explore), and nothing of anyone's sandbox of a game (a game of another
        server, maybe)."""
        row = await self.db.read(queries.get_sandbox(sandbox_id))
        if row is None:
            raise UserError(_("That sandbox is gone: import the record again to explore it."))
        if row.member_id == member.id:
            return await self._sandbox(row)
        if row.source_game_id is not None:
            raise UserError(_("That sandbox is someone else's: open your own with **Explore**."))
        return await self._create(
            member,
            row.game,
            row.options,
            list(row.moves[: row.opened_at]),
            source=row.source_game_id,
        )

    async def _change(self, sandbox: Sandbox, moves: list[str]) -> Sandbox:
        [changed] = await self.db.write(
            [queries.set_sandbox_moves_statement(sandbox.id, moves, sandbox.row.moves)],
            durable=False,
        )
        if not changed:
            raise UserError(_(MOVED_ON))
        return await self.get(sandbox.id, sandbox.row.member_id)

    @staticmethod
    def _check(sandbox: Sandbox, at: int | None) -> None:
        if at is not None and at != sandbox.ply:
            raise UserError(_(MOVED_ON))

    async def play(
        self, sandbox_id: int | None, member_id: int, text: str, at: int | None = None
    ) -> Sandbox:
        """Play ``text`` for whoever is to move in the sandbox."""
        sandbox = await self.get(sandbox_id, member_id)
        self._check(sandbox, at)
        try:
            after = sandbox.state.play(text)
        except IllegalMove as error:
            raise UserError(
                _("`{move}` can't be played there: {reason}.", move=text, reason=error)
            ) from error
        return await self._change(sandbox, [*sandbox.row.moves, after.history[-1]])

    async def back(self, sandbox_id: int, member_id: int, at: int | None = None) -> Sandbox:
        """Take back the sandbox's last move (down to the start of the game)."""
        sandbox = await self.get(sandbox_id, member_id)
        self._check(sandbox, at)
        if not sandbox.row.moves:
            raise UserError(_("This is the start of the game: there is nothing to take back."))
        return await self._change(sandbox, list(sandbox.row.moves[:-1]))

    async def ai_move(
        self, sandbox_id: int, member_id: int, at: int | None = None
    ) -> tuple[Sandbox, str]:
        """Play the AI's move in the sandbox; the sandbox after it, and the move."""
        sandbox = await self.get(sandbox_id, member_id)
        self._check(sandbox, at)
        if not sandbox.ai:
            raise UserError(
                _(
                    "The AI gives no moves in a sandbox of a game still in progress: "
                    "it would coach a player. Ask again once the game is over."
                )
            )
        if sandbox.state.is_over:
            raise UserError(_("The game is over here: there is no move to make."))
        row = sandbox.row
        move = await self.thinker.choose(row.game, row.options, list(row.moves), LEVEL)
        return await self._change(sandbox, [*row.moves, move]), move

    async def suggestions(self, member_id: int, typed: str) -> list[MoveChoice]:
        """Autocomplete of ``/explore move``: the legal moves of the member's latest sandbox."""
        row = await self.db.read(queries.latest_sandbox(member_id))
        if row is None:
            return []
        state = (await self._sandbox(row)).state
        return move_choices(state.legal_moves(), typed, parse=state.parse)
