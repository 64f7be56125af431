"""Board-picture speed and size: render and encode an 800-px PNG, per variant, beside
python-chess measured in the same run.

For every implemented variant: the median time of `renderer.render` (drawing plus PNG
encoding) over positions from a seeded game (the start and middle games, the last move
marked), with the caches warm as in a running bot, and the largest PNG. The first, cold
call (board, sprites and palette drawn) is reported separately.

The anchor is python-chess doing the same job on a chess position:
``chess.svg.board(board, size=800, lastmove=...)`` then ``cairosvg.svg2png``. When
cairosvg (or its cairo library) is missing the anchor is reported as unavailable.

Run: ``.venv/bin/python bench/render.py [--runs N] [--size PX]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable, Sequence

import PIL

from bot.render_cli import seeded_game
from engine import Move, Position, Variant, all_variants
from renderer import render

TARGET_MS = 15.0
TARGET_KB = 150.0


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def samples(variant: Variant) -> list[tuple[Position, Move | None]]:
    """The positions to draw: the start and a few middle games, with their last moves."""
    positions, moves = seeded_game(variant, 30)
    return [(positions[k], moves[k]) for k in range(0, len(positions), 10)]


def measure(variant: Variant, size: int, runs: int) -> tuple[float, float, float]:
    """(cold ms, median warm ms, largest PNG in KB) for ``variant``."""
    cases = samples(variant)
    start = time.perf_counter()
    render(cases[0][0], variant=variant, size=size, last_move=cases[0][1])
    cold = (time.perf_counter() - start) * 1000
    sizes, medians = [], []
    for position, move in cases:
        data = render(position, variant=variant, size=size, last_move=move)
        sizes.append(len(data) / 1024)
        medians.append(median_ms(
            lambda p=position, m=move: render(p, variant=variant, size=size, last_move=m), runs))
    return cold, statistics.median(medians), max(sizes)


def anchor(size: int, runs: int) -> tuple[float, float] | None:
    """(median ms, PNG KB) for python-chess's SVG board rasterised by cairosvg."""
    try:
        import cairosvg
        import chess
        import chess.svg
    except (ImportError, OSError):
        return None
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"):
        board.push_san(san)
    last = board.peek()

    def job() -> bytes:
        svg = chess.svg.board(board, size=size, lastmove=last)
        return cairosvg.svg2png(bytestring=svg.encode())

    data = job()
    return median_ms(job, runs), len(data) / 1024


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs per position")
    parser.add_argument("--size", type=int, default=800, help="picture width in pixels")
    args = parser.parse_args(argv)
    print(f"render + PNG encode at {args.size} px, median of {args.runs} runs "
          f"(Python {platform.python_version()}, Pillow {PIL.__version__})")
    anchor_figures = anchor(args.size, args.runs)
    if anchor_figures is None:
        print("anchor unavailable (python-chess with cairosvg and the cairo library needed)")
    else:
        print(f"{'anchor: python-chess svg + cairosvg':<46} {anchor_figures[0]:7.2f} ms "
              f"{anchor_figures[1]:7.1f} KB")
    print(f"{'variant':<46} {'median':>10} {'PNG':>10} {'cold':>10} {'vs anchor':>10}  target")
    variants: list[tuple[str, Variant]] = [(v.display_name, v) for v in all_variants()]
    failed = False
    for label, variant in variants:
        cold, warm, kb = measure(variant, args.size, args.runs)
        ratio = f"{warm / anchor_figures[0]:9.3f}x" if anchor_figures else f"{'-':>10}"
        ok = warm <= TARGET_MS and kb <= TARGET_KB
        failed |= not ok
        print(f"{label:<46} {warm:7.2f} ms {kb:7.1f} KB {cold:7.0f} ms {ratio}  "
              f"{'ok' if ok else 'MISSED'} (<= {TARGET_MS:g} ms, <= {TARGET_KB:g} KB)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
