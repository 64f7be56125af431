"""Sustained accepted moves per second through the game service on one SQLite file, and the
time per accepted move, with 1, 10 and 100 concurrent games of Clash of Command.

Two workloads, each on a fresh database file, each figure the median of several runs:

* **saturated**: every game has a client that sends its next move as soon as the last one
  is answered (a closed loop with no thinking time). The moves per second are the most the
  service sustains; the time per move includes waiting behind the other games' moves,
  since every accepted move is one write transaction on the one file.
* **paced**: moves arrive at a fixed rate (default 500/s, the target) spread evenly over
  the games (an open loop, exponential gaps); the time per move runs from a move's arrival
  to its answer.

The anchor is the floor under any move: the same SQL statements as one accepted move
(begin, read the game, insert the move, update the game, queue one notification, commit)
sent through bare aiosqlite by one client, without rules, validation or service. The moves
are chosen beforehand from random games played by the engine, and no picture is drawn, so
only the service is timed. Target: at least 500 moves/s with 100 concurrent games, p99
under 25 ms.

Both settings of ``COMMANDPOST_DB_SYNC`` are measured: ``full`` (the default: a move is on
the disk before it is acknowledged) and ``normal`` (it survives a crash of the process but
not of the machine). The processor time per move is given too: unlike the wall-clock
figures, it hardly depends on what else the machine is doing.

With ``--db postgresql`` the same saturated workload runs on PostgreSQL too (a server of
its own, started by `pgserver`, with a host's durable settings: ``fsync`` and
``synchronous_commit`` on, so a move is on the disk before it is acknowledged, like
``full``), with 1, 10 and 100 games spread over 1, 2 and 4 service processes on one
database, each compared with SQLite's single process at 100 games measured in the same
run; then 4 processes paced at the ``--rate`` with 100 games. Target: 4 processes on
PostgreSQL at least twice SQLite's moves/s, p99 under 25 ms at 500 moves/s. Each row
gives the processor time per move of the service processes and of the server (its
postmaster, backends and helpers, read from ``/proc``): where the server shares the
machine's cores, their sum bounds the moves/s the machine can give.

Run: ``.venv/bin/python bench/service.py [--seconds S] [--runs N] [--rate R] [--sync MODE]
[--db postgresql]``
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import platform
import random
import sys
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.config import Settings
from bot.service import GameService
from bot.service.model import Player
from bot.storage import open_database
from engine import get_variant

GAME_COUNTS = (1, 10, 100)
PLACE = "bench:service"
TARGET_RATE = 500.0
TARGET_P99_MS = 25.0


@dataclass
class Run:
    moves: int
    seconds: float
    latencies: list[float]
    cpu: float = 0.0  # processor seconds of the whole process (both threads)

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0


# --- the moves --------------------------------------------------------------------------------
def random_games(count: int, seed: int) -> list[list[str]]:
    """``count`` random games of Clash of Command to the end, as canonical move texts."""
    variant = get_variant("clash")
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        position, texts = variant.start_position(), []
        while not variant.outcome(position).is_over and len(texts) < 400:
            move = rng.choice(variant.legal_moves(position))
            texts.append(variant.format_move(position, move))
            position = variant.make_move(position, move)
        games.append(texts)
    return games


class Games:
    """Games started before the clock runs, each with the moves it will be played with."""

    def __init__(self, service: GameService, players: Sequence[Player],
                 scripts: list[list[str]]) -> None:
        self.service = service
        self.players = players
        self.scripts = scripts
        self.ready: deque[tuple[int, tuple[Player, Player], list[str]]] = deque()
        self.started = 0

    async def start(self, count: int) -> None:
        for _ in range(count):
            k = self.started
            self.started += 1
            first = self.players[k % len(self.players)]
            second = self.players[(k + 1) % len(self.players)]
            made = await self.service.challenges.challenge(first, PLACE, second, side=0)
            game = (await self.service.challenges.accept(second, made.challenge.id)).game
            self.ready.append((game.id, (first, second), self.scripts[k % len(self.scripts)]))

    async def next(self) -> tuple[int, tuple[Player, Player], list[str]]:
        if not self.ready:  # the pool ran dry: start one inside the timed window
            await self.start(1)
        return self.ready.popleft()


async def _open(directory: Path | str, sync: str, scripts: list[list[str]],
                pool: int) -> tuple[GameService, Games]:
    # a folder holds a SQLite file; a postgresql:// URL is a database on the bench's server
    target = directory if isinstance(directory, str) else directory / "bench.db"
    settings = Settings(db_path=target, db_sync=sync)
    service = await GameService.open(settings)
    players = [await service.player("bench", f"player{k}") for k in range(8)]
    games = Games(service, players, scripts)
    await games.start(pool)
    return service, games


async def _move(service: GameService, players: tuple[Player, Player], game_id: int,
                ply: int, text: str) -> None:
    done = await service.move(players[ply % 2], game_id, text, expected_ply=ply)
    if not done.ok:
        raise RuntimeError(f"game #{game_id}: {text} refused: {done}")


# --- the workloads ----------------------------------------------------------------------------
async def saturated(directory: Path | str, sync: str, n_games: int, seconds: float,
                    scripts: list[list[str]]) -> Run:
    service, games = await _open(directory, sync, scripts, pool=n_games + 20 + 100 * int(seconds))
    latencies: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def client() -> None:
        while time.perf_counter() < stop_at:
            game_id, players, script = await games.next()
            for ply, text in enumerate(script):
                if time.perf_counter() >= stop_at:
                    return
                t0 = time.perf_counter()
                await _move(service, players, game_id, ply, text)
                latencies.append(time.perf_counter() - t0)

    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(client() for _ in range(n_games)))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    await service.close()
    return Run(len(latencies), elapsed, latencies, cpu)


async def paced(directory: Path | str, sync: str, n_games: int, seconds: float, rate: float,
                scripts: list[list[str]], seed: int) -> Run:
    service, games = await _open(directory, sync, scripts, pool=n_games + int(rate * seconds / 20))
    latencies: list[float] = []
    queues: list[asyncio.Queue[float | None]] = [asyncio.Queue() for _ in range(n_games)]

    async def slot(queue: asyncio.Queue[float | None]) -> None:
        game_id, players, script = await games.next()
        ply = 0
        while (arrival := await queue.get()) is not None:
            if ply == len(script):
                game_id, players, script = await games.next()
                ply = 0
            await _move(service, players, game_id, ply, script[ply])
            latencies.append(time.perf_counter() - arrival)
            ply += 1

    workers = [asyncio.create_task(slot(q)) for q in queues]
    rng = random.Random(seed)
    start, cpu = time.perf_counter(), time.process_time()
    arrival, k = start, 0
    while arrival < start + seconds:
        arrival += rng.expovariate(rate)
        delay = arrival - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        queues[k % n_games].put_nowait(arrival)
        k += 1
    for q in queues:
        q.put_nowait(None)
    await asyncio.gather(*workers)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    await service.close()
    return Run(len(latencies), elapsed, latencies, cpu)


async def anchor(directory: Path, sync: str, seconds: float) -> Run:
    """The same statements as one accepted move, through bare aiosqlite."""
    db = await open_database(directory / "anchor.db", sync)
    async with db.transaction() as s:
        await s.execute("INSERT INTO players (id, transport, address, display_name, created_at) "
                        "VALUES (1, 'bench', 'a', 'a', 0), (2, 'bench', 'b', 'b', 0)")
        await s.execute("INSERT INTO games (id, variant, mode, place, player0, player1, "
                        "start_fen, fen, to_move, status, rated, created_at, updated_at) "
                        "VALUES (1, 'clash', 'standard', 'p', 1, 2, 'x', 'x', 0, 'active', 0, "
                        "0, 0)")
    fen = get_variant("clash").start_fen
    latencies: list[float] = []
    start, cpu = time.perf_counter(), time.process_time()
    ply = 0
    while time.perf_counter() - start < seconds:
        t0 = time.perf_counter()
        async with db.transaction() as s:
            await s.one("SELECT * FROM games WHERE id = 1")
            await s.execute("INSERT INTO moves (game_id, ply, turn, side, text, fen, partial, "
                            "played_at) VALUES (1, ?, ?, ?, 'b2-a3/D', ?, 0, 0)",
                            (ply, ply, ply % 2, fen))
            await s.execute("UPDATE games SET fen = ?, ply = ply + 1, turns = turns + 1, "
                            "updated_at = 0 WHERE id = 1 AND ply = ?", (fen, ply))
            await s.execute("INSERT INTO outbox (transport, player_id, game_id, kind, text, "
                            "created_at) VALUES ('bench', 2, 1, 'your-move', 'x', 0)")
        latencies.append(time.perf_counter() - t0)
        ply += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    await db.close()
    return Run(len(latencies), elapsed, latencies, cpu)


def _median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda r: r.rate)[len(runs) // 2]


async def measure(sync: str, seconds: float, runs: int, rate: float,
                  scripts: list[list[str]]) -> Run:
    """One table of figures for one ``synchronous`` setting; the saturated run with 100
    games (what PostgreSQL is compared with)."""

    async def median(make) -> Run:
        found = []
        for k in range(runs):
            with tempfile.TemporaryDirectory() as directory:
                found.append(await make(Path(directory), k))
        return _median_run(found)

    print(f"synchronous={sync.upper()}")
    floor = await median(lambda d, k: anchor(d, sync, seconds))
    print(f"  anchor: bare aiosqlite, the statements of one move: {floor.rate:.0f} moves/s, "
          f"p50 {floor.percentile(0.5):.2f} ms, p99 {floor.percentile(0.99):.2f} ms")
    print(f"  {'games':>5}  {'workload':<14} {'moves/s':>8} {'× anchor':>9} "
          f"{'p50 ms':>8} {'p99 ms':>8} {'CPU ms/move':>12}")
    results: dict[tuple[str, int], Run] = {}
    for n in GAME_COUNTS:
        run = await median(lambda d, k, n=n: saturated(d, sync, n, seconds, scripts))
        results["saturated", n] = run
        _row(n, "saturated", run, floor)
    for n in GAME_COUNTS:
        run = await median(lambda d, k, n=n: paced(d, sync, n, seconds, rate, scripts, k))
        results["paced", n] = run
        _row(n, f"paced {rate:g}/s", run, floor)
    best, steady = results["saturated", 100], results["paced", 100]
    ok = best.rate >= TARGET_RATE and steady.rate >= 0.95 * rate \
        and steady.percentile(0.99) < TARGET_P99_MS
    print(f"  target with 100 games (≥ {TARGET_RATE:g} moves/s, p99 < {TARGET_P99_MS:g} ms at "
          f"{rate:g} moves/s): {'met' if ok else 'NOT met'}\n")
    return best


# --- PostgreSQL, one or several processes -----------------------------------------------------
PROCESS_COUNTS = (1, 2, 4)
TICKS = os.sysconf("SC_CLK_TCK")


def _server_cpu(postmaster: int) -> float:
    """Processor seconds used so far by the PostgreSQL server: the postmaster, the
    backends and helpers alive now, and (through the postmaster's counts of its waited-for
    children) those that have ended."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile: the postmaster counts it
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == postmaster or ppid == postmaster:
            total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / TICKS


