"""Commander Chess geometry, precomputed from the `COMMANDER` topology.

Move generation walks straight rays, so everything it asks about a ray is computed here once:
the squares of every ray, how far along it each terrain class may go (§1.4, §1.5), which
square pairs are aligned and at what distance, and the air-defence zones (§4.2).
Squares are node indices of the topology (rank by rank from a1); directions are the
topology's compass order N, NE, E, SE, S, SW, W, NW (even = orthogonal).
"""

from __future__ import annotations

from ..boards import COMMANDER
from ..topology import NO_NODE

TOPO = COMMANDER
NAMES: tuple[str, ...] = TOPO.nodes
INDEX = TOPO.index
N_SQUARES = len(NAMES)
FILES = "abcdefghijk"
N_FILES, N_RANKS = 11, 12
DIRECTIONS = range(8)
ORTHOGONAL = (0, 2, 4, 6)
DIAGONAL = (1, 3, 5, 7)
OPPOSITE = tuple((d + 4) % 8 for d in DIRECTIONS)
assert TOPO.directions == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

LAND_CAPABLE: tuple[bool, ...] = tuple("land-capable" in t for t in TOPO.terrain)
NAVIGABLE: tuple[bool, ...] = tuple("navigable" in t for t in TOPO.terrain)
HEADQUARTERS: tuple[bool, ...] = tuple("headquarters" in t for t in TOPO.terrain)


def square(name: str) -> int:
    return INDEX[name]


def file_of(sq: int) -> int:
    return TOPO.coords[sq][0]


def rank_of(sq: int) -> int:
    return TOPO.coords[sq][1]


def _ray(sq: int, d: int) -> tuple[int, ...]:
    out = []
    table = TOPO.step[d]
    nxt = table[sq]
    while nxt != NO_NODE:
        out.append(nxt)
        nxt = table[nxt]
    return tuple(out)


#: RAY[sq][d]: the squares from ``sq`` (exclusive) to the edge in direction ``d``.
RAY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(sq, d) for d in DIRECTIONS) for sq in range(N_SQUARES))


def _prefix(sq: int, d: int, ok_square, ok_step) -> int:
    """How many leading squares of the ray satisfy ``ok_square`` with every step ``ok_step``."""
    count, prev = 0, sq
    for q in RAY[sq][d]:
        if not ok_square(q) or not ok_step(prev, q):
            break
        count += 1
        prev = q
    return count


def _deep_water(a: int, b: int) -> bool:
    """A river-crossing step that is not a reef crossing (§1.3)."""
    return TOPO.edge_has_tag(a, b, "river") and not TOPO.edge_has_tag(a, b, "reef")


#: LAND_REACH[sq][d]: leading land-capable squares of the ray (a land piece's path, §2.2 Q3).
LAND_REACH = tuple(tuple(_prefix(sq, d, lambda q: LAND_CAPABLE[q], lambda a, b: True)
                         for d in DIRECTIONS) for sq in range(N_SQUARES))
#: HEAVY_REACH[sq][d]: as LAND_REACH, and no deep-water step (artillery, gun, missile).
HEAVY_REACH = tuple(tuple(_prefix(sq, d, lambda q: LAND_CAPABLE[q],
                                  lambda a, b: not _deep_water(a, b))
                          for d in DIRECTIONS) for sq in range(N_SQUARES))
#: NAVY_REACH[sq][d]: leading navigable squares without a land-corner diagonal (§1.5).
NAVY_REACH = tuple(tuple(_prefix(sq, d, lambda q: NAVIGABLE[q],
                                 lambda a, b: not TOPO.edge_has_tag(a, b, "land-corner"))
                         for d in DIRECTIONS) for sq in range(N_SQUARES))


def _align() -> tuple[dict[int, tuple[int, int]], ...]:
    table: list[dict[int, tuple[int, int]]] = [{} for _ in range(N_SQUARES)]
    for a in range(N_SQUARES):
        for d in DIRECTIONS:
            for k, b in enumerate(RAY[a][d], 1):
                table[a][b] = (d, k)
    return tuple(table)


#: ALIGN[a][b] = (direction from a to b, distance) when b lies on a ray of a.
ALIGN = _align()


def _zone(sq: int, level: int) -> tuple[int, ...]:
    f0, r0 = TOPO.coords[sq]
    return tuple(q for q in range(N_SQUARES)
                 if (TOPO.coords[q][0] - f0) ** 2 + (TOPO.coords[q][1] - r0) ** 2 <= level ** 2)


#: ZONE[level][sq]: the squares of an air-defence zone of that level on ``sq`` (§4.2).
ZONE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_zone(sq, level) for sq in range(N_SQUARES)) if level else ()
    for level in range(4))

def between(a: int, b: int) -> tuple[int, ...]:
    """The squares strictly between two aligned squares (empty if not aligned)."""
    found = ALIGN[a].get(b)
    if found is None:
        return ()
    d, k = found
    return RAY[a][d][:k - 1]
