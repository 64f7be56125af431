"""The empty board: frame, board face, lines or squares, terrain, coordinates.

Drawn once per (topology, size, perspective, theme) at a few times the final size and
scaled down, so lines and circles are smooth; `empty_board` caches the result, and every
picture starts from a copy of it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Topology

from .fonts import font
from .layout import Layout
from .theme import RGB, Theme

SUPERSAMPLE = 3


class _Pen:
    """Draws in the final picture's pixel units on a canvas ``SUPERSAMPLE`` times larger."""

    def __init__(self, image: Image.Image, k: int = SUPERSAMPLE) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.k = k

    def _xy(self, *points: tuple[float, float]) -> list[tuple[float, float]]:
        return [(x * self.k, y * self.k) for x, y in points]

    def rect(self, box: tuple[float, float, float, float], fill: RGB,
             outline: RGB | None = None, width: float = 0.0, radius: float = 0.0) -> None:
        x0, y0, x1, y1 = (v * self.k for v in box)
        self.draw.rounded_rectangle((x0, y0, x1, y1), radius=radius * self.k, fill=fill,
                                    outline=outline, width=round(width * self.k))

    def line(self, a: tuple[float, float], b: tuple[float, float], fill: RGB,
             width: float) -> None:
        self.draw.line(self._xy(a, b), fill=fill, width=max(1, round(width * self.k)))

    def disc(self, centre: tuple[float, float], radius: float, fill: RGB | None,
             outline: RGB | None = None, width: float = 0.0) -> None:
        x, y = centre
        box = self._xy((x - radius, y - radius), (x + radius, y + radius))
        self.draw.ellipse(box, fill=fill, outline=outline, width=round(width * self.k))

    def text(self, centre: tuple[float, float], text: str, size: float, fill: RGB) -> None:
        x, y = centre
        self.draw.text((x * self.k, y * self.k), text, font=font(round(size * self.k)),
                       fill=fill, anchor="mm")


@lru_cache(maxsize=64)
def empty_board(topology: Topology, size: int, perspective: int, theme: Theme) -> Image.Image:
    """The picture of the empty board with its coordinates (RGB); callers copy it."""
    layout = Layout(topology, size, perspective)
    k = SUPERSAMPLE if size <= 480 else 2  # a large board's lines are wide enough at 2×
    image = Image.new("RGB", (size * k, layout.height * k), theme.frame)
    pen = _Pen(image, k)
    DRAWERS.get(layout.style.kind, _draw_graph)(pen, layout, theme)
    _draw_coordinates(pen, layout, theme)
    return image.reduce(k)


def coordinates(layout: Layout) -> list[tuple[str, tuple[float, float]]]:
    """Every coordinate label with its centre: file letters above and below the board,
    rank numbers left and right of it."""
    left, top, right, bottom = layout.board_box
    m = layout.margin
    out: list[tuple[str, tuple[float, float]]] = []
    for f, name in enumerate(layout.topology.files):
        x = layout.file_x(f)
        out += [(name, (x, bottom + m / 2)), (name, (x, top - m / 2))]
    for r, name in enumerate(layout.topology.ranks):
        y = layout.rank_y(r)
        out += [(name, (left - m / 2, y)), (name, (right + m / 2, y))]
    return out


def coordinates_box(layout: Layout) -> tuple[int, int, int, int]:
    """The rectangle (left, top, right, bottom) that the coordinate labels' letters cover,
    whole pixels rounded outwards: the panel keeps its distance from it."""
    face = font(round(layout.label_size))
    boxes = []
    for name, (x, y) in coordinates(layout):
        x0, y0, x1, y1 = face.getbbox(name, anchor="mm")
        boxes.append((x + x0, y + y0, x + x1, y + y1))
    return (math.floor(min(b[0] for b in boxes)), math.floor(min(b[1] for b in boxes)),
            math.ceil(max(b[2] for b in boxes)), math.ceil(max(b[3] for b in boxes)))


def _draw_coordinates(pen: _Pen, layout: Layout, theme: Theme) -> None:
    for name, centre in coordinates(layout):
        pen.text(centre, name, layout.label_size, theme.coordinates)


# --- the Clash of Command graph -------------------------------------------------------
def _draw_graph(pen: _Pen, layout: Layout, theme: Theme) -> None:
    topo = layout.topology
    s = layout.spacing
    pen.rect(layout.board_box, theme.wood, theme.wood_edge, width=0.06 * s, radius=0.18 * s)
    _draw_promotion_rows(pen, layout, theme)
    for edge in sorted(topo.edges(), key=sorted):
        a, b = sorted(edge)
        pen.line(layout.point(a), layout.point(b), theme.line, 0.055 * s)
    for node in range(len(topo)):
        pen.disc(layout.point(node), 0.1 * s, theme.line)


