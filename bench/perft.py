"""Move-generation speed of every variant, beside python-chess measured in the same run.

Two figures per variant, each the median of several runs:

* bulk-counted perft from the start position (leaves per second; the last ply only counts
  the moves), at a depth chosen so that one run takes roughly 0.3–2 s;
* single-position legal-move generation (positions per second for ``legal_moves``, which
  builds the Move objects), over 1,000 positions taken evenly from the first ply of the
  tree that has that many (ply 2 for Clash of Command, ply 3 for chess).

python-chess is measured the same way on the standard start position: its perft counts
``board.legal_moves.count()`` at depth 1 and pushes and pops above, and its move list is
``list(board.legal_moves)``. Each variant's figures are also given as a ratio to it, and
checked against the perft target in `TARGETS`. The garbage collector is paused while a run
is timed, as `timeit` does.

Run: ``.venv/bin/python bench/perft.py [--runs N]``
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

import chess

from engine import Position, Variant, all_variants

T = TypeVar("T")

#: Lowest acceptable perft speed as a fraction of python-chess's, per variant.
TARGETS: dict[str, float] = {"clash": 0.5, "commander": 0.25, "combined-arms": 0.25}
#: Variants whose turns are several moves: their target is on single-move perft.
SINGLE_MOVE_TARGETS: dict[str, float] = {"mini-chieftain": 0.5, "micro-chieftain": 0.5}

MIN_RUN_SECONDS = 0.3
MAX_RUN_SECONDS = 2.0
SAMPLE_SIZE = 1000


class Figures(NamedTuple):
    name: str
    depth: int
    leaves: int
    perft_rate: float  # leaves per second
    legal_rate: float  # positions per second
    single_rate: float = 0.0  # single-move perft leaves per second (multi-move turns)


# --- timing ---------------------------------------------------------------------------------
def timed(work: Callable[[], T]) -> tuple[float, T]:
    """Wall time and result of one call, with the garbage collector paused as `timeit`
    does: a full collection's cost depends on whatever else is alive, not on the code
    measured."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        result = work()
        return time.perf_counter() - start, result
    finally:
        gc.enable()


def median_rate(work: Callable[[], object], amount: int, runs: int) -> float:
    """``amount`` per second for ``work``, the median of ``runs`` timed runs."""
    return amount / statistics.median(timed(work)[0] for _ in range(runs))


def choose_depth(perft: Callable[[int], int]) -> tuple[int, int]:
    """The depth whose run first takes MIN_RUN_SECONDS, unless the next depth's run
    would clearly pass MAX_RUN_SECONDS; returns (depth, leaves)."""
    depth, previous = 1, 1
    elapsed, leaves = timed(lambda: perft(1))
    while elapsed < MIN_RUN_SECONDS and leaves:
        growth = max(leaves / previous, 1.0)
        if elapsed * growth > 2 * MAX_RUN_SECONDS:
            break
        depth, previous = depth + 1, leaves
        elapsed, leaves = timed(lambda d=depth: perft(d))
    return depth, leaves


def spread(items: Sequence, limit: int) -> list:
    """At most ``limit`` items taken evenly through ``items``."""
    stride = max(1, len(items) // limit)
    return list(items[::stride][:limit])


def legal_move_rate(generate: Callable[[object], object], sample: list, runs: int) -> float:
    """Positions per second for building the legal moves of every sample position."""
    def one_pass() -> None:
        for position in sample:
            generate(position)
    passes = max(1, round(MIN_RUN_SECONDS / max(timed(one_pass)[0], 1e-9)))

    def run() -> None:
        for _ in range(passes):
            one_pass()
    return median_rate(run, passes * len(sample), runs)


# --- python-chess ---------------------------------------------------------------------------
def chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft(board, depth - 1)
        board.pop()
    return nodes


def chess_sample(limit: int) -> list[chess.Board]:
    layer = [chess.Board()]
    while len(layer) < limit:
        following = []
        for board in layer:
            for move in board.legal_moves:
                after = board.copy(stack=False)
                after.push(move)
                following.append(after)
        layer = following
    return spread(layer, limit)


def measure_chess(runs: int) -> Figures:
    board = chess.Board()
    depth, leaves = choose_depth(lambda d: chess_perft(board, d))
    perft_rate = median_rate(lambda: chess_perft(board, depth), leaves, runs)
    legal_rate = legal_move_rate(lambda b: list(b.legal_moves), chess_sample(SAMPLE_SIZE), runs)
    return Figures("python-chess", depth, leaves, perft_rate, legal_rate)


# --- the variants ---------------------------------------------------------------------------
def variant_sample(variant: Variant, limit: int) -> list[Position]:
    layer = [variant.start_position()]
    while len(layer) < limit:
        following = []
        for p in layer:
            following.extend(variant.make_move(p, m) for m in variant.legal_moves(p))
            if len(following) >= 20 * limit:  # a layer of whole turns can be huge
                break
        if not following:
            break
        layer = following
    return spread(layer, limit)


def measure_variant(variant: Variant, runs: int) -> Figures:
    start = variant.start_position()
    depth, leaves = choose_depth(lambda d: variant.perft(start, d))
    perft_rate = median_rate(lambda: variant.perft(start, depth), leaves, runs)
    legal_rate = legal_move_rate(variant.legal_moves, variant_sample(variant, SAMPLE_SIZE),
                                 runs)
    single_rate = 0.0
    move_perft = getattr(variant, "move_perft", None)
    if move_perft is not None:
        s_depth, s_leaves = choose_depth(lambda d: move_perft(start, d))
        single_rate = median_rate(lambda: move_perft(start, s_depth), s_leaves, runs)
    return Figures(variant.name, depth, leaves, perft_rate, legal_rate, single_rate)


# --- the table ------------------------------------------------------------------------------
def table(anchor: Figures, rows: list[Figures]) -> str:
    head = (f"{'variant':<14}{'depth':>6}{'leaves':>12}{'perft nodes/s':>15}{'ratio':>8}"
            f"{'legal_moves pos/s':>19}{'ratio':>8}  target")
    lines = [head, "-" * len(head)]
    for row in [anchor, *rows]:
        perft_ratio = row.perft_rate / anchor.perft_rate
        target = ""
        if row.name in TARGETS:
            goal = TARGETS[row.name]
            target = f"perft >= {goal:.2f}: {'met' if perft_ratio >= goal else 'NOT MET'}"
        if row.name in SINGLE_MOVE_TARGETS:
            goal = SINGLE_MOVE_TARGETS[row.name]
            ratio = row.single_rate / anchor.perft_rate
            target = (f"single-move perft {row.single_rate:,.0f}/s = {ratio:.2f} >= {goal:.2f}: "
                      f"{'met' if ratio >= goal else 'NOT MET'}")
        lines.append(f"{row.name:<14}{row.depth:>6}{row.leaves:>12,}{row.perft_rate:>15,.0f}"
                     f"{perft_ratio:>8.2f}{row.legal_rate:>19,.0f}"
                     f"{row.legal_rate / anchor.legal_rate:>8.2f}  {target}".rstrip())
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (median)")
    args = parser.parse_args()
    runs = max(1, args.runs)
    anchor = measure_chess(runs)
    rows = [measure_variant(v, runs) for v in all_variants()]
    print(f"Move generation, median of {runs} runs; ratio = variant / python-chess "
          f"(python-chess {chess.__version__}, {platform.python_implementation()} "
          f"{platform.python_version()})")
    print(table(anchor, rows))


if __name__ == "__main__":
    main()
