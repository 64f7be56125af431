"""Benchmark of the Discord bot through SimCord: the time from a /move to its reply with the
picture (p50, p99) with 1 and with 100 games in play, and the process's memory (RSS) with
1,000 stored live games.

    .venv/bin/python bench/discord.py [--moves 200]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

# this file is named discord.py: its own folder must not shadow the discord package
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import simcord  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.discord_bot import create_bot  # noqa: E402
from bot.service import GameService  # noqa: E402


def _rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def _games(service: GameService, a, b, count: int, place: str) -> list[int]:
    pa = await service.player("discord", str(a.id), a.name)
    pb = await service.player("discord", str(b.id), b.name)
    ids = []
    for _ in range(count):
        c = await service.challenges.challenge(pa, place, pb, "clash", side=0, days=3)
        ids.append((await service.challenges.accept(pb, c.challenge.id)).game.id)
    await service.deliver("discord", _drop)
    return ids


async def _drop(_: object) -> None:
    return None


async def _latencies(games: int, moves: int, db: Path) -> list[float]:
    service = await GameService.open(Settings(db_path=db, db_sync="normal"),
                                     rng=random.Random(1))
    bot = create_bot(service)
    out: list[float] = []
    async with simcord.run(bot, shard_count=1) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        ids = await _games(service, alice, bob, games, f"discord:{channel.id}")
        k = 0
        while len(out) < moves:
            game = await service.game(ids[k % len(ids)])
            if game is None or game.is_over:  # a finished game is replaced by a new one
                ids[k % len(ids)] = (await _games(service, alice, bob, 1,
                                                  f"discord:{channel.id}"))[0]
                continue
            k += 1
            mover = alice if game.to_move == 0 else bob
            move = (await service.legal_moves(game))[0]
            t = time.perf_counter()
            r = await mover.slash(channel, "move", move=move, game=game.id)
            out.append(time.perf_counter() - t)
            assert r.response is not None and r.response.attachments, r
        bot.scheduler.cancel()
    await service.close()
    return out


async def _memory(stored: int, db: Path) -> float:
    service = await GameService.open(Settings(db_path=db, db_sync="normal"),
                                     rng=random.Random(1))
    bot = create_bot(service)
    async with simcord.run(bot, shard_count=1) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        await _games(service, alice, bob, stored, f"discord:{channel.id}")
        await bot.tick()
        rss = _rss_mb()
        bot.scheduler.cancel()
    await service.close()
    return rss


def _report(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:<28} n={len(ms):4d}  p50 {statistics.median(ms):7.1f} ms  "
          f"p99 {p99:7.1f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        _report("/move -> reply, 1 game", await _latencies(1, args.moves, Path(tmp) / "a.db"))
        _report("/move -> reply, 100 games",
                await _latencies(100, args.moves, Path(tmp) / "b.db"))
        rss = await _memory(1000, Path(tmp) / "c.db")
        print(f"{'RSS, 1000 stored live games':<28} {rss:7.1f} MB")


if __name__ == "__main__":
    asyncio.run(main())
