"""Board-picture speed and size: render and encode an 800-px PNG, per variant, beside
python-chess measured in the same run.

For every implemented variant: the median time of `renderer.render` (drawing plus PNG
encoding) of the whole picture a player gets (header with the game number, players,
deadline; panel with clocks, losses and the last twelve moves) over positions from a
seeded game (the start and middle games, the last move marked), with the caches warm as
in a running bot, and the largest PNG. Two cold calls are reported separately: the first
picture of the variant in the process ("first", its palette drawn), and then the first
picture at a size not drawn before ("new size", the board and sprites drawn at that size;
target <= 100 ms).

The anchor is python-chess doing the same job on a chess position:
``chess.svg.board(board, size=800, lastmove=...)`` then ``cairosvg.svg2png``. When
cairosvg (or its cairo library) is missing the anchor is reported as unavailable.

``--players`` names the two players (default: a Latin and a Vietnamese name, drawn in
DejaVu; ``--players 张伟,山田はなこ`` measures names drawn in the fallback face).

Run: ``.venv/bin/python bench/render.py [--runs N] [--size PX] [--players A,B]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable, Sequence

import PIL

from bot.cli.render import numbered_moves, seeded_game
from engine import Move, Position, Variant, all_variants
from renderer import GameInfo, render

TARGET_MS = 15.0
TARGET_KB = 150.0
TARGET_COLD_MS = 100.0


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


Case = tuple[Position, Move | None, GameInfo]


PLAYERS = ("Alice Liddell", "Nguyễn Thị Hường")


def samples(variant: Variant, players: tuple[str, str] = PLAYERS) -> list[Case]:
    """The pictures to draw: the start and a few middle games, with their last moves and
    what a game's picture says around the board."""
    positions, moves = seeded_game(variant, 30)
    out = []
    for k in range(0, len(positions), 10):
        info = GameInfo(number=1234, players=players,
                        deadline="until 2026-12-03 14:00 UTC",
                        clocks=("2 days 4 hours left", "3 days per move"),
                        moves=numbered_moves(variant, positions[:k + 1], moves[:k + 1])[-12:])
        out.append((positions[k], moves[k], info))
    return out


def measure(variant: Variant, size: int, runs: int,
            players: tuple[str, str] = PLAYERS) -> tuple[float, float, float, float]:
    """(first ms, new-size ms, median warm ms, largest PNG in KB) for ``variant``."""
    cases = samples(variant, players)

    def draw(case: Case, width: int = size) -> bytes:
        return render(case[0], variant=variant, size=width, last_move=case[1], info=case[2])

    start = time.perf_counter()
    draw(cases[0], size + 8)
    first = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    draw(cases[0])
    new_size = (time.perf_counter() - start) * 1000
    sizes, medians = [], []
    for case in cases:
        sizes.append(len(draw(case)) / 1024)
        medians.append(median_ms(lambda c=case: draw(c), runs))
    return first, new_size, statistics.median(medians), max(sizes)


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
    parser.add_argument("--players", default=",".join(PLAYERS),
                        help="the two players' names, separated by a comma (e.g. 张伟,山田はなこ "
                             "for names drawn in the fallback face)")
    args = parser.parse_args(argv)
    first_name, _, second_name = args.players.partition(",")
    players = (first_name.strip(), second_name.strip() or "Ann")
    print(f"render + PNG encode at {args.size} px, median of {args.runs} runs "
          f"(Python {platform.python_version()}, Pillow {PIL.__version__})")
    anchor_figures = anchor(args.size, args.runs)
    if anchor_figures is None:
        print("anchor unavailable (python-chess with cairosvg and the cairo library needed)")
    else:
        print(f"{'anchor: python-chess svg + cairosvg':<46} {anchor_figures[0]:7.2f} ms "
              f"{anchor_figures[1]:7.1f} KB")
    print(f"{'variant':<46} {'median':>10} {'PNG':>10} {'first':>10} {'new size':>10} "
          f"{'vs anchor':>10}  target")
    variants: list[tuple[str, Variant]] = [(v.display_name, v) for v in all_variants()]
    failed = False
    for label, variant in variants:
        first, new_size, warm, kb = measure(variant, args.size, args.runs, players)
        ratio = f"{warm / anchor_figures[0]:9.3f}x" if anchor_figures else f"{'-':>10}"
        ok = warm <= TARGET_MS and kb <= TARGET_KB and new_size <= TARGET_COLD_MS
        failed |= not ok
        print(f"{label:<46} {warm:7.2f} ms {kb:7.1f} KB {first:7.0f} ms {new_size:7.0f} ms "
              f"{ratio}  {'ok' if ok else 'MISSED'} (<= {TARGET_MS:g} ms, <= {TARGET_KB:g} KB, "
              f"new size <= {TARGET_COLD_MS:g} ms)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
