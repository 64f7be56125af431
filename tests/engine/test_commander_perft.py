"""Commander Chess move generation pinned by perft counts kept as data.

``tests/data/commander.perft`` holds counts from the start position, from worked examples of
the rule file and from middle-game positions with stacks, heroes and air defence; each was
produced by the engine and by the rules-only generator of ``test_commander_reference.py``.
Entries with more than ``MAX_LEAVES`` leaves (none today: the deepest, depth 3 from the
start, takes a few seconds) run only when ``COMMANDER_PERFT_DEEP=1`` is set.

On a mismatch the message names the first position where the engine's turns and the
reference's differ, and the turns only one of them lists. The reference takes minutes for
a whole per-turn breakdown of depth 3 (about 20 ms a position), so the search for that
position compares positions breadth-first and stops once the reference has listed
``REPORT_BUDGET`` turns (a few seconds), saying how far it looked.
"""

from __future__ import annotations

import os

import pytest
import test_commander_reference as reference
from perft_data import DATA, Generator, PerftCase, case_id, first_difference, read_perft_file

from engine import Position, get_variant

VARIANT = get_variant("commander")
CASES = read_perft_file(DATA / "commander.perft")
MAX_LEAVES = 2_000_000
DEEP = os.environ.get("COMMANDER_PERFT_DEEP") == "1"
REPORT_BUDGET = 20_000  # turns listed by the reference while searching for a difference


def engine_turns(position: Position) -> list[tuple[str, Position]]:
    """Every legal turn's long form, with the position after it."""
    return [(VARIANT.format_lan(position, m), VARIANT.make_move(position, m))
            for m in VARIANT.legal_moves(position)]


def engine_key(position: Position) -> str:
    """The FEN without its move counters, which no turn depends on (the reference keeps
    none)."""
    return VARIANT.format_position(position).rsplit(maxsplit=2)[0]


# A reference position as the search holds it: the board before ``turn`` and the side that
# plays it (``turn`` None: the board itself). The board after the turn is made only when the
# search comes to it: a level of the search holds thousands of positions.
ReferenceNode = tuple[reference.Board, int, reference.Turn | None]


def reference_board(node: ReferenceNode) -> tuple[reference.Board, int]:
    before, side, turn = node
    if turn is None:
        return before, side
    after = reference.finish(before, side, turn)
    assert after is not None, "a turn the reference listed as legal"
    return after, 1 - side


def reference_key(node: ReferenceNode) -> str:
    """The reference's FEN of a position, without move counters (it keeps none)."""
    board, side = reference_board(node)
    return f"{reference.fen_placement(board)} {'rb'[side]} - -"


def reference_turns(node: ReferenceNode) -> list[tuple[str, ReferenceNode]]:
    """The reference's turns in a position, each long form with the way to the position after
    it."""
    board, side = reference_board(node)
    return [(reference.long_form(board, t), (board, side, t))
            for t, _ in reference.legal_turns(board, side)]


def first_difference_report(fen: str, depth: int) -> str:
    """Where the engine's and the reference's turns first differ within ``depth - 1``
    turns of ``fen``, searched within ``REPORT_BUDGET``."""
    start = VARIANT.parse_position(fen), (*reference.read_fen(fen), None)
    return first_difference(Generator(engine_turns, engine_key),
                            Generator(reference_turns, reference_key), start, depth,
                            budget=REPORT_BUDGET,
                            unit="turn", other_name="reference").report()


def test_the_data_file_has_the_start_and_middle_game_positions() -> None:
    names = {c.name for c in CASES}
    assert "start" in names and len(names) >= 8
    assert all(c.depth <= 2 or c.name == "start" for c in CASES)


def mismatch(case: PerftCase) -> str | None:
    """None when the engine counts the recorded leaves; else the failure's message."""
    position = VARIANT.parse_position(case.position)
    assert VARIANT.format_position(position) == case.position
    found = VARIANT.perft(position, case.depth)
    if found == case.nodes:
        return None
    return (f"perft({case.name}, {case.depth}) = {found}, expected {case.nodes}\n"
            + first_difference_report(case.position, case.depth))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_perft(case: PerftCase) -> None:
    if case.nodes > MAX_LEAVES and not DEEP:
        pytest.skip(f"{case.nodes} leaves; set COMMANDER_PERFT_DEEP=1 to run")
    message = mismatch(case)
    if message is not None:
        pytest.fail(message, pytrace=False)


# --- the report of a mismatch -----------------------------------------------------------------
def case_named(name: str, depth: int) -> PerftCase:
    return next(c for c in CASES if c.name == name and c.depth == depth)


def turns_in(position: Position) -> int:
    return len(VARIANT.legal_moves(position))


def test_the_report_of_a_right_engine_finds_no_difference() -> None:
    """The search over a whole tree when nothing differs: every position within one turn."""
    case = case_named("carried-air-force", 2)
    position = VARIANT.parse_position(case.position)
    successors = [VARIANT.make_move(position, m) for m in VARIANT.legal_moves(position)]
    positions = 1 + len(successors)
    listed = turns_in(position) + sum(map(turns_in, successors))
    assert first_difference_report(case.position, 2) == (
        f"no difference found: the engine and the reference reach the same positions and list "
        f"the same turns at all {positions} positions within 1 turn of the case's position; "
        f"so the engine's perft count disagrees with its own moves, or the recorded count is "
        f"wrong\n"
        f"  ({positions} positions compared breadth-first; the reference listed {listed} turns "
        f"(budget {REPORT_BUDGET}))")
