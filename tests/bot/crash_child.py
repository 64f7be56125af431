"""A process that plays moves as fast as it can, to be killed (SIGKILL) by test_crash.py.

    python crash_child.py DATABASE ACKNOWLEDGEMENTS SEED [RECEIVED]

After each move the service has accepted, it appends ``game ply text`` to the
acknowledgements file: every line there is a move the service said was stored. With a
RECEIVED file, it also delivers the outbox after each move, the receiver appending each
notification's id to that file (so a kill falls between "stored" and "delivered" too).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from bot.config import Settings
from bot.service import GameService

GAMES = 4
PLACE = "console:crash"


async def main(database: str, acks: str, seed: int, received: str | None = None) -> None:
    rng = random.Random(seed)
    target = database if database.startswith("postgresql://") else Path(database)
    service = await GameService.open(Settings(db_path=target), rng=rng)
    players = [await service.player("console", name) for name in ("alice", "bob", "carol")]
    out = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    inbox = os.open(received, os.O_WRONLY | os.O_APPEND | os.O_CREAT) if received else None

    async def receive(notification) -> None:
        os.write(inbox, f"{notification.id}\n".encode())  # type: ignore[arg-type]
    while True:
        games = await service.games(None, PLACE)
        if len(games) < GAMES:
            first, second = rng.sample(players, 2)
            made = await service.challenges.challenge(first, PLACE, second,
                                                      days=rng.choice([None, 3]))
            await service.challenges.accept(second, made.challenge.id)
            continue
        game = rng.choice(games)
        mover = game.players[game.to_move]
        sender = next(p for p in players if p.id == mover)
        if rng.random() < 0.01:
            await service.resign(sender, game.id)
            continue
        text = rng.choice(await service.legal_moves(game))
        done = await service.move(sender, game.id, text, expected_ply=game.ply)
        if done.ok:
            os.write(out, f"{game.id} {game.ply} {done.move}\n".encode())
        if inbox is not None:
            await service.deliver("console", receive)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), *sys.argv[4:]))
