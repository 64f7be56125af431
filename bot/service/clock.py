"""The correspondence clock: days per move, the reminder, pauses, and vacation allowance.

Only the player to move has a running clock. A turn's clock is three numbers kept in the
game row: the ``deadline`` (when the player to move loses on time), the ``reminder_due``
time (when 80% of the period is used) and, while the clock is paused for a vacation, the
``paused_remaining`` seconds instead of a deadline. Times are seconds since the epoch, read
from an injected clock (a ``now()`` callable) so that tests can move time by hand.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from ..i18n import Text, _, _n, joined
from .words import or_list

Clock = Callable[[], float]
system_clock: Clock = time.time

DAY = 86_400.0
ALLOWED_DAYS = (1, 2, 3, 5, 7, 14)
REMINDER_AT = 0.8  # the share of the period used when the player is reminded
NO_CLOCK_WORDS = ("none", "no", "-", "off", "unlimited")


@dataclass(frozen=True)
class TurnClock:
    """The clock of the turn in progress (all None for a game without clock)."""

    deadline: float | None = None
    reminder_due: float | None = None
    paused_remaining: float | None = None

    @property
    def paused(self) -> bool:
        return self.paused_remaining is not None


NO_CLOCK = TurnClock()


def parse_days(text: str) -> int | None:
    """Days per move from ``3``, ``3d``, ``3 days`` or ``none``; ValueError otherwise."""
    word = text.strip().lower()
    if word in NO_CLOCK_WORDS:
        return None
    for suffix in ("days", "day", "d"):
        if word.endswith(suffix):
            word = word[: -len(suffix)].strip()
            break
    if not (word.isascii() and word.isdigit()) or int(word) not in ALLOWED_DAYS:
        raise ValueError(time_control_help(text))
    return int(word)


def time_control_help(text: str) -> Text:
    return _("{text} is not a time control: the time per move is {choices} days, or none",
             text=repr(text), choices=or_list([str(d) for d in ALLOWED_DAYS]))


def describe_days(days: int | None) -> str:
    if days is None:
        return _("no clock")
    return _n("{n} day per move", "{n} days per move", days)


def start_turn(days: int | None, now: float, paused: bool = False) -> TurnClock:
    """The clock of a turn that starts now (paused when the player is on vacation)."""
    if days is None:
        return NO_CLOCK
    period = days * DAY
    if paused:
        return TurnClock(paused_remaining=period)
    return TurnClock(deadline=now + period, reminder_due=now + REMINDER_AT * period)


def pause(clock: TurnClock, now: float) -> TurnClock:
    """Stop a running clock, keeping the time left."""
    if clock.deadline is None:
        return clock
    return TurnClock(paused_remaining=max(0.0, clock.deadline - now))


def resume(clock: TurnClock, days: int | None, now: float) -> TurnClock:
    """Restart a paused clock. The reminder falls due when 80% of the period is used, at
    once if that point had passed before the pause: a player back from vacation is told
    how little time is left."""
    if days is None or clock.paused_remaining is None:
        return clock
    deadline = now + clock.paused_remaining
    return TurnClock(deadline=deadline, reminder_due=deadline - (1 - REMINDER_AT) * days * DAY)


# --- vacations -------------------------------------------------------------------------
def year_start(t: float) -> float:
    """The start of the calendar year (UTC) that contains ``t``."""
    year = datetime.fromtimestamp(t, UTC).year
    return datetime(year, 1, 1, tzinfo=UTC).timestamp()


def vacation_used(spells: Iterable[tuple[float, float | None]], now: float) -> float:
    """Seconds of vacation taken this calendar year. A vacation counts in full towards the
    year in which it started; one still running counts up to now."""
    since = year_start(now)
    return sum(max(0.0, (now if end is None else end) - start)
               for start, end in spells if start >= since)


def vacation_left(allowance_days: float, spells: Iterable[tuple[float, float | None]],
                  now: float) -> float:
    """Seconds of vacation still allowed this calendar year."""
    return max(0.0, allowance_days * DAY - vacation_used(spells, now))


# --- words -----------------------------------------------------------------------------
def format_duration(seconds: float) -> str:
    """``2 days 3 hours``, ``5 hours 10 minutes``, ``40 seconds``."""
    # whole minutes, rounded up, above one minute: "3 days" rather than "2 days 23 hours"
    seconds = max(0, math.ceil(seconds))
    if seconds > 60:
        seconds = math.ceil(seconds / 60) * 60
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, secs = divmod(rest, 60)
    words = [word for n, word in (
        (days, _n("{n} day", "{n} days", days)), (hours, _n("{n} hour", "{n} hours", hours)),
        (minutes, _n("{n} minute", "{n} minutes", minutes))) if n]
    if not words:
        return _n("{n} second", "{n} seconds", secs)
    return joined(words[:2])


def format_time(t: float) -> str:
    """A moment as players read it: ``2026-05-01 13:05 UTC``."""
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


# --- clock choices: days per move, Fischer banks, totals (`bot.service.timecontrol`) ---
_DAYS = r"(\d+(?:\.\d+)?)d"
_FISCHER = re.compile(rf"^{_DAYS}\+{_DAYS}$")
_CAP = re.compile(rf"^max{_DAYS}$")
_TOTAL = re.compile(rf"^total{_DAYS}$")
MAX_DAYS = 365.0


@dataclass(frozen=True)
class TimeControl:
    """The clock of a game: days per move, or a Fischer bank; and a total per player."""

    days: float  # classic: per move; Fischer: the bank at the start
    increment: float | None = None  # Fischer: days added after each move (None: classic)
    bank_max: float | None = None  # Fischer: the most the bank holds
    total: float | None = None  # the most time a player may use in the whole game

    @property
    def fischer(self) -> bool:
        return self.increment is not None

    def text(self) -> str:
        """The words that choose it: ``3d+1d max10d total30d``."""
        words = [f"{self.days:g}d" + (f"+{self.increment:g}d" if self.fischer else "")]
        if self.bank_max is not None:
            words.append(f"max{self.bank_max:g}d")
        if self.total is not None:
            words.append(f"total{self.total:g}d")
        return " ".join(words)

    def describe(self) -> Text:
        """``3 days + 1 day per move, at most 10 days in the bank, 30 days in all``."""
        if self.fischer:
            assert self.increment is not None
            parts = [_("{base} + {increment} per move", base=_days(self.days),
                       increment=_days(self.increment))]
            if self.bank_max is not None:
                parts.append(_("at most {days} in the bank", days=_days(self.bank_max)))
        else:
            parts = [_("{days} per move", days=_days(self.days))]
        if self.total is not None:
            parts.append(_("at most {days} in all", days=_days(self.total)))
        return joined(parts, ", ")


def _days(n: float) -> Text:
    # the count that chooses the plural form: a fraction of a day takes the form of many
    # (English: 1.5 days), as gettext's rules count whole numbers only
    count = int(n) if float(n).is_integer() else 2
    return _n("{days} day", "{days} days", count, days=format(n, "g"))


def describe_clock(days: int | None, time_control: str | None) -> str:
    """A game's or challenge's clock in words: its choice, else its days per move."""
    tc = read(time_control)
    return tc.describe() if tc else describe_days(days)


def is_clock_word(word: str) -> bool:
    """Whether a challenge's word belongs to a time control of this module."""
    low = word.lower()
    return bool(_FISCHER.match(low) or _CAP.match(low) or _TOTAL.match(low))


