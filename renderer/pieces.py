"""Pieces: a table of glyphs keyed by (family, letter), and the sprites drawn from them.

A glyph is a silhouette (polygons in unit coordinates: x to the right, y up, the piece
fits the unit circle) plus the piece's letter inside it. A newcomer tells pieces apart by
the outline (a crown, a gear, wings, a hull...) and a player who types moves reads the
letter. Sides differ by colour. Everything is drawn from code; nothing is downloaded.

Families group the variants that share a piece set: ``clash``, ``commander``, ``chess``
(Combined Arms Brigade Chess) and ``chieftain``. `VARIANT_FAMILY` maps a variant id to
its family, falling back to the name of the variant's board. A variant issue adds or
adjusts its pieces with `register_glyph`.

Sprites are drawn four times larger and scaled down (smooth edges), with a soft shadow,
and cached per (family, letter, colours, heroic, diameter, theme).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from engine import Piece

from .fonts import font
from .theme import SideColours, Theme

Point = tuple[float, float]
Polygon = tuple[Point, ...]

SUPERSAMPLE = 4
OUTLINE = 0.085  # outline width, in unit radii


# --- silhouettes --------------------------------------------------------------------
def circle(r: float = 0.92, cx: float = 0.0, cy: float = 0.0, n: int = 72) -> Polygon:
    return tuple((cx + r * math.cos(2 * math.pi * k / n), cy + r * math.sin(2 * math.pi * k / n))
                 for k in range(n))


def regular(n: int, r: float, rotation: float = 0.0) -> Polygon:
    """A regular n-gon; ``rotation`` in degrees, 90 puts a corner at the top."""
    return tuple((r * math.cos(math.radians(rotation + 360 * k / n)),
                  r * math.sin(math.radians(rotation + 360 * k / n))) for k in range(n))


def rounded_rect(w: float, h: float, radius: float, cy: float = 0.0) -> Polygon:
    """A rectangle of half-width ``w`` and half-height ``h`` with rounded corners."""
    pts: list[Point] = []
    for (cx_, cy_), start in (((w - radius, h - radius), 0), ((-w + radius, h - radius), 90),
                              ((-w + radius, -h + radius), 180), ((w - radius, -h + radius), 270)):
        for k in range(10):
            a = math.radians(start + 90 * k / 9)
            pts.append((cx_ + radius * math.cos(a), cy + cy_ + radius * math.sin(a)))
    return tuple(pts)


def rect(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def mirror(poly: Polygon) -> Polygon:
    return tuple((-x, y) for x, y in reversed(poly))


def bar(a: Point, b: Point, width: float) -> Polygon:
    """A straight bar from ``a`` to ``b`` (a gun barrel)."""
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
    return ((x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny))


def gear(teeth: int = 8) -> tuple[Polygon, ...]:
    pts: list[Point] = []
    for k in range(teeth):
        base = 2 * math.pi * k / teeth
        for frac, r in ((0.0, 0.74), (0.12, 0.74), (0.2, 0.98), (0.3, 0.98), (0.38, 0.74)):
            a = base + 2 * math.pi * frac / teeth * 2.5
            pts.append((r * math.cos(a), r * math.sin(a)))
    return (tuple(pts),)


def crown(spikes: int = 3, balls: bool = False) -> tuple[Polygon, ...]:
    """A crown: a round body with ``spikes`` points on top (balls on the tips for a Queen)."""
    body = [(0.84 * math.cos(math.radians(a)), 0.04 + 0.84 * math.sin(math.radians(a)))
            for a in range(0, -181, -10)]  # the lower half, right to left
    top: list[Point] = [(-0.84, 0.04)]
    xs = [-0.74 + 1.48 * k / (spikes - 1) for k in range(spikes)]
    for k, x in enumerate(xs):
        if k:
            top.append(((x + xs[k - 1]) / 2, 0.42))
        top.append((x, 0.98 if k in (0, spikes - 1) or spikes == 3 else 0.9))
    top.append((0.84, 0.04))
    shapes: list[Polygon] = [tuple(body + top)]
    if balls:
        shapes += [circle(0.13, x, 0.98, 24) for x in xs]
    return tuple(shapes)


def wings() -> tuple[Polygon, ...]:
    """A disc with swept wings: a flyer (Hawk, Air force)."""
    wing: Polygon = ((-0.5, 0.42), (-0.86, 0.62), (-1.02, 0.58), (-0.98, 0.3), (-1.04, 0.12),
                     (-0.9, -0.06), (-0.94, -0.22), (-0.7, -0.3), (-0.5, -0.36))
    return (circle(0.74), wing, mirror(wing))


def shield() -> tuple[Polygon, ...]:
    pts: list[Point] = [(-0.84, 0.86), (0.0, 0.98), (0.84, 0.86), (0.84, 0.05)]
    for k in range(1, 10):
        t = k / 10
        pts.append((0.84 * (1 - t) ** 0.8, 0.05 - 1.03 * t ** 1.4))
    pts.append((0.0, -0.98))
    return (tuple(pts + [(-x, y) for x, y in reversed(pts[4:-1])]),)


def house() -> tuple[Polygon, ...]:
    return (((-0.8, -0.82), (0.8, -0.82), (0.8, 0.22), (0.0, 0.98), (-0.8, 0.22)),)


def castle() -> tuple[Polygon, ...]:
    body = [(-0.78, -0.88), (0.78, -0.88), (0.78, 0.96)]
    for k, x in enumerate((0.78, 0.5, 0.17, -0.17, -0.5)):
        nxt = (0.5, 0.17, -0.17, -0.5, -0.78)[k]
        y = 0.96 if k % 2 == 0 else 0.62
        body += [(x, y), (nxt, y)]
        body += [(nxt, 0.62 if k % 2 == 0 else 0.96)]
    body.append((-0.78, 0.96))
    return (tuple(body),)


def king() -> tuple[Polygon, ...]:
    return (circle(0.82, 0, -0.14), rect(-0.11, 0.5, 0.11, 1.0), rect(-0.3, 0.7, 0.3, 0.9))


def mitre() -> tuple[Polygon, ...]:
    return (circle(0.8, 0, -0.16), ((-0.55, 0.42), (0.0, 1.0), (0.55, 0.42)))


def tank() -> tuple[Polygon, ...]:
    return (rounded_rect(0.9, 0.5, 0.22, cy=-0.18), rounded_rect(0.52, 0.3, 0.14, cy=0.3),
            rect(-0.09, 0.4, 0.09, 1.0))


def artillery() -> tuple[Polygon, ...]:
    return (circle(0.8, 0, -0.12), bar((0.1, 0.1), (0.78, 0.92), 0.24))


def anti_air() -> tuple[Polygon, ...]:
    return (circle(0.8, 0, -0.14), bar((-0.2, 0.3), (-0.5, 1.0), 0.2),
            bar((0.2, 0.3), (0.5, 1.0), 0.2))


def missile() -> tuple[Polygon, ...]:
    body = ((0.0, 1.0), (0.4, 0.62), (0.62, 0.2), (0.62, -0.5), (0.95, -0.98), (0.3, -0.8),
            (-0.3, -0.8), (-0.95, -0.98), (-0.62, -0.5), (-0.62, 0.2), (-0.4, 0.62))
    return (body,)


def navy() -> tuple[Polygon, ...]:
    hull = ((-1.0, 0.26), (1.0, 0.26), (0.68, -0.78), (-0.68, -0.78))
    return (hull, rect(-0.42, 0.2, 0.42, 0.62), rect(-0.07, 0.55, 0.07, 1.0))


def droid() -> tuple[Polygon, ...]:
    return (rounded_rect(0.76, 0.76, 0.2), rect(-0.92, -0.3, -0.7, 0.3), rect(0.7, -0.3, 0.92, 0.3))


def pentagon() -> tuple[Polygon, ...]:
    """The five-sided shape of a shogi piece (Gold, Silver)."""
    return (((0.0, 1.0), (0.66, 0.7), (0.84, -0.9), (-0.84, -0.9), (-0.66, 0.7)),)


# --- the glyph table ---------------------------------------------------------------
@dataclass(frozen=True)
class Glyph:
    """A piece's picture: silhouette polygons, its letter, and where the letter sits."""

    shapes: tuple[Polygon, ...]
    letter: str
    letter_size: float = 1.0  # letter height (cap height), in unit radii
    letter_y: float = 0.0  # centre of the letter, in unit coordinates


