"""`commandpost scheduler`: the scheduler as a process of its own applies what fell due on
the configured database, and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from bot.service import GameService

from .conftest import PLACE

ROOT = Path(__file__).resolve().parents[2]


async def _game_out_of_time(settings) -> int:
    """A game with one day per move, started long before now (the fixture's clock is in
    the past), so its first player has lost on time by the real clock."""
    service = await GameService.open(settings, now=lambda: 1_700_000_000.0)
    async with service:
        alice = await service.player("console", "alice")
        bob = await service.player("console", "bob")
        made = await service.challenges.challenge(alice, PLACE, bob, side=0, days=1)
        return (await service.challenges.accept(bob, made.challenge.id)).game.id


async def _finished(settings, game_id: int) -> bool:
    service = await GameService.open(settings)
    async with service:
        return (await service.game(game_id)).is_over


async def test_the_scheduler_process_applies_a_time_out_and_stops_on_sigterm(settings,
                                                                            tmp_path):
    game_id = await _game_out_of_time(settings)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMMANDPOST_LOG_LEVEL": "INFO"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "scheduler", "--db", str(settings.db_path),
        cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not await _finished(settings, game_id):
            assert time.monotonic() < deadline, "the scheduler applied no time-out"
            assert process.returncode is None, await process.stderr.read()
            await asyncio.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err
    assert b"scheduler stopped" in err
    service = await GameService.open(settings)
    async with service:
        game = await service.game(game_id)
    assert (game.result, game.reason) == ("0-1", "alice ran out of time")
