"""The AI's analysis of finished games: its estimate of every position (the first
player's chance of winning, and the move it prefers there), for the Analysis view
of ``/review``.

When a game finishes (and for any finished game someone opens in ``/review``), its
positions are queued; one background task asks the AI's worker processes for one
position at a time, each within :attr:`Analyses.budget` (work: playouts per game,
calibrated to half a second on an idle core, so a busy host analyses as well as an
idle one; the time cap is a safety net only), and stores each estimate as
it comes, so the work is done once and survives a restart (the queue starts again
from what is missing). Nothing here runs on a member's move: a move only adds the
finished game to the queue, and the searches run in other processes.

Games still in progress are never analysed: the estimate would coach a player.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from babel.numbers import format_percent

import rules
from ai import ANALYSIS, Analysis, Budget, Level
from bot import texts
from bot.core.games import Games
from bot.i18n import _, current_locale
from bot.model import GameUpdate, UserError
from bot.model import names as row_names
from bot.pictures import biggest_swings
from bot.shards import EVERY_SHARD, Shards
from bot.storage import AnalysisRow, Database, GameRow, MoveRow, queries
from rules import State

log = logging.getLogger(__name__)

#: What one position may cost a worker: playouts per game (half a second's work on an
#: idle core, :data:`ai.ANALYSIS`), with a time cap only as a safety net.
BUDGET: Level = ANALYSIS


class Thinker(Protocol):
    """What thinks for the bot (an :class:`ai.pool.AIPool`): in other processes."""

    async def analyse(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        budget: Budget,
        seed: int | None = None,
    ) -> Analysis: ...

    async def choose(
        self,
        game_name: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        level: str | Level = "medium",
        seed: int | None = None,
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """What is known of a finished game: its moves and the estimates stored so far."""

    row: GameRow
    moves: tuple[MoveRow, ...]
    found: Mapping[int, AnalysisRow] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return len(self.moves)

    @property
    def complete(self) -> bool:
        return all(ply in self.found for ply in range(self.last + 1))

    def chances(self) -> list[float | None]:
        """Seat 0's chance after each ply, as shown (None where not analysed yet; see
        :func:`shown`)."""
        plies = range(self.last + 1)
        return shown(
            [self.found[p].chance if p in self.found else None for p in plies],
            [p in self.found and self.found[p].proven for p in plies],
        )

    def chance_of(self, seat: int, ply: int) -> float | None:
        """Seat ``seat``'s chance after ``ply`` moves, as shown (see :meth:`chances`)."""
        chance = self.chances()[ply] if 0 <= ply <= self.last else None
        if chance is None:
            return None
        return chance if seat == 0 else 1.0 - chance

    def preferred(self, ply: int) -> str | None:
        """The AI's move in the position after ``ply`` moves (None: not known, or over)."""
        known = self.found.get(ply)
        return None if known is None else known.best_move

    def alternative(self, ply: int) -> str | None:
        """The move the AI preferred to move ``ply``, if it preferred another one."""
        if not 0 < ply <= self.last:
            return None
        preferred = self.preferred(ply - 1)
        return preferred if preferred != self.moves[ply - 1].move else None

    def caption(self, ply: int) -> str:
        """The words of the Analysis view at move ``ply``: the move, what the AI
        preferred, how the mover's chances changed, where the game turned."""
        row, who = self.row, row_names(self.row)
        lines = [
            _(
                "**{game}** · analysis · {first} vs {second}",
                game=texts.label(row),
                first=who[0],
                second=who[1],
            )
        ]
        if ply:
            move = self.moves[ply - 1]
            preferred = self.preferred(ply - 1)
            then, now = self.chance_of(move.seat, ply - 1), self.chance_of(move.seat, ply)
            # the chance before the move is what the AI expects of its own choice: a move
            # it would not have played is called worse only if the chances fell
            kept = then is not None and now is not None and round(100 * now) >= round(100 * then)
            verdict = (
                _("the AI agrees")
                if preferred == move.move
                else _(
                    "the AI would have played `{move}`, but its estimates show no loss",
                    move=preferred,
                )
                if preferred and kept
                else _("the AI preferred `{move}`", move=preferred)
                if preferred
                else _("the AI has no view yet")
            )
            lines.append(
                _(
                    "Move {number} of {count}: {player} played `{move}`; {verdict}. "
                    "{player}'s chances: {before} → {after}.",
                    number=ply,
                    count=self.last,
                    player=who[move.seat],
                    move=move.move,
                    verdict=verdict,
                    before=_percent(then),
                    after=_percent(now),
                )
            )
        else:
            opening = self.preferred(0)
            chances = _percent(self.chance_of(0, 0))
            lines.append(
                _(
                    "The start: {player}'s chances {chances}; the AI would open with `{move}`.",
                    player=who[0],
                    chances=chances,
                    move=opening,
                )
                if opening
                else _("The start: {player}'s chances {chances}.", player=who[0], chances=chances)
            )
        swings = biggest_swings(self.chances())
        if swings:
            moves = ", ".join(_("move {number}", number=p) for p in swings)
            lines.append(_("Where it turned: {moves}.", moves=moves))
        if not self.complete:
            done = sum(1 for chance in self.chances() if chance is not None)
            lines.append(
                _(
                    "*The AI is still at it: {done} of {count} positions so far. "
                    "Turn the page to see more.*",
                    done=done,
                    count=self.last + 1,
                )
            )
        return "\n".join(lines)


def _percent(chance: float | None) -> str:
    """``55%`` (``55 %`` in German: the current language's way), or ``?``."""
    if chance is None:
        return "?"
    return format_percent(round(100 * chance) / 100, locale=current_locale())


