"""mini-/micro-Chieftain turn generation, pinned by perft counts and by a second generator.

A perft node is a whole turn: a set of moves, counted once whatever the orders it can be
played in. The counts in ``tests/data/chieftain.perft`` were produced by
``simple_chieftain.py``, a brute-force generator written from the rule file alone; the
engine must reproduce every one of them, and on a mismatch the message lays the engine's
per-turn breakdown beside the simple generator's. Seeded random games then compare the two
generators turn set by turn set, at the start of turns and in the middle of them.
"""

from __future__ import annotations

import functools
import random

import pytest
import simple_chieftain as simple
from perft_data import DATA, PerftCase, case_id, divide_report, read_perft_file

from engine import Move, Position, Variant, get_variant

CASES = read_perft_file(DATA / "chieftain.perft", with_variant=True)
# The brute-force generator needs ~5 s for a start's depth 2; a larger count added to the
# data file is confirmed by running it as a script rather than in every test run.
SIMPLE_MAX_NODES = 600_000


def breakdown(variant: Variant, position_text: str, depth: int,
              simple_counts: dict[str, int] | None = None) -> str:
    """The engine's `divide` beside the simple generator's, only the differing turns listed
    (a start has hundreds of turns)."""
    if simple_counts is None:
        simple_counts = simple.divide(simple.read_position(position_text), depth)
    return divide_report(position_text, depth,
                         variant.divide(variant.parse_position(position_text), depth),
                         simple_counts, unit="turn", differing_only=True)


# --- the data file --------------------------------------------------------------------------
def test_data_file_holds_both_starts_to_depth_2_and_turns_in_progress() -> None:
    for variant in ("mini-chieftain", "micro-chieftain"):
        start = get_variant(variant).start_fen
        assert {1, 2} <= {c.depth for c in CASES if c.position == start}
    assert any(c.position.split()[2] != "-" for c in CASES)
    assert any(c.position.split()[1] == "b" for c in CASES)


@pytest.mark.parametrize("text", sorted({c.position for c in CASES}))
def test_positions_of_the_data_file_round_trip_in_both_generators(text: str) -> None:
    variant = get_variant(next(c.variant for c in CASES if c.position == text))
    assert variant.format_position(variant.parse_position(text)) == text
    assert simple.write_position(simple.read_position(text)) == text


# the random games of the data file's middle-game entries: (id, variant, seed, turns)
RANDOM_GAMES = (("mini-middle", "mini-chieftain", 1, 21),
                ("micro-middle", "micro-chieftain", 0, 31),
                ("micro-lone-chieftain", "micro-chieftain", 3, 23))


@functools.cache
def random_game(variant: str, seed: int, turns: int) -> tuple[object, ...]:
    return tuple(simple.random_game(seed, turns, get_variant(variant).start_fen))


def test_random_game_positions_of_the_data_file_are_reproduced() -> None:
    by_name = {c.name: c.position for c in CASES}
    for name, variant, seed, turns in RANDOM_GAMES:
        game = random_game(variant, seed, turns)
        assert simple.write_position(game[turns]) == by_name[name]


# --- perft ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_engine_perft_matches_the_recorded_count(case: PerftCase) -> None:
    variant = get_variant(case.variant)
    nodes = variant.perft(variant.parse_position(case.position), case.depth)
    if nodes != case.nodes:
        pytest.fail(f"{case.name}: engine perft {case.depth} = {nodes}, recorded "
                    f"{case.nodes}\n{breakdown(variant, case.position, case.depth)}")


@pytest.mark.parametrize("case", [c for c in CASES if c.nodes <= SIMPLE_MAX_NODES],
                         ids=case_id)
def test_simple_generator_confirms_the_count_and_the_engines_divide(case: PerftCase) -> None:
    """One run of the brute-force generator per case: its total must be the recorded count
    and its per-turn breakdown the engine's, turn text by turn text."""
    variant = get_variant(case.variant)
    simple_counts = simple.divide(simple.read_position(case.position), case.depth)
    engine_counts = variant.divide(variant.parse_position(case.position), case.depth)
    assert sum(simple_counts.values()) == case.nodes, \
        breakdown(variant, case.position, case.depth, simple_counts)
    assert engine_counts == simple_counts, \
        breakdown(variant, case.position, case.depth, simple_counts)


def test_single_move_perft_counts_moves_one_at_a_time() -> None:
    mini = get_variant("mini-chieftain")
    start = mini.start_position()
    assert mini.move_perft(start, 1) == 36
    # after each first move the second move of the same turn: a turn of two single moves
    two = sum(len(mini.next_moves(mini.apply(start, m))) for m in mini.next_moves(start))
    assert mini.move_perft(start, 2) == two


# --- random games ---------------------------------------------------------------------------
def turn_key(move: Move) -> frozenset[tuple[str, str, str]]:
    return frozenset((s.unit, s.origin, s.target) for s in move.steps)


def _difference(variant: Variant, position: Position) -> str | None:
    """How the engine's turns differ from the simple generator's, or None."""
    text = variant.format_position(position)
    engine_turns = [turn_key(m) for m in variant.legal_moves(position) if m.steps]
    simple_turns = set(simple.turns(simple.read_position(text)))
    if len(engine_turns) != len(set(engine_turns)):
        return f"{text}: the engine lists a turn twice"
    if set(engine_turns) == simple_turns:
        return None
    only_engine = sorted(map(sorted, set(engine_turns) - simple_turns))[:5]
    only_simple = sorted(map(sorted, simple_turns - set(engine_turns)))[:5]
    return f"{text}: only the engine has {only_engine}; only the simple one has {only_simple}"


@pytest.mark.parametrize(("name", "variant", "seed", "turns"), RANDOM_GAMES,
                         ids=[g[0] for g in RANDOM_GAMES])
def test_turns_equal_the_simple_generators_in_random_games(name: str, variant: str, seed: int,
                                                           turns: int) -> None:
    """At the start of every other turn of a seeded random game, and after a random first
    move of that turn entered move by move, both generators give the same sets of moves."""
    game_variant = get_variant(variant)
    rng = random.Random(seed)
    checked = 0
    for before in random_game(variant, seed, turns)[::2]:
        position = game_variant.parse_position(simple.write_position(before))
        assert _difference(game_variant, position) is None
        singles = game_variant.next_moves(position)
        if singles:
            started = game_variant.apply(position, rng.choice(singles))
            if started.in_progress:
                assert _difference(game_variant, started) is None
                checked += 1
    assert checked >= 8
