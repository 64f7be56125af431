"""The perft data files of ``tests/data`` and the report shown when a count disagrees.

The files follow python-chess's perft format: ``id NAME`` starts an entry, ``epd POSITION``
gives its position string, then one ``perft DEPTH LEAVES`` line per depth; lines starting
with ``#`` are comments. The Chieftain file also names each entry's game with a
``variant ID`` line after the id.

On a mismatch each perft test lays the engine's ``divide`` (leaves per first move or turn)
beside the second generator's, differing moves marked, so the move to look at is plain.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).resolve().parent.parent / "data"


class PerftCase(NamedTuple):
    name: str
    position: str
    depth: int
    nodes: int
    variant: str = ""  # the game, in files read with ``with_variant``


def read_perft_file(path: Path, *, with_variant: bool = False) -> list[PerftCase]:
    """Every (id, epd, perft) triple of a perft file; with ``with_variant`` every entry must
    also name its game on a ``variant`` line (and without it such a line is an error)."""
    cases: list[PerftCase] = []
    name = variant = position = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, rest = line.split(maxsplit=1)
        if word == "id":
            name, variant, position = rest.strip(), "", ""
        elif word == "variant" and with_variant:
            variant = rest.strip()
        elif word == "epd":
            position = rest.strip()
        elif word == "perft":
            assert position, f"{path}: perft line before any epd line: {line!r}"
            assert variant or not with_variant, \
                f"{path}: perft line before any variant line: {line!r}"
            depth, nodes = rest.split()
            cases.append(PerftCase(name, position, int(depth), int(nodes), variant))
        else:
            raise AssertionError(f"{path}: unknown line {line!r}")
    return cases


def case_id(case: PerftCase) -> str:
    """The test id of a case: its name and depth."""
    return f"{case.name}-depth{case.depth}"


def divide_report(position_text: str, depth: int, engine_counts: Mapping[str, int],
                  other_counts: Mapping[str, int], *, other: str = "simple",
                  unit: str = "move", differing_only: bool = False) -> str:
    """The engine's leaves per first ``unit`` beside the ``other`` generator's, one row a
    ``unit`` (only the differing ones with ``differing_only``), differing rows marked, under
    a line with the position, the depth, both totals and how many rows differ."""
    keys = sorted(engine_counts.keys() | other_counts.keys())
    differing = [k for k in keys if engine_counts.get(k) != other_counts.get(k)]
    width = max([len(unit), *map(len, keys)]) + 2
    lines = [f"{position_text}, depth {depth}: engine {sum(engine_counts.values())}, "
             f"{other} {sum(other_counts.values())}; {len(differing)} of {len(keys)} "
             f"{unit}s differ",
             f"  {unit:<{width}}{'engine':>10}{other:>10}"]
    for key in differing if differing_only else keys:
        ours, theirs = engine_counts.get(key, "-"), other_counts.get(key, "-")
        mark = "" if ours == theirs else "   <-- differs"
        lines.append(f"  {key:<{width}}{ours:>10}{theirs:>10}{mark}")
    return "\n".join(lines)
