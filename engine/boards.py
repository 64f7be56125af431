"""The boards of the variants, as `Topology` data.

* `CLASH`: the 41-node Clash of Command graph (rules §1): nodes where file + rank is even,
  diagonal edges everywhere, orthogonal lines (two grid units long) only where drawn.
* `CHESS`: the 8×8 board (Combined Arms Brigade Chess, mini- and micro-Chieftain).
* `COMMANDER`: the 11×12 Commander Chess grid with sea, coast, river mouth, land, the
  river between ranks 6 and 7, the reefs (bridges) on files f and h, and the
  headquarters points.
"""

from __future__ import annotations

from .topology import COMPASS, Topology, build

# --- Clash of Command ------------------------------------------------------------------
CLASH_VECTORS = {"N": (0, 2), "NE": (1, 1), "E": (2, 0), "SE": (1, -1),
                 "S": (0, -2), "SW": (-1, -1), "W": (-2, 0), "NW": (-1, 1)}


def _clash_edge(f: int, r: int, g: int, s: int) -> bool:
    """Orthogonal lines exist only where the four nested squares are drawn (rules §1)."""
    if f != g and r != s:
        return True
    # 1-based coordinates of the lower/left end of the line segment
    f1, r1 = min(f, g) + 1, min(r, s) + 1
    if f == g:
        return abs(f1 - 5) >= abs(r1 - 5) and abs(f1 - 5) >= abs(r1 - 3)
    return abs(r1 - 5) >= abs(f1 - 5) and abs(r1 - 5) >= abs(f1 - 3)


def _clash_terrain(f: int, r: int) -> tuple[str, ...]:
    if r == 0:
        return ("back-row-white",)
    if r == 8:
        return ("back-row-black",)
    return ()


CLASH: Topology = build(
    "clash", "abcdefghi", 9,
    exists=lambda f, r: (f + r) % 2 == 0,
    edge=_clash_edge,
    vectors=CLASH_VECTORS,
    terrain=_clash_terrain,
)

# --- 8×8 ----------------------------------------------------------------------------------
CHESS: Topology = build(
    "chess", "abcdefgh", 8,
    terrain=lambda f, r: ("dark",) if (f + r) % 2 == 0 else ("light",),
)

# --- Commander Chess ------------------------------------------------------------------
COMMANDER_HEADQUARTERS = ("f2", "h2", "f11", "h11")
RIVER_MOUTH = ("d6", "e6", "d7", "e7")


def _commander_terrain(f: int, r: int) -> tuple[str, ...]:
    name = f"{'abcdefghijk'[f]}{r + 1}"
    if f <= 1:
        tags = ("sea", "navigable")
    elif f == 2:
        tags = ("coast", "navigable", "land-capable")
    elif name in RIVER_MOUTH:
        tags = ("mouth", "navigable", "land-capable")
    else:
        tags = ("land", "land-capable")
    if name in COMMANDER_HEADQUARTERS:
        tags += ("headquarters",)
    return tags


def _commander_edge_tags(f: int, r: int, g: int, s: int) -> tuple[str, ...]:
    tags: tuple[str, ...] = ()
    if min(r, s) == 5 and max(r, s) == 6:  # between rank 6 and rank 7
        tags += ("river",)
        if f == g and f in (5, 7):  # vertical on file f or h
            tags += ("reef",)
    # the diagonals c5-d6 and c8-d7 cut across the land corners d5 and d8 (rules §1.5)
    if {(f, r), (g, s)} in ({(2, 4), (3, 5)}, {(2, 7), (3, 6)}):
        tags += ("land-corner",)
    return tags


COMMANDER: Topology = build(
    "commander", "abcdefghijk", 12,
    vectors=COMPASS,
    terrain=_commander_terrain,
    edge_tags=_commander_edge_tags,
)

BOARDS: dict[str, Topology] = {t.name: t for t in (CLASH, CHESS, COMMANDER)}
