"""Clash of Command notation (rules §7): canonical move texts, every accepted alternative,
the errors a player can cause, and position strings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    Position,
    PositionError,
    Variant,
)

Board = Callable[..., Position]
Texts = Callable[..., set[str]]
Find = Callable[[Position, str], Move]

START = "bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1"


def parse_error(clash: Variant, position: Position, text: str) -> EngineError:
    with pytest.raises(EngineError) as caught:
        clash.parse_move(position, text)
    return caught.value


# positions of the rule file's notation table and worked examples
@pytest.fixture
def example_3(board: Board) -> Position:
    """A Black Hawk on a5, White pieces on a3 and c3; b4 and a1 empty."""
    return board({"a5": "h", "a3": "D", "c3": "D", "e1": "C", "i9": "c"}, side="b")


@pytest.fixture
def example_5(board: Board) -> Position:
    """Example 5 after Black's i3-i1/F: White to move, g1 may step to f2."""
    return board({"i3": "f", "i1": "s", "e9": "c", "a1": "C", "c1": "C", "e1": "C",
                  "g1": "C"})


@pytest.fixture
def sweep(board: Board) -> Position:
    """Example 5 after White's g1-f2/B: the Black Slicer on i1 faces rank 1."""
    return board({"i3": "f", "i1": "s", "e9": "c", "a1": "C", "c1": "C", "e1": "C",
                  "g1": "B", "f2": "C"}, side="b", number=2)


@pytest.fixture
def black_factor(board: Board) -> Position:
    """Example 1: a Black Factor on a5."""
    return board({"a5": "f", "b4": "D", "e1": "C", "i9": "c"}, side="b")


@pytest.fixture
def white_droid(board: Board) -> Position:
    """Example 2: a White Droid on b4 beside a Black piece on a3."""
    return board({"b4": "D", "a3": "d", "e1": "C", "i9": "c"})


@pytest.fixture
def two_ways(board: Board) -> Position:
    """A White Hawk on e5 that can reach d4 by approach (c3) or by withdrawal (f6)."""
    return board({"e5": "H", "c3": "d", "f6": "d", "g7": "d", "a1": "C", "i9": "c"})


# --- canonical forms ------------------------------------------------------------------------


@pytest.mark.parametrize(("fixture", "text", "captures"), [
    ("start", "c3-d4", ()),  # plain step
    ("example_5", "g1-f2/B", ()),  # step leaving a piece
    ("black_factor", "a5=D", ()),  # transformation in place
    ("white_droid", "b4xa3", ("a3",)),  # Droid capture
    ("start", "i1xg1", ("g1",)),  # Brute capture
    ("example_3", "a5-a1xa3", ("a3",)),  # Hawk jump
    ("example_3", "a5-b4xc3", ("c3",)),  # Hawk approach
    ("start", "i3-i5xi1", ("i1",)),  # Hawk withdrawal
    ("sweep", "i1-a1", ("g1", "e1", "c1", "a1")),  # Slicer
])
def test_canonical_form_of_each_move_kind(
        request: pytest.FixtureRequest, clash: Variant, texts: Texts, move: Find,
        fixture: str, text: str, captures: tuple[str, ...]) -> None:
    position = (clash.start_position() if fixture == "start"
                else request.getfixturevalue(fixture))
    assert text in texts(position)
    found = move(position, text)
    assert found.captures == captures
    assert clash.parse_move(position, text) == found
    assert clash.format_move(position, found) == text


def test_canonical_withdrawal_b2_a1xc3(board: Board, texts: Texts) -> None:
    position = board({"b2": "h", "c3": "D", "e1": "C", "i9": "c"}, side="b")
    # away from c3 onto a1 (forward for Black); c3 may also be jumped onto d4
    assert texts(position, "b2") == {"b2-a1xc3", "b2-a1", "b2-c1", "b2-d4xc3"}


def test_leave_behind_and_transform_moves_name_their_piece(
        example_5: Position, move: Find) -> None:
    step = move(example_5, "g1-f2/B").steps[0]
    assert (step.origin, step.target, step.drop, step.becomes, step.unit) == (
        "g1", "f2", "B", "", "C")
    step = move(example_5, "g1=F").steps[0]
    assert (step.origin, step.target, step.drop, step.becomes) == ("g1", "g1", "", "F")


# --- accepted alternatives ------------------------------------------------------------------