GLYPHS: dict[tuple[str, str], Glyph] = {}


def register_glyph(family: str, letter: str, shapes: Sequence[Polygon], *,
                   letter_size: float = 0.98, letter_y: float = 0.0, label: str = "") -> None:
    """Draw the pieces of ``family`` with ``letter`` as ``shapes`` plus a label (the letter
    unless ``label`` says otherwise)."""
    GLYPHS[family, letter] = Glyph(tuple(shapes), label or letter, letter_size, letter_y)


#: variant id -> piece family; a variant not listed uses its board's name.
VARIANT_FAMILY: dict[str, str] = {
    "clash": "clash",
    "commander": "commander",
    "cab": "chess",
    "combined-arms": "chess",
    "mini-chieftain": "chieftain",
    "micro-chieftain": "chieftain",
    "chieftain": "chieftain",
}

DISC = (circle(0.92),)

# Clash of Command
register_glyph("clash", "C", crown(3), letter_y=-0.2, letter_size=0.86)
register_glyph("clash", "F", gear(8), letter_size=0.84)
register_glyph("clash", "D", droid(), letter_size=0.9)
register_glyph("clash", "H", wings(), letter_size=0.8)
register_glyph("clash", "B", (regular(8, 0.98, 22.5),))
register_glyph("clash", "S", (regular(4, 1.02, 90),), letter_size=0.8)
# Commander Chess
register_glyph("commander", "C", crown(5, balls=True), letter_y=-0.2, letter_size=0.86)
register_glyph("commander", "I", DISC)
register_glyph("commander", "T", tank(), letter_y=-0.18, letter_size=0.74)
register_glyph("commander", "M", (regular(6, 0.98, 0),), letter_size=0.9)
register_glyph("commander", "E", gear(8), letter_size=0.84)
register_glyph("commander", "A", artillery(), letter_y=-0.12, letter_size=0.9)
register_glyph("commander", "G", anti_air(), letter_y=-0.14, letter_size=0.88)
register_glyph("commander", "S", missile(), letter_y=-0.08, letter_size=0.78)
register_glyph("commander", "F", wings(), letter_size=0.8)
register_glyph("commander", "N", navy(), letter_y=-0.26, letter_size=0.76)
register_glyph("commander", "H", house(), letter_y=-0.3, letter_size=0.8)
# chess letters (Combined Arms Brigade Chess)
register_glyph("chess", "K", king(), letter_y=-0.14, letter_size=0.92)
register_glyph("chess", "Q", crown(5, balls=True), letter_y=-0.2, letter_size=0.86)
register_glyph("chess", "R", castle(), letter_y=-0.12, letter_size=0.9)
register_glyph("chess", "B", mitre(), letter_y=-0.16, letter_size=0.9)
register_glyph("chess", "N", shield(), letter_y=0.08, letter_size=0.9)
register_glyph("chess", "P", (circle(0.78),), letter_size=0.86)
# mini- and micro-Chieftain
register_glyph("chieftain", "C", crown(3), letter_y=-0.2, letter_size=0.86)
register_glyph("chieftain", "H", (rounded_rect(0.86, 0.86, 0.14),), letter_size=0.98)
register_glyph("chieftain", "S", (regular(4, 1.02, 90),), letter_size=0.8)
register_glyph("chieftain", "N", shield(), letter_y=0.08, letter_size=0.9)
register_glyph("chieftain", "M", DISC, letter_size=0.72)
register_glyph("chieftain", "G", pentagon(), letter_y=-0.08, letter_size=0.88)
register_glyph("chieftain", "V", pentagon(), letter_y=-0.08, letter_size=0.88)


