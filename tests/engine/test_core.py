"""The engine core: registry, errors, boards, move values and outcomes."""

from __future__ import annotations

import pytest

import engine
from engine import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    Move,
    MoveError,
    MoveSyntaxError,
    Outcome,
    PositionError,
    Step,
    UnknownVariantError,
    Variant,
    all_variants,
    get_variant,
    register,
)
from engine.boards import CHESS, CLASH, COMMANDER
from engine.clash import ClashOfCommand
from engine.topology import NO_NODE

# --- the registry ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["clash", "clash-of-command", "CLASH", "Clash-Of-Command",
                                  "  clash ", "\tclash-of-command\n"])
def test_registry_finds_clash_by_id_and_alias_in_any_case(name: str) -> None:
    variant = get_variant(name)
    assert isinstance(variant, ClashOfCommand)
    assert variant is get_variant("clash")
    assert variant.name == "clash"
    assert variant.aliases == ("clash-of-command",)
    assert variant.display_name == "Clash of Command"


def test_registry_lists_clash_once() -> None:
    assert [v.name for v in all_variants()].count("clash") == 1
    assert all(isinstance(v, Variant) for v in all_variants())


def test_unknown_variant_is_a_value_error_that_quotes_the_name_and_lists_known_ids() -> None:
    with pytest.raises(UnknownVariantError) as caught:
        get_variant("clash of kings")
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert message.startswith("'clash of kings': no such variant (known: ")
    for variant in all_variants():
        assert variant.name in message


def test_unknown_variant_does_not_match_a_prefix() -> None:
    with pytest.raises(UnknownVariantError):
        get_variant("clash-of")


def test_registering_a_taken_name_fails_and_registers_nothing() -> None:
    class Impostor(Variant):
        name = "impostor-variant"
        aliases = ("Clash-of-Command",)

    before = all_variants()
    with pytest.raises(ValueError, match="'clash-of-command' is registered twice"):
        register(Impostor)
    assert all_variants() == before
    with pytest.raises(UnknownVariantError):
        get_variant("impostor-variant")
    assert isinstance(get_variant("clash-of-command"), ClashOfCommand)


def test_registering_a_variant_whose_alias_repeats_its_name_fails() -> None:
    class Stutter(Variant):
        name = "stutter-variant"
        aliases = (" Stutter-Variant",)

    with pytest.raises(ValueError, match="'stutter-variant' is registered twice"):
        register(Stutter)
    with pytest.raises(UnknownVariantError):
        get_variant("stutter-variant")


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("error", [EngineError, UnknownVariantError, PositionError, MoveError,
                                   MoveSyntaxError, IllegalMoveError, AmbiguousMoveError])
def test_every_engine_error_is_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, EngineError)
    assert issubclass(error, ValueError)


def test_move_errors_are_move_errors() -> None:
    for error in (MoveSyntaxError, IllegalMoveError, AmbiguousMoveError):
        assert issubclass(error, MoveError)
    assert not issubclass(PositionError, MoveError)
    assert not issubclass(UnknownVariantError, MoveError)


def test_move_error_message_quotes_the_input_and_keeps_text_and_reason() -> None:
    error = IllegalMoveError("c3-c4 ", "no such node")
    assert str(error) == "'c3-c4 ': no such node"
    assert (error.text, error.reason) == ("c3-c4 ", "no such node")


def test_move_error_without_text_is_just_the_reason() -> None:
    assert str(MoveSyntaxError("", "there is no move in it")) == "there is no move in it"


def test_ambiguous_error_lists_candidates_with_or() -> None:
    error = AmbiguousMoveError("a5", ["a5=D", "a5=H", "a5-a3/D"])
    assert error.candidates == ("a5=D", "a5=H", "a5-a3/D")
    assert str(error) == "'a5': ambiguous: it could be a5=D, a5=H or a5-a3/D"


