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
from collections.abc import Sequence

import pytest
import test_commander_reference as reference
from perft_data import (
    DATA,
    Generator,
    PerftCase,
    case_id,
    first_difference,
    read_perft_file,
    two_deep,
)

from engine import Move, Position, get_variant
from engine.commander import rules as engine_rules
from engine.commander import variant as engine_variant

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


def drop_turn(monkeypatch: pytest.MonkeyPatch, position: Position, index: int) -> None:
    """A fault: the engine's turn generator leaves out its ``index``-th turn in ``position``,
    in perft counts and in lists of moves alike."""
    original = engine_rules.legal_turns

    def legal_turns(cells: Sequence[str | None], side: int) -> list[engine_rules.RawTurn]:
        turns = original(cells, side)
        if side == position.side and tuple(cells) == position.cells:
            return turns[:index] + turns[index + 1:]
        return turns

    monkeypatch.setattr(engine_rules, "legal_turns", legal_turns)
    monkeypatch.setattr(engine_variant, "legal_turns", legal_turns)


def count_reference_positions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The positions (FEN placements) whose turns the reference lists from now on."""
    seen: list[str] = []
    original = reference.legal_turns

    def legal_turns(board: reference.Board, side: int
                    ) -> list[tuple[reference.Turn, reference.Board]]:
        seen.append(reference.fen_placement(board))
        return original(board, side)

    monkeypatch.setattr(reference, "legal_turns", legal_turns)
    return seen


def turns_in(position: Position) -> int:
    return len(VARIANT.legal_moves(position))


def fen_without_counters(position: Position) -> str:
    return " ".join(VARIANT.format_position(position).split()[:4])


def test_a_turn_missing_two_turns_deep_is_named_by_a_bounded_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth 3 from the start, the engine leaving out one turn in one position two turns
    deep (the 21st reply to the first turn): the report names the two turns, the position
    and the missing turn, found breadth-first after the reference has listed the turns of
    the start, of its 116 successors and of the first 21 positions two turns deep — not the
    13,576 positions a per-turn breakdown of depth 3 asks of it."""
    case = case_named("start", 3)
    start = VARIANT.parse_position(case.position)
    first, after_first, reply, faulty, dropped, successors = two_deep(VARIANT, start, 20, 5)
    listed = (turns_in(start) + sum(map(turns_in, successors))
              + sum(turns_in(VARIANT.make_move(after_first, m))
                    for m in VARIANT.legal_moves(after_first)[:21]))
    drop_turn(monkeypatch, faulty, 5)
    seen = count_reference_positions(monkeypatch)

    assert mismatch(case) == (
        f"perft(start, 3) = {case.nodes - 1}, expected {case.nodes}\n"
        f"the engine and the reference first differ after 2 turns: "
        f"{VARIANT.format_lan(start, first)} {VARIANT.format_lan(after_first, reply)}\n"
        f"  in {fen_without_counters(faulty)}\n"
        f"  only the engine lists: (none)\n"
        f"  only the reference lists: {VARIANT.format_lan(faulty, dropped)}\n"
        f"  (138 positions compared breadth-first; the reference listed {listed} turns "
        f"(budget {REPORT_BUDGET}))")
    assert len(seen) == 1 + 116 + 21


def test_a_turn_missing_at_the_cases_position_costs_the_reference_one_position(
        monkeypatch: pytest.MonkeyPatch) -> None:
    case = case_named("blue-in-check", 2)
    position = VARIANT.parse_position(case.position)
    dropped = VARIANT.legal_moves(position)[3]
    drop_turn(monkeypatch, position, 3)
    seen = count_reference_positions(monkeypatch)

    missing = VARIANT.perft(VARIANT.make_move(position, dropped), 1)
    assert mismatch(case) == (
        f"perft(blue-in-check, 2) = {case.nodes - missing}, expected {case.nodes}\n"
        f"the engine and the reference first differ at the case's position itself\n"
        f"  in {fen_without_counters(position)}\n"
        f"  only the engine lists: (none)\n"
        f"  only the reference lists: {VARIANT.format_lan(position, dropped)}\n"
        f"  (1 position compared breadth-first; the reference listed 9 turns "
        f"(budget {REPORT_BUDGET}))")
    assert seen == [case.position.split()[0]]


def test_the_report_says_where_the_budget_stopped_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault one turn deep after the start's last turn, with a budget of 1000 turns: the
    search stops at the first position once the reference has listed that many, and says
    how far it looked."""
    case = case_named("start", 2)
    start = VARIANT.parse_position(case.position)
    successors = [VARIANT.make_move(start, m) for m in VARIANT.legal_moves(start)]
    drop_turn(monkeypatch, successors[-1], 0)
    monkeypatch.setitem(globals(), "REPORT_BUDGET", 1000)
    seen = count_reference_positions(monkeypatch)
    listed, checked = turns_in(start), 0
    while listed < 1000:
        listed += turns_in(successors[checked])
        checked += 1

    assert mismatch(case) == (
        f"perft(start, 2) = {case.nodes - 1}, expected {case.nodes}\n"
        f"no difference found before the budget ran out: the engine and the reference agree "
        f"at the case's position, and at {checked} of the 116 positions 1 turn from it\n"
        f"  ({checked + 1} positions compared breadth-first; the reference listed {listed} "
        f"turns (budget 1000))")
    assert len(seen) == checked + 1 < 116


def test_a_turn_leading_to_a_wrong_position_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault in making a turn rather than in listing turns: the report names the turn and
    both positions it leads to."""
    case = case_named("carried-air-force", 2)
    position = VARIANT.parse_position(case.position)
    wrong, other = VARIANT.legal_moves(position)[7], VARIANT.legal_moves(position)[8]
    make_move = VARIANT.make_move

    def faulty(at: Position, move: Move) -> Position:
        return make_move(at, other if (at, move) == (position, wrong) else move)

    listed = turns_in(position) + sum(turns_in(make_move(position, m))
                                      for m in VARIANT.legal_moves(position)[:7])
    monkeypatch.setattr(VARIANT, "make_move", faulty)
    assert first_difference_report(case.position, 2) == (
        f"the engine and the reference first differ after 1 turn: "
        f"{VARIANT.format_lan(position, wrong)}\n"
        f"  the engine    reaches {fen_without_counters(make_move(position, other))}\n"
        f"  the reference reaches {fen_without_counters(make_move(position, wrong))}\n"
        f"  (9 positions compared breadth-first; the reference listed {listed} turns "
        f"(budget {REPORT_BUDGET}))")


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
