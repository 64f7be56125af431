"""One of several processes racing on one game of one PostgreSQL database (see
`test_postgres.py`). It opens the service once, says ``ready``, then for each line
``PLY SIDE MOVE`` on its standard input sends that move for that side with
``expected_ply=PLY`` and answers ``won`` or ``refused REASON``; an empty line ends it.

The test writes the same ply to two processes at once and reads both answers before the
next ply: a barrier, so each pair of moves really is sent together, while the processes
(and their connections) stay alive from one pair to the next."""

from __future__ import annotations

import asyncio
import sys

from bot.config import Settings
from bot.service import GameService


async def main(url: str, game_id: int) -> None:
    service = await GameService.open(Settings(db_path=url))
    try:
        players = [await service.player("console", name) for name in ("alice", "bob")]
        print("ready", flush=True)
        while line := sys.stdin.readline().strip():
            ply, side, text = line.split(" ", 2)
            result = await service.move(players[int(side)], game_id, text,
                                        expected_ply=int(ply))
            print("won" if result.ok else f"refused {result.reason.name}", flush=True)
    finally:
        await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
