"""Everything around the board: the header above it and the panel beside or below it.

Text is never cut: each paragraph is broken into words and wrapped to the width it has (a
word longer than a line is broken between letters). The faces' sizes follow from the
picture's width alone, never from what the text says: a long name or status takes more
lines, not smaller letters, and the picture grows to hold what it says.

At ``PANEL_MIN_WIDTH`` pixels and more the panel stands to the right of the board (as on
chess sites); narrower pictures (Discord shows a preview about 400 px wide) put it in a
strip below the board, so the board keeps the whole width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw, ImageFont

from .fonts import face, faces, font, runs, stroke
from .theme import RGB

PANEL_MIN_WIDTH = 720
PANEL_SHARE = 0.28  # of the picture's width, when the panel is at the side
HEADER_FONT = 0.036  # of the width the board has, narrow pictures
HEADER_FONT_WIDE = 0.027
MIN_FONT = 12  # the panel's smallest face
MIN_HEADER_FONT = 13
PANEL_FONT = 0.86  # of the header's size
LINE = 1.32  # line height, in font sizes
NBSP = "\u00a0"  # a space no line breaks at


@dataclass(frozen=True)
class Item:
    """One unbreakable piece of a paragraph: pictures (tokens, sprites) then a word."""

    text: str = ""
    colour: RGB = (0, 0, 0)
    bold: bool = False
    images: tuple[Image.Image, ...] = ()
    joined: bool = False  # no space before it (punctuation after a word)


@dataclass
class Paragraph:
    """Items laid out left to right, wrapped at the spaces between them."""

    items: list[Item] = field(default_factory=list)
    align: str = "left"  # or "right": a short paragraph pushed to the right edge

    def word(self, text: str, colour: RGB, bold: bool = False,
             images: Sequence[Image.Image] = (), joined: bool = False,
             keep: bool = False) -> Paragraph:
        """Add ``text`` as words (the images go before the first); ``keep`` holds its words
        together on one line (where the line is wide enough)."""
        if keep:
            text = text.replace(" ", NBSP)
        words = text.split(" ") if text else [""]
        for k, w in enumerate(words):
            if not w and not (k == 0 and images):
                continue
            self.items.append(Item(w, colour, bold, tuple(images) if k == 0 else (),
                                   joined and k == 0))
        return self


@dataclass(frozen=True)
class Placed:
    """An item at its place: the left edge and the line's vertical centre."""

    item: Item
    x: float
    y: float


class Typesetter:
    """Lays paragraphs into lines of a given width with one face size."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.draw = ImageDraw.Draw(Image.new("L", (1, 1)))

    @cached_property
    def space(self) -> float:
        return self.draw.textlength(" ", font=font(self.size))

    @property
    def line_height(self) -> int:
        return round(self.size * LINE)

    def text_width(self, text: str, bold: bool = False) -> float:
        return text_width(text, self.size, bold) if text else 0.0

    def item_width(self, item: Item) -> float:
        pics = sum(im.width for im in item.images) + self.gap * len(item.images)
        return pics + self.text_width(item.text, item.bold)

    @property
    def gap(self) -> float:
        return self.size * 0.22

    def _split(self, item: Item, width: float) -> list[Item]:
        """A word too long for a line, broken between letters; words held together
        (``keep``) too long for a line, at the last space between them that fits."""
        pieces: list[Item] = []
        rest, first = item.text, True
        while rest:
            pics = item.images if first else ()
            room = width - sum(im.width for im in pics) - self.gap * len(pics)
            n = len(rest)
            while n > 1 and self.text_width(rest[:n], item.bold) > room:
                n -= 1
            space = rest.rfind(NBSP, 0, n + 1) if n < len(rest) else -1
            cut, skip = (space, 1) if space > 0 else (n, 0)
            pieces.append(Item(rest[:cut], item.colour, item.bold, pics,
                               item.joined and first))
            rest, first = rest[cut + skip:], False
        return pieces or [item]

    def lines(self, paragraph: Paragraph, width: float) -> list[list[tuple[Item, float]]]:
        """The paragraph's items with their x offsets, line by line."""
        out: list[list[tuple[Item, float]]] = []
        line: list[tuple[Item, float]] = []
        x = 0.0
        queue = list(paragraph.items)
        while queue:
            item = queue.pop(0)
            w = self.item_width(item)
            lead = 0.0 if not line or item.joined else self.space
            if line and x + lead + w > width:
                out.append(line)
                line, x, lead = [], 0.0, 0.0
            if not line and w > width and item.text:
                parts = self._split(item, width)
                if len(parts) > 1:
                    queue[:0] = parts
                    continue
            line.append((item, x + lead))
            x += lead + w
        if line:
            out.append(line)
        if paragraph.align == "right" and len(out) == 1:
            used = out[0][-1][1] + self.item_width(out[0][-1][0])
            out[0] = [(it, ox + width - used) for it, ox in out[0]]
        return out

    def place(self, paragraphs: Sequence[Paragraph], left: float, top: float,
              width: float) -> tuple[list[Placed], float]:
        """Every item placed; and the height used."""
        placed: list[Placed] = []
        y = top
        for paragraph in paragraphs:
            for line in self.lines(paragraph, width):
                centre = y + self.line_height / 2
                placed += [Placed(item, left + x, centre) for item, x in line]
                y += self.line_height
        return placed, y - top

    def count(self, paragraphs: Sequence[Paragraph], width: float) -> int:
        return sum(len(self.lines(p, width)) for p in paragraphs)


