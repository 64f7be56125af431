"""Clash of Command move generation, pinned by perft counts and by a second generator.

The counts in ``tests/data/clash.perft`` were produced by ``simple_clash.py``, a generator
written from the rule file alone; the engine must reproduce every one of them, and on a
mismatch the message lays the engine's per-move breakdown beside the simple generator's.
Random games then compare the two generators move set by move set.
"""

from __future__ import annotations

import pytest
import simple_clash as simple
from perft_data import DATA, PerftCase, case_id, divide_report, read_perft_file

from engine import Move, Position, get_variant

VARIANT = get_variant("clash")
CASES = read_perft_file(DATA / "clash.perft")
SIMPLE_MAX_DEPTH = 3  # the simple generator takes ~2.5 s for depth 4 from the start


def breakdown(position_text: str, depth: int) -> str:
    """The engine's `divide` beside the simple generator's, differing moves marked."""
    return divide_report(position_text, depth,
                         VARIANT.divide(VARIANT.parse_position(position_text), depth),
                         simple.divide(simple.read_position(position_text), depth))


def effect(move: Move) -> tuple[str, str, frozenset[str], str, str]:
    """An engine move as the simple generator's effect tuple."""
    assert len(move.steps) == 1, f"a Clash move is one step: {move!r}"
    s = move.steps[0]
    return (s.origin, s.target, frozenset(s.captures), s.drop, s.becomes)


# --- the data file --------------------------------------------------------------------------
def test_data_file_holds_the_start_and_middle_games_on_both_sides() -> None:
    start = [c.depth for c in CASES if c.position == VARIANT.start_fen]
    assert {1, 2, 3} <= set(start)
    middle = {c.position for c in CASES if c.position != VARIANT.start_fen and c.depth == 2}
    assert len(middle) >= 4
    assert any(p.split()[1] == "b" for p in middle)


@pytest.mark.parametrize("text", sorted({c.position for c in CASES}))
def test_positions_of_the_data_file_round_trip_in_both_generators(text: str) -> None:
    assert VARIANT.format_position(VARIANT.parse_position(text)) == text
    assert simple.write_position(simple.read_position(text)) == text


# --- the board --------------------------------------------------------------------------------
def test_adjacency_listing_agrees_with_the_edge_formulas() -> None:
    assert len(simple.BOARD) == 41
    assert simple.listing_edges() == simple.formula_edges()
    assert len(simple.listing_edges()) == 104


def test_engine_board_is_the_rule_files_adjacency_listing() -> None:
    topo = VARIANT.topology
    engine_board = {topo.nodes[i]: {d: topo.nodes[j] for d, j in topo.neighbours(i)}
                    for i in range(len(topo))}
    assert engine_board == simple.BOARD


# --- perft ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_engine_perft_matches_the_recorded_count(case: PerftCase) -> None:
    nodes = VARIANT.perft(VARIANT.parse_position(case.position), case.depth)
    if nodes != case.nodes:
        pytest.fail(f"{case.name}: engine perft {case.depth} = {nodes}, recorded "
                    f"{case.nodes}\n{breakdown(case.position, case.depth)}")


@pytest.mark.parametrize("case", [c for c in CASES if c.depth <= SIMPLE_MAX_DEPTH],
                         ids=case_id)
def test_simple_generator_confirms_the_recorded_count(case: PerftCase) -> None:
    nodes = simple.perft(simple.read_position(case.position), case.depth)
    if nodes != case.nodes:
        pytest.fail(f"{case.name}: simple perft {case.depth} = {nodes}, recorded "
                    f"{case.nodes}\n{breakdown(case.position, case.depth)}")


@pytest.mark.parametrize("case", [c for c in CASES if c.depth == 2], ids=case_id)
def test_engine_divide_matches_the_simple_generator_move_by_move(case: PerftCase) -> None:
    engine_counts = VARIANT.divide(VARIANT.parse_position(case.position), case.depth)
    simple_counts = simple.divide(simple.read_position(case.position), case.depth)
    assert engine_counts == simple_counts, breakdown(case.position, case.depth)


# --- random games -----------------------------------------------------------------------------
def _difference(position: Position, text: str) -> str | None:
    """How the engine's legal moves differ from the simple generator's, or None."""
    engine_moves = [effect(m) for m in VARIANT.legal_moves(position)]
    simple_moves = simple.legal_moves(simple.read_position(text))
    if len(engine_moves) != len(set(engine_moves)):
        return f"{text}: the engine lists a move twice"
    if set(engine_moves) == simple_moves:
        return None
    sp = simple.read_position(text)
    only_engine = sorted(simple.move_text(sp, m) for m in set(engine_moves) - simple_moves)
    only_simple = sorted(simple.move_text(sp, m) for m in simple_moves - set(engine_moves))
    return f"{text}: only the engine has {only_engine}; only the simple generator has " \
           f"{only_simple}"


@pytest.mark.parametrize("keep_commanders", [False, True], ids=["uniform", "keep-commanders"])
def test_legal_moves_equal_the_simple_generators_in_random_games(keep_commanders: bool) -> None:
    """Seeded random games (uniform ones end early; keeping Commanders reaches Slicers):
    at every position both generators give the same set of move effects, and the move
    played leads to the same position in both."""
    seen = 0
    for seed in range(40):
        game = simple.random_game(seed, 400, keep_commanders=keep_commanders)
        position = VARIANT.parse_position(simple.write_position(game[0]))
        for before, after in zip(game, game[1:], strict=False):
            text = simple.write_position(before)
            assert VARIANT.format_position(position) == text
            problem = _difference(position, text)
            assert problem is None, f"seed {seed}: {problem}"
            played = next(m for m in VARIANT.legal_moves(position)
                          if simple.play(before, effect(m)) == after)
            position = VARIANT.make_move(position, played)
            seen += 1
        assert VARIANT.format_position(position) == simple.write_position(game[-1])
        if len(game) <= 400:  # the game ended before the ply limit: both see the end
            assert VARIANT.legal_moves(position) == [] and not simple.legal_moves(game[-1])
    assert seen > (4000 if keep_commanders else 1000)