def _draw_promotion_rows(pen: _Pen, layout: Layout, theme: Theme) -> None:
    """A band behind each back row: a piece that ends its move on the opponent's back
    row is promoted, so players should see where those rows are at a glance."""
    topo = layout.topology
    s = layout.spacing
    for tag in sorted({t for tags in topo.terrain for t in tags if t.startswith("back-row")}):
        points = [layout.point(n) for n in topo.nodes_tagged(tag)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        box = (min(xs) - 0.5 * s, min(ys) - 0.42 * s, max(xs) + 0.5 * s, max(ys) + 0.42 * s)
        pen.rect(box, theme.promotion_row, radius=0.42 * s)


# --- the checkered 8×8 board ----------------------------------------------------------
def _draw_squares(pen: _Pen, layout: Layout, theme: Theme) -> None:
    topo = layout.topology
    half = layout.spacing / 2
    pen.rect(layout.board_box, theme.light_square)
    for node in range(len(topo)):
        x, y = layout.point(node)
        colour = theme.dark_square if topo.has_tag(node, "dark") else theme.light_square
        pen.rect((x - half, y - half, x + half, y + half), colour)


# --- the Commander Chess grid ----------------------------------------------------------
def _terrain_colour(theme: Theme, tags: frozenset[str]) -> RGB:
    for tag, colour in (("sea", theme.sea), ("mouth", theme.mouth), ("coast", theme.coast)):
        if tag in tags:
            return colour
    return theme.land


def _draw_grid(pen: _Pen, layout: Layout, theme: Theme) -> None:
    topo = layout.topology
    s = layout.spacing
    half = s / 2
    pen.rect(layout.board_box, theme.land)
    for node in range(len(topo)):
        x, y = layout.point(node)
        colour = _terrain_colour(theme, topo.terrain[node])
        pen.rect((x - half, y - half, x + half, y + half), colour)
    _draw_river(pen, layout, theme)
    for node in topo.nodes_tagged("headquarters"):
        x, y = layout.point(node)
        r = 0.47 * s
        pen.rect((x - r, y - r, x + r, y + r), theme.land, theme.headquarters, width=0.09 * s,
                 radius=0.16 * s)
    for edge in sorted(topo.edges(), key=sorted):
        a, b = sorted(edge)
        (fa, ra), (fb, rb) = topo.coords[a], topo.coords[b]
        if fa != fb and ra != rb:
            continue  # the printed grid has no diagonals
        tags = topo.edge_tags.get(edge, frozenset())
        if "river" in tags:
            continue  # drawn as water or a bridge
        sea = topo.has_tag(a, "sea") and topo.has_tag(b, "sea")
        pen.line(layout.point(a), layout.point(b), theme.sea_line if sea else theme.grid_line,
                 0.045 * s)
    for node in topo.nodes_tagged("headquarters"):
        pen.disc(layout.point(node), 0.11 * s, theme.headquarters)
    _draw_bridges(pen, layout, theme)


def _river_edges(topology: Topology) -> list[tuple[int, int, frozenset[str]]]:
    """(lower node, upper node, tags) for each vertical link across the river."""
    out = []
    for edge, tags in sorted(topology.edge_tags.items(), key=lambda e: sorted(e[0])):
        a, b = sorted(edge, key=lambda n: topology.coords[n][1])
        if "river" in tags and topology.coords[a][0] == topology.coords[b][0]:
            out.append((a, b, tags))
    return out


def _draw_river(pen: _Pen, layout: Layout, theme: Theme) -> None:
    topo = layout.topology
    half = layout.spacing / 2
    for a, b, _ in _river_edges(topo):
        (x, ya), (_, yb) = layout.point(a), layout.point(b)
        top, bottom = sorted((ya, yb))
        sea = topo.has_tag(a, "sea") and topo.has_tag(b, "sea")
        pen.rect((x - half, top + half, x + half, bottom - half),
                 theme.sea if sea else theme.river)


def _draw_bridges(pen: _Pen, layout: Layout, theme: Theme) -> None:
    topo = layout.topology
    s = layout.spacing
    for a, b, tags in _river_edges(topo):
        if "reef" not in tags:
            continue
        (x, ya), (_, yb) = layout.point(a), layout.point(b)
        top, bottom = sorted((ya, yb))
        w = 0.2 * s
        pen.rect((x - w, top + 0.2 * s, x + w, bottom - 0.2 * s), theme.bridge,
                 theme.bridge_edge, width=0.05 * s, radius=0.04 * s)
        for y in (top + 0.5 * s, bottom - 0.5 * s):  # planks at the banks
            pen.line((x - w, y), (x + w, y), theme.bridge_edge, 0.035 * s)


DRAWERS = {"graph": _draw_graph, "squares": _draw_squares, "grid": _draw_grid}
