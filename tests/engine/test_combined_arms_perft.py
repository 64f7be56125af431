"""Combined Arms Brigade Chess move generation, pinned by perft counts and a second generator.

The counts in ``tests/data/combined_arms.perft`` were produced by
``simple_combined_arms.py``, a generator written from the rule file alone; the engine must
reproduce every one of them, and on a mismatch the message lays the engine's per-move
breakdown beside the simple generator's; at depth 3, too slow for it (some 5,000 positions
at about 20 ms each), the first position where the two generators' moves differ, searched
within ``REPORT_BUDGET``. The simple generator is slow, so in this run it re-derives the cheap
counts in full and samples the expensive subtrees; random games then compare both
generators move set by move set, canonical texts included.
"""

from __future__ import annotations

import random

import pytest
import simple_combined_arms as simple
from perft_data import (
    DATA,
    Generator,
    PerftCase,
    case_id,
    divide_report,
    first_difference,
    read_perft_file,
    two_deep,
)

from engine import Move, Position, get_variant

VARIANT = get_variant("combined-arms")
CASES = read_perft_file(DATA / "combined_arms.perft")
MIDDLE = [c for c in CASES if c.position != VARIANT.start_fen and c.depth == 2]
SAMPLED_FIRST_MOVES = 4  # per middle-game position: subtrees re-counted by the simple generator
REPORT_BUDGET = 20_000  # moves listed by the simple generator while searching for a difference


def breakdown(position_text: str, depth: int) -> str:
    """The engine's `divide` beside the simple generator's, differing moves marked."""
    return divide_report(position_text, depth,
                         VARIANT.divide(VARIANT.parse_position(position_text), depth),
                         simple.divide(simple.read_position(position_text), depth))


def engine_moves(position: Position) -> list[tuple[str, Position]]:
    return [(VARIANT.format_move(position, m), VARIANT.make_move(position, m))
            for m in VARIANT.legal_moves(position)]


def simple_moves(position: simple.Position) -> list[tuple[str, simple.Position]]:
    return [(text, simple.play(position, e)) for e, text in simple.legal_texts(position).items()]


def first_difference_report(position_text: str, depth: int) -> str:
    """Where the engine's moves and the simple generator's first differ within
    ``depth - 1`` moves of the position, searched within ``REPORT_BUDGET``."""
    start = VARIANT.parse_position(position_text), simple.read_position(position_text)
    return first_difference(Generator(engine_moves, VARIANT.format_position),
                            Generator(simple_moves, simple.write_position), start, depth,
                            budget=REPORT_BUDGET).report()


def effect(position: Position, move: Move) -> tuple[str, str, frozenset[str], str]:
    """An engine move as the simple generator's effect tuple."""
    s = move.steps[0]
    if move.kind == "castle":
        return (s.origin, s.target, frozenset(), VARIANT.format_move(position, move))
    return (s.origin, s.target, frozenset(s.captures), s.becomes)


# --- the data file --------------------------------------------------------------------------
def test_data_file_holds_the_start_and_middle_games_on_both_sides() -> None:
    start = [c.depth for c in CASES if c.position == VARIANT.start_fen]
    assert {1, 2} <= set(start)
    assert len(MIDDLE) >= 3
    assert any(c.position.split()[1] == "b" for c in MIDDLE)
    assert any(c.position.split()[1] == "w" for c in MIDDLE)


@pytest.mark.parametrize("text", sorted({c.position for c in CASES}))
def test_positions_of_the_data_file_round_trip_in_both_generators(text: str) -> None:
    assert VARIANT.format_position(VARIANT.parse_position(text)) == text
    assert simple.write_position(simple.read_position(text)) == text


# --- perft ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_engine_perft_matches_the_recorded_count(case: PerftCase) -> None:
    nodes = VARIANT.perft(VARIANT.parse_position(case.position), case.depth)
    if nodes != case.nodes:
        detail = breakdown(case.position, case.depth) if case.depth <= 2 \
            else first_difference_report(case.position, case.depth)
        pytest.fail(f"{case.name}: engine perft {case.depth} = {nodes}, recorded "
                    f"{case.nodes}\n{detail}")


@pytest.mark.parametrize("case", [c for c in CASES if c.depth == 1], ids=case_id)
def test_simple_generator_confirms_the_recorded_depth_one_count(case: PerftCase) -> None:
    assert simple.perft(simple.read_position(case.position), 1) == case.nodes


def test_engine_divide_at_the_start_matches_the_simple_generator_move_by_move() -> None:
    """Depth 2 from the start in full: counts, and the canonical text of every move."""
    case = next(c for c in CASES if c.position == VARIANT.start_fen and c.depth == 2)
    engine_counts = VARIANT.divide(VARIANT.parse_position(case.position), 2)
    simple_counts = simple.divide(simple.read_position(case.position), 2)
    assert engine_counts == simple_counts, breakdown(case.position, 2)
    assert sum(simple_counts.values()) == case.nodes


