"""Commander Chess move generation pinned by perft counts kept as data.

``tests/data/commander.perft`` holds counts from the start position, from worked examples of
the rule file and from middle-game positions with stacks, heroes and air defence; each was
produced by the engine and by the rules-only generator of ``test_commander_reference.py``.
On a mismatch the message lays the engine's per-turn breakdown beside the reference's,
differing turns marked. Entries with more than ``MAX_LEAVES`` leaves (none today: the
deepest, depth 3 from the start, takes a few seconds) run only when
``COMMANDER_PERFT_DEEP=1`` is set.
"""

from __future__ import annotations

import os

import pytest
import test_commander_reference as reference
from perft_data import DATA, PerftCase, case_id, divide_report, read_perft_file

from engine import get_variant

VARIANT = get_variant("commander")
CASES = read_perft_file(DATA / "commander.perft")
MAX_LEAVES = 2_000_000
DEEP = os.environ.get("COMMANDER_PERFT_DEEP") == "1"


def breakdown(fen: str, depth: int) -> str:
    """The engine's and the reference's counts per first turn (long form), side by side."""
    position = VARIANT.parse_position(fen)
    engine = {VARIANT.format_lan(position, m): VARIANT.perft(VARIANT.make_move(position, m),
                                                             depth - 1)
              for m in VARIANT.legal_moves(position)}
    board, side = reference.read_fen(fen)
    theirs = {reference.long_form(board, t): reference.perft(after, 1 - side, depth - 1)
              for t, after in reference.legal_turns(board, side)}
    return divide_report(fen, depth, engine, theirs, other="reference", unit="turn")


def test_the_data_file_has_the_start_and_middle_game_positions() -> None:
    names = {c.name for c in CASES}
    assert "start" in names and len(names) >= 8
    assert all(c.depth <= 2 or c.name == "start" for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_perft(case: PerftCase) -> None:
    if case.nodes > MAX_LEAVES and not DEEP:
        pytest.skip(f"{case.nodes} leaves; set COMMANDER_PERFT_DEEP=1 to run")
    position = VARIANT.parse_position(case.position)
    assert VARIANT.format_position(position) == case.position
    found = VARIANT.perft(position, case.depth)
    if found != case.nodes:
        pytest.fail(f"perft({case.name}, {case.depth}) = {found}, expected {case.nodes}\n"
                    + breakdown(case.position, case.depth), pytrace=False)


def test_divide_report_marks_differing_turns() -> None:
    """The report itself: on the start position every turn agrees."""
    summary, _header, *rows = breakdown(CASES[0].position, 1).splitlines()
    assert len(rows) == 116 and not any("differs" in row for row in rows)
    assert summary.endswith("engine 116, reference 116; 0 of 116 turns differ")
