"""Crash safety: a process submitting moves is killed with SIGKILL at random moments; after
each restart every acknowledged move is stored, nothing is half-written, and the outbox
holds each notification once and delivers it once."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bot.service import GameService, outbox
from bot.storage import SqliteDatabase

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
KILLS = 6


def _acks(path: Path) -> list[tuple[int, int, str]]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    return [(int(g), int(p), t) for g, p, t in (line.split(" ", 2) for line in lines)]


def _run_and_kill(database: Path | str, acks: Path, seed: int, rng: random.Random,
                  *received: Path) -> None:
    before = len(_acks(acks))
    child = subprocess.Popen(
        [sys.executable, str(HERE / "crash_child.py"), str(database), str(acks), str(seed),
         *map(str, received)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while len(_acks(acks)) <= before:  # wait until it is busy moving
            assert child.poll() is None, child.stderr.read().decode()
            assert time.monotonic() < deadline, "the child made no move"
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.4))
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stderr.close()


async def test_moves_survive_a_process_killed_at_random_moments(tmp_path, settings):
    rng = random.Random(2024)
    acks = tmp_path / "acks.txt"
    for round_number in range(KILLS):
        _run_and_kill(settings.db_path, acks, seed=round_number, rng=rng)
    acknowledged = _acks(acks)
    assert len(acknowledged) >= KILLS

    service = await GameService.open(settings)
    try:
        if isinstance(service.db, SqliteDatabase):  # the file itself is sound too
            async with service.db.snapshot() as s:
                assert (await s.one("PRAGMA integrity_check"))[0] == "ok"
        stored = {}
        games = await service.games(None, "console:crash") + await service.games(
            None, "console:crash", active=False)
        for game in games:
            assert await service.archive.verify(game.id) == [], game
            for move in await service.played_moves(game.id):
                stored[(game.id, move.ply)] = move.text
        for game_id, ply, text in acknowledged:
            assert stored.get((game_id, ply)) == text, (game_id, ply, text)

        async with service.db.snapshot() as s:
            rows = await s.all("SELECT game_id, kind, player_id FROM outbox")
        your_move = Counter(r["game_id"] for r in rows if r["kind"] == "your-move")
        for game in games:
            moves = game.ply
            ended_by_a_move = game.is_over and not game.reason.endswith("resigned")
            assert your_move[game.id] == moves - ended_by_a_move, game
            over = [r for r in rows if r["game_id"] == game.id and r["kind"] == "game-over"
                    and r["player_id"] is None]
            assert len(over) == (1 if game.is_over else 0)

        delivered: list[int] = []

        async def send(notification) -> None:
            delivered.append(notification.id)

        assert await service.deliver("console", send) == len(rows)
        assert sorted(delivered) == sorted(set(delivered)) and len(delivered) == len(rows)
        assert await service.deliver("console", send) == 0
    finally:
        await service.close()


async def test_a_kill_between_stored_and_delivered_loses_no_notification(tmp_path, settings):
    rng = random.Random(77)
    acks, received = tmp_path / "acks.txt", tmp_path / "received.txt"
    for round_number in range(4):
        _run_and_kill(settings.db_path, acks, round_number, rng, received)
    # on PostgreSQL the one in flight at a kill is leased to the killed deliverer: it goes
    # out once the lease has run out (on SQLite at once)
    service = await GameService.open(settings, now=lambda: time.time() + outbox.LEASE + 1)
    try:
        async def receive(notification) -> None:
            with received.open("a") as inbox:
                inbox.write(f"{notification.id}\n")

        await service.deliver("console", receive)
        async with service.db.snapshot() as s:
            stored = [r["id"] for r in await s.all("SELECT id FROM outbox")]
            undelivered = await s.one("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
            lanes = (await s.one("SELECT COUNT(DISTINCT lane) FROM outbox"))[0]
    finally:
        await service.close()
    got = Counter(int(line) for line in received.read_text().split())
    assert set(got) == set(stored)  # every notification arrived: none was lost
    assert undelivered[0] == 0
    # a repeat is possible only for one in flight at a kill (one per lane at most); its
    # stable id tells it apart
    assert sum(got.values()) - len(got) <= 4 * lanes