@pytest.mark.parametrize("case", MIDDLE, ids=case_id)
def test_simple_generator_confirms_sampled_subtrees_of_the_middle_games(case: PerftCase
                                                                        ) -> None:
    """Every first move by text in both generators, and a seeded sample of their depth-1
    subtrees counted by both (the full counts were recorded by the simple generator)."""
    position = VARIANT.parse_position(case.position)
    engine_counts = VARIANT.divide(position, 2)
    assert sum(engine_counts.values()) == case.nodes
    sp = simple.read_position(case.position)
    texts = simple.legal_texts(sp)
    assert sorted(texts.values()) == sorted(engine_counts)
    sample = random.Random(case.name).sample(sorted(texts.items()), SAMPLED_FIRST_MOVES)
    for move, text in sample:
        assert simple.perft(simple.play(sp, move), 1) == engine_counts[text], text


# --- random games -----------------------------------------------------------------------------
def _difference(position: Position, text: str) -> str | None:
    """How the engine's legal moves and texts differ from the simple generator's, or None."""
    engine_moves = {effect(position, m): VARIANT.format_move(position, m)
                    for m in VARIANT.legal_moves(position)}
    if len(engine_moves) != len(VARIANT.legal_moves(position)):
        return f"{text}: the engine lists a move twice"
    simple_moves = simple.legal_texts(simple.read_position(text))
    if engine_moves == simple_moves:
        return None
    only_engine = sorted(engine_moves[m] for m in engine_moves.keys() - simple_moves.keys())
    only_simple = sorted(simple_moves[m] for m in simple_moves.keys() - engine_moves.keys())
    texts = sorted((engine_moves[m], simple_moves[m]) for m in engine_moves.keys()
                   & simple_moves.keys() if engine_moves[m] != simple_moves[m])
    return f"{text}: only the engine has {only_engine}; only the simple generator has " \
           f"{only_simple}; texts differ (engine, simple): {texts}"


@pytest.mark.parametrize(("seeds", "plies", "fierce"), [
    ((0, 1), 40, False), ((5, 100, 101, 102), 60, True)], ids=["uniform", "fierce"])
def test_legal_moves_equal_the_simple_generators_in_random_games(seeds: tuple[int, ...],
                                                                 plies: int,
                                                                 fierce: bool) -> None:
    """Seeded random games (fierce ones kill and push Pawns, so Kings come under fire and
    fall: seed 5 ends with a King killed at ply 52): at every position both generators
    give the same moves with the same texts, and the move played leads to the same
    position in both."""
    seen = ended = 0
    for seed in seeds:
        game = simple.random_game(seed, plies, fierce=fierce)
        position = VARIANT.parse_position(simple.write_position(game[0]))
        for before, after in zip(game, game[1:], strict=False):
            text = simple.write_position(before)
            assert VARIANT.format_position(position) == text
            problem = _difference(position, text)
            assert problem is None, f"seed {seed}: {problem}"
            played = next(m for m in VARIANT.legal_moves(position)
                          if simple.play(before, effect(position, m)) == after)
            position = VARIANT.make_move(position, played)
            seen += 1
        assert VARIANT.format_position(position) == simple.write_position(game[-1])
        if len(game) <= plies:  # the game ended before the ply limit: both see the end
            assert VARIANT.legal_moves(position) == [] and not simple.legal_moves(game[-1])
            assert VARIANT.outcome(position).is_over
            ended += 1
    assert seen >= 60
    assert ended >= (1 if fierce else 0)


# --- the report of a depth-3 mismatch ---------------------------------------------------------
def test_a_move_missing_two_moves_deep_is_named_by_a_bounded_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine leaving out one move in one position two moves deep (the 11th reply to
    the first move): the report names the two moves, the position and the missing move,
    found breadth-first after the simple generator has listed the moves of the start, of
    its 69 successors and of the first 11 positions two moves deep, not the 5,109 positions
    of a per-move breakdown of depth 3."""
    start = VARIANT.start_position()
    first, after_first, reply, faulty, dropped, successors = two_deep(VARIANT, start, 10, 3)
    listed = sum(VARIANT.count_moves(p) for p in [start, *successors]) + sum(
        VARIANT.count_moves(VARIANT.make_move(after_first, m))
        for m in VARIANT.legal_moves(after_first)[:11])
    legal_moves = VARIANT.legal_moves
    monkeypatch.setattr(VARIANT, "legal_moves", lambda position: [
        m for m in legal_moves(position) if (position, m) != (faulty, dropped)])
    seen: list[str] = []
    legal_texts = simple.legal_texts

    def counted(position: simple.Position) -> dict[simple.Effect, str]:
        seen.append(simple.write_position(position))
        return legal_texts(position)

    monkeypatch.setattr(simple, "legal_texts", counted)

    path = f"{VARIANT.format_move(start, first)} {VARIANT.format_move(after_first, reply)}"
    budget = f"the simple generator listed {listed} moves (budget {REPORT_BUDGET})"
    assert first_difference_report(VARIANT.start_fen, 3).split("\n") == [
        f"the engine and the simple generator first differ after 2 moves: {path}",
        f"  in {VARIANT.format_position(faulty)}",
        "  only the engine lists: (none)",
        f"  only the simple generator lists: {VARIANT.format_move(faulty, dropped)}",
        f"  (81 positions compared breadth-first; {budget})"]
    assert len(seen) == 1 + 69 + 11
