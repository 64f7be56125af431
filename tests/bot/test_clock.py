"""The correspondence clock's arithmetic: time controls, turns, pauses and vacation years."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.service.clock import (
    DAY,
    TurnClock,
    format_duration,
    parse_days,
    pause,
    resume,
    start_turn,
    vacation_left,
    vacation_used,
)


def _t(year: int, month: int, day: int, hour: int = 0) -> float:
    return datetime(year, month, day, hour, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(("text", "days"), [
    ("3", 3), ("3d", 3), ("7 days", 7), ("1 day", 1), ("14D", 14), ("none", None), ("-", None),
])
def test_time_controls_are_read_in_several_forms(text, days):
    assert parse_days(text) == days


@pytest.mark.parametrize("text", ["4", "0", "30d", "soon", "2.5"])
def test_other_time_controls_are_refused_with_the_choices(text):
    with pytest.raises(ValueError) as err:
        parse_days(text)
    assert str(err.value) == (f"{text!r} is not a time control: the time per move is 1, 2, "
                              f"3, 5, 7 or 14 days, or none")


def test_a_turn_has_its_deadline_and_a_reminder_at_80_percent():
    assert start_turn(3, 1000.0) == TurnClock(deadline=1000.0 + 3 * DAY,
                                              reminder_due=1000.0 + 2.4 * DAY)
    assert start_turn(None, 1000.0) == TurnClock()
    assert start_turn(2, 1000.0, paused=True) == TurnClock(paused_remaining=2 * DAY)


def test_a_paused_clock_keeps_the_time_left_and_resumes_with_it():
    clock = start_turn(5, 0.0)
    paused = pause(clock, 1 * DAY)
    assert paused == TurnClock(paused_remaining=4 * DAY)
    resumed = resume(paused, 5, 10 * DAY)
    assert resumed == TurnClock(deadline=14 * DAY, reminder_due=13 * DAY)


def test_a_clock_resumed_late_in_the_turn_reminds_at_once():
    paused = pause(start_turn(1, 0.0), 0.9 * DAY)
    resumed = resume(paused, 1, 5 * DAY)
    assert resumed.deadline == pytest.approx(5.1 * DAY)
    assert resumed.reminder_due == pytest.approx(4.9 * DAY)  # already due


def test_vacation_counts_towards_the_year_in_which_it_started():
    now = _t(2026, 6, 1)
    spells = [(_t(2025, 12, 20), _t(2026, 1, 5)),  # last year's
              (_t(2026, 2, 1), _t(2026, 2, 4)),  # 3 days
              (_t(2026, 5, 31), None)]  # running: 1 day so far
    assert vacation_used(spells, now) == pytest.approx(4 * DAY)
    assert vacation_left(10, spells, now) == pytest.approx(6 * DAY)
    assert vacation_left(3, spells, now) == 0


@pytest.mark.parametrize(("seconds", "text"), [
    (0, "0 seconds"), (1, "1 second"), (59, "59 seconds"), (61, "2 minutes"),
    (3 * DAY - 0.5, "3 days"), (DAY + 3600, "1 day 1 hour"), (2 * 3600 + 600, "2 hours 10 minutes"),
])
def test_durations_read_naturally(seconds, text):
    assert format_duration(seconds) == text