def parse_time_control(words: list[str], days: int | None) -> TimeControl | None:
    """The time control of a challenge's clock words (with its days per move, if any);
    None for the classic clock alone. ValueError with a friendly message otherwise (its
    ``args[0]``: the catalogue's message, for the reader's language)."""
    fischer = cap = total = None
    for word in words:
        low = word.lower()
        if m := _FISCHER.match(low):
            fischer = (float(m[1]), float(m[2]))
        elif m := _CAP.match(low):
            cap = float(m[1])
        elif m := _TOTAL.match(low):
            total = float(m[1])
    if fischer is None and cap is None and total is None:
        return None
    if fischer is not None and days is not None:
        raise ValueError(_("choose either {days}d per move or a Fischer clock such as "
                           "3d+1d, not both", days=days))
    if cap is not None and fischer is None:
        raise ValueError(_("a bank maximum such as max10d needs a Fischer clock, as in "
                           "`3d+1d max10d`"))
    if fischer is None and days is None:
        raise ValueError(_("a total such as total30d needs a clock to cap, as in "
                           "`3d total30d`"))
    base, increment = fischer if fischer else (float(days or 0), None)  # type: ignore[misc]
    for value in (base, increment, cap, total):
        if value is not None and not 0 < value <= MAX_DAYS:
            raise ValueError(_("clock times are more than 0 and at most {most} days",
                               most=format(MAX_DAYS, "g")))
    if cap is not None and cap < base:
        raise ValueError(_("the bank cannot start above its maximum ({base}d > {cap}d)",
                           base=format(base, "g"), cap=format(cap, "g")))
    return TimeControl(base, increment, cap, total)


def read(text: str | None) -> TimeControl | None:
    """A stored time control (its `TimeControl.text`)."""
    if not text:
        return None
    words = text.split()
    days = None if _FISCHER.match(words[0]) else int(float(words[0][:-1]))
    return parse_time_control(words, days) or TimeControl(float(days or 0))
