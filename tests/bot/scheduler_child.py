"""One of two schedulers of one PostgreSQL database (see `test_postgres.py`): it says
``ready``, waits for ``go`` on its standard input, makes scheduler passes until one finds
nothing due, and prints what it applied as ``KIND COUNT`` lines (time-outs, reminders,
...)."""

from __future__ import annotations

import asyncio
import sys
from collections import Counter

from bot.config import Settings
from bot.service import GameService
from bot.service.scheduler import Scheduler


async def main(url: str) -> None:
    service = await GameService.open(Settings(db_path=url))
    try:
        scheduler = Scheduler(service)
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        applied: Counter[str] = Counter()
        while done := await scheduler.run_due():
            if not any(done.values()):
                break
            applied.update(done)
    finally:
        await service.close()
    print("".join(f"{kind} {count}\n" for kind, count in applied.items()), end="", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