def family_of(variant_name: str, board_name: str) -> str:
    """The piece family a variant draws its pieces from."""
    return VARIANT_FAMILY.get(variant_name, board_name)


def glyph(family: str, letter: str) -> Glyph:
    """The glyph for ``letter`` in ``family``; a plain disc with the letter if there is none."""
    return GLYPHS.get((family, letter)) or Glyph(DISC, letter)


# --- sprites -------------------------------------------------------------------------
def _to_px(points: Polygon, cx: float, cy: float, radius: float) -> list[Point]:
    return [(cx + x * radius, cy - y * radius) for x, y in points]


def _draw_glyph(draw: ImageDraw.ImageDraw, g: Glyph, colours: SideColours, cx: float,
                cy: float, radius: float) -> None:
    width = round(2 * OUTLINE * radius)
    outline = colours.outline + (255,)
    for poly in g.shapes:
        pts = _to_px(poly, cx, cy, radius)
        draw.polygon(pts, fill=outline)
        draw.line(pts + pts[:1], fill=outline, width=width)
        for x, y in pts:  # round the corners of the outline (cheaper than curved joints)
            h = width / 2
            draw.ellipse((x - h, y - h, x + h, y + h), fill=outline)
    for poly in g.shapes:
        draw.polygon(_to_px(poly, cx, cy, radius), fill=colours.fill + (255,))
    _draw_letter(draw, g.letter, colours, cx, cy - g.letter_y * radius, g.letter_size * radius)


