"""One of several deliverers of one PostgreSQL database's console outbox (see
`test_postgres.py`): it says ``ready``, waits for ``go`` on its standard input, delivers
until nothing is due, and prints ``sent ID`` for each notification it sent."""

from __future__ import annotations

import asyncio
import sys

from bot.config import Settings
from bot.service import GameService
from bot.service.model import Notification


async def main(url: str) -> None:
    service = await GameService.open(Settings(db_path=url))
    sent: list[int] = []

    async def send(note: Notification) -> None:
        await asyncio.sleep(0)  # a send awaits its transport: the other deliverer runs
        sent.append(note.id)

    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    while await service.deliver("console", send):
        pass
    await service.close()
    print("".join(f"sent {note_id}\n" for note_id in sent), end="", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
