"""Clash of Command, rule by rule (``shared/rules/clash-of-command.md``).

Each test is one rule or one worked example of the rule file, named after it. Positions are
hand-made ({node: letter}, upper case White, lower case Black) and each test asserts the
exact set of legal moves of the piece under test, by canonical text, or the exact board and
outcome after a move.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from simple_clash import ADJACENCY as ADJACENCY_TABLE

from engine import Move, Piece, Position, Variant
from engine.boards import CLASH

Board = Callable[..., Position]
Texts = Callable[..., set[str]]
Play = Callable[[Position, str], Position]
Find = Callable[[Position, str], Move]

START = "bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1"


def cell(clash: Variant, position: Position, node: str) -> str | None:
    """The piece letter on ``node`` as it appears in a position string, or None."""
    pieces = clash.pieces_at(position, node)
    return pieces[0].symbol if pieces else None


def captures_by_text(clash: Variant, position: Position, node: str) -> dict[str, set[str]]:
    return {clash.format_move(position, m): set(m.captures)
            for m in clash.legal_moves(position) if m.origin == node}


# --- §1 the board ---------------------------------------------------------------------------

# ADJACENCY_TABLE: the rule file's adjacency table (directions N NE E SE S SW W NW), as
# simple_clash.py transcribes it verbatim from the rule file, independently of the engine;
# it is parsed here by this file's own parser, which also refuses a node listed twice.


def parse_adjacency_table(table: str) -> dict[str, dict[str, str]]:
    adjacency: dict[str, dict[str, str]] = {}
    for node, edges in re.findall(r"([a-i][1-9]): ((?:[NESW]{1,2} [a-i][1-9](?:, )?)+)", table):
        assert node not in adjacency, node
        adjacency[node] = dict(edge.split() for edge in edges.split(", "))
    return adjacency


def board_adjacency() -> dict[str, dict[str, str]]:
    return {name: {d: CLASH.nodes[j] for d, j in CLASH.neighbours(i)}
            for i, name in enumerate(CLASH.nodes)}


def test_board_has_41_nodes_where_file_number_plus_rank_is_even() -> None:
    expected = {f"{f}{r}" for n, f in enumerate("abcdefghi", 1) for r in range(1, 10)
                if (n + r) % 2 == 0}
    assert len(expected) == 41
    assert set(CLASH.nodes) == expected
    assert len(CLASH.nodes) == 41


def test_board_has_eight_directions_with_two_unit_orthogonal_steps() -> None:
    assert CLASH.directions == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    a1 = CLASH.index["a1"]
    assert CLASH.nodes[CLASH.neighbour(a1, "N")] == "a3"
    assert CLASH.nodes[CLASH.neighbour(a1, "E")] == "c1"
    assert CLASH.nodes[CLASH.neighbour(a1, "NE")] == "b2"


def test_adjacency_table_of_the_rules_matches_the_board_exactly() -> None:
    table = parse_adjacency_table(ADJACENCY_TABLE)
    assert len(table) == 41
    assert board_adjacency() == table


def test_adjacency_table_is_symmetric() -> None:
    opposite = {"N": "S", "NE": "SW", "E": "W", "SE": "NW",
                "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
    table = parse_adjacency_table(ADJACENCY_TABLE)
    for node, edges in table.items():
        for direction, other in edges.items():
            assert table[other][opposite[direction]] == node


def test_board_has_104_edges_of_which_64_diagonal() -> None:
    edges = [tuple(CLASH.nodes[i] for i in e) for e in CLASH.edges()]
    assert len(edges) == 104
    diagonal = [e for e in edges if e[0][0] != e[1][0] and e[0][1] != e[1][1]]
    assert len(diagonal) == 64


def test_orthogonal_edges_are_exactly_the_drawn_lines() -> None:
    def file_number(node: str) -> int:
        return "abcdefghi".index(node[0]) + 1

    expected = set()
    for name in CLASH.nodes:
        f, r = file_number(name), int(name[1])
        if r + 2 <= 9 and abs(f - 5) >= abs(r - 5) and abs(f - 5) >= abs(r - 3):
            expected.add(frozenset({name, f"{name[0]}{r + 2}"}))
        if f + 2 <= 9 and abs(r - 5) >= abs(f - 5) and abs(r - 5) >= abs(f - 3):
            expected.add(frozenset({name, f"{'abcdefghi'[f + 1]}{r}"}))
    edges = {frozenset(CLASH.nodes[i] for i in e) for e in CLASH.edges()}
    orthogonal = {e for e in edges if len({n[0] for n in e}) == 1 or len({n[1] for n in e}) == 1}
    assert orthogonal == expected
    assert len(expected) == 40


def test_node_degrees_corners_3_outer_ring_and_centre_4_all_else_6() -> None:
    degree = {name: len(edges) for name, edges in board_adjacency().items()}
    corners = {"a1", "i1", "a9", "i9"}
    ring = {n for n in CLASH.nodes if n[0] in "ai" or n[1] in "19"} - corners
    assert len(ring) == 12
    assert {n for n, d in degree.items() if d == 3} == corners
    assert {n for n, d in degree.items() if d == 4} == ring | {"e5"}
    assert {n for n, d in degree.items() if d == 6} == set(CLASH.nodes) - corners - ring - {"e5"}


def test_e5_has_only_its_four_diagonal_edges() -> None:
    assert board_adjacency()["e5"] == {"NE": "f6", "SE": "f4", "SW": "d4", "NW": "d6"}


def test_straight_line_continues_only_while_its_edges_exist() -> None:
    def ray(node: str, direction: str) -> list[str]:
        return [CLASH.nodes[i] for i in CLASH.ray(CLASH.index[node], direction)]

    assert ray("c5", "S") == ["c3"]  # the line c3-c1 is not drawn
    assert ray("c5", "N") == ["c7"]
    assert ray("a1", "E") == ["c1", "e1", "g1", "i1"]
    assert ray("a1", "NE") == ["b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9"]
    assert ray("e3", "N") == []
    assert ray("a5", "S") == ["a3", "a1"]


# --- §3 set-up ------------------------------------------------------------------------------

START_MOVES = {
    # Commanders: a1 steps to a3; the others are blocked and can only transform
    "a1-a3/B", "a1-a3/F", "a1=B", "a1=F", "c1=B", "c1=F", "e1=B", "e1=F", "g1=B", "g1=F",
    # Factors
    "b2-a3/D", "b2-a3/H", "b2-b4/D", "b2-b4/H", "b2=D", "b2=H", "d2=D", "d2=H",
    "f2=D", "f2=H", "h2-h4/D", "h2-h4/H", "h2=D", "h2=H",
    # Droids: three forward steps each, and captures of their own pieces beside and behind
    "c3-b4", "c3-c5", "c3-d4", "c3xb2", "c3xd2", "c3xe3",
    "g3-f4", "g3-g5", "g3-h4", "g3xe3", "g3xf2", "g3xh2",
    # Hawks: forward steps, and withdrawals away from their own pieces
    "e3-d4", "e3-f4", "e3-d4xf2", "e3-f4xd2", "i3-h4", "i3-i5", "i3-i5xi1",
    # the Brute captures its own neighbours
    "i1xg1", "i1xh2", "i1xi3",
}


def test_start_position_string_round_trips(clash: Variant) -> None:
    start = clash.start_position()
    assert clash.start_fen == START
    assert clash.format_position(start) == START
    assert clash.parse_position(START) == start
    assert (start.side, start.fullmove) == (0, 1)


def test_start_position_set_up(clash: Variant) -> None:
    start = clash.start_position()
    white = {"a1": "C", "c1": "C", "e1": "C", "g1": "C", "i1": "B", "b2": "F", "d2": "F",
             "f2": "F", "h2": "F", "c3": "D", "g3": "D", "e3": "H", "i3": "H"}
    black = {"c9": "C", "e9": "C", "g9": "C", "i9": "C", "a9": "B", "b8": "F", "d8": "F",
             "f8": "F", "h8": "F", "c7": "D", "g7": "D", "a7": "H", "e7": "H"}
    for node in CLASH.nodes:
        expected = ()
        if node in white:
            expected = (Piece(white[node], 0),)
        elif node in black:
            expected = (Piece(black[node], 1),)
        assert clash.pieces_at(start, node) == expected, node


def test_start_position_legal_moves_are_exactly_these_46(clash: Variant, texts: Texts) -> None:
    start = clash.start_position()
    assert len(START_MOVES) == 46
    assert texts(start) == START_MOVES
    assert len(clash.legal_moves(start)) == 46
    assert clash.count_moves(start) == 46


def half_turn(text: str) -> str:
    """A move text with every node turned half a turn about e5 (a1 <-> i9, b2 <-> h8)."""
    files = "abcdefghi"
    return re.sub(r"[a-i][1-9]",
                  lambda m: f"{files[8 - files.index(m.group()[0])]}{10 - int(m.group()[1])}",
                  text)


def test_black_start_moves_mirror_white(clash: Variant, texts: Texts, play: Play) -> None:
    # the set-up is point-symmetric, and so are the board and the sides' directions
    after = play(clash.start_position(), "a1=F")
    assert texts(after) == {half_turn(t) for t in START_MOVES}


# --- §4 Commander ---------------------------------------------------------------------------


def test_commander_steps_forward_leaving_a_factor_or_brute_or_transforms(
        board: Board, texts: Texts) -> None:
    # White forward from d4: N d6, NE e5, NW c5; e5 is occupied, sideways/back are empty
    position = board({"d4": "C", "e5": "d", "i9": "c"})
    assert texts(position, "d4") == {"d4-d6/B", "d4-d6/F", "d4-c5/B", "d4-c5/F", "d4=B", "d4=F"}


def test_black_commander_steps_forward_towards_rank_1(board: Board, texts: Texts) -> None:
    # Black forward from f6: S f4, SE g5, SW e5
    position = board({"f6": "c", "a1": "C"}, side="b")
    assert texts(position, "f6") == {"f6-f4/B", "f6-f4/F", "f6-g5/B", "f6-g5/F",
                                     "f6-e5/B", "f6-e5/F", "f6=B", "f6=F"}


def test_commander_step_leaves_a_new_piece_of_the_movers_colour(
        clash: Variant, board: Board, play: Play) -> None:
    after = play(board({"d4": "C", "i9": "c"}), "d4-d6/B")
    assert cell(clash, after, "d4") == "B"
    assert cell(clash, after, "d6") == "C"
    after = play(board({"f6": "c", "a1": "C"}, side="b"), "f6-e5/F")
    assert cell(clash, after, "f6") == "f"
    assert cell(clash, after, "e5") == "c"


def test_commander_transforms_in_place_as_a_whole_turn(
        clash: Variant, board: Board, play: Play) -> None:
    before = board({"d4": "C", "e1": "C", "i9": "c"})
    after = play(before, "d4=F")
    assert cell(clash, after, "d4") == "F"
    assert (after.side, after.fullmove) == (1, 1)
    assert [n for n in CLASH.nodes if cell(clash, after, n) != cell(clash, before, n)] == ["d4"]


def test_blocked_commander_can_still_transform_so_there_is_no_stalemate(
        board: Board, texts: Texts) -> None:
    position = board({"a1": "C", "a3": "d", "b2": "D", "c1": "B", "i9": "c"})
    assert texts(position, "a1") == {"a1=B", "a1=F"}


def test_commander_never_captures(board: Board, texts: Texts) -> None:
    # every neighbour of d4 is occupied: no step, no capture, only the transformations
    neighbours = {"d6": "d", "e5": "d", "f4": "d", "e3": "d", "c3": "d", "c5": "d"}
    position = board({"d4": "C", "i9": "c", **neighbours})
    assert texts(position, "d4") == {"d4=B", "d4=F"}


# --- §4 Factor ------------------------------------------------------------------------------


def test_factor_steps_forward_leaving_a_droid_or_hawk_or_transforms(
        board: Board, texts: Texts) -> None:
    # White forward from d4: N d6, NE e5, NW c5 (d6 occupied); f4, e3, c3 are not forward
    position = board({"d4": "F", "d6": "D", "a1": "C", "i9": "c"})
    assert texts(position, "d4") == {"d4-e5/D", "d4-e5/H", "d4-c5/D", "d4-c5/H", "d4=D", "d4=H"}


def test_factor_never_captures(board: Board, texts: Texts) -> None:
    neighbours = {"d6": "d", "e5": "d", "f4": "d", "e3": "d", "c3": "d", "c5": "d"}
    position = board({"d4": "F", "a1": "C", "i9": "c", **neighbours})
    assert texts(position, "d4") == {"d4=D", "d4=H"}


def test_factor_step_and_transformation_results(clash: Variant, board: Board, play: Play) -> None:
    position = board({"d4": "F", "a1": "C", "i9": "c"})
    after = play(position, "d4-c5/H")
    assert (cell(clash, after, "d4"), cell(clash, after, "c5")) == ("H", "F")
    after = play(position, "d4=D")
    assert cell(clash, after, "d4") == "D"


# --- §4 Droid -------------------------------------------------------------------------------


def test_droid_steps_forward_to_empty_nodes(board: Board, texts: Texts) -> None:
    position = board({"d4": "D", "a1": "C", "i9": "c"})
    assert texts(position, "d4") == {"d4-d6", "d4-e5", "d4-c5"}


def test_droid_captures_sideways_and_backwards_either_colour_never_forward(
        board: Board, texts: Texts) -> None:
    # forward d6 e5 c5 occupied (no capture there); sideways f4 and backwards e3 c3 captured
    neighbours = {"d6": "d", "e5": "d", "c5": "D", "f4": "d", "e3": "D", "c3": "d"}
    position = board({"d4": "D", "a1": "C", "i9": "c", **neighbours})
    assert texts(position, "d4") == {"d4xf4", "d4xe3", "d4xc3"}


def test_droid_does_not_move_sideways_or_backwards_without_capturing(
        board: Board, texts: Texts) -> None:
    # forward nodes blocked, the rest empty: no move at all
    position = board({"d4": "D", "d6": "d", "e5": "d", "c5": "d", "a1": "C", "i9": "c"})
    assert texts(position, "d4") == set()


def test_black_droid_forward_is_south_and_backwards_is_north(board: Board, texts: Texts) -> None:
    position = board({"d6": "d", "e7": "D", "c7": "d", "e5": "d", "a1": "C", "i9": "c"},
                     side="b")
    # forward: S d4, SE e5 (occupied), SW c5; sideways only E f6 (empty: no move);
    # backwards NE e7 and NW c7 (occupied, either colour), N has no line (d6-d8 not drawn)
    assert texts(position, "d6") == {"d6-d4", "d6-c5", "d6xe7", "d6xc7"}


def test_droid_becomes_a_hawk_after_moving_or_capturing(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"d4": "D", "e3": "d", "a1": "C", "i9": "c"})
    assert cell(clash, play(position, "d4-d6"), "d6") == "H"
    after = play(position, "d4xe3")
    assert (cell(clash, after, "d4"), cell(clash, after, "e3")) == (None, "H")


# --- §4 Hawk --------------------------------------------------------------------------------


def test_hawk_steps_forward_to_an_empty_node_and_becomes_a_droid(
        clash: Variant, board: Board, texts: Texts, play: Play) -> None:
    position = board({"d4": "H", "a1": "C", "i9": "c"})
    assert texts(position, "d4") == {"d4-d6", "d4-e5", "d4-c5"}
    assert cell(clash, play(position, "d4-e5"), "e5") == "D"


def test_hawk_jumps_over_a_piece_in_any_direction_onto_an_empty_node(
        clash: Variant, board: Board) -> None:
    # e5 has four lines: over f6 to g7 (forward), over d4 to c3 (backwards, own piece);
    # no jump over d6 because c7 is occupied, nothing to jump on f4
    position = board({"e5": "H", "f6": "d", "d4": "D", "d6": "d", "c7": "d",
                      "a1": "C", "i9": "c"})
    assert captures_by_text(clash, position, "e5") == {
        "e5-g7xf6": {"f6"}, "e5-c3xd4": {"d4"},
        "e5-f4xd6": {"d6"},  # withdrawal: away from d6 along the line d6-e5-f4
    }


def test_hawk_jump_needs_a_straight_line(board: Board, texts: Texts) -> None:
    # c5-c3 is a line but c3-c1 is not: no jump from c5 over c3 to c1
    position = board({"c5": "H", "c3": "d", "c7": "d", "d6": "d", "b6": "d",
                      "a1": "C", "i9": "c"})
    # c5's lines: N c7 (c7-c9 not drawn), NE d6-e7, SE d4-e3, S c3, SW b4-a3, NW b6-a7
    assert texts(position, "c5") == {
        "c5-e7xd6", "c5-a7xb6",  # jumps over d6 and b6
        "c5-d4xb6",  # withdrawal away from b6 (line b6-c5-d4)
        "c5-b4xd6",  # withdrawal away from d6 (line d6-c5-b4)
    }


def test_hawk_approach_captures_the_piece_beyond_the_empty_node(
        clash: Variant, board: Board) -> None:
    # from a1: north to a3 taking a5, and sideways to c1 taking its own Commander on e1
    # (sideways: no plain step); nothing lies beyond b2 on the diagonal
    position = board({"a1": "H", "a5": "d", "e1": "C", "i9": "c"})
    assert captures_by_text(clash, position, "a1") == {
        "a1-a3": set(), "a1-a3xa5": {"a5"}, "a1-c1xe1": {"e1"}, "a1-b2": set()}


def test_hawk_withdraw_captures_the_piece_it_moves_away_from(
        clash: Variant, board: Board) -> None:
    # from a5, moving backwards to a3 away from a7 takes a7 (line a7-a5-a3); a7 can also
    # be jumped over onto a9
    position = board({"a5": "H", "a7": "d", "e1": "C", "i9": "c"})
    assert captures_by_text(clash, position, "a5") == {
        "a5-a3xa7": {"a7"}, "a5-a9xa7": {"a7"}, "a5-b6": set()}


def test_hawk_approach_and_withdraw_to_one_node_are_two_moves_plus_the_quiet_one(
        clash: Variant, board: Board) -> None:
    # e5 to f6: approach takes g7, withdrawal takes d4, and f6 is forward so a plain step
    # too; c3 blocks the jump over d4
    position = board({"e5": "H", "g7": "d", "d4": "d", "c3": "d", "a1": "C", "i9": "c"})
    assert captures_by_text(clash, position, "e5") == {
        "e5-f6": set(), "e5-f6xg7": {"g7"}, "e5-f6xd4": {"d4"}, "e5-d6": set()}


def test_hawk_does_not_move_sideways_or_backwards_without_capturing(
        board: Board, texts: Texts) -> None:
    # on i9 a White Hawk has no forward node; i7, h8 and g9 are empty but nothing is taken
    position = board({"i9": "H", "a1": "C", "a9": "c"})
    assert texts(position, "i9") == set()
    # on a1 its forward nodes are blocked (nothing to jump onto); c1 is empty but sideways
    position = board({"a1": "H", "a3": "d", "a5": "d", "b2": "d", "c3": "d",
                      "i1": "C", "i9": "c"})
    assert texts(position, "a1") == set()


def test_hawk_after_capturing_becomes_a_droid(clash: Variant, board: Board, play: Play) -> None:
    position = board({"e5": "H", "g7": "d", "d4": "d", "c3": "d", "a1": "C", "i9": "c"})
    after = play(position, "e5-f6xd4")
    assert {n: cell(clash, after, n) for n in ("e5", "f6", "d4", "g7")} == {
        "e5": None, "f6": "D", "d4": None, "g7": "d"}
    after = play(position, "e5-f6xg7")
    assert {n: cell(clash, after, n) for n in ("e5", "f6", "d4", "g7")} == {
        "e5": None, "f6": "D", "d4": "d", "g7": None}


# --- §4 Brute -------------------------------------------------------------------------------


def test_brute_captures_adjacent_pieces_of_either_colour(board: Board, texts: Texts) -> None:
    position = board({"a1": "B", "a3": "d", "b2": "F", "c1": "C", "i9": "c"})
    assert texts(position, "a1") == {"a1xa3", "a1xb2", "a1xc1"}


def test_brute_captures_two_steps_away_through_an_empty_node_on_a_bent_path(
        board: Board, texts: Texts) -> None:
    # a1's neighbours: a3 and c1 empty, b2 occupied. Through a3: a5, b4 (bent); through
    # c1: e1, d2 (bent). c3 is only behind the occupied b2, so it is out of reach.
    position = board({"a1": "B", "b2": "F", "a5": "d", "b4": "d", "e1": "C", "c3": "d",
                      "i9": "c"})
    assert texts(position, "a1") == {"a1xb2", "a1xa5", "a1xb4", "a1xe1"}


def test_brute_capture_reached_by_several_paths_is_one_move(
        clash: Variant, board: Board, texts: Texts) -> None:
    # e7 is reached from e5 through d6 or through f6; d6 is also captured directly
    position = board({"e5": "B", "e7": "d", "a1": "C", "i9": "c"})
    assert texts(position, "e5") == {"e5xe7"}
    position = board({"e5": "B", "e7": "d", "d6": "d", "a1": "C", "i9": "c"})
    moves = [m for m in clash.legal_moves(position) if m.origin == "e5"]
    assert sorted(clash.format_move(position, m) for m in moves) == ["e5xd6", "e5xe7"]


def test_brute_never_moves_without_capturing(board: Board, texts: Texts) -> None:
    position = board({"e5": "B", "a1": "C", "i9": "c"})
    assert texts(position, "e5") == set()


def test_brute_never_captures_itself(board: Board, texts: Texts) -> None:
    # Decision: a two-step path back to its own node is not a capture
    position = board({"e5": "B", "c3": "d", "a1": "C", "i9": "c"})
    assert texts(position, "e5") == {"e5xc3"}


def test_brute_capture_result(clash: Variant, board: Board, play: Play) -> None:
    after = play(board({"a1": "B", "a5": "d", "e1": "C", "i9": "c"}), "a1xa5")
    assert (cell(clash, after, "a1"), cell(clash, after, "a3"), cell(clash, after, "a5")) == (
        None, None, "B")


# --- §4 Slicer ------------------------------------------------------------------------------


def test_slicer_slides_capturing_everything_it_passes_and_may_stop_beyond(
        clash: Variant, board: Board) -> None:
    # East: its own Factor on c1 and a Black piece on g1; NE: a Black piece on e5; North:
    # nothing, so no move that way; it may not stop on b2, c3 or d4 (nothing captured yet)
    position = board({"a1": "S", "c1": "F", "g1": "b", "e5": "d", "i3": "C", "c9": "c"})
    assert captures_by_text(clash, position, "a1") == {
        "a1-c1": {"c1"}, "a1-e1": {"c1"}, "a1-g1": {"c1", "g1"}, "a1-i1": {"c1", "g1"},
        "a1-e5": {"e5"}, "a1-f6": {"e5"}, "a1-g7": {"e5"}, "a1-h8": {"e5"}, "a1-i9": {"e5"},
    }


def test_slicer_must_capture_at_least_one_piece(board: Board, texts: Texts) -> None:
    position = board({"e5": "S", "c1": "C", "c9": "c"})  # e5's lines are its diagonals
    assert texts(position, "e5") == set()


def test_slicer_capture_result(clash: Variant, board: Board, play: Play) -> None:
    position = board({"a1": "S", "c1": "F", "g1": "b", "i3": "C", "c9": "c"})
    after = play(position, "a1-i1")
    assert [cell(clash, after, n) for n in ("a1", "c1", "e1", "g1", "i1")] == [
        None, None, None, None, "S"]


# --- §4 captures of one's own pieces, and moves as values -----------------------------------


def test_every_capturing_piece_may_capture_its_own_pieces(
        clash: Variant, move: Find, play: Play) -> None:
    start = clash.start_position()
    assert move(start, "c3xd2").captures == ("d2",)  # Droid takes its own Factor
    assert move(start, "i1xg1").captures == ("g1",)  # Brute takes its own Commander
    assert move(start, "i3-i5xi1").captures == ("i1",)  # Hawk takes its own Brute
    after = play(start, "c3xd2")
    assert clash.format_position(after) == "bcccc/ffff/hdhd1/4/5/4/2HDH/FHFF/CCCCB b 1"


def test_moves_are_identified_by_their_effect(clash: Variant) -> None:
    moves = clash.legal_moves(clash.start_position())
    assert len(set(moves)) == len(moves)
    i1xg1 = next(m for m in moves if m.origin == "i1" and m.target == "g1")
    assert i1xg1 == Move.single("i1", "g1", ("g1",), unit="B")


# --- §5 promotion ---------------------------------------------------------------------------


def test_droid_reaching_the_opponents_back_row_becomes_a_slicer_not_a_hawk(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"b8": "D", "a1": "C", "i9": "c"})
    assert cell(clash, play(position, "b8-a9"), "a9") == "S"
    assert cell(clash, play(position, "b8-c9"), "c9") == "S"


def test_black_droid_reaching_rank_1_becomes_a_slicer(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"b2": "d", "e1": "C", "i9": "c"}, side="b")
    after = play(position, "b2-a1")
    assert (cell(clash, after, "a1"), cell(clash, after, "b2")) == ("s", None)


def test_brute_capturing_onto_the_opponents_back_row_becomes_a_slicer(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"h8": "B", "g9": "f", "a1": "C", "i9": "c"})
    assert cell(clash, play(position, "h8xg9"), "g9") == "S"


def test_commander_reaching_the_opponents_back_row_becomes_a_slicer_leaving_its_piece(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"h8": "C", "a1": "C", "a9": "c"})
    after = play(position, "h8-i9/F")
    assert (cell(clash, after, "h8"), cell(clash, after, "i9")) == ("F", "S")
    assert not clash.outcome(after).is_over  # White still has the Commander on a1


def test_factor_reaching_the_opponents_back_row_becomes_a_slicer_its_left_piece_does_not(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"b8": "F", "a1": "C", "i9": "c"})
    after = play(position, "b8-a9/D")
    assert (cell(clash, after, "b8"), cell(clash, after, "a9")) == ("D", "S")


def test_in_place_transformation_on_the_opponents_back_row_does_not_promote(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"e9": "C", "a1": "C", "i9": "c"})
    assert cell(clash, play(position, "e9=F"), "e9") == "F"
    position = board({"e9": "F", "a1": "C", "i9": "c"})
    assert cell(clash, play(position, "e9=D"), "e9") == "D"


def test_slicer_ending_on_the_opponents_back_row_stays_a_slicer(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"a1": "S", "a5": "d", "e1": "C", "i9": "c"})
    assert cell(clash, play(position, "a1-a9"), "a9") == "S"


def test_no_promotion_on_ones_own_back_row(clash: Variant, board: Board, play: Play) -> None:
    position = board({"e3": "H", "d2": "d", "a1": "C", "i9": "c"})
    after = play(position, "e3-c1xd2")  # a White Hawk jumps backwards onto rank 1
    assert cell(clash, after, "c1") == "D"


# --- §6 end of the game ---------------------------------------------------------------------


def test_capturing_the_opponents_last_commander_wins(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"b2": "D", "a1": "c", "e1": "C"})
    after = play(position, "b2xa1")
    outcome = clash.outcome(after)
    assert (outcome.status, outcome.winner, outcome.score) == ("win", 0, "1-0")
    assert outcome.reason == "Black has no Commander left"
    assert clash.legal_moves(after) == []
    assert clash.count_moves(after) == 0


def test_the_game_goes_on_while_both_sides_have_a_commander(
        clash: Variant, board: Board) -> None:
    assert clash.outcome(clash.start_position()).status == "ongoing"
    assert clash.outcome(board({"a1": "C", "i9": "c"})).status == "ongoing"


def test_leaving_both_sides_without_commanders_wins_for_the_mover(
        clash: Variant, board: Board, play: Play) -> None:
    # Decision (§6): a Black Slicer takes White's and its own last Commander at once
    position = board({"i1": "s", "e1": "c", "c1": "C", "g9": "D"}, side="b")
    after = play(position, "i1-a1")
    outcome = clash.outcome(after)
    assert (outcome.status, outcome.winner, outcome.score) == ("win", 1, "0-1")
    assert "either side" in outcome.reason
    assert clash.legal_moves(after) == []


def test_capturing_ones_own_last_commander_loses(
        clash: Variant, board: Board, play: Play) -> None:
    position = board({"c3": "D", "e3": "C", "i9": "c"})
    after = play(position, "c3xe3")
    outcome = clash.outcome(after)
    assert (outcome.winner, outcome.score, outcome.reason) == (
        1, "0-1", "White has no Commander left")


def test_transforming_ones_last_commander_loses(
        clash: Variant, board: Board, play: Play) -> None:
    after = play(board({"a1": "C", "i9": "c"}), "a1=B")
    assert (clash.outcome(after).winner, clash.outcome(after).score) == (1, "0-1")
    after = play(board({"a1": "C", "i9": "c"}, side="b"), "i9=F")
    assert (clash.outcome(after).winner, clash.outcome(after).score) == (0, "1-0")


def test_promoting_ones_last_commander_loses(clash: Variant, board: Board, play: Play) -> None:
    after = play(board({"h8": "C", "a9": "c"}), "h8-i9/B")
    assert cell(clash, after, "i9") == "S"
    assert (clash.outcome(after).winner, clash.outcome(after).score) == (1, "0-1")


def test_a_finished_game_has_no_legal_moves_even_for_the_side_that_still_could(
        clash: Variant, board: Board) -> None:
    # Black to move with pieces on the board, but White has no Commander: the game is over
    position = board({"i9": "c", "e5": "d", "a1": "B"}, side="b")
    assert clash.outcome(position).winner == 1
    assert clash.legal_moves(position) == []
    assert clash.perft(position, 1) == 0


def test_no_draw_by_agreement_in_clash(clash: Variant) -> None:
    assert clash.draw_by_agreement is False


def test_move_number_increments_after_black_moves(
        clash: Variant, play: Play) -> None:
    position = clash.start_position()
    sequence = [("c3-c5", 1, 1), ("c7-d6", 0, 2), ("g3-g5", 1, 2), ("g7-h6", 0, 3)]
    texts = []
    for text, side, number in sequence:
        position = play(position, text)
        texts.append(text)
        assert (position.side, position.fullmove) == (side, number), texts
    assert clash.format_position(position).endswith(" w 3")


# --- §8 worked examples ---------------------------------------------------------------------


def test_example_1_black_factor_transforms_or_steps_leaving_a_droid_or_hawk(
        board: Board, texts: Texts) -> None:
    # b4 holds a White piece, so a3 is the Factor's only forward node
    position = board({"a5": "f", "b4": "D", "e1": "C", "i9": "c"}, side="b")
    assert texts(position, "a5") == {"a5=D", "a5=H", "a5-a3/D", "a5-a3/H"}
    # with b4 empty the diagonal step (SE, forward for Black) is there too
    position = board({"a5": "f", "e1": "C", "i9": "c"}, side="b")
    assert texts(position, "a5") == {"a5=D", "a5=H", "a5-a3/D", "a5-a3/H",
                                     "a5-b4/D", "a5-b4/H"}


def test_example_2_white_droid_captures_backwards_and_becomes_a_hawk(
        clash: Variant, board: Board, texts: Texts, play: Play) -> None:
    position = board({"b4": "D", "a3": "d", "e1": "C", "i9": "c"})
    assert texts(position, "b4") == {"b4xa3", "b4-b6", "b4-c5", "b4-a5"}
    after = play(position, "b4xa3")
    assert (cell(clash, after, "b4"), cell(clash, after, "a3")) == (None, "H")


def test_example_3_hawk_no_capture_approach_and_jump(
        clash: Variant, board: Board, texts: Texts, play: Play) -> None:
    position = board({"a5": "h", "a3": "D", "c3": "D", "e1": "C", "i9": "c"}, side="b")
    assert texts(position, "a5") == {
        "a5-b4",  # SE is forward for Black: a plain step
        "a5-b4xc3",  # approach along a5-b4-c3
        "a5-a1xa3",  # jump over a3
        "a5-a7xa3",  # withdrawal along a3-a5-a7 (not named in the seed, but the rules allow it)
    }
    assert cell(clash, play(position, "a5-b4"), "b4") == "d"
    after = play(position, "a5-b4xc3")
    assert (cell(clash, after, "b4"), cell(clash, after, "c3")) == ("d", None)
    after = play(position, "a5-a1xa3")  # lands on rank 1: a Slicer, not a Droid
    assert (cell(clash, after, "a1"), cell(clash, after, "a3")) == ("s", None)


def test_example_4_droid_captures_slicer_on_its_own_back_row_and_becomes_a_hawk(
        clash: Variant, board: Board, texts: Texts, play: Play) -> None:
    position = board({"a1": "s", "b2": "D", "c1": "D", "e1": "C", "i9": "c"})
    assert texts(position, "b2") == {"b2xa1", "b2xc1", "b2-b4", "b2-c3", "b2-a3"}
    assert texts(position, "c1") == {"c1xa1", "c1xe1", "c1-d2"}
    assert cell(clash, play(position, "b2xa1"), "a1") == "H"
    assert cell(clash, play(position, "c1xa1"), "a1") == "H"


def test_example_5_commander_promotes_then_the_slicer_sweeps_rank_1(
        clash: Variant, board: Board, texts: Texts, play: Play) -> None:
    position = board({"i3": "c", "e9": "c", "a1": "C", "c1": "C", "e1": "C", "g1": "C"},
                     side="b", number=20)
    position = play(position, "i3-i1/F")
    assert (cell(clash, position, "i3"), cell(clash, position, "i1")) == ("f", "s")
    assert texts(position, "g1") == {"g1-f2/B", "g1-f2/F", "g1-h2/B", "g1-h2/F", "g1=B", "g1=F"}
    position = play(position, "g1-f2/B")
    assert (cell(clash, position, "g1"), cell(clash, position, "f2")) == ("B", "C")
    # west along rank 1; north through its own Factor on i3; nothing on the diagonal
    assert texts(position, "i1") == {"i1-g1", "i1-e1", "i1-c1", "i1-a1",
                                     "i1-i3", "i1-i5", "i1-i7", "i1-i9"}
    assert set(clash.parse_move(position, "i1-a1").captures) == {"g1", "e1", "c1", "a1"}
    position = play(position, "i1-a1")
    assert clash.format_position(position) == "2c2/4/5/4/5/4/4f/2C1/s4 w 22"
    assert not clash.outcome(position).is_over  # White's Commander on f2 lives on