def _draw_letter(draw: ImageDraw.ImageDraw, text: str, colours: SideColours, x: float,
                 y: float, height: float) -> None:
    """``text`` with its capitals ``height`` high, centred on (x, y), in bold strokes."""
    size = round(height / 0.72)  # the font's capitals are about 0.72 em
    face = font(size)
    top = face.getbbox("H", anchor="ls")[1]
    stroke = max(1, round(size * 0.045))
    draw.text((x, y - top / 2), text, font=face, fill=colours.ink + (255,), anchor="ms",
              stroke_width=stroke, stroke_fill=colours.ink + (255,))


def _star(cx: float, cy: float, r: float) -> list[Point]:
    return [(cx + (r if k % 2 == 0 else r * 0.45) * math.cos(math.radians(90 + 36 * k)),
             cy - (r if k % 2 == 0 else r * 0.45) * math.sin(math.radians(90 + 36 * k)))
            for k in range(10)]


def _heroic_ring(draw: ImageDraw.ImageDraw, theme: Theme, cx: float, cy: float,
                 radius: float) -> None:
    r = radius * 1.2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.heroic + (255,))


def _heroic_star(draw: ImageDraw.ImageDraw, theme: Theme, cx: float, cy: float,
                 radius: float) -> None:
    pts = _star(cx + 0.74 * radius, cy - 0.74 * radius, 0.42 * radius)
    draw.polygon(pts, fill=theme.heroic + (255,), outline=(60, 40, 0, 255),
                 width=max(1, round(0.06 * radius)))