def test_ambiguous_parse_gives_sorted_canonical_candidates() -> None:
    clash = get_variant("clash")
    with pytest.raises(AmbiguousMoveError) as caught:
        clash.parse_move(clash.start_position(), "b2-b4")
    assert caught.value.candidates == ("b2-b4/D", "b2-b4/H")
    assert list(caught.value.candidates) == sorted(caught.value.candidates)
    assert str(caught.value) == "'b2-b4': ambiguous: it could be b2-b4/D or b2-b4/H"


def test_position_error_quotes_the_input() -> None:
    clash = get_variant("clash")
    with pytest.raises(PositionError, match=r"^'bcccc w 1': the placement needs 9 ranks"):
        clash.parse_position("bcccc w 1")


def test_apply_refuses_a_move_that_is_not_legal() -> None:
    clash = get_variant("clash")
    start = clash.start_position()
    with pytest.raises(IllegalMoveError, match=r"^'c3-c5': that is not a legal move"):
        clash.apply(start, Move.single("c3", "c5", unit="H"))  # the piece on c3 is a Droid


# --- boards ---------------------------------------------------------------------------------


def test_chess_board_is_8_by_8_with_eight_directions() -> None:
    assert len(CHESS) == 64
    assert CHESS.directions == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert CHESS.nodes[0] == "a1" and CHESS.nodes[-1] == "h8"
    assert CHESS.node(" E4 ") == CHESS.index["e4"]
    assert CHESS.terrain[CHESS.index["a1"]] == frozenset({"dark"})
    assert CHESS.terrain[CHESS.index["h1"]] == frozenset({"light"})


def test_chess_board_rays_and_neighbours() -> None:
    a1 = CHESS.index["a1"]
    assert [CHESS.nodes[i] for i in CHESS.ray(a1, "NE")] == [f"{f}{n}" for n, f in
                                                             enumerate("bcdefgh", 2)]
    assert dict((d, CHESS.nodes[i]) for d, i in CHESS.neighbours(a1)) == {
        "N": "a2", "NE": "b2", "E": "b1"}
    assert CHESS.neighbour(a1, "S") == NO_NODE
    assert len(CHESS.edges()) == 2 * 8 * 7 + 2 * 7 * 7


def test_commander_board_terrain() -> None:
    assert len(COMMANDER) == 11 * 12
    assert COMMANDER.files == tuple("abcdefghijk")
    assert COMMANDER.ranks == tuple(str(r) for r in range(1, 13))
    mouth = {"d6", "e6", "d7", "e7"}
    for i, name in enumerate(COMMANDER.nodes):
        tags = COMMANDER.terrain[i] - {"headquarters"}
        if name[0] in "ab":
            assert tags == {"sea", "navigable"}, name
        elif name[0] == "c":
            assert tags == {"coast", "navigable", "land-capable"}, name
        elif name in mouth:
            assert tags == {"mouth", "navigable", "land-capable"}, name
        else:
            assert tags == {"land", "land-capable"}, name
    assert len(COMMANDER.nodes_tagged("sea")) == 24
    assert len(COMMANDER.nodes_tagged("land")) == 92
    assert len(COMMANDER.nodes_tagged("navigable")) == 40
    assert len(COMMANDER.nodes_tagged("land-capable")) == 108


def test_commander_board_headquarters() -> None:
    assert {COMMANDER.nodes[i] for i in COMMANDER.nodes_tagged("headquarters")} == {
        "f2", "h2", "f11", "h11"}


def _tagged_edges(tag: str) -> set[frozenset[str]]:
    return {frozenset(COMMANDER.nodes[i] for i in edge)
            for edge, tags in COMMANDER.edge_tags.items() if tag in tags}


def test_commander_river_crosses_every_edge_between_rank_6_and_7() -> None:
    crossing = {frozenset(COMMANDER.nodes[i] for i in edge) for edge in COMMANDER.edges()
                if {COMMANDER.coords[i][1] for i in edge} == {5, 6}}
    assert len(crossing) == 11 + 2 * 10
    assert _tagged_edges("river") == crossing


def test_commander_reefs_are_only_f6_f7_and_h6_h7() -> None:
    assert _tagged_edges("reef") == {frozenset({"f6", "f7"}), frozenset({"h6", "h7"})}


