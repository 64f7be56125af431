"""Notification delivery when some destinations fail: throughput, and the time from a
notification's commit to its send for the healthy destinations.

The scenario: 1,000 games spread over 100 destinations (10 games each). Each round, every
game commits one notification (one write transaction, as a move does) and pokes the
delivery loop (as a command does); a delivery pass runs on its own each time, the outbox
starting only the lanes not already in progress (what the e-mail gateway and the Discord
bot do). Of the destinations, 10 refuse every send at once (a permanent failure: a 403, a
550) and 10 take 2 s per send; the other 80 take `HEALTHY_SECONDS` per send (a network
round trip).

The anchor is the same run with all 100 destinations healthy, measured in the same script
on a fresh database. Target: the healthy destinations' p99 from commit to send stays
within 2x the anchor's p99.

Run: ``.venv/bin/python bench/notifications.py [--rounds N] [--runs N]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.service import outbox
from bot.service.model import Notification
from bot.service.outbox import Courier, DeliveryFailure
from bot.storage import open_database

GAMES = 1_000
DESTINATIONS = 100
FAILING = 10
SLOW = 10
SLOW_SECONDS = 2.0
HEALTHY_SECONDS = 0.005
TARGET_RATIO = 2.0


@dataclass
class Run:
    """What one run measured."""

    latencies: list[float] = field(default_factory=list)  # healthy: commit to send, seconds
    healthy_sent: int = 0
    seconds: float = 0.0  # from the first commit to the last healthy send


def destination_of(game: int) -> int:
    return game % DESTINATIONS


def kind_of(destination: int, faults: bool) -> str:
    if not faults or destination >= FAILING + SLOW:
        return "healthy"
    return "failing" if destination < FAILING else "slow"


async def one_run(path: Path, rounds: int, faults: bool) -> Run:
    db = await open_database(path, sync="normal")
    run = Run()
    healthy_expected = rounds * sum(kind_of(destination_of(g), faults) == "healthy"
                                    for g in range(GAMES))
    done = asyncio.Event()

    async def send(note: Notification) -> None:
        destination = int(note.place.rsplit(":", 1)[1])  # type: ignore[union-attr]
        kind = kind_of(destination, faults)
        if kind == "failing":
            raise DeliveryFailure("403 Missing Access", permanent=True)
        if kind == "slow":
            await asyncio.sleep(SLOW_SECONDS)
            return
        # from the notification's write (in its transaction, just before the commit)
        run.latencies.append(time.time() - note.created_at)
        await asyncio.sleep(HEALTHY_SECONDS)
        run.healthy_sent += 1
        if run.healthy_sent == healthy_expected:
            done.set()

    courier = Courier(db, "bench", send, time.time)
    ready = asyncio.Event()
    passes: set[asyncio.Task[int]] = set()

    async def deliver_loop() -> None:  # the e-mail gateway's loop, without the mail
        while not done.is_set():
            ready.clear()
            delivering = asyncio.create_task(courier.deliver())
            passes.add(delivering)
            delivering.add_done_callback(passes.discard)
            await ready.wait()

    loop = asyncio.create_task(deliver_loop())
    started = time.perf_counter()
    for round_number in range(rounds):
        for game in range(GAMES):
            async with db.transaction() as s:
                await outbox.notify(s, time.time(), transport="bench", kind="your-move",
                                    text=f"move {round_number} of game {game}",
                                    place=f"bench:{destination_of(game)}", game_id=game + 1)
            ready.set()
    await asyncio.wait_for(done.wait(), timeout=600)
    run.seconds = time.perf_counter() - started
    ready.set()
    for delivering in list(passes):  # slow sends still in flight: not measured
        delivering.cancel()
    await asyncio.gather(loop, *passes, return_exceptions=True)
    await courier.stop()
    await db.close()
    return run


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(rounds: int, runs: int) -> None:
    results: dict[str, list[Run]] = {"anchor (all healthy)": [], "10 failing + 10 slow": []}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(runs):
            for name, faults in (("anchor (all healthy)", False), ("10 failing + 10 slow", True)):
                results[name].append(await one_run(Path(tmp) / f"{k}-{faults}.db", rounds,
                                                   faults))
    print(f"{GAMES} games over {DESTINATIONS} destinations, {rounds} notification(s) per game;"
          f" healthy send {HEALTHY_SECONDS * 1000:g} ms, slow send {SLOW_SECONDS:g} s; "
          f"median of {runs} run(s)")
    print(f"{'run':24} {'healthy sent/s':>15} {'p50 ms':>8} {'p99 ms':>8} {'p99 / anchor':>13}")
    anchor_p99 = statistics.median(p(r.latencies, 0.99) for r in results["anchor (all healthy)"])
    for name, measured in results.items():
        rate = statistics.median(r.healthy_sent / r.seconds for r in measured)
        p50 = statistics.median(p(r.latencies, 0.50) for r in measured) * 1000
        p99 = statistics.median(p(r.latencies, 0.99) for r in measured)
        print(f"{name:24} {rate:15.0f} {p50:8.1f} {p99 * 1000:8.1f} {p99 / anchor_p99:13.2f}")
    ratio = statistics.median(p(r.latencies, 0.99) for r in results["10 failing + 10 slow"]) \
        / anchor_p99
    verdict = "met" if ratio <= TARGET_RATIO else "NOT met"
    print(f"target: healthy p99 within {TARGET_RATIO:g}x the anchor's p99: {verdict} "
          f"({ratio:.2f}x)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="notifications per game")
    parser.add_argument("--runs", type=int, default=3, help="runs of each (median)")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.rounds, args.runs))


if __name__ == "__main__":
    main()
