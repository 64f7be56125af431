"""A tournament's standings as a picture: the crosstable.

The renderer draws only what it is given: every word of a `Crosstable` (title, column
heads, ranks, results, tie-breaks, the note, the line for a table with no one in it) comes
worded in the reader's language from the caller, and nothing here is in English.

The picture is a header band (title, subtitle), a grid and a footnote. The grid has a
column per head: the rank, the name (left-aligned), the rating, one column per result
(round-robin: per opponent; Swiss: per round), the score and each tie-break, every other
text centred in its box. Rows are shaded in turns; the rows the caller marks ``winner``
are drawn in gold with the name in bold; a result is tinted by its first letter (a win
``1``/``+``, a draw ``½``/``=``, a loss ``0``/``-``), a double round-robin's pair of
results (``1½``) as two halves, and the crossed-out diagonal (``×``) dark.

Columns are as wide as their widest text (the result columns as the widest of them),
measured in the faces that draw it (`renderer.frame.text_width`), so the picture grows
with the players and the rounds. A text wider than its column may be (a name: ``NAME_MAX``
face sizes; any other: ``TEXT_MAX``) is shortened to what fits with an ellipsis ``…`` at
its end, never cut silently; the title, subtitle, note and empty-table line wrap onto more
lines instead (`renderer.frame`).

Speed: text widths and text masks are cached across pictures (`renderer.frame`), the
shades are rectangles of one `ImageDraw`, and the picture is mapped onto a 256-colour
palette cached per theme (its shades and tints exact) before its PNG is written as the
board pictures' (`renderer.picture.encode_png`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from .frame import Paragraph, Placed, Typesetter, _draw_text, draw_placed, text_width
from .picture import encode_png, fitted_palette
from .theme import RGB, Theme, get_theme

FONT = 15  # the grid's face size at scale 1
TITLE_FONT = 20
SUBTITLE_FONT = 15
MIN_FONT = 8  # the smallest face at any scale
MAX_SCALE = 3.0  # the largest table (64 rows, 40 results) stays well under 10 MiB
NAME_MAX = 18.0  # the widest a name may be, in face sizes
TEXT_MAX = 8.0  # the widest any other text of the grid may be
MIN_WIDTH = 30.0  # the narrowest picture, in face sizes: room for a title on a short table
ROW = 1.8  # a row's height, in face sizes
PAD = 0.45  # between a text and its box's sides, in face sizes
ELLIPSIS = "…"
WIN, DRAW, LOSS, CROSSED = "1+", "½=", "0-", "×"
RESULTS = WIN + DRAW + LOSS

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)


@dataclass(frozen=True)
class CrossRow:
    """One player's row, every text as the caller worded it.

    * ``rank``: "1", "2=", ...; ``name``; ``rating``: "" when none.
    * ``cells``: one per result column: a round-robin result ("1", "0", "½", "=", two of
      them in a double round-robin: "1½"), "" for a game not played yet, "×" on the
      diagonal; or a Swiss round's "+W12" (any short text: it is tinted by its first
      letter).
    * ``score``; ``tiebreaks``: one per tie-break column.
    * ``winner``: the row is highlighted (the winners; or, as the caller chooses, the
      leaders while play goes on).
    """

    rank: str
    name: str
    rating: str
    cells: tuple[str, ...]
    score: str
    tiebreaks: tuple[str, ...] = ()
    winner: bool = False


@dataclass(frozen=True)
class Crosstable:
    """A whole crosstable as the caller worded it.

    * ``title`` ("Tournament #3 — Commander Chess round-robin"), ``subtitle`` ("Round 4
      of 7 · 12 of 15 games played").
    * ``headers``: the column heads: rank, name, rating, one per result column, score,
      then one per tie-break (so as many as a row has texts). A column whose head and
      texts are all "" takes no room (an unrated tournament's ratings).
    * ``rows``: the players, in the order drawn.
    * ``note``: a footnote below the grid (the tie-break order), may be "".
    * ``empty``: the line drawn in place of the rows when there are none ("No one has
      signed up yet"), may be "".
    """

    title: str
    subtitle: str
    headers: tuple[str, ...]
    rows: tuple[CrossRow, ...]
    note: str = ""
    empty: str = ""

    @property
    def tiebreaks(self) -> int:
        """The number of tie-break columns (a row's; none in a table with no rows)."""
        return len(self.rows[0].tiebreaks) if self.rows else 0

    def columns(self) -> list[list[str]]:
        """Each column's texts, its head first (checked: every row has as many tie-breaks
        as the first, and a text per head)."""
        texts = [_texts(row) for row in self.rows]
        for row, row_texts in zip(self.rows, texts, strict=True):
            if len(row.tiebreaks) != self.tiebreaks:
                raise ValueError(f"the row of {row.name!r} has {len(row.tiebreaks)} "
                                 f"tie-breaks, the first row {self.tiebreaks}")
            if len(row_texts) != len(self.headers):
                raise ValueError(f"the row of {row.name!r} has {len(row_texts)} texts "
                                 f"for {len(self.headers)} column heads")
        return [[head, *(t[k] for t in texts)] for k, head in enumerate(self.headers)]

    def result_columns(self) -> range:
        """The indices of the result columns among the heads."""
        return range(3, max(3, len(self.headers) - 1 - self.tiebreaks))


def _texts(row: CrossRow) -> tuple[str, ...]:
    return (row.rank, row.name, row.rating, *row.cells, row.score, *row.tiebreaks)


@dataclass(frozen=True)
class Text:
    """One text of the grid at its place: drawn from ``x`` (its left edge) with its middle
    at ``y``, inside ``box`` (its cell)."""

    text: str
    box: Box
    x: float
    y: float
    bold: bool
    colour: RGB


@dataclass(frozen=True)
class Block:
    """Wrapped lines of one face size (the title, the subtitle, the note)."""

    placed: tuple[Placed, ...]
    size: int


@dataclass(frozen=True)
class Sheet:
    """Where everything of a crosstable picture goes: the grid's columns (left, right;
    an empty column's has no width) and lines (top, bottom; the heads' first), the shaded
    boxes in drawing order, the grid's texts (in face ``size``) and the wrapped blocks of
    text around it."""

    width: int
    height: int
    size: int
    columns: tuple[tuple[int, int], ...]
    lines: tuple[tuple[int, int], ...]
    fills: tuple[tuple[Box, RGB], ...]
    texts: tuple[Text, ...]
    blocks: tuple[Block, ...]


def blend(a: RGB, b: RGB, share: float) -> RGB:
    """``a`` with ``share`` of ``b`` mixed in."""
    return (round(a[0] + (b[0] - a[0]) * share), round(a[1] + (b[1] - a[1]) * share),
            round(a[2] + (b[2] - a[2]) * share))


def shorten(text: str, size: int, bold: bool, room: float) -> str:
    """``text`` whole when it fits in ``room`` pixels, else its longest beginning that fits
    with ``…`` after it. A combining mark adds no width, so the longest beginning that fits
    keeps a letter's marks with it."""
    if text_width(text, size, bold) <= room:
        return text
    low, high = 0, len(text)  # the longest fitting beginning is text[:low]
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(text[:middle].rstrip() + ELLIPSIS, size, bold) <= room:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS


def tint(text: str, theme: Theme) -> RGB | None:
    """The colour a result is tinted by its first letter (None: not a result)."""
    first = text[:1]
    if not first:
        return None
    for letters, colour in ((WIN, theme.highlight[:3]), (DRAW, theme.last_move[:3]),
                            (LOSS, theme.capture[:3]), (CROSSED, theme.mark_edge)):
        if first in letters:
            return colour
    return None


def _tints(text: str, box: Box, shade: RGB, theme: Theme) -> list[tuple[Box, RGB]]:
    """The boxes a result tints, inset by a pixel so neighbours stay apart: the cell, or
    its two halves for a pair of results ("1½")."""
    left, top, right, bottom = box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1
    if len(text) == 2 and all(ch in RESULTS for ch in text):
        middle = (left + right) // 2
        return [((left, top, middle, bottom), _tinted(text[0], shade, theme)),
                ((middle, top, right, bottom), _tinted(text[1], shade, theme))]
    return [((left, top, right, bottom), _tinted(text, shade, theme))] \
        if tint(text, theme) else []


def _tinted(text: str, shade: RGB, theme: Theme) -> RGB:
    colour = tint(text, theme) or shade
    return blend(shade, colour, 0.6 if text[:1] == CROSSED else 0.42)


def _scaled(base: float, scale: float) -> int:
    return max(MIN_FONT, round(base * scale))


@dataclass(frozen=True)
class _Grid:
    """The grid's measures at one scale: face size, padding, margin and row height."""

    size: int
    pad: int
    margin: int
    row_height: int

    @classmethod
    def at(cls, scale: float) -> _Grid:
        if not 0 < scale <= MAX_SCALE:  # NaN too
            raise ValueError(f"scale {scale}: from above 0 up to {MAX_SCALE:g}")
        size = _scaled(FONT, scale)
        return cls(size, round(size * PAD), round(size * 0.8), round(size * ROW))


def lay_out(table: Crosstable, theme: Theme, scale: float = 1.0) -> Sheet:
    """Where every box and text of ``table``'s picture goes at ``scale`` (1: a 15-pixel
    grid face): the band, the grid below it, and the empty table's line and the note."""
    grid = _Grid.at(scale)
    score = len(table.headers) - 1 - table.tiebreaks
    bold_rows = [True] + [row.winner for row in table.rows]  # the heads, then the rows

    def bold(k: int, j: int) -> bool:
        """Column ``k``'s text on line ``j`` (0: the heads) is bold: the heads, the score,
        and a winner's name."""
        return bold_rows[j] if k == 1 else j == 0 or k == score

    shown, widths = _columns(table, grid, bold)
    edges = [grid.margin + sum(widths[:k]) for k in range(len(widths) + 1)]
    width = max(edges[-1] + grid.margin, round(grid.size * MIN_WIDTH))
    room = width - 2 * grid.margin
    band = [(_scaled(TITLE_FONT, scale), table.title, theme.caption, True),
            (_scaled(SUBTITLE_FONT, scale), table.subtitle, theme.caption_dim, False)]
    blocks, bottom = _blocks(band, grid.margin, round(grid.margin * 0.7), room)
    band_bottom = bottom + round(grid.margin * 0.7)
    fills: list[tuple[Box, RGB]] = [((0, 0, width, band_bottom), blend(theme.frame,
                                                                       theme.mark_edge, 0.6))]
    texts: list[Text] = []
    lines: list[tuple[int, int]] = []
    y = band_bottom + round(grid.margin * 0.6)
    for j in range(len(table.rows) + 1):
        row = table.rows[j - 1] if j else None
        lines.append((y, y + grid.row_height))
        _grid_line(table, theme, grid, row, j, [column[j] for column in shown], edges,
                   bold, y, fills, texts)
        y += grid.row_height
    after = [(grid.size, table.empty if not table.rows else "", theme.caption, False),
             (grid.size, table.note, theme.caption_dim, False)]
    below, y = _blocks(after, grid.margin, y, room, round(grid.margin * 0.4))
    return Sheet(width, y + grid.margin, grid.size,
                 tuple(zip(edges, edges[1:], strict=False)), tuple(lines), tuple(fills),
                 tuple(texts), tuple(blocks + below))


def _columns(table: Crosstable, grid: _Grid, bold: Callable[[int, int], bool]
             ) -> tuple[list[list[str]], list[int]]:
    """Each column's texts as shown (shortened where too wide) and its width: its widest
    text's and the padding, the result columns' all that of the widest of them, and none
    for a column with nothing in it."""
    shown: list[list[str]] = []
    widths: list[int] = []
    for k, texts in enumerate(table.columns()):
        room = grid.size * (NAME_MAX if k == 1 else TEXT_MAX)
        column = [shorten(t, grid.size, bold(k, j), room) for j, t in enumerate(texts)]
        widest = max(text_width(t, grid.size, bold(k, j)) for j, t in enumerate(column))
        shown.append(column)
        widths.append(math.ceil(widest) + 2 * grid.pad if any(texts) else 0)
    results = table.result_columns()
    if len(results):  # one width for every result column, so the grid stays square
        widths[results.start:results.stop] = [max(widths[k] for k in results)] * len(results)
    return shown, widths


def _grid_line(table: Crosstable, theme: Theme, grid: _Grid, row: CrossRow | None, j: int,
               shown: list[str], edges: list[int], bold: Callable[[int, int], bool], y: int,
               fills: list[tuple[Box, RGB]], texts: list[Text]) -> None:
    """Line ``j`` of the grid (the heads' when ``row`` is None): its shade, its results'
    tints, and its texts (names from the left, the others centred)."""
    shade = blend(theme.frame, theme.caption_dim, 0.22) if row is None else \
        blend(theme.frame, theme.heroic, 0.3) if row.winner else \
        blend(theme.frame, theme.caption, 0.1 if j % 2 else 0.04)
    bottom = y + grid.row_height
    fills.append(((edges[0], y, edges[-1], bottom), shade))
    results = table.result_columns()
    for k, text in enumerate(shown):
        left, right = edges[k], edges[k + 1]
        if left == right:
            continue
        box = (left, y, right, bottom)
        if row is not None and k in results:
            fills += _tints(text, box, shade, theme)
        if not text:
            continue
        heavy = bold(k, j)
        x = left + grid.pad if k == 1 else \
            left + (right - left - text_width(text, grid.size, heavy)) / 2
        colour = theme.caption_dim if row is None or text == CROSSED else theme.caption
        texts.append(Text(text, box, x, y + grid.row_height / 2, heavy, colour))


def _blocks(paragraphs: list[tuple[int, str, RGB, bool]], left: int, top: int, room: int,
            gap: int = 0) -> tuple[list[Block], int]:
    """(face size, text, colour, bold) wrapped to ``room`` from ``top``, each after a
    ``gap`` (those with no text left out); and the bottom of the last."""
    blocks: list[Block] = []
    for size, text, colour, heavy in paragraphs:
        if text:
            setter = Typesetter(size)
            placed, used = setter.place([Paragraph().word(text, colour, heavy)], left,
                                        top + gap, room)
            blocks.append(Block(tuple(placed), size))
            top += round(used) + gap
    return blocks, top


def draw_crosstable(table: Crosstable, theme: str | Theme = "classic",
                    scale: float = 1.0) -> bytes:
    """The PNG picture of ``table`` in ``theme``'s colours; ``scale`` sizes every face
    (1: a 15-pixel grid face; at most ``MAX_SCALE``). The same table gives the same
    bytes."""
    theme = get_theme(theme)
    image = _draw(lay_out(table, theme, scale), theme)
    return encode_png(image.quantize(palette=_palette(theme), dither=Image.Dither.NONE))


def _draw(sheet: Sheet, theme: Theme) -> Image.Image:
    image = Image.new("RGB", (sheet.width, sheet.height), theme.frame)
    pen = ImageDraw.Draw(image)
    for (left, top, right, bottom), colour in sheet.fills:
        if right > left and bottom > top:
            pen.rectangle((left, top, right - 1, bottom - 1), fill=colour)
    for t in sheet.texts:
        _draw_text(image, t.x, t.y, t.text, sheet.size, t.bold, t.colour)
    for block in sheet.blocks:
        draw_placed(image, block.placed, block.size)
    return image


# every kind of box a crosstable has, on every kind of row: the palette's sample
_KINDS = ("1", "½", "0", "×", "", "+W12", "=B3", "-W40", "1½", "0=")
SAMPLE = Crosstable(
    "Sample 0123456789", "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ("#", "Name", "Rating", *_KINDS, "Score", "SB"),
    tuple(CrossRow(str(k), "Nguyễn Văn Ánh Alice Liddell", "1500", _KINDS, "7½", ("45.25",),
                   winner=k == 1) for k in (1, 2, 3)),
    note="Tie-breaks: 0123456789")


@lru_cache(maxsize=8)
def _palette(theme: Theme) -> Image.Image:
    """A 256-colour palette for ``theme``'s crosstables, which have few colours: every
    shade and tint kept exact, and the blends of the letters' edges fitted on a sample
    table with every kind of box (a picture of 256 colours is encoded three times as fast
    as its RGB and is half as large)."""
    sheet = lay_out(SAMPLE, theme)
    keys = sorted({colour for _box, colour in sheet.fills} |
                  {theme.frame, theme.caption, theme.caption_dim})
    return fitted_palette(_draw(sheet, theme), keys)