@pytest.mark.parametrize(("fixture", "canonical", "alternatives"), [
    ("start", "c3-d4", ["c3d4", "Dc3-d4", "dc3-d4", "D c3-d4", "Droid c3-d4", "C3-D4",
                        " c3 - d4 ", "c3 d4", "c3\u00a0-\u00a0d4"]),
    ("example_5", "g1-f2/B", ["g1-f2 B", "g1-f2, Brute on g1", "g1-f2/b", "g1-f2 brute",
                              "G1-F2/B", "g1f2b", "Cg1-f2/B", "g1-f2, brute on G1",
                              "g1-f2=B", "g1-f2:B"]),
    ("black_factor", "a5=D", ["a5 D", "a5=Droid", "a5 = d", "A5=D", "a5/D", "fa5=D"]),
    ("black_factor", "a5-a3/H", ["a5-a3 Hawk", "a5a3h", "a5-a3, Hawk on a5"]),
    ("white_droid", "b4xa3", ["b4-a3", "B4XA3", "b4 x a3", "Db4xa3", "b4a3"]),
    ("start", "i1xg1", ["i1-g1", "Bi1xg1", "Brute i1 x g1"]),
    ("example_3", "a5-a1xa3", ["a5xa3-a1", "a5 - a1 x a3", "a5-a1", "A5-A1XA3", "ha5xa3-a1",
                               "a5 x a3 - a1"]),
    ("example_3", "a5-b4xc3", ["a5-b4 x c3", "a5xc3-b4", "A5B4XC3"]),
    ("start", "i3-i5xi1", ["i3xi1-i5", "I3-I5XI1"]),
    ("sweep", "i1-a1", ["i1xa1xc1xe1xg1", "i1-a1xc1", "i1-a1xg1xe1xc1", "i1 x a1",
                        "s i1-a1", "Slicer i1-a1", "I1-A1"]),
])
def test_accepted_forms_parse_to_the_canonical_move(
        request: pytest.FixtureRequest, clash: Variant, move: Find,
        fixture: str, canonical: str, alternatives: list[str]) -> None:
    position = (clash.start_position() if fixture == "start"
                else request.getfixturevalue(fixture))
    expected = move(position, canonical)
    for text in alternatives:
        assert clash.parse_move(position, text) == expected, text


def test_capture_may_be_omitted_when_only_one_move_fits(clash: Variant, board: Board) -> None:
    # a White Hawk on a1: sideways to c1 only by approaching its own Commander on e1
    position = board({"a1": "H", "a5": "d", "e1": "C", "i9": "c"})
    assert clash.format_move(position, clash.parse_move(position, "a1-c1")) == "a1-c1xe1"


def test_exact_text_wins_a5_b4_is_the_plain_hawk_step(clash: Variant,
                                                     example_3: Position) -> None:
    quiet = clash.parse_move(example_3, "a5-b4")
    assert quiet.captures == ()
    assert clash.format_move(example_3, quiet) == "a5-b4"
    approach = clash.parse_move(example_3, "a5-b4xc3")
    assert approach.captures == ("c3",) and approach != quiet


def test_exact_text_wins_the_plain_step_beside_approach_and_withdrawal(
        clash: Variant, board: Board) -> None:
    position = board({"e5": "H", "g7": "d", "d4": "d", "c3": "d", "a1": "C", "i9": "c"})
    assert clash.parse_move(position, "e5-f6").captures == ()
    assert clash.parse_move(position, "e5-f6xg7").captures == ("g7",)
    assert clash.parse_move(position, "e5xd4-f6").captures == ("d4",)


def test_seed_slicer_form_names_the_destination_first(clash: Variant, sweep: Position) -> None:
    # the first node after x is where the Slicer stops: i1xg1xe1 would stop on g1
    assert clash.format_move(sweep, clash.parse_move(sweep, "i1xe1xg1")) == "i1-e1"
    assert clash.format_move(sweep, clash.parse_move(sweep, "i1xg1")) == "i1-g1"
    error = parse_error(clash, sweep, "i1xg1xe1xc1xa1")
    assert str(error) == ("'i1xg1xe1xc1xa1': the Slicer going from i1 to g1 captures g1, "
                          "not a1, c1 or e1")


def test_seed_slicer_form_may_stop_on_an_empty_node(clash: Variant, board: Board) -> None:
    position = board({"i1": "s", "e1": "C", "c1": "C", "i9": "c"}, side="b")
    move = clash.parse_move(position, "i1xa1xc1xe1")
    assert (move.target, set(move.captures)) == ("a1", {"c1", "e1"})


# --- ambiguous input ------------------------------------------------------------------------