def shown(raw: Sequence[float | None], proven: Sequence[bool]) -> list[float | None]:
    """The estimates ``raw`` as charts and captions show them.

    Each estimate is made from the side of the player to move, whom a search flatters
    a little, so raw estimates zigzag from ply to ply. Each one shown is weighed 1-2-1
    with its two neighbours, which cancels that alternation and keeps real swings;
    certain results (the end, a forced win) are shown as they are.
    """
    out = list(raw)
    for ply in range(1, len(raw) - 1):
        here, before, after = raw[ply], raw[ply - 1], raw[ply + 1]
        if here is None or before is None or after is None or proven[ply]:
            continue
        out[ply] = (before + 2 * here + after) / 4
    return out


class Analyses:
    """The queue of games to analyse, its one worker task, and the stored estimates."""

    def __init__(
        self,
        db: Database,
        games: Games,
        thinker: Thinker,
        *,
        budget: Budget | Level = BUDGET,
        seed: int | None = 1,
        shards: Shards = EVERY_SHARD,
    ) -> None:
        self.db = db
        self.games = games
        self.thinker = thinker
        #: Each position's budget: one for every game, or a level's budget per game.
        self.budget = budget
        self.seed = seed
        #: Whose games :meth:`start` resumes: those of this process's servers.
        self.shards = shards
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._queued: set[int] = set()
        self._task: asyncio.Task[None] | None = None

    # -- the queue ---------------------------------------------------------------------

    async def start(self) -> None:
        """Start the worker, first on the games of this process's servers whose analysis
        the bot left half-way when it stopped (games finished before are analysed when
        someone asks)."""
        if self._task is None:
            self._task = asyncio.create_task(self._work(), name="analyse finished games")
        for game_id in await self.db.read(
            queries.games_to_analyse(shard_count=self.shards.count, shard_ids=self.shards.ids)
        ):
            self.request(game_id)

    def budget_for(self, game_name: str, size: int | None = None) -> Budget:
        """The budget one position of a ``game_name`` game (at ``size``) is analysed with."""
        budget = self.budget
        return budget if isinstance(budget, Budget) else budget.budget_for(game_name, size)

    async def drained(self) -> None:
        """Wait until every game queued so far is analysed (or failed): for tests and
        an orderly stop, no polling."""
        await self._queue.join()

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def take_over(self, servers: Shards) -> None:
        """Go on with the analyses a dead process left half-way in its ``servers``
        (:mod:`bot.processes`)."""
        for game_id in await self.db.read(
            queries.games_to_analyse(shard_count=servers.count, shard_ids=servers.ids)
        ):
            self.request(game_id)

    def request(self, game_id: int) -> None:
        """Queue ``game_id`` (once) for the positions it still lacks."""
        if game_id not in self._queued:
            self._queued.add(game_id)
            self._queue.put_nowait(game_id)

    async def game_ended(self, update: GameUpdate) -> None:
        if update.game.status == "finished":
            self.request(update.game.id)

    async def _work(self) -> None:
        while True:
            game_id = await self._queue.get()
            try:
                await self.analyse_game(game_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not analyse game %d", game_id)
            finally:
                self._queued.discard(game_id)
                self._queue.task_done()

    # -- the work ----------------------------------------------------------------------

    async def analyse_game(self, game_id: int) -> int:
        """Analyse the positions of a finished game not analysed yet, one at a time, each
        stored as soon as it is known; how many were added."""
        async with self.db.reading() as conn:
            row = await queries.get_game(conn, game_id)
            moves = [m.move for m in await queries.moves_of_game(conn, game_id)]
        if row is None or row.status != "finished":
            return 0
        done = {known.ply for known in await self.db.read(queries.analyses_of_game(game_id))}
        added = 0
        budget = self.budget_for(row.game, row.options.get("size"))
        for ply in range(len(moves) + 1):
            if ply in done:
                continue
            found = await self.thinker.analyse(
                row.game, row.options, moves[:ply], budget, self.seed
            )
            known = AnalysisRow(
                game_id,
                ply,
                min(1.0, max(0.0, found.win_chance_for_seat0)),
                found.best_move,
                found.proven,
                found.playouts,
            )
            added += (await self.db.write([queries.save_analysis_statement(known)], durable=False))[
                0
            ]
        return added

    async def of_game(self, *, guild_id: int, game_id: int) -> GameAnalysis:
        """What is known of game ``game_id`` of this server; its missing positions are
        queued. Refused for a game in progress."""
        row = await self.games.get_game(guild_id, game_id)
        if row.is_active:
            raise UserError(
                _(
                    "The AI analyses a game once it is over: during the game it "
                    "would coach the players."
                )
            )
        async with self.db.reading() as conn:
            moves = tuple(await queries.moves_of_game(conn, row.id))
        found = {known.ply: known for known in await self.db.read(queries.analyses_of_game(row.id))}
        analysis = GameAnalysis(row, moves, found)
        if not analysis.complete and row.status == "finished":
            self.request(row.id)
        return analysis


async def positions(row: GameRow, moves: Sequence[MoveRow], ply: int) -> tuple[State, State]:
    """The positions before and after move ``ply`` (the start twice for ply 0)."""
    game = rules.get_game(row.game)

    def replay() -> tuple[State, State]:
        before = game.replay([m.move for m in moves[: max(0, ply - 1)]], **row.options)
        return before, before.play(moves[ply - 1].move) if ply else before

    return await asyncio.to_thread(replay)
