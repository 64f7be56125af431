"""Text faces: DejaVu Sans Condensed, with Droid Sans Fallback for the letters it lacks, both
shipped in ``renderer/fonts/`` with their licences.

DejaVu covers Latin with every Vietnamese diacritic (Commander Chess is Cờ Tư Lệnh, and its
players write their names that way), Greek, Cyrillic, Hebrew and Arabic, which Pillow's
built-in face does not; the condensed cut fits more of a name or a caption in the width of a
board. It has no Chinese, Japanese or Korean letter: those come from Droid Sans Fallback
(Apache License 2.0; 3.4 MB, the smallest freely licensed face with the CJK ideographs,
kana and Hangul syllables), which has no bold cut: bold text draws its regular one with a
thin stroke of its own colour (`stroke`), as heavy as DejaVu's bold.

Text is cut into runs (`runs`), each drawn in the first face that has all its letters; a
letter no face has is drawn as U+FFFD (�), one for each letter and its marks, never as an
empty box, and a mark or joiner no face can place is left out. Names typed to the service
are refused instead when they hold such a letter (`missing`); names that come from
elsewhere (a Discord display name, a mail's From header) cannot be refused, and get the
replacement.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import lru_cache
from pathlib import Path

import PIL
from PIL import ImageFont

FOLDER = Path(__file__).with_name("fonts")
REGULAR = FOLDER / "DejaVuSansCondensed.ttf"
BOLD = FOLDER / "DejaVuSansCondensed-Bold.ttf"
FALLBACK = FOLDER / "DroidSansFallback.ttf"
REPLACEMENT = "\ufffd"  # in DejaVu: what a letter no face has is drawn as
MARKS = {"Mn", "Mc", "Me"}  # combining marks: drawn with the letter before them
# Pillow draws strokes of a fraction of a pixel from 11.1 on; before, whole pixels only,
# too heavy for a name, so fallback letters are not made bold there
FRACTIONAL_STROKES = tuple(int(n) for n in PIL.__version__.split(".")[:2]) >= (11, 1)


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The text face at ``size`` pixels (bold for headings)."""
    return face(BOLD if bold else REGULAR, size)


@lru_cache(maxsize=128)
def face(path: Path, size: int) -> ImageFont.FreeTypeFont:
    """The face in the file ``path`` at ``size`` pixels."""
    return ImageFont.truetype(str(path), max(1, size))


def stroke(path: Path, size: int, bold: bool) -> float:
    """The width of the stroke that makes a face without a bold cut look bold (0: none)."""
    if not bold or path != FALLBACK or not FRACTIONAL_STROKES:
        return 0.0
    return round(size * 0.03, 2)


def faces(bold: bool = False) -> tuple[Path, ...]:
    """The faces tried for a letter, in order: DejaVu (bold or not), then the fallback."""
    return (BOLD if bold else REGULAR, FALLBACK)


@lru_cache(maxsize=8)
def coverage(path: Path) -> frozenset[int]:
    """The code points that the face in ``path`` has a glyph for (read once from its
    ``cmap`` table)."""
    return frozenset(_cmap(path.read_bytes()))


def has_glyph(path: Path, ch: str) -> bool:
    return ord(ch) in coverage(path)


@lru_cache(maxsize=4096)
def runs(text: str, bold: bool = False) -> tuple[tuple[str, Path], ...]:
    """``text`` as runs of letters, each with the first face that has them: marks, joiners
    and spaces stay in the run of the letter before them when its face has them."""
    out: list[list] = []
    tried = faces(bold)
    replaced = False  # the letter before was replaced: its marks go with it
    for ch in text:
        kind = unicodedata.category(ch)
        follows = kind in MARKS or kind == "Cf" or ch.isspace()
        if follows and out and (replaced or has_glyph(out[-1][1], ch)):
            if not replaced:
                out[-1][0] += ch
            continue
        path = next((p for p in tried if has_glyph(p, ch)), None)
        replaced = path is None
        if path is None:
            if follows:
                continue  # a mark or joiner with nothing to join
            ch, path = REPLACEMENT, tried[0]
        if out and out[-1][1] == path:
            out[-1][0] += ch
        else:
            out.append([ch, path])
    return tuple((t, p) for t, p in out)


def missing(text: str) -> list[str]:
    """The letters of ``text`` that no face has (each once, in order of appearance): the
    ones a picture would draw as �. Spaces, joiners and format characters are not
    letters, and the marks of a missing letter go with it."""
    tried = faces()
    found: list[str] = []
    base_missing = False
    for ch in text:
        kind = unicodedata.category(ch)
        if ch.isspace() or kind in ("Cf", "Cc") or (kind in MARKS and base_missing):
            continue
        base_missing = not any(has_glyph(p, ch) for p in tried)
        if base_missing and ch not in found:
            found.append(ch)
    return found


# --- the cmap table of a TrueType or OpenType file ---------------------------------------
def _cmap(data: bytes) -> set[int]:
    """Every code point the font's best Unicode ``cmap`` subtable maps to a glyph other
    than .notdef (formats 4 and 12, which every Unicode font has one of)."""
    tables = {data[12 + 16 * k:16 + 16 * k]: struct.unpack_from(">I", data, 20 + 16 * k)[0]
              for k in range(struct.unpack_from(">H", data, 4)[0])}
    cmap = tables[b"cmap"]
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    best: dict[int, int] = {}
    for k in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * k)
        at = cmap + offset
        kind = struct.unpack_from(">H", data, at)[0]
        if (platform, encoding) in ((3, 10), (0, 4), (0, 6)) and kind == 12:
            best.setdefault(12, at)
        elif (platform, encoding) in ((3, 1), (0, 3), (0, 1)) and kind == 4:
            best.setdefault(4, at)
    if 12 in best:
        return _format12(data, best[12])
    if 4 in best:
        return _format4(data, best[4])
    raise ValueError("the font has no Unicode cmap of format 4 or 12")


def _format4(data: bytes, at: int) -> set[int]:
    segments = struct.unpack_from(">H", data, at + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, at + 14)
    starts_at = at + 16 + 2 * segments
    starts = struct.unpack_from(f">{segments}H", data, starts_at)
    deltas = struct.unpack_from(f">{segments}h", data, starts_at + 2 * segments)
    ranges_at = starts_at + 4 * segments
    range_offsets = struct.unpack_from(f">{segments}H", data, ranges_at)
    points: set[int] = set()
    for k in range(segments):
        start, end, delta, offset = starts[k], ends[k], deltas[k], range_offsets[k]
        for code in range(start, min(end, 0xFFFE) + 1):
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = ranges_at + 2 * k + offset + 2 * (code - start)
                glyph = struct.unpack_from(">H", data, where)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                points.add(code)
    return points


def _format12(data: bytes, at: int) -> set[int]:
    groups = struct.unpack_from(">I", data, at + 12)[0]
    points: set[int] = set()
    for k in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * k)
        points.update(range(start + (glyph == 0), end + 1))
    return points
