"""The scheduler: applies what falls due with time — losses on time, reminders, the end of
vacations, expired challenges.

Every due time is a column in the database, so nothing is lost across a restart: the first
pass after a start applies everything that fell due while the service was down, each as of
the moment it fell due (a game lost on time ends at its deadline, a vacation that ran out
restarts the clocks from its end).
"""

from __future__ import annotations

import asyncio
import logging

from .clock import Clock
from .service import GameService

log = logging.getLogger(__name__)


class Scheduler:
    """Runs `GameService.process_due` whenever something is due, with an injectable clock."""

    def __init__(self, service: GameService, now: Clock | None = None,
                 max_wait: float = 60.0) -> None:
        self.service = service
        self.now = now or service.now
        self.max_wait = max_wait

    async def run_due(self) -> dict[str, int]:
        """Apply everything due now; how many of each kind."""
        return await self.service.process_due()

    async def seconds_to_next(self) -> float:
        """How long to wait before the next pass (at most ``max_wait``, since another
        process may add something due sooner)."""
        due = await self.service.next_due()
        if due is None:
            return self.max_wait
        return min(self.max_wait, max(0.0, due - self.now()))

    async def run(self, stop: asyncio.Event) -> None:
        """Pass after pass until ``stop`` is set; a failed pass is logged and retried."""
        while not stop.is_set():
            try:
                await self.run_due()
                wait = await self.seconds_to_next()
            except Exception:
                log.exception("scheduler pass failed; retrying")
                wait = self.max_wait
            try:
                await asyncio.wait_for(stop.wait(), timeout=max(wait, 0.05))
            except TimeoutError:
                pass
