"""One of several processes racing on the same games of one PostgreSQL database (see
`test_postgres.py`): it says ``ready``, waits for ``go`` on its standard input, then keeps
sending a move for whoever is to move, as seen a moment earlier, until every game is over
or long enough. It prints ``won GAME PLY`` for each move accepted and ``refused REASON``
for each refusal."""

from __future__ import annotations

import asyncio
import random
import sys

from bot.config import Settings
from bot.service import GameService


async def race(service: GameService, game_ids: list[int], plies: int, rng: random.Random,
               out: list[str]) -> None:
    for game_id in game_ids:
        while True:
            game = await service.game(game_id)
            assert game is not None
            if game.is_over or game.ply >= plies:
                break
            player = await service.get_player(game.players[game.to_move])
            moves = await service.legal_moves(game)
            assert player is not None and moves
            result = await service.move(player, game_id, rng.choice(moves),
                                        expected_ply=game.ply)
            out.append(f"won {game_id} {game.ply}" if result.ok
                       else f"refused {result.reason.name}")


async def main(url: str, seed: int, plies: int, game_ids: list[int]) -> None:
    service = await GameService.open(Settings(db_path=url))
    try:
        print("ready", flush=True)
        sys.stdin.readline()  # "go": every process starts at once
        out: list[str] = []
        await asyncio.gather(*(race(service, game_ids, plies, random.Random(seed * 10 + k), out)
                               for k in range(2)))
        print("\n".join(out), flush=True)
    finally:
        await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                     [int(g) for g in sys.argv[4].split(",")]))