_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text`` in the face at ``size`` (cached: names and words recur);
    letters DejaVu lacks are measured in the fallback face (`renderer.fonts.runs`)."""
    parts = runs(text, bold)
    if len(parts) == 1 and parts[0][1] == faces(bold)[0]:
        return _MEASURE.textlength(parts[0][0], font=font(size, bold))
    return sum(_MEASURE.textlength(part, font=face(path, size)) + 2 * stroke(path, size, bold)
               for part, path in parts)


def _runs(placed: Sequence[Placed]) -> list[tuple[float, float, str, Item]]:
    """Words of one style that follow each other on a line, joined into one string (one
    text call instead of one per word), as (x, y, text, first item)."""
    runs: list[tuple[float, float, str, Item]] = []
    broken = True  # a picture between words ends a run
    for p in placed:
        item = p.item
        if item.images or not item.text:
            broken = True
            continue
        if runs and not broken:
            x, y, text, first = runs[-1]
            if y == p.y and first.colour == item.colour and first.bold == item.bold \
                    and p.x >= x:
                runs[-1] = (x, y, text + ("" if item.joined else " ") + item.text, first)
                continue
        runs.append((p.x, p.y, item.text, item))
        broken = False
    return runs


def draw_placed(image: Image.Image, placed: Sequence[Placed], size: int) -> None:
    """Draw placed items onto ``image`` (pictures pasted with their own transparency)."""
    gap = size * 0.22
    for p in placed:
        x = p.x
        for im in p.item.images:
            image.paste(im, (round(x), round(p.y - im.height / 2)), im)
            x += im.width + gap
        if p.item.images and p.item.text:
            _draw_text(image, x, p.y, p.item.text, size, p.item.bold, p.item.colour)
    for x, y, text, first in _runs(placed):
        _draw_text(image, x, y, text, size, first.bold, first.colour)


def _draw_text(image: Image.Image, x: float, y: float, text: str, size: int, bold: bool,
               colour: RGB) -> None:
    """``text`` with its left edge at ``x`` and its middle at ``y``, through a cached mask:
    the same names, clocks and moves recur in every picture of a game."""
    mask, (dx, dy) = _text_mask(text, size, bold)
    left, top = round(x) + dx, round(y) + dy
    image.paste(colour, (left, top, left + mask.width, top + mask.height), mask)


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    parts = runs(text, bold)
    main = font(size, bold)
    if len(parts) == 1 and parts[0][1] == faces(bold)[0]:
        x0, y0, x1, y1 = main.getbbox(parts[0][0], anchor="lm")
        mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
        ImageDraw.Draw(mask).text((-x0, -y0), parts[0][0], font=main, fill=255, anchor="lm")
        return mask, (x0, y0)
    # runs in several faces share the main face's baseline, placed where its middle is
    ascent, descent = main.getmetrics()
    baseline = round((ascent - descent) / 2)
    placed: list[tuple[str, ImageFont.FreeTypeFont, int, float]] = []
    boxes: list[tuple[int, int, int, int]] = []
    advance = 0.0
    for part, path in parts:
        typeface, width = face(path, size), stroke(path, size, bold)
        left = round(advance + width)
        x0, y0, x1, y1 = typeface.getbbox(part, anchor="ls", stroke_width=width)
        placed.append((part, typeface, left, width))
        boxes.append((left + math.floor(x0), baseline + math.floor(y0),
                      left + math.ceil(x1), baseline + math.ceil(y1)))
        advance += _MEASURE.textlength(part, font=typeface) + 2 * width
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    pen = ImageDraw.Draw(mask)
    for part, typeface, left, width in placed:
        pen.text((left - x0, baseline - y0), part, font=typeface, fill=255, anchor="ls",
                 stroke_width=width, stroke_fill=255)
    return mask, (x0, y0)


def header_size(width: int, board_width: int) -> int:
    share = HEADER_FONT_WIDE if board_width < width else HEADER_FONT
    return max(MIN_HEADER_FONT, round(width * share))
