"""Vacations: a player pauses all their clocks, up to a yearly allowance the host sets.

While a player is on vacation, the clock of every game in which they are to move is
paused, and a turn that passes to them starts paused; when they come back (or the
allowance runs out, applied by the scheduler as of that moment) the clocks run again with
the time they had left. `Vacations` is the service's
`vacations` topic (``service.vacations.start(...)``).
"""

from __future__ import annotations

from dataclasses import replace

from ..config import Settings
from ..i18n import _, joined
from ..storage import Database, Session
from . import outbox
from .boundary import guard
from .clock import (
    DAY,
    Clock,
    format_duration,
    pause,
    resume,
    vacation_left,
    year_start,
)
from .model import Game, Player
from .phrasing import command, moment
from .results import Done, Reason, Refusal, Result
from .timecontrol import store_clock


@guard  # every argument of every public method is checked before it runs
class Vacations:
    """Players' vacations and the clocks they pause (`GameService.vacations`): the
    database, the clock and the vacation days in the settings."""

    def __init__(self, db: Database, now: Clock, settings: Settings) -> None:
        self.db, self.now, self.settings = db, now, settings

    async def start(self, player: Player, days: float | None = None) -> Result:
        """Pause the player's clocks for ``days`` (default: the rest of this year's
        allowance) or until they come back."""
        now = self.now()
        async with self.db.transaction() as s:
            row = await s.one("SELECT * FROM players WHERE id = ?", (player.id,))
            assert row is not None
            player = Player.from_row(row)
            if player.on_vacation(now):
                assert player.vacation_until is not None
                return Refusal(Reason.ALREADY_ON_VACATION,
                               _("You are already on vacation until {until}; send {back} to "
                                 "end it.", until=moment(player.vacation_until),
                                 back=command("back")))
            if player.vacation_until is not None:  # ran out before the scheduler saw it
                await self._come_back(s, player, player.vacation_until)
            left = vacation_left(self.settings.vacation_days,
                                 await self._vacation_spells(s, player.id, now), now)
            if left <= 0:
                allowance = f"{self.settings.vacation_days:g}"
                return Refusal(Reason.NO_VACATION_LEFT,
                               _("You have used all {days} days of vacation for this year.",
                                 days=allowance))
            length = left if days is None else min(days * DAY, left)
            until = now + length
            await s.insert("INSERT INTO vacations (player_id, started_at) VALUES (?, ?)",
                           (player.id, now))
            await s.execute("UPDATE players SET vacation_until = ? WHERE id = ?",
                            (until, player.id))
            paused = await self._pause_clocks(s, player, now)
        values = {"until": moment(until), "length": format_duration(length),
                  "back": command("back")}
        said = (_("You are on vacation until {until} ({length}). Your clocks are paused "
                  "(games to move in: {games}); send {back} when you return.",
                  games=", ".join(f"#{g}" for g in paused), **values) if paused else
                _("You are on vacation until {until} ({length}). Your clocks are paused "
                  "(games to move in: none at the moment); send {back} when you return.",
                  **values))
        return Done(said, player=replace(player, vacation_until=until))

    async def _vacation_spells(self, s: Session, player_id: int,
                               now: float) -> list[tuple[float, float | None]]:
        rows = await s.all("SELECT started_at, ended_at FROM vacations WHERE player_id = ? "
                           "AND started_at >= ?", (player_id, year_start(now)))
        return [(r["started_at"], r["ended_at"]) for r in rows]

    async def _my_turn_games(self, s: Session, player_id: int) -> list[Game]:
        rows = await s.all(Game.GAME_SQL + " WHERE g.status = 'active' AND g.days IS NOT NULL "
                           "AND ((g.player0 = ? AND g.to_move = 0) OR "
                           "(g.player1 = ? AND g.to_move = 1)) ORDER BY g.id",
                           (player_id, player_id))
        return Game.readable(rows)

    async def _pause_clocks(self, s: Session, player: Player, now: float) -> list[int]:
        paused = []
        for game in await self._my_turn_games(s, player.id):
            if game.clock.paused:
                continue
            await store_clock(s, game.id, pause(game.clock, now))
            paused.append(game.id)
            side = game.side_of(player.id)
            await outbox.notify_side(s, game, 1 - side, "vacation", now,
                                    _("{name} is on vacation; the clock of game #{game} is "
                                      "paused.", name=player.display_name, game=game.id))
        return paused

    async def back_by_moving(self, player: Player, done: Done) -> Done:
        """A player on vacation who moves is back: the vacation ends (their other clocks run
        again) and the move's answer says so. Whether they are away is read with the game
        in the move's own transaction, so the answer costs no read of its own."""
        side = done.game.side_of(player.id) if done.game is not None else None
        if side is None or done.game.vacation_until[side] is None:  # type: ignore[union-attr]
            return done
        back = await self.end(player)
        if not isinstance(back, Done):
            return done
        return replace(done, message=joined(
            [done.template, _("Moving ends your vacation: your clocks run again.")]))

    async def end(self, player: Player) -> Result:
        """Come back from vacation: the paused clocks run again."""
        now = self.now()
        async with self.db.transaction() as s:
            row = await s.one("SELECT * FROM players WHERE id = ?", (player.id,))
            assert row is not None
            player = Player.from_row(row)
            if player.vacation_until is None:
                return Refusal(Reason.NOT_ON_VACATION, _("You are not on vacation."))
            resumed = await self._come_back(s, player, min(now, player.vacation_until))
        said = (_("Welcome back! Your clocks run again (games to move in: {games}).",
                  games=", ".join(f"#{g}" for g in resumed)) if resumed else
                _("Welcome back! Your clocks run again (games to move in: none)."))
        return Done(said, player=replace(player, vacation_until=None))

    async def _come_back(self, s: Session, player: Player, at: float) -> list[int]:
        """End the vacation at time ``at`` and restart the paused clocks from then."""
        await s.execute("UPDATE vacations SET ended_at = ? WHERE player_id = ? "
                        "AND ended_at IS NULL", (at, player.id))
        await s.execute("UPDATE players SET vacation_until = NULL WHERE id = ?", (player.id,))
        resumed = []
        for game in await self._my_turn_games(s, player.id):
            if not game.clock.paused:
                continue
            clock = resume(game.clock, game.days, at)
            await store_clock(s, game.id, clock)
            resumed.append(game.id)
            side = game.side_of(player.id)
            assert side is not None and clock.deadline is not None
            await outbox.notify_side(s, game, 1 - side, "vacation", at,
                                    _("{name} is back from vacation; the clock of game #{game} "
                                      "runs again.", name=player.display_name, game=game.id))
            await outbox.notify_side(s, game, side, "your-move", at, joined([
                _("Welcome back: game #{game} waits for your move.", game=game.id),
                _("You have {duration} (until {deadline}).",
                  duration=format_duration(clock.deadline - at),
                  deadline=moment(clock.deadline))]))
        return resumed

    async def left(self, player: Player) -> float:
        """Seconds of vacation ``player`` may still take this year."""
        now = self.now()
        async with self.db.snapshot() as s:
            spells = await self._vacation_spells(s, player.id, now)
        return vacation_left(self.settings.vacation_days, spells, now)

    async def process_vacations(self) -> int:
        now = self.now()
        async with self.db.transaction() as s:
            rows = await s.all("SELECT * FROM players WHERE vacation_until <= ?"
                               + s.claim("players"), (now,))
            for row in rows:
                player = Player.from_row(row)
                assert player.vacation_until is not None
                await self._come_back(s, player, player.vacation_until)
        return len(rows)