def _service_process(url: str, n_games: int, seconds: float, start_at: float,
                     rate: float | None) -> Run:
    """One service process of a PostgreSQL run: its own share of the games (saturated, or
    paced at ``rate`` moves/s), started at the same moment as the others."""
    scripts = random_games(60, seed=int(start_at * 1000) % 9973 + n_games)
    time.sleep(max(0.0, start_at - time.time()))
    if rate is None:
        return asyncio.run(saturated(url, "full", n_games, seconds, scripts))
    return asyncio.run(paced(url, "full", n_games, seconds, rate, scripts, n_games))


def _processes(url: str, n_games: int, n_processes: int, seconds: float,
               rate: float | None = None) -> Run:
    """``n_games`` clients spread over ``n_processes`` processes on one database (with a
    ``rate``: that many moves/s in all, shared like the games)."""
    context = multiprocessing.get_context("spawn")
    start_at = time.time() + 4.0 + n_processes  # every process has imported by then
    shares = [n_games // n_processes + (k < n_games % n_processes) for k in range(n_processes)]
    with context.Pool(n_processes) as pool:
        runs = pool.starmap(_service_process, [
            (url, share, seconds, start_at, rate and rate * share / n_games)
            for share in shares if share])
    return Run(sum(r.moves for r in runs), max(r.seconds for r in runs),
               [t for r in runs for t in r.latencies], sum(r.cpu for r in runs))


async def _postgres_run(server, n_games: int, n_processes: int, seconds: float,
                        rate: float | None = None) -> tuple[Run, float]:
    """One run on a fresh database; the run and the server's processor seconds in it."""
    url = await server.create()
    postmaster = server.server.get_pid()
    cpu = _server_cpu(postmaster)
    run = await asyncio.to_thread(_processes, url, n_games, n_processes, seconds, rate)
    cpu = _server_cpu(postmaster) - cpu
    await server.drop(url)
    return run, cpu


async def measure_postgres(server, seconds: float, runs: int, rate: float,
                           sqlite_best: Run | None) -> None:
    """Moves/s on one PostgreSQL database, by games and by service processes (saturated),
    then 4 processes paced at ``rate`` with 100 games; processor time per move split
    between the service processes and the server."""
    print("PostgreSQL (pgserver, fsync and synchronous_commit on, one database per run)")
    print(f"  {'games':>5}  {'processes':>9} {'workload':<14} {'moves/s':>8} {'× SQLite':>9} "
          f"{'p50 ms':>8} {'p99 ms':>8} {'CPU ms/move: service':>21} {'server':>7}")
    best = steady = None
    plan = [(n, p, None) for n in GAME_COUNTS for p in PROCESS_COUNTS if p <= n]
    for n, p, paced_rate in [*plan, (100, 4, rate)]:
        found = [await _postgres_run(server, n, p, seconds, paced_rate) for _ in range(runs)]
        run, server_cpu = sorted(found, key=lambda f: f[0].rate)[len(found) // 2]
        ratio = run.rate / sqlite_best.rate if sqlite_best else float("nan")
        workload = "saturated" if paced_rate is None else f"paced {paced_rate:g}/s"
        moves = max(run.moves, 1)
        print(f"  {n:>5}  {p:>9} {workload:<14} {run.rate:8.0f} {ratio:9.2f} "
              f"{run.percentile(0.5):8.2f} {run.percentile(0.99):8.2f} "
              f"{run.cpu / moves * 1000:21.2f} {server_cpu / moves * 1000:7.2f}")
        if (n, p) == (100, 4):
            best, steady = (run, steady) if paced_rate is None else (best, run)
    if best is not None and steady is not None and sqlite_best is not None:
        ok = best.rate >= 2 * sqlite_best.rate and steady.rate >= 0.95 * rate \
            and steady.percentile(0.99) < TARGET_P99_MS
        print(f"  target (4 processes, 100 games: ≥ 2× SQLite's {sqlite_best.rate:.0f} moves/s "
              f"in one process, p99 < {TARGET_P99_MS:g} ms at {rate:g} moves/s): "
              f"{'met' if ok else 'NOT met'}\n")


def _local_postgres():
    """The tests' pgserver helper, durable (the bench measures flushed commits)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "bot"))
    from local_postgres import LocalPostgres

    return LocalPostgres(durable=True)


async def main(seconds: float, runs: int, rate: float, modes: Sequence[str],
               databases: Sequence[str] = ("sqlite",)) -> None:
    print(f"commandpost game service — Clash of Command, one SQLite file in WAL mode, "
          f"{seconds:g} s per run, median of {runs} runs")
    print(f"{platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}; rendering excluded; moves chosen beforehand\n")
    scripts = random_games(300, seed=1)
    sqlite_best = None
    for sync in modes:
        best = await measure(sync, seconds, runs, rate, scripts)
        sqlite_best = sqlite_best or best  # the first setting measured: full by default
    if "postgresql" in databases:
        server = _local_postgres()
        try:
            await measure_postgres(server, seconds, runs, rate, sqlite_best)
        finally:
            server.stop()


def _row(n: int, workload: str, run: Run, floor: Run) -> None:
    print(f"  {n:>5}  {workload:<14} {run.rate:8.0f} {run.rate / floor.rate:9.2f} "
          f"{run.percentile(0.5):8.2f} {run.percentile(0.99):8.2f} "
          f"{run.cpu / max(run.moves, 1) * 1000:12.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--rate", type=float, default=TARGET_RATE, help="paced arrival rate")
    parser.add_argument("--sync", choices=("full", "normal"), action="append",
                        help="SQLite synchronous setting (COMMANDPOST_DB_SYNC); default: both")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), action="append",
                        help="postgresql: also PostgreSQL (its own pgserver) with 1, 2 and 4 "
                             "service processes, beside SQLite; default: SQLite only")
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.runs, args.rate, args.sync or ("full", "normal"),
                     args.db or ("sqlite",)))
