"""The perft data files of ``tests/data`` and the report shown when a count disagrees.

The files follow python-chess's perft format: ``id NAME`` starts an entry, ``epd POSITION``
gives its position string, then one ``perft DEPTH LEAVES`` line per depth; lines starting
with ``#`` are comments. The Chieftain file also names each entry's game with a
``variant ID`` line after the id.

On a mismatch a perft test either lays the engine's ``divide`` (leaves per first move or
turn) beside the second generator's, differing moves marked, so the move to look at is
plain; or, where the second generator is too slow for a whole ``divide`` (Commander Chess:
minutes for depth 3), it runs `first_difference`, a search with a budget for the first
position where the two generators' move lists differ.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

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


# --- the first difference, searched with a budget -----------------------------------------
class Generator(NamedTuple):
    """A move generator as `first_difference` walks it: ``moves(position)`` lists every legal
    move's text with the position after it, and ``key(position)`` writes a position the same
    way in both generators. Positions may be of different types in the two, and may be
    made lazily: the search calls ``key`` and ``moves`` only on the positions it compares."""

    moves: Callable[[Any], Sequence[tuple[str, Any]]]
    key: Callable[[Any], str]


@dataclass
class Search:
    """What `first_difference` found and how far it looked; `report` says it in words."""

    depth: int
    budget: int
    unit: str
    other: str
    positions: int = 0  # positions whose moves both generators listed
    listed: int = 0  # moves the other generator listed: what the budget counts
    path: tuple[str, ...] | None = None  # the moves to the first difference, if one was found
    position: str = ""  # that position's key (the engine's)
    only_engine: list[str] = field(default_factory=list)
    only_other: list[str] = field(default_factory=list)
    after: tuple[str, str] | None = None  # ``path`` leads the two to these different positions
    stopped: tuple[int, int, int] | None = None  # the budget ran out: ply, checked, positions

    def report(self) -> str:
        """The finding, or what was checked when there is none, in a few lines."""
        compared = f"{self.positions} position{'' if self.positions == 1 else 's'}"
        looked = (f"{compared} compared breadth-first; the {self.other} listed {self.listed} "
                  f"{self.unit}s (budget {self.budget})")
        if self.path is not None:
            return "\n".join([self._where(), *self._what(), f"  ({looked})"])
        if self.stopped is not None:
            ply, checked, total = self.stopped
            return (f"no difference found before the budget ran out: the engine and the "
                    f"{self.other} agree {self._within(ply - 1, self.positions - checked)}, "
                    f"and at {checked} of the {total} positions {self._plies(ply)} from it"
                    f"\n  ({looked})")
        return (f"no difference found: the engine and the {self.other} reach the same "
                f"positions and list the same {self.unit}s "
                f"{self._within(self.depth - 1, self.positions)}; so the engine's perft "
                f"count disagrees with its own moves, or the recorded count is wrong\n"
                f"  ({looked})")

    def _plies(self, n: int) -> str:
        return f"{n} {self.unit}{'' if n == 1 else 's'}"

    def _within(self, plies: int, positions: int) -> str:
        if plies == 0:
            return "at the case's position"
        return f"at all {positions} positions within {self._plies(plies)} of the case's position"

    def _where(self) -> str:
        assert self.path is not None
        played = f"after {self._plies(len(self.path))}: {' '.join(self.path)}" if self.path \
            else "at the case's position itself"
        return f"the engine and the {self.other} first differ {played}"

    def _what(self) -> list[str]:
        if self.after is not None:
            width = max(len("engine"), len(self.other))
            return [f"  the {'engine':<{width}} reaches {self.after[0]}",
                    f"  the {self.other:<{width}} reaches {self.after[1]}"]
        return [f"  in {self.position}",
                f"  only the engine lists: {', '.join(self.only_engine) or '(none)'}",
                f"  only the {self.other} lists: {', '.join(self.only_other) or '(none)'}"]


def first_difference(engine: Generator, other: Generator, start: tuple[Any, Any], depth: int,
                     *, budget: int, unit: str = "move",
                     other_name: str = "simple generator") -> Search:
    """The shallowest position within ``depth - 1`` moves of ``start`` (one position, in the
    engine's form and in the other generator's) where the two generators disagree: they
    list different moves there, or the same moves led them to different positions. When the
    other generator is right, that is where a wrong perft ``depth`` count comes from.

    Positions are compared breadth-first, so the search stops at the first difference, and
    also once the other generator has listed ``budget`` moves (its cost grows with them).
    Counting leaves per move with the other generator would cost as much as comparing every
    position of those subtrees and would say less: not which move, nor where.
    """
    search = Search(depth, budget, unit, other_name)
    level: list[tuple[tuple[str, ...], Any, Any]] = [((), *start)]
    for ply in range(depth):
        following: list[tuple[tuple[str, ...], Any, Any]] = []
        for checked, (path, ours, theirs) in enumerate(level):
            if search.listed >= budget:
                search.stopped = (ply, checked, len(level))
                return search
            search.positions += 1
            keys = engine.key(ours), other.key(theirs)
            if keys[0] != keys[1]:
                search.path, search.after = path, keys
                return search
            our_moves, their_moves = engine.moves(ours), other.moves(theirs)
            search.listed += len(their_moves)
            ours_counted = Counter(text for text, _ in our_moves)
            theirs_counted = Counter(text for text, _ in their_moves)
            if ours_counted != theirs_counted:
                search.path, search.position = path, keys[0]
                search.only_engine = sorted((ours_counted - theirs_counted).elements())
                search.only_other = sorted((theirs_counted - ours_counted).elements())
                return search
            if ply + 1 < depth:
                their_after = dict(their_moves)
                following.extend(((*path, text), after, their_after[text])
                                 for text, after in our_moves)
        level = following
    return search


class TwoDeep(NamedTuple):
    """The way to a position two moves deep, where a test puts a fault."""

    first: Any  # the start's first move
    after_first: Any
    reply: Any
    faulty: Any  # the position after the two moves
    dropped: Any  # the move of ``faulty`` the test takes away
    successors: list[Any]  # the positions after each move of the start


def two_deep(variant: Any, start: Any, reply: int, dropped: int) -> TwoDeep:
    """The first move of ``start``, its ``reply``-th answer (from 0), the position after
    them and its ``dropped``-th move, as the variant lists them."""
    first = variant.legal_moves(start)[0]
    after_first = variant.make_move(start, first)
    answer = variant.legal_moves(after_first)[reply]
    faulty = variant.make_move(after_first, answer)
    return TwoDeep(first, after_first, answer, faulty, variant.legal_moves(faulty)[dropped],
                   [variant.make_move(start, m) for m in variant.legal_moves(start)])
