"""Tournament timings: pairing a 1,000-player Swiss round (target under 1 s).

The Swiss: 1,000 players with pairing numbers 1..1,000 play rounds 1-4 paired by
`dutch_round` with random results (seeded: white wins, draws and black wins equally
likely); then round 5 of 9 is paired ``--runs`` times and its median time is the figure
(a mid-tournament round: many score groups, colour histories, players who have met). The
slowest of the first nine rounds paired once each is shown too.

The anchor, measured in the same run: python-chess generating the legal moves of its
start position 10,000 times (``list(board.legal_moves)``), the operation the other bench
scripts compare with; each figure is also given as a ratio to it. The garbage collector
is paused while a run is timed, as `timeit` does.

Each measurement is a function in `MEASUREMENTS` returning `Figure` rows, so another
timing (the crosstable picture) is one more function in that list.

Run: ``.venv/bin/python bench/tournament.py [--runs N] [--players N]``
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import chess

from bot.service.pairing import Entrant, dutch_round, play_round

ANCHOR_MOVE_LISTS = 10_000
ROUNDS = 9
TIMED_ROUND = 5
PAIRING_TARGET_SECONDS = 1.0


@dataclass(frozen=True)
class Figure:
    """One printed row: a median time beside its target."""

    name: str
    seconds: float
    target: float | None  # seconds; None: shown for information


def timed(work: Callable[[], object]) -> float:
    """Wall time of one call, with the garbage collector paused."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        work()
        return time.perf_counter() - start
    finally:
        gc.enable()


def median_time(work: Callable[[], object], runs: int) -> float:
    return statistics.median(timed(work) for _ in range(runs))


def anchor(runs: int) -> float:
    """Median time for python-chess to list its start position's legal moves 10,000 times."""
    board = chess.Board()

    def work() -> None:
        for _ in range(ANCHOR_MOVE_LISTS):
            list(board.legal_moves)
    return median_time(work, runs)


# --- the Swiss -------------------------------------------------------------------------------
def swiss_pairing(runs: int, players: int) -> list[Figure]:
    """The median time to pair round 5 of a 1,000-player Swiss, and the slowest round."""
    rng = random.Random(36)
    field = {n: Entrant(n, n, 0.0, (), frozenset(), False) for n in range(1, players + 1)}
    single: list[float] = []
    timed_round = 0.0
    for number in range(1, ROUNDS + 1):
        entrants = list(field.values())
        if number == TIMED_ROUND:
            timed_round = median_time(
                lambda entrants=entrants, number=number: dutch_round(entrants, number, ROUNDS),
                runs)
        started = time.perf_counter()
        pairing = dutch_round(entrants, number, ROUNDS)
        single.append(time.perf_counter() - started)
        play_round(field, pairing, lambda: rng.choice((1.0, 0.5, 0.0)))
    slowest = max(range(ROUNDS), key=single.__getitem__)
    return [Figure(f"pair round {TIMED_ROUND} of {ROUNDS}, {players:,} players", timed_round,
                   PAIRING_TARGET_SECONDS),
            Figure(f"slowest round ({slowest + 1}), paired once", single[slowest], None)]


#: The measurements this script prints, in order: each takes (runs, players).
MEASUREMENTS: list[Callable[[int, int], list[Figure]]] = [swiss_pairing]


def report(figures: Sequence[Figure], anchor_seconds: float) -> bool:
    """Print the rows; True when every target is met."""
    print(f"{'measurement':<44}{'median':>12}{'vs anchor':>12}  target")
    met = True
    for figure in figures:
        target = ""
        if figure.target is not None:
            ok = figure.seconds < figure.target
            met &= ok
            target = f"< {figure.target * 1000:,.0f} ms: {'met' if ok else 'NOT MET'}"
        print(f"{figure.name:<44}{figure.seconds * 1000:>9.1f} ms"
              f"{figure.seconds / anchor_seconds:>11.2f}x  {target}".rstrip())
    return met


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    parser.add_argument("--players", type=int, default=1_000, help="players in the Swiss")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    anchor_seconds = anchor(runs)
    print(f"Tournament timings, median of {runs} runs (Python {platform.python_version()}, "
          f"python-chess {chess.__version__})")
    print(f"anchor: python-chess, start position's legal moves x{ANCHOR_MOVE_LISTS:,}: "
          f"{anchor_seconds * 1000:.1f} ms")
    figures = [figure for measure in MEASUREMENTS for figure in measure(runs, args.players)]
    return 0 if report(figures, anchor_seconds) else 1


if __name__ == "__main__":
    raise SystemExit(main())
