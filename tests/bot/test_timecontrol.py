"""Time controls: deadlines, banks, reminders and vacations, with explicit datetimes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.timecontrol import (
    DEFAULT,
    Bank,
    Clock,
    DaysPerMove,
    Interval,
    NoLimit,
    OutOfTime,
    TimeControlError,
    after_move,
    deadline_at,
    describe_duration,
    describe_time_control,
    end_vacation,
    format_time_control,
    is_out_of_time,
    next_reminder,
    parse_duration,
    parse_time_control,
    reminder_times,
    start_vacation,
    time_left,
    vacation_left,
    vacation_used,
)

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def at(day: int, hour: int = 0, minute: int = 0, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


# --- deadlines -------------------------------------------------------------------


def test_default_is_three_days_per_move():
    assert DaysPerMove(3) == DEFAULT
    clock = Clock.start()
    assert deadline_at(clock, at(1, 12)) == at(4, 12)


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 14])
def test_days_per_move_deadline_and_refill(days):
    clock = Clock.start(DaysPerMove(days))
    assert deadline_at(clock, at(1, 9)) == at(1, 9) + days * DAY
    # a move with a minute to spare does not shorten the next turn
    after = after_move(clock, at(1, 9), at(1, 9) + days * DAY - timedelta(minutes=1))
    assert deadline_at(after, at(20)) == at(20) + days * DAY


def test_no_limit_has_no_deadline_and_no_reminders():
    clock = Clock.start(NoLimit())
    assert deadline_at(clock, at(1)) is None
    assert reminder_times(clock, at(1)) == ()
    assert time_left(clock, at(1), at(28)) is None
    assert not is_out_of_time(clock, at(1), at(28))
    assert after_move(clock, at(1), at(28)) == clock


def test_bank_pays_for_the_move_then_adds_the_increment():
    clock = Clock.start(Bank(3 * DAY, DAY, 7 * DAY))
    assert clock.remaining == 3 * DAY
    assert deadline_at(clock, at(1)) == at(4)
    # took 2 days: 3 - 2 + 1 = 2 days
    clock = after_move(clock, at(1), at(3))
    assert clock.remaining == 2 * DAY
    assert deadline_at(clock, at(5)) == at(7)


def test_bank_is_capped_at_its_maximum():
    clock = Clock.start(Bank(3 * DAY, DAY, 7 * DAY))
    for day in range(1, 10):  # nine instant replies: 3 + 9 would be 12 days
        clock = after_move(clock, at(day), at(day))
    assert clock.remaining == 7 * DAY


def test_a_move_at_the_deadline_is_in_time_and_after_it_is_not():
    clock = Clock.start(DaysPerMove(1))
    assert not is_out_of_time(clock, at(1), at(2))
    assert is_out_of_time(clock, at(1), at(2) + timedelta(seconds=1))
    bank = Clock.start(Bank(DAY, HOUR, 2 * DAY))
    assert after_move(bank, at(1), at(2)).remaining == HOUR
    with pytest.raises(OutOfTime, match="after the deadline"):
        after_move(bank, at(1), at(2, 0, 5))


def test_time_left_counts_down():
    clock = Clock.start(DaysPerMove(2))
    assert time_left(clock, at(1), at(2, 6)) == 18 * HOUR


# --- reminders -------------------------------------------------------------------


def test_reminders_at_eighty_percent_and_an_hour_before():
    clock = Clock.start(DaysPerMove(5))  # 120 hours
    assert reminder_times(clock, at(1)) == (at(1) + 96 * HOUR, at(6) - HOUR)


def test_on_a_short_clock_the_last_reminder_comes_at_ninety_percent():
    clock = Clock(Bank(DAY, HOUR, 2 * DAY), remaining=5 * HOUR)  # 10% = 30 minutes
    assert reminder_times(clock, at(1)) == (at(1, 4), at(1, 4, 30))


def test_never_more_than_two_reminders_and_only_one_when_they_would_coincide():
    assert len(reminder_times(Clock.start(DaysPerMove(14)), at(1))) == 2
    # at 97% of a day (23:16:48) the first reminder comes after the hour-before one
    # would (23:00), so only the first is sent
    assert reminder_times(Clock.start(DaysPerMove(1)), at(1), share=0.97) == (at(1) + 0.97 * DAY,)


def test_next_reminder_walks_through_the_turn_once():
    clock = Clock.start(DaysPerMove(1))
    first = next_reminder(clock, at(1), sent=0)
    second = next_reminder(clock, at(1), sent=1)
    assert (first, second) == (at(1, 19, 12), at(1, 23))
    assert next_reminder(clock, at(1), sent=2) is None


# --- vacation --------------------------------------------------------------------


def test_vacation_during_the_turn_shifts_the_deadline_by_the_overlap():
    clock = Clock.start(DaysPerMove(3))
    vacation = Interval(at(2), at(4))  # two days away, inside the turn
    assert deadline_at(clock, at(1), [vacation]) == at(6)
    # the clock stood still while away
    assert time_left(clock, at(1), at(5), [vacation]) == DAY
    assert not is_out_of_time(clock, at(1), at(5, 23), [vacation])


def test_only_the_part_of_a_vacation_inside_the_turn_counts():
    clock = Clock.start(DaysPerMove(3))
    before = Interval(at(1, month=2), at(2))  # ended a day after the turn began at 1 March
    assert deadline_at(clock, at(1), [before]) == at(5)
    after = Interval(at(10), at(12))  # after the deadline: irrelevant
    assert deadline_at(clock, at(1), [after]) == at(4)
    overlapping = [Interval(at(2), at(3)), Interval(at(2, 12), at(3, 12))]  # counted once
    assert deadline_at(clock, at(1), overlapping) == at(5, 12)


def test_vacation_moves_the_reminders_too():
    clock = Clock.start(DaysPerMove(1))
    away = Interval(at(1, 10), at(1, 20))
    assert reminder_times(clock, at(1), [away]) == (at(2, 5, 12), at(2, 9))


def test_vacation_is_not_charged_to_a_bank():
    clock = Clock.start(Bank(3 * DAY, DAY, 7 * DAY))
    after = after_move(clock, at(1), at(6), [Interval(at(2), at(6))])
    assert after.remaining == 3 * DAY  # one day used, one day added


def test_yearly_vacation_allowance():
    taken = [Interval(at(1), at(6)), Interval(at(30, month=12), at(3, month=1) + 365 * DAY)]
    assert vacation_used(taken, 2026) == 5 * DAY + 2 * DAY
    assert vacation_left(taken, at(15)) == 7 * DAY
    planned = start_vacation(taken, at(15))
    assert planned == Interval(at(15), at(22))
    assert end_vacation(planned, at(17)) == Interval(at(15), at(17))
    assert end_vacation(planned, at(25)) == planned  # it had already ended by itself


def test_no_vacation_left():
    with pytest.raises(ValueError, match="used all 14 days"):
        start_vacation([Interval(at(1), at(15))], at(20))


# --- text form -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "control"),
    [
        ("3d", DaysPerMove(3)),
        ("14", DaysPerMove(14)),
        (" 7 Days ", DaysPerMove(7)),
        ("3d+1d/7d", Bank(3 * DAY, DAY, 7 * DAY)),
        ("1d12h + 6h / 3d", Bank(36 * HOUR, 6 * HOUR, 3 * DAY)),
        ("2d+0d/2d", Bank(2 * DAY, timedelta(0), 2 * DAY)),
        ("none", NoLimit()),
        ("NONE", NoLimit()),
    ],
)
def test_parse(text, control):
    assert parse_time_control(text) == control


@pytest.mark.parametrize(
    ("control", "text", "words"),
    [
        (DaysPerMove(3), "3d", "3 days per move"),
        (DaysPerMove(1), "1d", "1 day per move"),
        (
            Bank(3 * DAY, DAY, 7 * DAY),
            "3d+1d/7d",
            "a bank of 3 days, +1 day per move, up to 7 days",
        ),
        (
            Bank(36 * HOUR, 6 * HOUR, 3 * DAY),
            "1d12h+6h/3d",
            "a bank of 1 day 12 hours, +6 hours per move, up to 3 days",
        ),
        (NoLimit(), "none", "no time limit"),
    ],
)
def test_format(control, text, words):
    assert format_time_control(control) == text
    assert describe_time_control(control) == words


controls = st.one_of(
    st.sampled_from([1, 2, 3, 5, 7, 14]).map(DaysPerMove),
    st.just(NoLimit()),
    st.tuples(
        st.integers(1, 30 * 24 * 60), st.integers(0, 5 * 24 * 60), st.integers(0, 30 * 24 * 60)
    ).map(
        lambda t: Bank(
            timedelta(minutes=t[0]), timedelta(minutes=t[1]), timedelta(minutes=t[0] + t[2])
        )
    ),
)


@given(controls)
def test_format_then_parse_gives_the_same_control(control):
    assert parse_time_control(format_time_control(control)) == control


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "missing"),
        ("4d", "1, 2, 3, 5, 7, 14"),
        ("0", "1, 2, 3, 5, 7, 14"),
        ("12h", "whole days"),
        ("3x", "not a duration"),
        ("fast", "not a duration"),
        ("3d+1d", "start+increment/maximum"),
        ("3d+1d/2d", "cannot be less than"),
        ("0d+1d/2d", "start with some time"),
        ("3d+1d/90d", "at most"),
        ("3d++1d/7d", "start+increment/maximum"),
    ],
)
def test_bad_input_is_refused_with_a_reason(text, message):
    with pytest.raises(TimeControlError, match=message.replace("+", r"\+")):
        parse_time_control(text)


def test_durations():
    assert parse_duration("1d12h") == 36 * HOUR
    assert parse_duration("90m") == 90 * timedelta(minutes=1)
    assert describe_duration(DAY + 3 * HOUR) == "1 day 3 hours"
    assert describe_duration(timedelta(seconds=20)) == "less than a minute"


@pytest.mark.parametrize(
    "text",
    [
        "99999999999999999999d",
        "366d",
        "3d+1d/400d",
        "9" * 30 + "m+1d/7d",
        "1d+" + "9" * 25 + "h/7d",
    ],
)
def test_durations_longer_than_a_year_are_refused(text):
    with pytest.raises(TimeControlError, match="longer than 365 days"):
        parse_time_control(text)
