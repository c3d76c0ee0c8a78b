"""Time controls for correspondence play: pure functions of datetimes, no clock.

The rules
---------
A challenge picks one of three time controls:

* **Days per move** (``3d``): the player to move has N days for this move,
  and the allowance refills after every move. N is 1, 2, 3, 5, 7 or 14.
  This is the default, with 3 days.
* **Bank** (``3d+1d/7d``): each player starts with a bank of time (3 days);
  the time a move takes is taken from the mover's bank, then the increment
  (1 day) is added, but the bank never holds more than the maximum (7 days).
  Durations may be given in days and hours (``12h``, ``1d12h``).
* **None** (``none``): no time limit.

A player who has not moved by the deadline loses on time. A move made at the
deadline itself is still in time.

Reminders: the player to move is reminded at most twice per turn: once when
a share of their time for this move has passed (80% by default), and once
shortly before the deadline: an hour before it, or 10% of their time before
it when that is less than an hour. When the two would coincide (or the second
would come first) only the first is sent.

Vacation: each member has a yearly allowance of vacation (14 days by default,
counted per calendar year, UTC) that they can switch on and off. While a
member is on vacation, the clocks of the games where it is their turn stop:
time spent on vacation during a turn does not count against that turn, so the
deadline (and each reminder) moves later by the overlap of their vacations
with the turn. A vacation switched on ends by itself when the allowance is
used up, so its end is always known, and so is every deadline. A challenge can
disable vacations for its game: the bot then passes no vacations for it.

Times are timezone-aware datetimes (UTC); durations are timedeltas.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot.i18n import N_n, _, _n

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)

#: The allowances a "days per move" control may have.
DAYS_PER_MOVE_CHOICES = (1, 2, 3, 5, 7, 14)
#: The longest bank (start or maximum) a challenge may ask for.
LONGEST_BANK = timedelta(days=60)
#: Share of a turn's time after which the first reminder goes out.
REMINDER_SHARE = 0.8
#: The last reminder comes this long before the deadline (or 10% of the time, if less).
REMINDER_LEAD = HOUR
#: Each member's vacation per calendar year.
VACATION_PER_YEAR = timedelta(days=14)


class TimeControlError(ValueError):
    """A time control that cannot be read or does not make sense; the message
    can be shown to the member as it is."""


class OutOfTime(ValueError):
    """A move came after the mover's deadline: the game is lost on time."""


@dataclass(frozen=True, slots=True)
class DaysPerMove:
    """``days`` days for every move; the allowance refills after each move."""

    days: int = 3

    def __post_init__(self) -> None:
        if self.days not in DAYS_PER_MOVE_CHOICES:
            choices = ", ".join(map(str, DAYS_PER_MOVE_CHOICES))
            raise TimeControlError(
                _("days per move can be {choices}, not {days}", choices=choices, days=self.days)
            )

    @property
    def allowance(self) -> timedelta:
        return self.days * DAY


@dataclass(frozen=True, slots=True)
class Bank:
    """A bank of time per player: ``start`` at first, ``increment`` added after
    each of their moves, never more than ``maximum``."""

    start: timedelta
    increment: timedelta
    maximum: timedelta

    def __post_init__(self) -> None:
        if self.start <= timedelta(0):
            raise TimeControlError(_("a bank must start with some time"))
        if self.increment < timedelta(0):
            raise TimeControlError(_("the increment cannot be negative"))
        if self.maximum < self.start:
            raise TimeControlError(
                _(
                    "the maximum ({maximum}) cannot be less than the starting bank ({start})",
                    maximum=format_duration(self.maximum),
                    start=format_duration(self.start),
                )
            )
        if self.maximum > LONGEST_BANK:
            raise TimeControlError(
                _("a bank can hold at most {most}", most=format_duration(LONGEST_BANK))
            )


@dataclass(frozen=True, slots=True)
class NoLimit:
    """No time limit: no deadlines, no reminders."""


TimeControl = DaysPerMove | Bank | NoLimit

DEFAULT = DaysPerMove(3)


# --- text form: "3d", "3d+1d/7d", "none" --------------------------------------

