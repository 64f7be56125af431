"""Commander Chess move generation pinned by perft counts kept as data.

``tests/data/commander.perft`` holds counts from the start position, from worked examples of
the rule file and from middle-game positions with stacks, heroes and air defence; each was
produced by the engine and by the rules-only generator of ``test_commander_reference.py``.
On a mismatch the message lays the engine's per-turn breakdown beside the reference's,
differing turns marked. Entries with more than ``MAX_LEAVES`` leaves run only when
``COMMANDER_PERFT_DEEP=1`` is set.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

import pytest

from engine import get_variant

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "commander.perft"
VARIANT = get_variant("commander")
MAX_LEAVES = 200_000
DEEP = os.environ.get("COMMANDER_PERFT_DEEP") == "1"


def _load_reference() -> ModuleType:
    """Import the reference generator by path (the tests are not a package)."""
    name = "commandpost_tests_commander_reference"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / "test_commander_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class PerftCase(NamedTuple):
    name: str
    position: str
    depth: int
    nodes: int


def read_perft_file(path: Path) -> list[PerftCase]:
    """Every (id, epd, perft) triple of a python-chess style perft file."""
    cases, name, position = [], "", ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, rest = line.split(maxsplit=1)
        if word == "id":
            name, position = rest.strip(), ""
        elif word == "epd":
            position = rest.strip()
        elif word == "perft":
            depth, nodes = rest.split()
            cases.append(PerftCase(name, position, int(depth), int(nodes)))
    return cases


CASES = read_perft_file(DATA)


def divide_report(fen: str, depth: int) -> str:
    """The engine's and the reference's counts per first turn (long form), side by side."""
    position = VARIANT.parse_position(fen)
    engine = {VARIANT.format_lan(position, m): VARIANT.perft(VARIANT.make_move(position, m),
                                                             depth - 1)
              for m in VARIANT.legal_moves(position)}
    reference = _load_reference()
    board, side = reference.read_fen(fen)
    theirs = {reference.long_form(board, t): reference.perft(after, 1 - side, depth - 1)
              for t, after in reference.legal_turns(board, side)}
    lines = []
    for turn in sorted(set(engine) | set(theirs)):
        mark = "" if engine.get(turn) == theirs.get(turn) else "   <-- differs"
        lines.append(f"{turn:<28}{engine.get(turn, '-')!s:>10}{theirs.get(turn, '-')!s:>10}{mark}")
    return "turn                            engine reference\n" + "\n".join(lines)


def test_the_data_file_has_the_start_and_middle_game_positions() -> None:
    names = {c.name for c in CASES}
    assert "start" in names and len(names) >= 8
    assert all(c.depth <= 2 or c.name == "start" for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.name}-{c.depth}" for c in CASES])
def test_perft(case: PerftCase) -> None:
    if case.nodes > MAX_LEAVES and not DEEP:
        pytest.skip(f"{case.nodes} leaves; set COMMANDER_PERFT_DEEP=1 to run")
    position = VARIANT.parse_position(case.position)
    assert VARIANT.format_position(position) == case.position
    found = VARIANT.perft(position, case.depth)
    if found != case.nodes:
        pytest.fail(f"perft({case.name}, {case.depth}) = {found}, expected {case.nodes}\n"
                    + divide_report(case.position, case.depth), pytrace=False)


def test_divide_report_marks_differing_turns() -> None:
    """The report itself: on the start position every turn agrees."""
    report = divide_report(CASES[0].position, 1)
    assert report.count("\n") == 116 and "differs" not in report