def test_step_without_the_left_piece_is_ambiguous(clash: Variant, example_5: Position) -> None:
    error = parse_error(clash, example_5, "g1-f2")
    assert isinstance(error, AmbiguousMoveError)
    assert error.candidates == ("g1-f2/B", "g1-f2/F")
    assert str(error) == "'g1-f2': ambiguous: it could be g1-f2/B or g1-f2/F"


def test_bare_node_of_a_commander_or_factor_is_a_syntax_error(
        clash: Variant, black_factor: Position) -> None:
    error = parse_error(clash, black_factor, "a5")
    assert isinstance(error, MoveSyntaxError)
    assert str(error) == "'a5': it names no destination and no transformation"


def test_hawk_approach_and_withdrawal_to_one_node_is_ambiguous_without_the_capture(
        clash: Variant, two_ways: Position, texts: Texts) -> None:
    # d4 is backwards for White: no plain step, only the two captures
    assert {t for t in texts(two_ways, "e5") if "-d4" in t} == {"e5-d4xc3", "e5-d4xf6"}
    error = parse_error(clash, two_ways, "e5-d4")
    assert isinstance(error, AmbiguousMoveError)
    assert error.candidates == ("e5-d4xc3", "e5-d4xf6")
    assert clash.parse_move(two_ways, "e5-d4xf6").captures == ("f6",)
    assert clash.parse_move(two_ways, "e5xc3-d4").captures == ("c3",)


# --- refused input: which piece -------------------------------------------------------------

REFUSED_PIECES = [
    ("Hc3-d4", "'Hc3-d4': the piece on c3 is a Droid, not a Hawk"),
    ("Commander c3-d4", "'Commander c3-d4': the piece on c3 is a Droid, not a Commander"),
    ("c5-c7", "'c5-c7': there is no piece on c5"),
    ("c5=D", "'c5=D': there is no piece on c5"),
    ("c7-d6", "'c7-d6': the Droid on c7 is Black's, and it is White's turn"),
    ("a9xa7", "'a9xa7': the Brute on a9 is Black's, and it is White's turn"),
]


@pytest.mark.parametrize(("text", "message"), REFUSED_PIECES, ids=[t for t, _ in REFUSED_PIECES])
def test_refused_piece(clash: Variant, text: str, message: str) -> None:
    error = parse_error(clash, clash.start_position(), text)
    assert isinstance(error, IllegalMoveError)
    assert str(error) == message
    assert error.text == text


# --- refused input: illegal moves, with the reason ------------------------------------------

ILLEGAL_AT_START = [
    # Commander and Factor
    ("a1=D", "a Commander can only turn into a Brute or a Factor"),
    ("b2=B", "a Factor can only turn into a Droid or a Hawk"),
    ("a1-a3/D", "a Commander leaves a Brute or a Factor behind, not a Droid"),
    ("b2-b4/F", "a Factor leaves a Droid or a Hawk behind, not a Factor"),
    ("a1xb2", "a Commander never captures"),
    ("b2xc3", "a Factor never captures"),
    ("c1-c3/B", "the Commander on c1 can only move one point forward"),
    ("a1-a5/B", "the Commander on a1 can only move one point forward"),
    ("g1-f2/B", "f2 is occupied: the Commander on g1 moves only to an empty point"),
    ("a1-a1", "a move must leave its point (a1)"),
    # Droid
    ("c3=H", "only a Commander or a Factor transforms in place; the piece on c3 is a Droid"),
    ("c3-d4/B", "only a Commander or a Factor leaves a piece behind; the piece on c3 is a Droid"),
    ("c3xc5", "c5 is empty: the Droid on c3 captures only sideways or backwards"),
    ("c3-c5xd6", "a Droid captures only on the point it moves to, not on d6"),
    ("c3-c1", "the Droid on c3 moves only one point along a line, and c1 is not next to it"),
    ("c3-c7", "the Droid on c3 moves only one point along a line, and c7 is not next to it"),
    # Brute
    ("i1-g5", "the Brute on i1 never moves without capturing, and g5 is empty"),
    ("i1-e1", "the Brute on i1 can reach e1 in two steps only through g1, and it is "
              "occupied: the step between must land on an empty point"),
    ("i1-e3", "the Brute on i1 captures only a piece one step away, or two steps away "
              "through an empty point; e3 is farther"),
    ("i1-h2xi3", "a Brute captures only on the point it moves to, not on i3"),
    # Hawk
    ("e3-e5", "e5 is not one or two points from e3 along a straight line: the Hawk steps one "
              "point forward, or captures by jump, approach or withdrawal"),
    ("i3xi1", "a Hawk never lands on the piece it captures: it jumps over it onto the empty "
              "point beyond, or captures by approach or withdrawal"),
    ("i3-i1", "i1 is occupied: the Hawk on i3 captures by jumping over a piece, never by "
              "moving onto it"),
    ("e3-f4xc3", "moving to f4, the Hawk on e3 can capture only d2"),
    ("e3-f4xd2xc3", "a Hawk captures exactly one piece in a move"),
    ("e3-g5", "the Hawk on e3 can jump to g5 only over a piece on f4, and f4 is empty"),
    ("e3-g1xf2", "g1 is occupied: the Hawk on e3 jumps only onto an empty point"),
    ("i3-h4xg5", "moving to h4, the Hawk on i3 captures nothing: no piece is in line beyond "
                 "h4 or behind i3"),
]