def test_commander_edge_tags_are_only_river_reef_and_land_corner() -> None:
    assert _tagged_edges("land-corner") == {frozenset({"c5", "d6"}), frozenset({"c8", "d7"})}
    assert set().union(*COMMANDER.edge_tags.values()) == {"river", "reef", "land-corner"}
    f6, f7 = COMMANDER.index["f6"], COMMANDER.index["f7"]
    assert COMMANDER.edge_has_tag(f6, f7, "reef") and COMMANDER.edge_has_tag(f7, f6, "river")
    assert not COMMANDER.edge_has_tag(COMMANDER.index["g6"], COMMANDER.index["g7"], "reef")


def test_clash_board_shape() -> None:
    assert len(CLASH) == 41
    assert len(CLASH.edges()) == 104
    assert repr(CLASH) == "Topology('clash', 41 nodes)"
    assert {CLASH.nodes[i] for i in CLASH.nodes_tagged("back-row-white")} == {
        "a1", "c1", "e1", "g1", "i1"}
    assert {CLASH.nodes[i] for i in CLASH.nodes_tagged("back-row-black")} == {
        "a9", "c9", "e9", "g9", "i9"}


def test_topology_sort_key_orders_rank_by_rank() -> None:
    names = sorted(CLASH.nodes, key=lambda n: CLASH.sort_key(CLASH.index[n]))
    assert names[:6] == ["a1", "c1", "e1", "g1", "i1", "b2"]
    assert names[-1] == "i9"


# --- move values ----------------------------------------------------------------------------


def test_steps_and_moves_are_equal_by_value_and_hash_alike() -> None:
    a = Move.single("a5", "a1", ("a3",), unit="H")
    b = Move((Step("a5", "a1", ("a3",), "H"),))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != Move.single("a5", "a1", ("a3",), unit="D")
    assert a != Move.single("a5", "a1", unit="H")
    assert Move.single("g1", "f2", drop="B") != Move.single("g1", "f2", drop="F")
    assert Move(a.steps, kind="turn") != a


def test_move_and_step_repr_read_like_constructor_calls() -> None:
    m = Move.single("g1", "f2", unit="C", drop="B")
    assert repr(m.steps[0]) == ("Step(origin='g1', target='f2', captures=(), unit='C', "
                                "kind='', drop='B', becomes='')")
    assert repr(m) == f"Move(steps=({m.steps[0]!r},), kind='')"
    assert eval(repr(m), {"Move": Move, "Step": Step}) == m


def test_move_properties() -> None:
    slicer = Move.single("i1", "a1", ("g1", "e1", "c1", "a1"), unit="S")
    assert (slicer.origin, slicer.target) == ("i1", "a1")
    assert slicer.captures == ("g1", "e1", "c1", "a1")
    assert slicer.touched == ("i1", "a1", "g1", "e1", "c1")
    castle = Move((Step("e1", "g1", unit="K"), Step("h1", "f1", ("f1",), unit="R")), "castle")
    assert (castle.origin, castle.target, castle.captures) == ("e1", "f1", ("f1",))
    assert castle.touched == ("e1", "g1", "h1", "f1")


def test_moves_are_immutable() -> None:
    m = Move.single("c3", "d4")
    with pytest.raises(AttributeError):
        m.kind = "x"  # type: ignore[misc]


# --- outcomes -------------------------------------------------------------------------------


@pytest.mark.parametrize(("outcome", "score", "over"), [
    (Outcome("win", 0, "x"), "1-0", True),
    (Outcome("win", 1, "x"), "0-1", True),
    (Outcome("draw", None, "agreed"), "1/2-1/2", True),
    (engine.ONGOING, "*", False),
])
def test_outcome_score(outcome: Outcome, score: str, over: bool) -> None:
    assert outcome.score == score
    assert outcome.is_over is over


def test_ongoing_is_the_plain_ongoing_outcome() -> None:
    assert engine.ONGOING == Outcome("ongoing", None, "")