MINUTE = timedelta(minutes=1)
_UNITS = {
    "d": DAY,
    "day": DAY,
    "days": DAY,
    "h": HOUR,
    "hour": HOUR,
    "hours": HOUR,
    "m": MINUTE,
    "min": MINUTE,
    "mins": MINUTE,
    "minute": MINUTE,
    "minutes": MINUTE,
}
_DURATION = re.compile(r"([0-9]+)\s*(days?|hours?|minutes?|mins?|d|h|m)?")
_NONE_WORDS = ("none", "no", "off", "unlimited", "no limit")


#: No duration in a time control may be longer: a correspondence move of a year is plenty,
#: and it keeps every deadline far inside what datetime can hold.
LONGEST = timedelta(days=365)


def parse_duration(text: str) -> timedelta:
    """``"3d"``, ``"12h"``, ``"1d12h"``, ``"30m"``, ``"2 days"``; a bare number means days."""
    cleaned = text.strip().lower()
    if not cleaned:
        raise TimeControlError(_("a duration is missing"))
    total = timedelta(0)
    position = 0
    for match in _DURATION.finditer(cleaned):
        if cleaned[position : match.start()].strip():
            break
        amount = int(match.group(1))
        if amount > LONGEST.days * 24 * 60:
            raise TimeControlError(
                _("{text} is longer than {days} days", text=repr(text.strip()), days=LONGEST.days)
            )
        total += amount * _UNITS[match.group(2) or "d"]
        position = match.end()
    if position == 0 or cleaned[position:].strip():
        raise TimeControlError(
            _(
                "{text} is not a duration: write days and hours like 3d, 12h or 1d12h",
                text=repr(text.strip()),
            )
        )
    if total > LONGEST:
        raise TimeControlError(
            _("{text} is longer than {days} days", text=repr(text.strip()), days=LONGEST.days)
        )
    return total