@pytest.mark.parametrize(("text", "reason"), ILLEGAL_AT_START, ids=[t for t, _ in ILLEGAL_AT_START])
def test_illegal_move_reasons_at_the_start(clash: Variant, text: str, reason: str) -> None:
    error = parse_error(clash, clash.start_position(), text)
    assert isinstance(error, IllegalMoveError), error
    assert error.reason == reason
    assert str(error) == f"{text!r}: {reason}"


def test_droid_reasons_forward_capture_and_sideways_step(clash: Variant, board: Board) -> None:
    position = board({"c3": "D", "c5": "d", "a1": "C", "i9": "c"})
    assert str(parse_error(clash, position, "c3xc5")) == (
        "'c3xc5': the Droid on c3 cannot capture forward")
    assert str(parse_error(clash, position, "c3-e3")) == (
        "'c3-e3': the Droid on c3 cannot move sideways or backwards without capturing")
    assert str(parse_error(clash, position, "c3-b2")) == (
        "'c3-b2': the Droid on c3 cannot move sideways or backwards without capturing")


def test_hawk_reasons_with_pieces_around(clash: Variant, example_3: Position) -> None:
    reasons = {
        "a5xa3": "a Hawk never lands on the piece it captures: it jumps over it onto the "
                 "empty point beyond, or captures by approach or withdrawal",
        "a5-b4xa3": "moving to b4, the Hawk on a5 can capture only c3",
        "a5-b6": "the Hawk on a5 moves without capturing only forward, and moving to b6 "
                 "captures nothing",
        "a5-a1xb4": "jumping to a1, the Hawk on a5 captures a3, not b4",
        "a5-c3": "the Hawk on a5 can jump to c3 only over a piece on b4, and b4 is empty",
    }
    for text, reason in reasons.items():
        error = parse_error(clash, example_3, text)
        assert isinstance(error, IllegalMoveError)
        assert error.reason == reason, text


def test_slicer_reasons(clash: Variant, sweep: Position) -> None:
    reasons = {
        "i1-h2": "the Slicer on i1 must capture at least one piece, and there is none on its "
                 "way to h2",
        "i1-d4": "the Slicer on i1 slides along one straight line, and d4 is not on a line "
                 "from i1",
        "i1-e1xh2": "the Slicer going from i1 to e1 captures e1 and g1, not h2",
        "i1-a1/F": "only a Commander or a Factor leaves a piece behind; the piece on i1 is a "
                   "Slicer",
        "i1=F": "only a Commander or a Factor transforms in place; the piece on i1 is a Slicer",
    }
    for text, reason in reasons.items():
        error = parse_error(clash, sweep, text)
        assert isinstance(error, IllegalMoveError)
        assert error.reason == reason, text


def test_no_move_once_the_game_is_over(clash: Variant, board: Board) -> None:
    position = board({"b2": "D", "a1": "C", "e5": "d"}, side="b")  # Black has no Commander
    error = parse_error(clash, position, "e5-e3")
    assert isinstance(error, IllegalMoveError)
    assert str(error) == "'e5-e3': the game is over"


# --- refused input: not a move at all -------------------------------------------------------

