"""The game service and its topics: one `GameService` that every transport calls, and the
modules it is made of — challenges, clocks and time controls, ratings and standings, game
records and the archive, rooms, vacations, notes, forecasts, the outbox and the scheduler,
the model and the typed results. No transport lives here; storage sits below
(`bot.storage`)."""

from .service import GameService

__all__ = ["GameService"]