def format_duration(duration: timedelta) -> str:
    """The short form of a duration, to the minute: ``3d``, ``12h``, ``1d12h``, ``30m``, ``0d``."""
    minutes = int(duration.total_seconds() // 60)
    if minutes < 0:
        return "-" + format_duration(-duration)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [
        f"{days}d" if days else "",
        f"{hours}h" if hours else "",
        f"{minutes}m" if minutes else "",
    ]
    return "".join(parts) or "0d"


def parse_time_control(text: str) -> TimeControl:
    """Read a challenge's time control option.

    ``3d`` (or ``3``): days per move. ``3d+1d/7d``: a bank of 3 days, 1 day
    added per move, at most 7 days. ``none``: no limit. Raises
    :class:`TimeControlError` with a message for the member.
    """
    if not isinstance(text, str):
        raise TimeControlError(_("a time control is text, not {kind}", kind=type(text).__name__))
    cleaned = " ".join(text.strip().lower().split())
    if cleaned in _NONE_WORDS:
        return NoLimit()
    if "+" in cleaned or "/" in cleaned:
        match = re.fullmatch(r"([^+/]+)\+([^+/]+)/([^+/]+)", cleaned)
        if match is None:
            raise TimeControlError(
                _(
                    "{text} is not a bank: write start+increment/maximum, like 3d+1d/7d",
                    text=repr(text.strip()),
                )
            )
        start, increment, maximum = (parse_duration(part) for part in match.groups())
        return Bank(start, increment, maximum)
    duration = parse_duration(cleaned)
    if duration % DAY:
        raise TimeControlError(_("days per move are whole days, like 3d"))
    return DaysPerMove(duration // DAY)


def format_time_control(control: TimeControl) -> str:
    """The text form :func:`parse_time_control` reads back."""
    if isinstance(control, DaysPerMove):
        return f"{control.days}d"
    if isinstance(control, Bank):
        return (
            "+".join((format_duration(control.start), format_duration(control.increment)))
            + "/"
            + format_duration(control.maximum)
        )
    return "none"


def describe_time_control(control: TimeControl) -> str:
    """A phrase for people: "3 days per move", "a bank of 3 days, +1 day per move, up to 7 days"."""
    if isinstance(control, DaysPerMove):
        return _n("{count} day per move", "{count} days per move", control.days)
    if isinstance(control, Bank):
        return _(
            "a bank of {start}, +{increment} per move, up to {maximum}",
            start=describe_duration(control.start),
            increment=describe_duration(control.increment),
            maximum=describe_duration(control.maximum),
        )
    return _("no time limit")


def describe_duration(duration: timedelta) -> str:
    """A duration for people, to the minute: "2 days 3 hours", "45 minutes"."""
    minutes = max(0, int(duration.total_seconds() // 60))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [
        _n(*_UNIT_WORDS[unit], n)
        for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))
        if n
    ]
    return " ".join(parts) or _("less than a minute")


#: The units of a duration for people, singular and plural.
_UNIT_WORDS = {
    "day": N_n("{count} day", "{count} days"),
    "hour": N_n("{count} hour", "{count} hours"),
    "minute": N_n("{count} minute", "{count} minutes"),
}


# --- paused time (vacations) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    """A stretch of time ``[start, end)`` during which a member's clocks stop."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError("an interval cannot end before it starts")

    @property
    def duration(self) -> timedelta:
        return self.end - self.start


def _merged(pauses: Iterable[Interval]) -> list[Interval]:
    merged: list[Interval] = []
    for pause in sorted(pauses, key=lambda p: p.start):
        if merged and pause.start <= merged[-1].end:
            last = merged[-1]
            merged[-1] = Interval(last.start, max(last.end, pause.end))
        else:
            merged.append(pause)
    return merged


def paused_between(start: datetime, end: datetime, pauses: Iterable[Interval] = ()) -> timedelta:
    """How much of ``[start, end)`` falls inside the pauses (overlaps counted once)."""
    total = timedelta(0)
    for pause in _merged(pauses):
        overlap = min(end, pause.end) - max(start, pause.start)
        if overlap > timedelta(0):
            total += overlap
    return total


def running_between(start: datetime, end: datetime, pauses: Iterable[Interval] = ()) -> timedelta:
    """The clock time between two instants: wall time less the paused part."""
    return (end - start) - paused_between(start, end, pauses)


def when_elapsed(start: datetime, running: timedelta, pauses: Iterable[Interval] = ()) -> datetime:
    """The instant at which the clock, started at ``start``, has run for ``running``:
    ``start + running``, pushed later by every pause met on the way."""
    moment = start
    left = running
    for pause in _merged(pauses):
        if pause.end <= moment:
            continue
        if pause.start >= moment + left:
            break
        left -= max(pause.start - moment, timedelta(0))
        moment = max(moment, pause.end)
    return moment + left


# --- a player's clock ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clock:
    """One player's clock in one game: the time control and, for a bank, the
    time left in it (``remaining``; None for the other controls)."""

    control: TimeControl
    remaining: timedelta | None = None

    @classmethod
    def start(cls, control: TimeControl = DEFAULT) -> Clock:
        """A player's clock at the start of a game."""
        return cls(control, control.start if isinstance(control, Bank) else None)

    @property
    def allowance(self) -> timedelta | None:
        """The clock time the player has for their next move; None without a limit."""
        if isinstance(self.control, DaysPerMove):
            return self.control.allowance
        if isinstance(self.control, Bank):
            return self.remaining
        return None


def deadline_at(
    clock: Clock, turn_started_at: datetime, pauses: Iterable[Interval] = ()
) -> datetime | None:
    """When the player to move loses on time if they have not moved; None without
    a limit. ``pauses`` are the mover's vacations: they push the deadline later."""
    allowance = clock.allowance
    if allowance is None:
        return None
    return when_elapsed(turn_started_at, allowance, pauses)


def time_left(
    clock: Clock, turn_started_at: datetime, now: datetime, pauses: Iterable[Interval] = ()
) -> timedelta | None:
    """Clock time the player to move still has at ``now`` (negative once past
    the deadline); None without a limit."""
    allowance = clock.allowance
    if allowance is None:
        return None
    return allowance - running_between(turn_started_at, now, pauses)


def is_out_of_time(
    clock: Clock, turn_started_at: datetime, now: datetime, pauses: Iterable[Interval] = ()
) -> bool:
    """Whether the player to move has lost on time by ``now`` (strictly past the deadline)."""
    left = time_left(clock, turn_started_at, now, pauses)
    return left is not None and left < timedelta(0)


def after_move(
    clock: Clock, turn_started_at: datetime, moved_at: datetime, pauses: Iterable[Interval] = ()
) -> Clock:
    """The mover's clock after a move made at ``moved_at``.

    Days per move: unchanged (the allowance refills). Bank: the time the move
    took (less paused time) is taken from the bank, then the increment is
    added, capped at the maximum. A move after the deadline raises
    :class:`OutOfTime`.
    """
    if moved_at < turn_started_at:
        raise ValueError("a move cannot be made before its turn started")
    left = time_left(clock, turn_started_at, moved_at, pauses)
    if left is None:
        return clock
    if left < timedelta(0):
        raise OutOfTime(_("the move came {late} after the deadline", late=describe_duration(-left)))
    if isinstance(clock.control, Bank):
        bank = min(left + clock.control.increment, clock.control.maximum)
        return replace(clock, remaining=bank)
    return clock


def reminder_times(
    clock: Clock,
    turn_started_at: datetime,
    pauses: Iterable[Interval] = (),
    *,
    share: float = REMINDER_SHARE,
    lead: timedelta = REMINDER_LEAD,
) -> tuple[datetime, ...]:
    """When to remind the player to move during this turn: at most two instants,
    in order. The first when ``share`` of their time has run; the second ``lead``
    before the deadline, or 10% of their time before it if that is shorter.
    None of them without a limit."""
    if not 0 < share < 1:
        raise ValueError(f"the reminder share is between 0 and 1, not {share}")
    allowance = clock.allowance
    if allowance is None or allowance <= timedelta(0):
        return ()
    pauses = tuple(pauses)
    first = allowance * share
    last = allowance - min(lead, allowance / 10)
    running = [first] if last <= first else [first, last]
    return tuple(when_elapsed(turn_started_at, r, pauses) for r in running)


def next_reminder(
    clock: Clock,
    turn_started_at: datetime,
    sent: int,
    pauses: Iterable[Interval] = (),
) -> datetime | None:
    """The next reminder of this turn after ``sent`` have gone out; None when done."""
    times = reminder_times(clock, turn_started_at, pauses)
    return times[sent] if sent < len(times) else None


# --- vacation allowance ----------------------------------------------------------


def _year_bounds(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def vacation_used(vacations: Iterable[Interval], year: int) -> timedelta:
    """Vacation taken within calendar year ``year`` (UTC)."""
    start, end = _year_bounds(year)
    return paused_between(start, end, vacations)


def vacation_left(
    vacations: Iterable[Interval], now: datetime, allowance: timedelta = VACATION_PER_YEAR
) -> timedelta:
    """How much vacation a member still has this year, given the ones they took."""
    return max(allowance - vacation_used(vacations, now.astimezone(UTC).year), timedelta(0))


def start_vacation(
    vacations: Iterable[Interval], now: datetime, allowance: timedelta = VACATION_PER_YEAR
) -> Interval:
    """A vacation starting ``now`` that ends by itself when this year's allowance
    runs out. Raises ValueError when none is left (the message says so)."""
    left = vacation_left(vacations, now, allowance)
    if left <= timedelta(0):
        raise ValueError(
            _(
                "you have used all {allowance} of this year's vacation",
                allowance=describe_duration(allowance),
            )
        )
    return Interval(now, now + left)


def end_vacation(vacation: Interval, now: datetime) -> Interval:
    """The vacation as it stands when switched off at ``now`` (never longer
    than planned, never before it started)."""
    return Interval(vacation.start, max(vacation.start, min(vacation.end, now)))


__all__ = [
    "DAYS_PER_MOVE_CHOICES",
    "DEFAULT",
    "REMINDER_LEAD",
    "REMINDER_SHARE",
    "VACATION_PER_YEAR",
    "Bank",
    "Clock",
    "DaysPerMove",
    "Interval",
    "NoLimit",
    "OutOfTime",
    "TimeControl",
    "TimeControlError",
    "after_move",
    "deadline_at",
    "describe_duration",
    "describe_time_control",
    "end_vacation",
    "format_duration",
    "format_time_control",
    "is_out_of_time",
    "next_reminder",
    "parse_duration",
    "parse_time_control",
    "paused_between",
    "reminder_times",
    "running_between",
    "start_vacation",
    "time_left",
    "vacation_left",
    "vacation_used",
    "when_elapsed",
]
