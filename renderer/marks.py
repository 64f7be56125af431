"""Marks on points: the last move (from, to, captured, an arrow) and highlighted points.

On a checkered board the last move tints its squares (the way chess sites show it); on
the graph and grid boards it is a halo around the point, wider than a piece so it shows
around one. The last move is also drawn as rings and an arrow in two tones, a bright core
inside a dark edge (`Theme.mark_edge`): the edge stands out from every terrain colour
(contrast at least 3:1, checked by a test), the core from the edge. Marks are cached
translucent sprites, pasted under the pieces.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from .theme import RGBA, Theme

SUPERSAMPLE = 4
FROM, TO, CAPTURE = "from", "to", "capture"
SELECTED, TARGET_EMPTY, TARGET_PIECE = "selected", "target", "occupied"
KINDS = (FROM, TO, CAPTURE, SELECTED, TARGET_EMPTY, TARGET_PIECE)


def _colour(kind: str, theme: Theme) -> RGBA:
    if kind == CAPTURE:
        return theme.capture
    if kind in (SELECTED, TARGET_EMPTY, TARGET_PIECE):
        return theme.highlight
    return theme.last_move


@lru_cache(maxsize=256)
def mark_sprite(kind: str, board_kind: str, spacing: float, diameter: int,
                theme: Theme) -> Image.Image:
    """The mark ``kind`` for one point, as an RGBA square centred on the point."""
    size = round(max(spacing, diameter * 1.3)) | 1
    k = SUPERSAMPLE
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size * k / 2
    colour = _colour(kind, theme)
    if board_kind == "squares":
        _square_mark(draw, kind, colour, c, spacing * k, theme)
    else:
        _point_mark(draw, kind, colour, c, diameter * k / 2, spacing * k, theme)
    return image.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")


def _disc(draw: ImageDraw.ImageDraw, c: float, r: float, fill: RGBA | None = None,
          outline: RGBA | None = None, width: float = 0) -> None:
    draw.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=outline, width=round(width))


def _cross(draw: ImageDraw.ImageDraw, c: float, r: float, colour: RGBA, width: float) -> None:
    draw.line((c - r, c - r, c + r, c + r), fill=colour, width=round(width))
    draw.line((c - r, c + r, c + r, c - r), fill=colour, width=round(width))


def _ring(draw: ImageDraw.ImageDraw, c: float, r: float, width: float, theme: Theme) -> None:
    """A two-tone ring: the dark edge, then the bright core inside it."""
    edge = theme.mark_edge + (255,)
    _disc(draw, c, r, outline=edge, width=width)
    _disc(draw, c, r - width * 0.25, outline=theme.last_move[:3] + (255,), width=width * 0.5)


def _square_mark(draw: ImageDraw.ImageDraw, kind: str, colour: RGBA, c: float,
                 cell: float, theme: Theme) -> None:
    half = cell / 2
    if kind in (FROM, TO):
        draw.rectangle((c - half, c - half, c + half, c + half), fill=colour)
        w = cell * 0.07
        edge, core = theme.mark_edge + (255,), theme.last_move[:3] + (255,)
        draw.rectangle((c - half, c - half, c + half, c + half), outline=edge, width=round(w))
        draw.rectangle((c - half + w * 0.9, c - half + w * 0.9, c + half - w * 0.9,
                        c + half - w * 0.9), outline=core, width=round(w * 0.6))
    elif kind == SELECTED:
        draw.rectangle((c - half, c - half, c + half, c + half), fill=colour[:3] + (160,))
    elif kind == CAPTURE:
        draw.rectangle((c - half, c - half, c + half, c + half), fill=colour[:3] + (90,))
        _cross(draw, c, cell * 0.2, colour, cell * 0.07)
    elif kind == TARGET_EMPTY:
        _disc(draw, c, cell * 0.16, fill=colour)
    else:
        _disc(draw, c, cell * 0.47, outline=colour, width=cell * 0.08)


def _point_mark(draw: ImageDraw.ImageDraw, kind: str, colour: RGBA, c: float, piece_r: float,
                spacing: float, theme: Theme) -> None:
    if kind == TO:
        _disc(draw, c, piece_r * 1.22, fill=colour)
        _ring(draw, c, piece_r * 1.22, piece_r * 0.2, theme)
    elif kind == SELECTED:
        _disc(draw, c, piece_r * 1.22, fill=colour[:3] + (150,))
    elif kind == FROM:
        # a ring as wide as a piece: it shows around a piece left behind on the origin
        _disc(draw, c, piece_r * 1.1, fill=colour[:3] + (colour[3] // 3,))
        _ring(draw, c, piece_r * 1.1, piece_r * 0.18, theme)
    elif kind == CAPTURE:
        _disc(draw, c, piece_r * 1.2, outline=colour, width=piece_r * 0.16)
        _cross(draw, c, piece_r * 0.42, colour, piece_r * 0.18)
    elif kind == TARGET_EMPTY:
        _disc(draw, c, min(spacing * 0.18, piece_r * 0.34), fill=colour)
    else:
        _disc(draw, c, piece_r * 1.18, outline=colour, width=piece_r * 0.16)


ARROW_SUPERSAMPLE = 2


@lru_cache(maxsize=1024)
def arrow_sprite(dx: int, dy: int, width: float, inset: float, theme: Theme
                 ) -> tuple[Image.Image, tuple[int, int]]:
    """An arrow from (0, 0) to (dx, dy), stopping ``inset`` pixels short of both points
    (outside the rings): the sprite and where the arrow's start lies in it."""
    length = math.hypot(dx, dy)
    pad = round(width * 2 + 2)
    x0, y0 = min(0, dx) - pad, min(0, dy) - pad
    w, h = abs(dx) + 2 * pad, abs(dy) + 2 * pad
    k = ARROW_SUPERSAMPLE
    image = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    if length <= 2 * inset + width:
        return image.resize((w, h)), (-x0, -y0)
    draw = ImageDraw.Draw(image)
    ux, uy = dx / length, dy / length
    start = ((-x0 + ux * inset) * k, (-y0 + uy * inset) * k)
    tip = ((-x0 + dx - ux * inset) * k, (-y0 + dy - uy * inset) * k)
    head = width * 2.2 * k
    neck = (tip[0] - ux * head, tip[1] - uy * head)
    wings = [(neck[0] - uy * head * 0.62, neck[1] + ux * head * 0.62),
             (neck[0] + uy * head * 0.62, neck[1] - ux * head * 0.62)]
    edge, core = theme.mark_edge + (255,), theme.last_move[:3] + (255,)
    for colour, grow in ((edge, width * 0.45 * k), (core, 0.0)):
        draw.line((start, neck), fill=colour, width=round(width * k + 2 * grow))
        tri = _grown([tip, *wings], grow)
        draw.polygon(tri, fill=colour)
    return image.resize((w, h), Image.Resampling.LANCZOS), (-x0, -y0)


def _grown(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A triangle moved outwards from its centre by ``by`` pixels."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / d * by * 2, y + (y - cy) / d * by * 2))
    return out
