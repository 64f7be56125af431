"""Clock choices beyond "N days per move": Fischer increments and a cap on a player's
total time in the game.

A time control is written as words a challenge takes (and stored as that text):

- ``3d`` — 3 days for every move (the classic correspondence clock, `bot.service.clock`);
- ``3d+1d`` — Fischer: a bank of 3 days to start with; each move adds 1 day to what was
  left of it; ``max10d`` caps the bank at 10 days (without it, at no limit);
- ``total30d`` — at most 30 days of thinking time in the whole game for each player (with
  either of the above): a turn never lasts longer than what is left of it.

Each player has a bank (Fischer) and the time they have spent (for the total), kept in
the game row (``bank0``, ``bank1``, ``spent0``, ``spent1``). A turn's deadline is now plus
what the player may use: the bank (Fischer) or the days per move, no more than the total
left. When a turn ends, the time it took is what was available minus what is left
(``deadline - now``; a vacation pauses it, so vacations never cost time). The reminder falls
due at 80% of what was available. `TimeControls` is the service's
`clocks` topic.
"""

from __future__ import annotations

from dataclasses import replace

from ..i18n import Text, _, joined
from ..storage import Database, Session
from .boundary import guard
from .clock import DAY, REMINDER_AT, TimeControl, TurnClock, format_duration, read
from .model import Game


def available(tc: TimeControl, bank: float, spent: float) -> float:
    """Seconds a player may use on the turn that starts."""
    per_turn = bank if tc.fischer else tc.days * DAY
    if tc.total is not None:
        per_turn = min(per_turn, max(0.0, tc.total * DAY - spent))
    return per_turn


def turn_clock(seconds: float, now: float, paused: bool) -> TurnClock:
    if paused:
        return TurnClock(paused_remaining=seconds)
    return TurnClock(deadline=now + seconds, reminder_due=now + REMINDER_AT * seconds)


def after_turn(tc: TimeControl, bank: float, spent: float, clock: TurnClock,
               now: float) -> tuple[float, float]:
    """The player's bank and time spent once their turn ends at ``now``."""
    left = clock.paused_remaining if clock.paused else (clock.deadline or now) - now
    used = max(0.0, available(tc, bank, spent) - max(0.0, left))
    if tc.fischer:
        assert tc.increment is not None
        bank = bank - used + tc.increment * DAY
        if tc.bank_max is not None:
            bank = min(bank, tc.bank_max * DAY)
    return bank, spent + used


async def store_clock(s: Session, game_id: int, clock: TurnClock) -> None:
    await s.execute("UPDATE games SET deadline = ?, reminder_due = ?, paused_remaining = ? "
                    "WHERE id = ?",
                    (clock.deadline, clock.reminder_due, clock.paused_remaining, game_id))


async def opening_clock(s: Session, game: Game, challenge_id: int | None,
                        side: int, now: float, clock: TurnClock,
                        time_control: str | None = None) -> TurnClock:
    """The first turn's clock of a game from a challenge (or a tournament: its
    ``time_control``) that chose a time control (the control and the banks are stored in
    the game)."""
    if challenge_id is not None:
        row = await s.one("SELECT time_control FROM challenges WHERE id = ?", (challenge_id,))
        time_control = row["time_control"] if row else None
    tc = read(time_control)
    if tc is None:
        return clock
    bank = tc.days * DAY
    # days per move stays set (rounded) so that vacations pause and resume the clock
    await s.execute("UPDATE games SET time_control = ?, days = ?, bank0 = ?, bank1 = ?, "
                    "spent0 = 0, spent1 = 0 WHERE id = ?",
                    (tc.text(), max(1, round(tc.days)), bank, bank, game.id))
    return turn_clock(available(tc, bank, 0.0), now, game.on_vacation(side, now))

async def next_clock(s: Session, game: Game, mover: int, now: float,
                      clock: TurnClock) -> tuple[TurnClock, Game]:
    """After ``mover``'s turn: the next turn's clock (``clock`` as computed for days per
    move, kept for games without a choice) and the game with the mover's bank and time
    spent, both stored. The choice is the game's as read (and kept up to date) in this
    transaction, so that a move reads the game row once."""
    tc, banks, spent = game_choice(game)
    if tc is None:
        return clock, game
    banks[mover], spent[mover] = after_turn(tc, banks[mover], spent[mover], game.clock, now)
    await s.execute("UPDATE games SET bank0 = ?, bank1 = ?, spent0 = ?, spent1 = ? "
                    "WHERE id = ?", (*banks, *spent, game.id))
    game = replace(game, banks=(banks[0], banks[1]), spent=(spent[0], spent[1]))
    nxt = 1 - mover
    return turn_clock(available(tc, banks[nxt], spent[nxt]), now,
                      game.on_vacation(nxt, now)), game

async def clock_again(s: Session, game: Game, side: int, now: float,
                       clock: TurnClock) -> TurnClock:
    """The clock of ``side``'s turn after a takeback: what their bank and total allow
    now (a takeback gives no time back)."""
    tc, banks, spent = game_choice(game)
    if tc is None:
        return clock
    return turn_clock(available(tc, banks[side], spent[side]), now,
                      game.on_vacation(side, now))


@guard  # every argument of every public method is checked before it runs
class TimeControls:
    """A game's clock choice in words (`GameService.clocks`): reads the database only."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def clock_state(self, game: Game) -> str:
        """Each side's bank and total left, for notices and boards ('' for days per move
        without a total)."""
        async with self.db.snapshot() as s:
            tc, banks, spent = await _choice(s, game.id)
        if tc is None:
            return ""
        parts = []
        for side in (0, 1):
            bits = []
            if tc.fischer:
                bits.append(_("{duration} in the bank", duration=format_duration(banks[side])))
            if tc.total is not None:
                left = max(0.0, tc.total * DAY - spent[side])
                bits.append(_("{duration} left in all", duration=format_duration(left)))
            parts.append(Text("{name}: {clock}", {"name": game.names[side],  # a layout
                                                  "clock": joined(bits, ", ")}))
        return _("Clock ({choice}): {sides}.", choice=tc.describe(),
                 sides=joined(parts, "; "))


async def _choice(s: Session, game_id: int) -> tuple[TimeControl | None, list[float], list[float]]:
    """A game's clock choice, its banks and the time each side has spent."""
    row = await s.one("SELECT time_control, bank0, bank1, spent0, spent1 FROM games "
                      "WHERE id = ?", (game_id,))
    if row is None:
        return None, [0.0, 0.0], [0.0, 0.0]
    return (read(row["time_control"]), [row["bank0"] or 0.0, row["bank1"] or 0.0],
            [row["spent0"] or 0.0, row["spent1"] or 0.0])


def game_choice(game: Game) -> tuple[TimeControl | None, list[float], list[float]]:
    """As `_choice`, from a game read in the same transaction."""
    return (read(game.time_control), [game.banks[0] or 0.0, game.banks[1] or 0.0],
            [game.spent[0] or 0.0, game.spent[1] or 0.0])
