"""A game's deadline, read from its stored clock: when the player to move loses on
time, with their vacations, and the line each board of a game in progress shows
about it (:class:`DeadlinePoster`). The clocks themselves live in
:mod:`bot.correspondence.clocks`, the time rules in :mod:`bot.timecontrol`."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime

from bot import texts, timecontrol
from bot.core.players import untimed
from bot.i18n import speaking
from bot.model import Post, Posted, Poster
from bot.storage import ChallengeRow, ClockRow, Database, GameRow, VacationRow, queries
from bot.timecontrol import Bank, Clock, Interval, TimeControl

log = logging.getLogger(__name__)

#: The vacations that stop a seat's clock, by seat.
Pauses = Callable[[int], list[Interval]]
#: Vacations by member.
Vacations = Mapping[int, list[VacationRow]]
#: A game's clock and its players' vacations by member.
ClockFacts = tuple[ClockRow | None, Vacations]


def control_of(row: GameRow) -> TimeControl:
    """The game's time control (chosen at the challenge; the default for older games)."""
    try:
        return timecontrol.parse_time_control(str(row.settings.get("time_control", "3d")))
    except timecontrol.TimeControlError:
        return timecontrol.DEFAULT


#: The pause of a clock that never runs: longer than any game.
FOREVER = Interval(datetime(2000, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC))


def vacations_allowed(row: GameRow) -> bool:
    return row.settings.get("vacation", True) is not False


async def deadline_of(db: Database, row: GameRow) -> tuple[ClockRow | None, datetime | None]:
    """The game's clock, and when the player to move loses on time (None without a
    limit or once over)."""
    clock, vacations = await db.read(queries.clock_and_vacations(row.id))
    if clock is None or clock.turn_seat is None or untimed(row, clock.turn_seat):
        return clock, None
    return clock, timecontrol.deadline_at(
        player_clock(clock, clock.turn_seat),
        clock.turn_started_at,
        pauser(row, vacations)(clock.turn_seat),
    )


def player_clock(clock: ClockRow, seat: int) -> Clock:
    control = timecontrol.parse_time_control(clock.control)
    return Clock(control, clock.banks[seat] if isinstance(control, Bank) else None)


def pauser(row: GameRow, vacations: Mapping[int, list[VacationRow]]) -> Pauses:
    """The pauses of each seat of ``row``, from its players' vacations."""

    def pauses(seat: int) -> list[Interval]:
        if untimed(row, seat):
            return [FOREVER]
        if not vacations_allowed(row):
            return []
        return [Interval(v.start_at, v.end_at) for v in vacations.get(row.player_ids[seat], ())]

    return pauses


class DeadlinePoster:
    """A :class:`~bot.model.Poster` adding to each board post of a game in progress
    when the player to move runs out of time (nothing without a limit). The clock of a
    board's turn is always stored before the board is posted: with the game, with the
    move, or by a takeback."""

    def __init__(self, poster: Poster, db: Database) -> None:
        self.poster = poster
        self.db = db

    async def open_thread(self, game: GameRow, name: str) -> int | None:
        return await self.poster.open_thread(game, name)

    async def post_challenge(self, challenge: ChallengeRow, text: str) -> int | None:
        return await self.poster.post_challenge(challenge, text)

    async def copy_challenge(self, challenge: ChallengeRow, text: str) -> tuple[int, int] | None:
        return await self.poster.copy_challenge(challenge, text)

    async def show_challenge(
        self, challenge: ChallengeRow, text: str, *, disabled_buttons: bool = False
    ) -> None:
        await self.poster.show_challenge(challenge, text, disabled_buttons=disabled_buttons)

    async def post(self, game: GameRow, post: Post) -> Posted:
        if post.picture is not None and game.is_active:
            try:
                with texts.in_thread(game):  # a line of the thread's post
                    line = await self.deadline_line(game, post.ply)
            except Exception:  # the board matters more than its deadline line
                log.exception("no deadline for the board of game %d", game.id)
                line = ""
            by_locale = dict(post.text_by_locale)
            for language, text in post.text_by_locale.items():  # a game of the DMs
                try:
                    with speaking(language):  # each reader's words
                        more = await self.deadline_line(game, post.ply)
                except Exception:
                    log.exception("no deadline for the board of game %d", game.id)
                    more = ""
                by_locale[language] = f"{text}\n{more}" if more else text
            if line:
                post = replace(post, content=f"{post.content}\n{line}")
            post = replace(post, text_by_locale=by_locale)
        return await self.poster.post(game, post)

    async def remove_buttons(self, channel_id: int, message_id: int) -> None:
        await self.poster.remove_buttons(channel_id, message_id)

    async def edit_text(self, channel_id: int, message_id: int, text: str) -> None:
        await self.poster.edit_text(channel_id, message_id, text)

    async def deadline_line(self, game: GameRow, ply: int) -> str:
        """The line for the board at ``ply``; "" without a time limit."""
        clock, deadline = await deadline_of(self.db, game)
        if clock is None or clock.turn_seat is None or clock.turn_ply != ply or deadline is None:
            return ""  # not this board's turn (the clock is behind): better nothing than wrong
        return texts.deadline_line(game.player_names[clock.turn_seat], deadline)
