"""Marks on points: the last move (from, to, captured) and highlighted destinations.

On a checkered board a mark tints the whole square (the way chess sites show the last
move); on the graph and grid boards it is a halo around the point, wider than a piece so
it shows around one. Marks are cached translucent sprites, pasted under the pieces.
"""

from __future__ import annotations

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
        _square_mark(draw, kind, colour, c, spacing * k)
    else:
        _point_mark(draw, kind, colour, c, diameter * k / 2, spacing * k)
    return image.convert("RGBa").resize((size, size), Image.Resampling.LANCZOS).convert("RGBA")


def _disc(draw: ImageDraw.ImageDraw, c: float, r: float, fill: RGBA | None = None,
          outline: RGBA | None = None, width: float = 0) -> None:
    draw.ellipse((c - r, c - r, c + r, c + r), fill=fill, outline=outline, width=round(width))


def _cross(draw: ImageDraw.ImageDraw, c: float, r: float, colour: RGBA, width: float) -> None:
    draw.line((c - r, c - r, c + r, c + r), fill=colour, width=round(width))
    draw.line((c - r, c + r, c + r, c - r), fill=colour, width=round(width))


def _square_mark(draw: ImageDraw.ImageDraw, kind: str, colour: RGBA, c: float,
                 cell: float) -> None:
    half = cell / 2
    if kind in (FROM, TO):
        draw.rectangle((c - half, c - half, c + half, c + half), fill=colour)
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
                spacing: float) -> None:
    if kind == TO:
        _disc(draw, c, piece_r * 1.22, fill=colour)
    elif kind == SELECTED:
        _disc(draw, c, piece_r * 1.22, fill=colour[:3] + (150,))
    elif kind == FROM:
        # a ring as wide as a piece: it shows around a piece left behind on the origin
        _disc(draw, c, piece_r * 1.1, fill=colour[:3] + (colour[3] // 3,))
        _disc(draw, c, piece_r * 1.1, outline=colour[:3] + (230,), width=piece_r * 0.14)
    elif kind == CAPTURE:
        _disc(draw, c, piece_r * 1.2, outline=colour, width=piece_r * 0.16)
        _cross(draw, c, piece_r * 0.42, colour, piece_r * 0.18)
    elif kind == TARGET_EMPTY:
        _disc(draw, c, min(spacing * 0.18, piece_r * 0.34), fill=colour)
    else:
        _disc(draw, c, piece_r * 1.18, outline=colour, width=piece_r * 0.16)