SYNTAX_ERRORS = [
    ("", "there is no move in it"),
    ("   ", "'   ': there is no move in it"),
    ("x", "'x': a move starts with the point of the piece that moves, as in c3-d4"),
    ("-c3", "'-c3': a move starts with the point of the piece that moves, as in c3-d4"),
    ("c3", "'c3': it names no destination and no transformation"),
    ("c3-", "'c3-': it ends with '-'; a point should follow"),
    ("c3-d4x", "'c3-d4x': it ends with 'x'; a point should follow"),
    ("c3-d4-e5", "'c3-d4-e5': it names two destinations"),
    ("c8", "'c8': c8 is not a point of the board (points are a1, c1, ... i9 where the file "
           "number plus the rank is even)"),
    ("c3-c4", "'c3-c4': c4 is not a point of the board (points are a1, c1, ... i9 where the "
              "file number plus the rank is even)"),
    ("j1-i1", "'j1-i1': j1 is not a point of the board (points are a1, c1, ... i9 where the "
              "file number plus the rank is even)"),
    ("a11", "'a11': a11 is not a point of the board (points are a1, c1, ... i9 where the "
            "file number plus the rank is even)"),
    ("Ca2-a3", "'Ca2-a3': a2 is not a point of the board (points are a1, c1, ... i9 where "
               "the file number plus the rank is even)"),
    ("hb3", "'hb3': b3 is not a point of the board (points are a1, c1, ... i9 where the "
            "file number plus the rank is even)"),
    ("Ka1-a3", "'Ka1-a3': 'Ka1' is neither a point (such as c3) nor a piece letter and a point "
               "(such as Dc3)"),
    ("King a1-a3", "'King a1-a3': 'king' is not a piece letter or name"),
    ("c3?d4", "'c3?d4': unexpected character '?'"),
    ("c3\u2013d4", "'c3\u2013d4': unexpected character '\u2013'"),
    ("\u01313-i5", "'\u01313-i5': unexpected character '\u0131'"),
    ("a1-a3/", "'a1-a3/': expected a piece letter or name (such as B or Brute) after the move"),
    ("a1-a3/Q", "'a1-a3/Q': 'q' is not a piece letter or name"),
    ("a1-a3/B/F", "'a1-a3/B/F': unexpected text after the piece choice"),
    ("a1-a3, Brute on", "'a1-a3, Brute on': expected a point after 'on'"),
    ("a1-a3, Brute on c1", "'a1-a3, Brute on c1': a piece can only be left on the point the "
                           "mover leaves (a1)"),
]


@pytest.mark.parametrize(("text", "message"), SYNTAX_ERRORS, ids=[t for t, _ in SYNTAX_ERRORS])
def test_syntax_errors(clash: Variant, text: str, message: str) -> None:
    error = parse_error(clash, clash.start_position(), text)
    assert isinstance(error, MoveSyntaxError), error
    assert str(error) == message


# --- position strings -----------------------------------------------------------------------


def test_start_position_string_round_trips_exactly(clash: Variant) -> None:
    position = clash.parse_position(START)
    assert clash.format_position(position) == START
    assert position == clash.start_position()


@pytest.mark.parametrize("text", [
    "2c2/4/5/4/5/4/4f/2C1/s4 w 22",
    "5/4/5/4/2S2/4/5/4/C3c b 7",
    "bcccc/ffff/hdhd1/4/2D2/4/2HDH/FFFF/CCCCB b 1",
    "SSSSS/ssss/CCCCC/cccc/FFFFF/ffff/DDDDD/hhhh/BBBBB w 999",
])
def test_position_strings_round_trip(clash: Variant, text: str) -> None:
    assert clash.format_position(clash.parse_position(text)) == text


def test_position_string_reads_side_and_move_number(clash: Variant) -> None:
    position = clash.parse_position("5/4/5/4/2S2/4/5/4/C3c b 7")
    assert (position.side, position.fullmove) == (1, 7)
    assert position.cells[clash.topology.index["e5"]] == "S"
    assert position.cells[clash.topology.index["i1"]] == "c"


@pytest.mark.parametrize(("text", "reason"), [
    ("", "a position has three fields: placement, side to move (w or b) and move number"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w",
     "a position has three fields: placement, side to move (w or b) and move number"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF w 1", "the placement needs 9 ranks separated by '/'"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCBB w 1", "rank 1 must describe 5 points, not 6"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCC w 1", "rank 1 must describe 5 points, not 4"),
    ("bcccc/fffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1", "rank 8 must describe 4 points, not 5"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCK w 1",
     "'K' is not a piece letter nor a number of empty points (1 to 5)"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCC0CB w 1",
     "'0' is not a piece letter nor a number of empty points (1 to 5)"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCC\u00b9 w 1",
     "'\u00b9' is not a piece letter nor a number of empty points (1 to 5)"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCC\u017f w 1",
     "'\u017f' is not a piece letter nor a number of empty points (1 to 5)"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB W 1", "the side to move must be w or b"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 0",
     "the move number must be a whole number from 1"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w -1",
     "the move number must be a whole number from 1"),
    ("bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w \u00b2",
     "the move number must be a whole number from 1"),
])
def test_position_string_errors(clash: Variant, text: str, reason: str) -> None:
    with pytest.raises(PositionError) as caught:
        clash.parse_position(text)
    assert str(caught.value) == f"{text!r}: {reason}"
