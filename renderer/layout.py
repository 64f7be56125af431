"""Where the board goes: the pixel centre of every node and the coordinate margins.

A board family's drawing style is data (`BOARD_STYLES`, keyed by the topology's name); the
geometry itself comes from the topology: node coordinates, files, ranks and the river's
edge tags. Side 0 sees rank 1 at the bottom; side 1 sees the board turned 180°.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engine import Topology


@dataclass(frozen=True)
class BoardStyle:
    """How a board family is drawn, in units of the distance between neighbouring points.

    * ``kind``: ``"graph"`` (lines between points, pieces on the points), ``"squares"``
      (checkered cells, pieces inside), ``"grid"`` (an intersection grid with terrain).
    * ``pad``: from the outermost points to the edge of the board.
    * ``piece``: a piece's diameter.
    * ``river_gap``: extra space where a ``river`` edge tag separates two ranks.
    """

    kind: str
    pad: float
    piece: float
    river_gap: float = 0.0


BOARD_STYLES: dict[str, BoardStyle] = {
    "clash": BoardStyle("graph", pad=0.7, piece=1.22),
    "chess": BoardStyle("squares", pad=0.5, piece=0.88),
    "commander": BoardStyle("grid", pad=0.5, piece=0.92, river_gap=0.62),
}
DEFAULT_STYLE = BoardStyle("graph", pad=0.7, piece=0.9)

MARGIN = 0.5  # coordinate margins, in point spacings


def river_rank(topology: Topology) -> int | None:
    """The highest rank (0-based) below the river, from the ``river`` edge tags."""
    ranks = {min(topology.coords[a][1] for a in edge)
             for edge, tags in topology.edge_tags.items() if "river" in tags}
    return min(ranks) if ranks else None


@dataclass(frozen=True)
class Layout:
    """The geometry of a board ``size`` pixels wide (margins included), seen by side
    ``perspective``, with its top-left corner at ``origin`` in the picture."""

    topology: Topology
    size: int
    perspective: int = 0
    origin: tuple[int, int] = (0, 0)

    @cached_property
    def style(self) -> BoardStyle:
        return BOARD_STYLES.get(self.topology.name, DEFAULT_STYLE)

    @cached_property
    def river(self) -> int | None:
        return river_rank(self.topology) if self.style.river_gap else None

    @property
    def n_files(self) -> int:
        return len(self.topology.files)

    @property
    def n_ranks(self) -> int:
        return len(self.topology.ranks)

    @cached_property
    def spacing(self) -> float:
        """Pixels between neighbouring points (one square on a checkered board)."""
        st = self.style
        return self.size / (2 * MARGIN + 2 * st.pad + self.n_files - 1)

    @cached_property
    def margin(self) -> float:
        return MARGIN * self.spacing

    @cached_property
    def gap(self) -> float:
        return self.style.river_gap * self.spacing if self.river is not None else 0.0

    @cached_property
    def label_size(self) -> float:
        """The face size of the coordinate labels, which stand in the margins."""
        return max(8.0, 0.64 * self.margin)

    @cached_property
    def board_box(self) -> tuple[float, float, float, float]:
        """The board's rectangle (left, top, right, bottom), margins excluded."""
        s, st = self.spacing, self.style
        left = self.origin[0] + self.margin
        top = self.origin[1] + self.margin
        width = (2 * st.pad + self.n_files - 1) * s
        height = (2 * st.pad + self.n_ranks - 1) * s + self.gap
        return (left, top, left + width, top + height)

    @cached_property
    def height(self) -> int:
        """The board's height in pixels, margins included."""
        return round(self.board_box[3] + self.margin) - self.origin[1]

    @cached_property
    def piece_diameter(self) -> int:
        return max(8, round(self.style.piece * self.spacing))

    def _screen(self, f: int, r: int) -> tuple[int, int]:
        """Column and row counted from the viewer's left and top."""
        if self.perspective:
            return self.n_files - 1 - f, r
        return f, self.n_ranks - 1 - r

    def below_river(self, r: int) -> bool:
        """Whether rank ``r`` lies on the viewer's near side of the river."""
        if self.river is None:
            return False
        return r > self.river if self.perspective else r <= self.river

    def file_x(self, f: int) -> float:
        col, _ = self._screen(f, 0)
        return self.board_box[0] + (self.style.pad + col) * self.spacing

    def rank_y(self, r: int) -> float:
        _, row = self._screen(0, r)
        y = self.board_box[1] + (self.style.pad + row) * self.spacing
        return y + (self.gap if self.below_river(r) else 0.0)

    def point(self, node: int) -> tuple[float, float]:
        """The pixel centre of node number ``node``."""
        f, r = self.topology.coords[node]
        return self.file_x(f), self.rank_y(r)

    @cached_property
    def centres(self) -> tuple[tuple[int, int], ...]:
        """Every node's centre rounded to whole pixels, by node number."""
        return tuple((round(x), round(y)) for x, y in map(self.point, range(len(self.topology))))
