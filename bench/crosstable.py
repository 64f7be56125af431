"""Crosstable picture speed and size: draw and encode a 16-player round-robin's standings,
beside the board picture a player gets, measured in the same run.

The table is what a tournament's standings post shows in round 11 of 15: sixteen players
with names of realistic length (half of them Vietnamese, with their diacritics), ratings,
the results played so far (two thirds of the games: wins, draws and losses), the crossed
diagonal, scores, two tie-breaks, the leader's row, and a note. Figures:

* "median": `renderer.draw_crosstable` with the caches warm, as in a running bot that
  posts the standings after each result (target: under 50 ms);
* "cold": the same with the text caches emptied before each run (the measured widths,
  the runs of faces and the drawn masks of every text), as for the first standings of a
  tournament whose names no picture has shown yet;
* "first": the first picture in the process, its theme's palette fitted;
* the anchors: the board picture a player gets of a Commander Chess game (800 px, header
  with the game and its players, panel with the clocks: `renderer.render`, whose own
  target is 15 ms), and a plain Pillow drawing of the same texts: each drawn where the
  crosstable puts it with one `ImageDraw.text` call in one face, on a picture of the same
  size with no shades, saved as an RGB PNG at the same compression level (what the
  caches of text masks and the 256-colour palette save).

Run: ``.venv/bin/python bench/crosstable.py [--runs N] [--players N] [--scale S]``
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import time
from collections.abc import Callable, Sequence

import PIL
from PIL import Image, ImageDraw

from engine import get_variant
from renderer import CrossRow, Crosstable, GameInfo, draw_crosstable, get_theme, render
from renderer.crosstable import lay_out
from renderer.fonts import font, runs
from renderer.frame import _text_mask, text_width
from renderer.picture import encode_png

TARGET_MS = 50.0
NAMES = ("Tư lệnh Nguyễn Văn Ánh", "Alice Liddell", "Trần Đức Thắng", "Magnus Andersson",
         "Nguyễn Thị Hường", "Zoë Łukasiewicz", "Lý Quốc Phượng", "Søren Ærø Kristiansen",
         "Phạm Minh Châu", "François Ñúñez-Delacroix", "Hoàng Thị Lan Anh", "Judit Polgár",
         "Đặng Văn Hùng", "Hikaru Nakamura", "Võ Thị Sáu", "Pentala Harikrishna")
SCORES = {"1": 1.0, "½": 0.5, "0": 0.0, "": 0.0}
OPPOSITE = {"1": "0", "0": "1", "½": "½", "": ""}


def median_ms(work: Callable[[], object], runs: int,
              before: Callable[[], object] = lambda: None) -> float:
    """The median time of ``work`` over ``runs`` runs, ``before`` run untimed before each."""
    times = []
    for _ in range(runs):
        before()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def standings(players: int) -> Crosstable:
    """A round-robin of ``players`` two thirds played, ranked by score."""
    results = [["×"] * players for _ in range(players)]
    for a in range(players):
        for b in range(a + 1, players):
            result = ("1", "½", "0", "", "1", "0")[(a * 5 + b * 3) % 6]
            results[a][b], results[b][a] = result, OPPOSITE[result]
    scores = [sum(SCORES.get(r, 0.0) for r in results[k]) for k in range(players)]
    order = sorted(range(players), key=lambda k: -scores[k])
    rows = []
    for place, k in enumerate(order):
        cells = tuple(results[k][j] for j in order)
        score = f"{int(scores[k])}{'½' if scores[k] % 1 else ''}"
        rows.append(CrossRow(str(place + 1), NAMES[k % len(NAMES)], str(1850 - 23 * k), cells,
                             score, (f"{scores[k] * 4.75:.2f}", str(cells.count("1"))),
                             winner=place == 0))
    return Crosstable(
        "Giải đấu #3 — Cờ Tư Lệnh vòng tròn", f"Vòng 11 / {players - 1} · "
        f"{sum(r.cells.count('') for r in rows) // 2} ván còn lại",
        ("#", "Tên", "Elo", *(str(k + 1) for k in range(players)), "Điểm", "Hệ số SB",
         "Thắng"), tuple(rows), note="Thứ tự xếp hạng phụ: Hệ số SB, số ván thắng")


def empty_text_caches() -> None:
    for cache in (text_width, _text_mask, runs):
        cache.cache_clear()


def pillow_alone(table: Crosstable, scale: float) -> Callable[[], bytes]:
    """A plain Pillow drawing of the table's texts where the crosstable puts them, one
    call each in one face, then an RGB PNG."""
    theme = get_theme("classic")
    sheet = lay_out(table, theme, scale)
    face = font(sheet.size)
    texts = [(t.x, t.y, t.text) for t in sheet.texts]

    def job() -> bytes:
        image = Image.new("RGB", (sheet.width, sheet.height), theme.frame)
        pen = ImageDraw.Draw(image)
        for x, y, text in texts:
            pen.text((x, y), text, font=face, fill=theme.caption, anchor="lm")
        return encode_png(image)

    return job


def board_picture() -> Callable[[], bytes]:
    """The board picture a player gets of a Commander Chess game, at 800 px."""
    variant = get_variant("commander")
    position = variant.start_position()
    info = GameInfo(number=1234, players=(NAMES[1], NAMES[4]),
                    deadline="until 2026-12-03 14:00 UTC",
                    clocks=("2 days 4 hours left", "3 days per move"))
    return lambda: render(position, variant=variant, size=800, info=info)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="timed runs per figure")
    parser.add_argument("--players", type=int, default=16, help="players in the round-robin")
    parser.add_argument("--scale", type=float, default=1.0, help="the picture's scale")
    args = parser.parse_args(argv)
    table = standings(args.players)
    start = time.perf_counter()
    png = draw_crosstable(table, scale=args.scale)  # the first: the theme's palette fitted
    first = (time.perf_counter() - start) * 1000
    size = Image.open(io.BytesIO(png)).size
    print(f"crosstable of {args.players} players at scale {args.scale:g} "
          f"({size[0]}x{size[1]} px, {len(png) / 1024:.1f} KB), median of {args.runs} runs "
          f"(Python {platform.python_version()}, Pillow {PIL.__version__})")
    board = board_picture()
    board()
    anchor = median_ms(board, args.runs)
    floor = median_ms(pillow_alone(table, args.scale), args.runs)
    warm = median_ms(lambda: draw_crosstable(table, scale=args.scale), args.runs)
    cold = median_ms(lambda: draw_crosstable(table, scale=args.scale), args.runs,
                     before=empty_text_caches)
    print(f"{'crosstable, the first in the process':<48} {first:7.2f} ms")
    print(f"{'anchor: board picture, Commander Chess 800 px':<48} {anchor:7.2f} ms")
    print(f"{'anchor: plain Pillow, the same texts, RGB PNG':<48} {floor:7.2f} ms")
    failed = False
    for label, ms in (("crosstable, caches warm (median)", warm),
                      ("crosstable, text caches emptied (cold)", cold)):
        ok = ms < TARGET_MS
        failed |= not ok
        print(f"{label:<48} {ms:7.2f} ms {ms / anchor:6.2f}x board {ms / floor:6.2f}x Pillow"
              f"  {'ok' if ok else 'MISSED'} (< {TARGET_MS:g} ms)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
