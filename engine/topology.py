"""Board topology as data: named nodes, named directions, edges and terrain.

Every board of every variant is one `Topology`: the 41-node Clash of Command graph, the
8×8 chess board and the 11×12 Commander Chess grid differ only in their data. Moves are
generated from the precomputed `step` table (one neighbour index per direction and node,
-1 where there is no edge), so a straight line continues only while its edges exist.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

NO_NODE = -1

#: The eight compass directions, with (file, rank) unit signs.
COMPASS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
OPPOSITE: dict[str, str] = {"N": "S", "NE": "SW", "E": "W", "SE": "NW",
                            "S": "N", "SW": "NE", "W": "E", "NW": "SE"}


@dataclass(frozen=True, eq=False)
class Topology:
    """A board: nodes, directed edges by direction name, and tags on nodes and edges.

    * ``nodes[i]`` is the name of node ``i`` (``"c3"``); ``index`` maps names back.
    * ``coords[i]`` is the node's (file, rank) as 0-based numbers, used for drawing
      and for ordering; the renderer never needs anything else to place a node.
    * ``directions`` are names (``"N"``, ``"NE"``, ...); ``step[d][i]`` is the node one
      step from ``i`` in direction number ``d``, or ``NO_NODE``.
    * ``terrain[i]`` is a frozenset of tags for node ``i`` (``"sea"``, ``"land"``, ...).
    * ``edge_tags`` maps an undirected edge ``frozenset({a, b})`` to its tags (``"river"``,
      ``"reef"``); edges without tags are absent from it.
    """

    name: str
    nodes: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    files: tuple[str, ...]
    ranks: tuple[str, ...]
    directions: tuple[str, ...]
    step: tuple[tuple[int, ...], ...]
    terrain: tuple[frozenset[str], ...]
    edge_tags: Mapping[frozenset[int], frozenset[str]] = field(default_factory=dict)
    index: Mapping[str, int] = field(init=False)
    direction_index: Mapping[str, int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {n: i for i, n in enumerate(self.nodes)})
        object.__setattr__(self, "direction_index",
                           {d: k for k, d in enumerate(self.directions)})

    def __len__(self) -> int:
        return len(self.nodes)

    def __repr__(self) -> str:
        return f"Topology({self.name!r}, {len(self.nodes)} nodes)"

    # --- look-ups -------------------------------------------------------------------
    def node(self, name: str) -> int:
        """The index of the node called ``name`` (case-insensitive); KeyError if none."""
        return self.index[name.strip().lower()]

    def neighbour(self, node: int, direction: str) -> int:
        return self.step[self.direction_index[direction]][node]

    def neighbours(self, node: int) -> Iterator[tuple[str, int]]:
        """(direction, neighbour) for every edge leaving ``node``."""
        for d, table in zip(self.directions, self.step, strict=True):
            if table[node] != NO_NODE:
                yield d, table[node]

    def ray(self, node: int, direction: str) -> Iterator[int]:
        """The nodes on the straight line from ``node`` (exclusive) in ``direction``."""
        table = self.step[self.direction_index[direction]]
        nxt = table[node]
        while nxt != NO_NODE:
            yield nxt
            nxt = table[nxt]

    def edges(self) -> set[frozenset[int]]:
        """Every undirected edge of the board."""
        return {frozenset((i, j)) for table in self.step
                for i, j in enumerate(table) if j != NO_NODE}

    def has_tag(self, node: int, tag: str) -> bool:
        return tag in self.terrain[node]

    def nodes_tagged(self, tag: str) -> list[int]:
        return [i for i, tags in enumerate(self.terrain) if tag in tags]

    def edge_has_tag(self, a: int, b: int, tag: str) -> bool:
        return tag in self.edge_tags.get(frozenset((a, b)), ())

    def sort_key(self, node: int) -> tuple[int, int]:
        """Order a1, b1, ..., then a2, ... (rank by rank, then file)."""
        f, r = self.coords[node]
        return (r, f)


def square_name(files: str | tuple[str, ...], f: int, r: int) -> str:
    return f"{files[f]}{r + 1}"


def build(
    name: str,
    files: Iterable[str],
    n_ranks: int,
    exists: Callable[[int, int], bool] = lambda f, r: True,
    edge: Callable[[int, int, int, int], bool] | None = None,
    vectors: Mapping[str, tuple[int, int]] = COMPASS,
    terrain: Callable[[int, int], Iterable[str]] = lambda f, r: (),
    edge_tags: Callable[[int, int, int, int], Iterable[str]] = lambda f, r, g, s: (),
) -> Topology:
    """Build a topology on a grid of files × ranks.

    ``exists(f, r)`` says which grid points are nodes; ``vectors`` gives each direction's
    (file, rank) step; ``edge(f, r, g, s)`` says whether the step between two existing
    nodes is an edge (default: always); ``terrain`` and ``edge_tags`` give tags.
    """
    files = tuple(files)
    points = [(f, r) for r in range(n_ranks) for f in range(len(files)) if exists(f, r)]
    idx = {p: i for i, p in enumerate(points)}
    step: list[tuple[int, ...]] = []
    tags: dict[frozenset[int], frozenset[str]] = {}
    for dx, dy in vectors.values():
        row = []
        for f, r in points:
            j = idx.get((f + dx, r + dy), NO_NODE)
            if j != NO_NODE and edge is not None and not edge(f, r, f + dx, r + dy):
                j = NO_NODE
            if j != NO_NODE:
                t = frozenset(edge_tags(f, r, f + dx, r + dy))
                if t:
                    tags[frozenset((idx[(f, r)], j))] = t
            row.append(j)
        step.append(tuple(row))
    return Topology(
        name=name,
        nodes=tuple(square_name(files, f, r) for f, r in points),
        coords=tuple(points),
        files=files,
        ranks=tuple(str(r + 1) for r in range(n_ranks)),
        directions=tuple(vectors),
        step=tuple(step),
        terrain=tuple(frozenset(terrain(f, r)) for f, r in points),
        edge_tags=tags,
    )