def _finish(big: Image.Image, size: int, theme: Theme, radius: float) -> Image.Image:
    """Scale a supersampled sprite down to ``size`` and add its shadow. Both steps work at
    the final size (an integer box reduction, then a blur of the small alpha), so a first
    picture of a size, which draws every sprite, stays fast."""
    k = big.width // size
    piece = big.convert("RGBa").reduce(k).convert("RGBA")
    r = radius / k
    shadow_alpha = Image.new("L", piece.size, 0)
    shadow_alpha.paste(piece.getchannel("A"), (round(0.05 * r), round(0.1 * r)))
    shadow_alpha = shadow_alpha.filter(ImageFilter.GaussianBlur(0.07 * r))
    shadow_alpha = shadow_alpha.point([v * theme.shadow[3] // 255 for v in range(256)])
    shadow = Image.new("RGBA", piece.size, theme.shadow[:3] + (0,))
    shadow.putalpha(shadow_alpha)
    return Image.alpha_composite(shadow, piece)


def _canvas(diameter: int) -> tuple[Image.Image, int, float, float]:
    """A supersampled transparent square with room around a piece of ``diameter`` for its
    shadow and marks: (image, final size, centre, unit radius) in supersampled pixels."""
    size = diameter + 2 * (diameter // 6 + 2)
    # large pieces need less supersampling for smooth edges: a first picture stays fast
    k = SUPERSAMPLE if diameter < 32 else 3 if diameter < 64 else 2
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    return image, size, size * k / 2, diameter * k / 2 / (1 + OUTLINE)


@lru_cache(maxsize=4096)
def piece_sprite(family: str, letter: str, colours: SideColours, heroic: bool, diameter: int,
                 theme: Theme) -> Image.Image:
    """One piece, ``diameter`` pixels across, centred on a transparent square (RGBA)."""
    big, size, centre, radius = _canvas(diameter)
    draw = ImageDraw.Draw(big)
    if heroic:
        _heroic_ring(draw, theme, centre, centre, radius)
    _draw_glyph(draw, glyph(family, letter), colours, centre, centre, radius)
    if heroic:
        _heroic_star(draw, theme, centre, centre, radius)
    return _finish(big, size, theme, radius)


def _badge(draw: ImageDraw.ImageDraw, piece: Piece, colours: SideColours, theme: Theme,
           x: float, y: float, radius: float) -> None:
    """A passenger: a small disc with its letter (gold rim if heroic)."""
    rim = theme.heroic if piece.heroic else colours.outline
    w = radius * (0.3 if piece.heroic else 0.18)
    draw.ellipse((x - radius - w, y - radius - w, x + radius + w, y + radius + w),
                 fill=rim + (255,))
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colours.fill + (255,))
    _draw_letter(draw, piece.letter, colours, x, y, radius * 1.15)


@lru_cache(maxsize=4096)
def stack_sprite(family: str, pieces: tuple[Piece, ...], colours: tuple[SideColours, ...],
                 diameter: int, theme: Theme) -> Image.Image:
    """A stack: the carrier a little smaller and to the left, each passenger a badge in a
    column on its right, top to bottom in the stack's order."""
    carrier = pieces[0]
    if len(pieces) == 1:
        return piece_sprite(family, carrier.letter, colours[0], carrier.heroic, diameter, theme)
    big, size, centre, radius = _canvas(diameter)
    draw = ImageDraw.Draw(big)
    cx, r = centre - 0.2 * radius, 0.84 * radius
    if carrier.heroic:
        _heroic_ring(draw, theme, cx, centre, r)
    _draw_glyph(draw, glyph(family, carrier.letter), colours[0], cx, centre, r)
    if carrier.heroic:
        _heroic_star(draw, theme, cx, centre, r)
    passengers = pieces[1:]
    badge = min(0.44, 1.0 / len(passengers)) * radius
    top = centre - (len(passengers) - 1) * badge * 1.02
    for k, (piece, c) in enumerate(zip(passengers, colours[1:], strict=True)):
        _badge(draw, piece, c, theme, centre + 0.72 * radius, top + k * badge * 2.04, badge)
    return _finish(big, size, theme, radius)


@lru_cache(maxsize=64)
def side_token(colours: SideColours, diameter: int, theme: Theme) -> Image.Image:
    """A small disc in a side's colours, for the caption (whose turn it is)."""
    big, size, centre, radius = _canvas(diameter)
    _draw_glyph(ImageDraw.Draw(big), Glyph(DISC, ""), colours, centre, centre, radius)
    return _finish(big, size, theme, radius)
