"""The clocks of games in progress: deadlines, reminders, losses on time, vacations.

Each game has one row in ``clocks`` (its turn, the banks, the reminders sent this
turn) and one ``due_at``: the next moment something must happen to it (a
reminder, or the deadline). The clock is stored with the game itself when a
challenge is accepted, and with each move its next turn (the clock is a
:class:`~bot.challenges.service.GameStarter` and a
:class:`~bot.core.moves.MoveGuard`). A single task (a :class:`bot.timers.DueTimer`)
sleeps until the smallest ``due_at`` of all (or a daily digest), handles whatever
is due, and sleeps again; any change that can move a due time (a move, a takeback,
a vacation) wakes it so it re-reads the next one. Nothing polls the games. What
fell due while the bot was down is handled when the task starts.

The time rules themselves are :mod:`bot.timecontrol`'s (pure functions).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

import rules
from bot import texts, timecontrol
from bot.claims import Claims
from bot.core.endings import Endings
from bot.core.games import Games
from bot.core.moves import MoveWriter
from bot.core.plans import PlannedTurns
from bot.core.players import untimed
from bot.correspondence.deadlines import (
    FOREVER,
    ClockFacts,
    Pauses,
    Vacations,
    control_of,
    deadline_of,
    pauser,
    player_clock,
    vacations_allowed,
)
from bot.correspondence.notify import Notifier
from bot.i18n import _
from bot.model import GameUpdate, Member, UserError
from bot.storage import ClockRow, Database, GameRow, Query, Statement, VacationRow, queries
from bot.timecontrol import Bank, Interval
from bot.timers import DueTimer, Sleep
from rules import Outcome, State

log = logging.getLogger(__name__)

#: The deadline itself is still in time: the loss is applied just after it.
GRACE = timedelta(seconds=1)
#: How long a clock past its deadline waits for the conditional reply owed on it (played
#: at start-up) before it looks again.
OWED_WAIT = timedelta(minutes=1)


class Clocks:
    """Each game's clock (a game starter, a move guard and a listener of the games'
    events) and the one dispatcher task."""

    def __init__(
        self,
        db: Database,
        games: Games,
        endings: Endings,
        notifier: Notifier | None = None,
        *,
        now: Callable[[], datetime],
        reminder_share: float = timecontrol.REMINDER_SHARE,
        vacation_days: int = 14,
        sleep: Sleep = asyncio.sleep,
        claims: Claims | None = None,
        reread: timedelta | None = None,
        planned: PlannedTurns | None = None,
    ) -> None:
        self.db = db
        #: A turn a conditional reply answers is never lost on time: the reply was made
        #: in advance, owed since the opponent's move (a restart may come between).
        self.planned = planned
        #: Each reminder and deadline is handled by the one process that claims it.
        self.claims = claims or Claims(db, now=now)
        self.games = games
        self.endings = endings
        self.notifier = notifier
        self.now = now
        self.reminder_share = reminder_share
        self.vacation_allowance = timedelta(days=vacation_days)
        # Other processes sharing the database add and move clocks too: read them again
        # at least every ``reread`` (a process's lease).
        self.timer = DueTimer(
            "game clocks",
            handle_due=self.run_due,
            next_due=self._next_due,
            now=now,
            sleep=sleep,
            reread=reread,
        )
        self._missing: asyncio.Task[int] | None = None

    # -- the dispatcher ---------------------------------------------------------------

    async def start(self) -> None:
        """Start the dispatcher (its first round applies whatever fell due while the bot
        was down) and, beside it, give clocks to active games that have none: start-up
        waits for neither."""
        self.timer.start()
        if self._missing is None:
            self._missing = asyncio.create_task(
                self.add_missing_clocks(), name="clocks for older games"
            )

    async def add_missing_clocks(self) -> int:
        """Give each active game without a clock (from before the clocks) one, its turn
        starting now, all in one transaction; returns how many were added. A game moved
        meanwhile keeps the clock its move gave it."""
        async with self.db.reading() as conn:
            missing = set(await queries.active_games_without_clock(conn))
        if not missing:
            return 0
        await self.games.warm_up()  # the one replay of the active games, shared
        async with self.db.reading() as conn:
            rows = [row for row in await queries.active_games(conn) if row.id in missing]
        vacations = await self.db.read(queries.all_vacations())
        playing = []
        for row in rows:
            try:
                playing.append((row, await self.games.state_of(row)))
            except Exception:
                log.exception("game %d cannot be replayed: no clock for it", row.id)
        now = self.now()
        clocks = await asyncio.to_thread(  # thousands of them: not on the event loop
            lambda: [
                self._fresh_clock(row, state, now, pauser(row, vacations)) for row, state in playing
            ]
        )
        async with self.db.transaction() as tx:
            added = await queries.add_clocks(tx, clocks)
        log.info("gave clocks to %d games from before the clocks", added)
        self.poke()
        return added

    async def stop(self) -> None:
        if self._missing is not None:
            self._missing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._missing
            self._missing = None
        await self.timer.stop()

    def poke(self) -> None:
        """Something due may have moved: the dispatcher re-reads the next due time."""
        self.timer.poke()

    async def _next_due(self) -> datetime | None:
        async with self.db.reading() as conn:
            return await queries.next_due(conn)

    async def run_due(self) -> int:
        """Handle every clock (and digest) due by now that no other process has claimed.
        Returns how many this process handled."""
        now = self.now()
        async with self.db.reading() as conn:
            due = await queries.clocks_due(conn, now)
        handled = 0
        for clock in due:
            assert clock.due_at is not None
            try:
                async with self.claims.holding("clock", clock.game_id, clock.due_at) as mine:
                    if mine:
                        await self._handle(clock.game_id, now, clock.due_at)
                        handled += 1
            except Exception:
                log.exception("the clock of game %d failed", clock.game_id)
        digests = await self.notifier.send_digests(now, self.claims) if self.notifier else 0
        await self.claims.forget_old()
        return handled + digests

    async def _handle(self, game_id: int, now: datetime, due_at: datetime) -> None:
        """The reminder or the loss on time the clock was due for at ``due_at`` (nothing
        if it has changed since: a move, or another process did it)."""
        async with self.games.lock(game_id):
            async with self.db.reading() as conn:
                row = await queries.get_game(conn, game_id)
                clock = await queries.get_clock(conn, game_id)
            if (
                row is None
                or not row.is_active
                or clock is None
                or clock.turn_seat is None
                or clock.due_at != due_at
            ):
                return
            read = clock
            seat = clock.turn_seat
            pauses = await self._pauses(row, seat)
            mover = player_clock(clock, seat)
            deadline = timecontrol.deadline_at(mover, clock.turn_started_at, pauses)
            if deadline is not None and now > deadline and await self._owed(row, clock, seat):
                # Its reply is being played (or will be at start-up): look again later.
                await self.db.write(
                    [queries.update_clock_statement(replace(clock, due_at=now + OWED_WAIT), read)]
                )
                self.poke()
                return
            if deadline is not None and now > deadline:
                expected = clock.turn_ply
            else:
                expected = None
                times = timecontrol.reminder_times(
                    mover, clock.turn_started_at, pauses, share=self.reminder_share
                )
                passed = [i for i, t in enumerate(times) if i >= clock.reminders_sent and t <= now]
                if passed and deadline is not None:
                    clock = replace(clock, reminders_sent=passed[-1] + 1)  # one ping, even if
                    if self.notifier is not None:  # both are overdue
                        await self.notifier.remind(row, seat, deadline)
                await self._save(row, clock, read=read)
        if expected is not None:  # the lock is released: end_game takes it
            # Replayed afresh: this process's position of a game another process serves
            # may be old.
            self.games.forget(game_id)
            await self._time_out(row, seat, expected)

    async def _owed(self, row: GameRow, clock: ClockRow, seat: int) -> bool:
        """Whether the player of ``seat`` has a conditional reply owed on this turn."""
        if self.planned is None:
            return False
        try:
            state = await self.games.state_of(row)
            if state.ply != clock.turn_ply:
                return False
            return row.player_ids[seat] in await self.planned.answered(row, state)
        except Exception:
            log.exception("game %d: whether a conditional reply is owed is not known", row.id)
            return False

    async def _time_out(self, row: GameRow, seat: int, expected_ply: int) -> None:
        try:
            await self.endings.end_game(
                game_id=row.id,
                expected_ply=expected_ply,
                outcome=lambda row, state: timeout(row, state, seat),
            )
        except UserError as error:  # a move or an ending came first
            log.info("game %d: no timeout (%s)", row.id, error)

    # -- the game starter: the clock is stored with the game -----------------------------

    def starting_facts(self, player_ids: tuple[int, int]) -> Query[Vacations]:
        return queries.vacations_of_members(player_ids)

    def opening(self, row: GameRow, state: State, facts: Vacations) -> list[Statement]:
        """The clock of a new game, its first turn starting now."""
        return [
            queries.save_clock_statement(
                self._fresh_clock(row, state, self.now(), pauser(row, facts))
            )
        ]

    # -- the listener -------------------------------------------------------------------

    async def game_started(self, update: GameUpdate) -> None:
        self.poke()  # the game's transaction stored its clock (see opening)

    async def move_played(self, update: GameUpdate) -> None:
        self.poke()  # the move's transaction stored the new turn (see check)

    async def game_ended(self, update: GameUpdate) -> None:
        async with self.db.reading() as conn:
            clock = await queries.get_clock(conn, update.game.id)
        if clock is not None and clock.turn_seat is not None:
            await self._save(update.game, replace(clock, turn_seat=None), read=clock)

    # -- the move guard: read, then check ----------------------------------------------

    def facts(self, game_id: int) -> Query[ClockFacts]:
        return queries.clock_and_vacations(game_id)

    def check(
        self, row: GameRow, state: State, member: Member, facts: ClockFacts, *, conditional: bool
    ) -> MoveWriter:
        """Refuse a move that comes after the deadline (the dispatcher ends the game).
        Otherwise, give the moves the clock's next turn to store with the move. A
        conditional reply was decided before the turn began: it is in time and takes
        none of its player's time, whenever it is played (after a restart too); the next
        turn starts when it is played, as after any move."""
        clock, vacations = facts
        pauses = pauser(row, vacations)
        if (
            not conditional
            and clock is not None
            and clock.turn_seat is not None
            and clock.turn_ply == state.ply
            and timecontrol.is_out_of_time(
                player_clock(clock, clock.turn_seat),
                clock.turn_started_at,
                self.now(),
                pauses(clock.turn_seat),
            )
        ):
            self.poke()
            raise UserError(
                _(
                    "Your time for this move in {game} has run out: the game is lost on time.",
                    game=texts.label(row),
                )
            )
        return lambda after: [
            queries.save_clock_statement(
                self._after_move(row, clock, after, self.now(), pauses, in_advance=conditional)
            )
        ]

    def _after_move(
        self,
        row: GameRow,
        clock: ClockRow | None,
        after: State,
        now: datetime,
        pauses: Pauses,
        *,
        in_advance: bool = False,
    ) -> ClockRow:
        """The clock once a move made ``after``: the mover's bank charged (nothing for a
        move decided ``in_advance``), the next turn starting ``now``."""
        if clock is None:
            return self._fresh_clock(row, after, now, pauses)
        banks = list(clock.banks)
        mover = clock.turn_seat
        if mover is not None and banks[mover] is not None:
            try:
                spent = timecontrol.after_move(
                    player_clock(clock, mover),
                    clock.turn_started_at,
                    clock.turn_started_at if in_advance else now,
                    pauses(mover),
                )
                banks[mover] = spent.remaining
            except timecontrol.OutOfTime:
                banks[mover] = timedelta(0)
        return self._with_due(
            replace(
                clock,
                banks=(banks[0], banks[1]),
                turn_ply=after.ply,
                turn_seat=after.to_move,
                turn_started_at=now,
                reminders_sent=0,
            ),
            pauses,
        )

    async def restart_turn(self, row: GameRow, state: State) -> None:
        """The turn starts afresh now (after a takeback), reminders and all."""
        async with self.db.reading() as conn:
            read = await queries.get_clock(conn, row.id)
        clock = read or self._fresh_clock(row, state, self.now(), lambda seat: [])
        await self._save(
            row,
            replace(
                clock,
                turn_ply=state.ply,
                turn_seat=state.to_move,
                turn_started_at=self.now(),
                reminders_sent=0,
            ),
            read=read,
        )

    # -- looking ----------------------------------------------------------------------------

    async def deadline_of(self, row: GameRow) -> datetime | None:
        """When the player to move loses on time; None without a limit or once over."""
        return (await deadline_of(self.db, row))[1]

    # -- vacations --------------------------------------------------------------------------

    async def vacations(self, member_id: int) -> list[VacationRow]:
        async with self.db.reading() as conn:
            return await queries.vacations_of(conn, member_id)

    async def vacation_left(self, member_id: int) -> timedelta:
        taken = [
            Interval(v.start_at, min(v.end_at, max(v.start_at, self.now())))
            for v in await self.vacations(member_id)
        ]
        return timecontrol.vacation_left(taken, self.now(), self.vacation_allowance)

    async def current_vacation(self, member_id: int) -> VacationRow | None:
        now = self.now()
        return next(
            (v for v in await self.vacations(member_id) if v.start_at <= now < v.end_at), None
        )

    async def start_vacation(self, member_id: int) -> VacationRow:
        """Stop the member's clocks until they come back or this year's allowance runs out."""
        current = await self.current_vacation(member_id)
        if current is not None:
            raise UserError(
                _(
                    "You are already on vacation, until {moment}: "
                    "use `/vacation off` to come back.",
                    moment=texts.when(current.end_at),
                )
            )
        taken = [Interval(v.start_at, v.end_at) for v in await self.vacations(member_id)]
        try:
            planned = timecontrol.start_vacation(taken, self.now(), self.vacation_allowance)
        except ValueError as error:
            raise UserError(_("No vacation left: {why}.", why=error)) from None
        async with self.db.transaction() as tx:
            vacation_id = await queries.insert_vacation(tx, member_id, planned.start, planned.end)
        await self._rearm_member(member_id)
        return VacationRow(vacation_id, member_id, planned.start, planned.end)

    async def end_vacation(self, member_id: int) -> VacationRow:
        current = await self.current_vacation(member_id)
        if current is None:
            raise UserError(_("You are not on vacation: use `/vacation on` to start one."))
        ended = timecontrol.end_vacation(Interval(current.start_at, current.end_at), self.now())
        async with self.db.transaction() as tx:
            await queries.set_vacation_end(tx, current.id, ended.end)
        await self._rearm_member(member_id)
        return VacationRow(current.id, member_id, ended.start, ended.end)

    async def _rearm_member(self, member_id: int) -> None:
        """Vacations moved the member's deadlines: recompute their games' due times."""
        async with self.db.reading() as conn:
            clocks = await queries.clocks_of_member(conn, member_id)
        for clock in clocks:
            async with self.games.lock(clock.game_id):
                async with self.db.reading() as conn:
                    row = await queries.get_game(conn, clock.game_id)
                    fresh = await queries.get_clock(conn, clock.game_id)
                if row is not None and fresh is not None:
                    await self._save(row, fresh, read=fresh)

    # -- internals ----------------------------------------------------------------------------

    def _fresh_clock(self, row: GameRow, state: State, now: datetime, pauses: Pauses) -> ClockRow:
        control = control_of(row)
        bank = control.start if isinstance(control, Bank) else None
        return self._with_due(
            ClockRow(
                game_id=row.id,
                control=timecontrol.format_time_control(control),
                banks=(bank, bank),
                turn_ply=state.ply,
                turn_seat=state.to_move,
                turn_started_at=now,
                reminders_sent=0,
                due_at=None,
            ),
            pauses,
        )

    async def _save(self, row: GameRow, clock: ClockRow, *, read: ClockRow | None) -> None:
        """Store the clock with its next due time, and wake the dispatcher. ``read``: the
        clock as it was read (if it was), which the stored clock replaces only if it is
        still so (not if a move, maybe in another process, started a new turn since)."""
        pauses = [] if clock.turn_seat is None else await self._pauses(row, clock.turn_seat)
        clock = self._with_due(clock, lambda seat: pauses)
        await self.db.write(
            [
                queries.save_clock_statement(clock)
                if read is None
                else queries.update_clock_statement(clock, read)
            ]
        )
        self.poke()

    def _with_due(self, clock: ClockRow, pauses: Pauses) -> ClockRow:
        """The clock with its next due time: the next reminder, else the deadline."""
        if clock.turn_seat is None:
            return replace(clock, due_at=None)
        mover = player_clock(clock, clock.turn_seat)
        pause = pauses(clock.turn_seat)
        deadline = timecontrol.deadline_at(mover, clock.turn_started_at, pause)
        if deadline is None:
            return replace(clock, due_at=None)
        times = timecontrol.reminder_times(
            mover, clock.turn_started_at, pause, share=self.reminder_share
        )
        if clock.reminders_sent < len(times):
            return replace(clock, due_at=times[clock.reminders_sent])
        return replace(clock, due_at=deadline + GRACE)

    async def _pauses(self, row: GameRow, seat: int) -> list[Interval]:
        if untimed(row, seat):
            return [FOREVER]
        if not vacations_allowed(row):
            return []
        return [Interval(v.start_at, v.end_at) for v in await self.vacations(row.player_ids[seat])]


def timeout(row: GameRow, state: State, loser: int) -> Outcome:
    """``loser`` ran out of time: "Yellow wins: Cyan ran out of time", or with the
    players' names while the colours are undecided."""
    winner = 1 - loser
    lose_color, win_color = state.color_of(loser), state.color_of(winner)
    if lose_color and win_color:
        text = f"{win_color.capitalize()} wins: {lose_color.capitalize()} ran out of time"
    else:
        text = f"{row.player_names[winner]} wins: {row.player_names[loser]} ran out of time"
    return replace(rules.outcome.timed_out(state, loser), text=text)
