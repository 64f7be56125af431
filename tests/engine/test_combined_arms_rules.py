"""Combined Arms Brigade Chess, rule by rule (``shared/rules/combined-arms-brigade-chess.md``).

Each test is one rule or one worked fact of the rule file, named after it. Positions are
hand-made ({square: letter}, upper case White, lower case Black) and written as position
strings by `board`, which follows the rule file's description of the format (§5) on its
own; the expected move sets were worked out by hand from the rules and are asserted
exactly, as canonical texts (§2a).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine import (
    AmbiguousMoveError,
    EngineError,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    Position,
    PositionError,
    get_variant,
)

CAB = get_variant("combined-arms")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"
ALL_SQUARES = {f"{f}{r}" for f in FILES for r in range(1, 9)}


def board(pieces: Mapping[str, str], side: str = "w") -> Position:
    """The position with ``pieces`` ({"e1": "K", ...}), ``side`` to move (rules §5)."""
    rows = []
    for rank in range(8, 0, -1):
        row, gap = "", 0
        for f in FILES:
            piece = pieces.get(f"{f}{rank}")
            if piece is None:
                gap += 1
                continue
            row += (str(gap) if gap else "") + piece
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return CAB.parse_position(f"{'/'.join(rows)} {side}")


def texts(position: Position, square: str | None = None) -> set[str]:
    """The canonical texts of the legal moves (of the piece on ``square``, if given)."""
    return {CAB.format_move(position, m) for m in CAB.legal_moves(position)
            if square is None or m.origin == square}


def play(position: Position, *moves: str) -> Position:
    for text in moves:
        position = CAB.apply(position, CAB.parse_move(position, text))
    return position


def refusal(position: Position, text: str) -> str:
    """The reason the engine gives for refusing ``text``."""
    with pytest.raises(IllegalMoveError) as caught:
        CAB.parse_move(position, text)
    return caught.value.reason


def cell(position: Position, square: str) -> str | None:
    pieces = CAB.pieces_at(position, square)
    return pieces[0].symbol if pieces else None


# --- the variant ---------------------------------------------------------------------------------
def test_variant_is_registered_by_id_and_alias_with_its_settings() -> None:
    assert get_variant("cab") is CAB
    assert get_variant(" Combined-Arms ") is CAB
    assert CAB.display_name == "Combined Arms Brigade Chess"
    assert CAB.order == 30
    assert CAB.draw_by_agreement is True
    assert CAB.start_fen == START


# --- §6 worked facts ---------------------------------------------------------------------------
START_PAWN_MOVES = {
    "Pa2-a3", "Pa2-b3", "Pa2-a4",
    "Pb2-a3", "Pb2-b3", "Pb2-c3", "Pb2-b4",
    "Pc2-b3", "Pc2-c3", "Pc2-d3", "Pc2-c4",
    "Pd2-c3", "Pd2-d3", "Pd2-e3", "Pd2-d4",
    "Pe2-d3", "Pe2-e3", "Pe2-f3", "Pe2-e4",
    "Pf2-e3", "Pf2-f3", "Pf2-g3", "Pf2-f4",
    "Pg2-f3", "Pg2-g3", "Pg2-h3", "Pg2-g4",
    "Ph2-g3", "Ph2-h3", "Ph2-h4",
}
START_FLIGHTS = {"a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3",
                 "b4", "c4", "f4", "g4", "b5", "c5", "f5", "g5", "b6", "g6"}
START_OUT_OF_BOUNDS = {"a6", "c6", "e6", "d6", "f6", "h6", "a5", "a4", "d5", "e4",
                       "h5", "h4", "e5", "d4"}
# a flight then an action that kills: bishop shots (within 2 of the landing square,
# never the King) and infantry captures whose square is out of range after the kill
START_QUEEN_KILLS = {
    "Qd1>b6*a7", "Qd1>b6*b7", "Qd1>b6*c7", "Qd1>b6*b8", "Qd1>b6*d8",
    "Qd1>g6*f7", "Qd1>g6*g7", "Qd1>g6*h7", "Qd1>g6*g8",
    "Qd1>b5*b7", "Qd1>b5*d7", "Qd1>c5*a7", "Qd1>c5*c7", "Qd1>c5*e7",
    "Qd1>f5*d7", "Qd1>f5*f7", "Qd1>f5*h7", "Qd1>g5*e7", "Qd1>g5*g7",
    "Qd1>b6xa7", "Qd1>g6xh7",
}


def test_start_white_pawns_have_30_moves_and_the_other_pieces_but_the_queen_none() -> None:
    start = CAB.start_position()
    moves = texts(start)
    assert {t for t in moves if t.startswith("P")} == START_PAWN_MOVES
    assert len(START_PAWN_MOVES) == 30
    assert {t for t in moves if t[0] in "NBRK"} == set()


def test_start_queen_may_fly_to_18_squares_and_not_to_the_14_in_range() -> None:
    start = CAB.start_position()
    empty = {f"{f}{r}" for f in FILES for r in range(3, 7)}
    assert START_FLIGHTS | START_OUT_OF_BOUNDS == empty
    assert not START_FLIGHTS & START_OUT_OF_BOUNDS
    flights = {m.target for m in CAB.legal_moves(start) if m.origin == "d1" and not m.captures}
    assert flights == START_FLIGHTS


def test_start_white_has_69_moves_counted_by_effect() -> None:
    start = CAB.start_position()
    expected = START_PAWN_MOVES | {f"Qd1>{s}" for s in START_FLIGHTS} | START_QUEEN_KILLS
    assert len(expected) == 69
    assert texts(start) == expected
    assert CAB.count_moves(start) == 69
    assert CAB.perft(start, 1) == 69


def test_rook_shoots_over_its_own_pieces() -> None:
    position = board({"a1": "R", "a2": "P", "a3": "P", "a4": "n", "h1": "K", "h8": "k"})
    assert "Ra1*a4" in texts(position, "a1")
    after = play(position, "Ra1*a4")
    assert cell(after, "a4") is None and cell(after, "a1") == "R"


def test_bishop_that_slid_to_f4_may_shoot_any_of_14_squares() -> None:
    targets = set("f5 f6 f3 f2 g4 h4 e4 d4 g5 h6 e5 d6 g3 h2".split())
    assert len(targets) == 14
    kings = {"a1": "K", "a8": "k"}
    for target in sorted(ALL_SQUARES - {"c1", "d2", "e3", "f4"} - set(kings)):
        position = board({"c1": "B", target: "n", **kings})
        if target in targets:
            move = CAB.parse_move(position, f"Bc1-f4*{target}")
            assert (move.target, move.captures) == ("f4", (target,))
        else:
            with pytest.raises(IllegalMoveError):
                CAB.parse_move(position, f"Bc1-f4*{target}")


def test_two_knight_paths_with_the_same_kills_are_one_move() -> None:
    position = board({"d4": "N", "d5": "p", "e6": "p", "e1": "K", "e8": "k"})
    a = CAB.parse_move(position, "Nd4xd5-e5xe6")
    b = CAB.parse_move(position, "Nd4xd5-d6xe6")
    assert a == b
    assert a.captures == ("d5", "e6") and a.target == "e6"
    assert CAB.format_move(position, a) == "Nd4xd5-d6xe6"
    assert [m for m in CAB.legal_moves(position) if m == a] == [a]


# --- §2 pieces ---------------------------------------------------------------------------------
def test_pawn_steps_one_square_any_way_and_kills_only_by_moving_onto_an_enemy() -> None:
    position = board({"d4": "P", "c3": "N", "e5": "n", "h1": "K", "a8": "k"})
    assert texts(position, "d4") == {"Pd4-c5", "Pd4-d5", "Pd4xe5", "Pd4-e4", "Pd4-e3",
                                     "Pd4-d3", "Pd4-c4"}


def test_pawn_on_its_second_rank_may_double_step_and_step_back_to_the_first() -> None:
    position = board({"b2": "P", "h1": "K", "a8": "k"})
    assert texts(position, "b2") == {"Pb2-a1", "Pb2-b1", "Pb2-c1", "Pb2-a2", "Pb2-c2",
                                     "Pb2-a3", "Pb2-b3", "Pb2-c3", "Pb2-b4"}


def test_pawn_double_step_needs_both_squares_empty() -> None:
    position = board({"b2": "P", "b4": "p", "g2": "P", "g3": "N", "h1": "K", "a8": "k"})
    assert "Pb2-b4" not in texts(position, "b2")
    assert not {t for t in texts(position, "g2") if t.endswith("g4")}


def test_pawn_returning_to_its_second_rank_may_double_step_again() -> None:
    position = board({"c3": "P", "h1": "K", "a8": "k"})
    assert "Pc3-c5" not in texts(position)
    position = play(position, "Pc3-b2", "Ka8-b8")
    assert "Pb2-b4" in texts(position, "b2")
    position = play(position, "Pb2-b4", "Kb8-a8", "Pb4-b3", "Ka8-b8", "Pb3-c2", "Kb8-a8")
    assert "Pc2-c4" in texts(position, "c2")


def test_black_pawn_double_steps_down_from_its_seventh_rank() -> None:
    position = board({"e7": "p", "h1": "K", "a8": "k"}, "b")
    assert "Pe7-e5" in texts(position, "e7")


def test_pawn_reaching_the_last_rank_promotes_to_n_b_r_or_q() -> None:
    position = board({"g7": "P", "f8": "r", "a1": "K", "a8": "k"})
    expected = {f"Pg7{sep}{t}={p}" for sep, t in (("-", "g8"), ("x", "f8"), ("-", "h8"))
                for p in "NBRQ"}
    expected |= {"Pg7-f7", "Pg7-h7", "Pg7-f6", "Pg7-g6", "Pg7-h6"}
    assert texts(position, "g7") == expected
    after = play(position, "Pg7xf8=N")
    assert cell(after, "f8") == "N" and cell(after, "g7") is None


def test_black_pawn_promotes_on_the_first_rank() -> None:
    position = board({"b2": "p", "h1": "K", "h8": "k"}, "b")
    after = play(position, "Pb2-b1=Q")
    assert cell(after, "b1") == "q"


def test_knight_kills_what_it_passes_and_may_double_back_but_not_over_its_own() -> None:
    position = board({"a1": "N", "a2": "P", "b1": "n", "c2": "p", "d1": "k", "h8": "K"})
    assert texts(position, "a1") == {"Na1xb1-a1-b1", "Na1xb1-c1xd1", "Na1xb1-b2xc2",
                                     "Na1xb1-b2-b3"}
    killed = {CAB.format_move(position, m): m.captures for m in CAB.legal_moves(position)
              if m.origin == "a1"}
    assert killed["Na1xb1-c1xd1"] == ("b1", "d1")
    assert killed["Na1xb1-b2xc2"] == ("b1", "c2")


def test_knight_passes_over_a_king_without_killing_it_and_kills_it_by_stopping() -> None:
    position = board({"a1": "N", "a2": "k", "b1": "P", "h8": "K"})
    assert texts(position, "a1") == {"Na1-a2-a1xa2", "Na1-a2-a3-a4", "Na1-a2-a3-b3",
                                     "Na1-a2-b2-c2"}
    over = play(position, "Na1-a2-a3-a4")
    assert cell(over, "a2") == "k"
    assert not CAB.outcome(over).is_over
    killed = play(position, "Na1-a2-a1xa2")
    outcome = CAB.outcome(killed)
    assert (outcome.status, outcome.winner) == ("win", 0)


def test_bishop_slides_to_empty_squares_and_shoots_before_or_after() -> None:
    position = board({"c1": "B", "d2": "p", "c3": "p", "h1": "K", "h8": "k"})
    assert texts(position, "c1") == {
        "Bc1-b2", "Bc1-a3",  # the slides (d2 blocks the other diagonal)
        "Bc1*c3", "Bc1*d2",  # shots from c1, along the file and the diagonal
        "Bc1*c3-b2", "Bc1*d2-b2", "Bc1*c3-a3",  # shot then slide = slide then shot
        "Bc1*d2-a3",  # only shot then slide: d2 is out of reach from a3
        # shooting d2 opens its diagonal: the Bishop slides through d2's square
        "Bc1*d2-d2", "Bc1*d2-e3", "Bc1*d2-f4", "Bc1*d2-g5", "Bc1*d2-h6",
    }


def test_bishop_never_shoots_a_king_nor_its_own_side() -> None:
    position = board({"c1": "B", "c2": "P", "d2": "k", "h1": "K"})
    assert {t for t in texts(position, "c1") if "*" in t} == set()
    assert "King" in refusal(position, "Bc1*d2")


def test_rook_slides_to_empty_squares_or_shoots_at_three_or_four_never_both() -> None:
    position = board({"a1": "R", "a2": "P", "a4": "p", "e1": "n", "d4": "p", "e5": "k",
                      "h8": "K"})
    assert texts(position, "a1") == {"Ra1-b1", "Ra1-c1", "Ra1-d1",
                                     "Ra1*a4", "Ra1*d4", "Ra1*e1"}
    assert refusal(position, "Ra1-d1*a4") == \
        "heavy artillery (a Rook) may move or shoot in one turn, not both"
    assert "King" in refusal(position, "Ra1*e5")


QUEEN_BISHOP_RANGE_D4 = {"d5", "d6", "d3", "d2", "c4", "b4", "e4", "f4",
                         "c5", "b6", "e5", "f6", "c3", "b2", "e3", "f2"}


def test_queen_acts_from_her_start_square_in_range_and_kills_uncover_the_path() -> None:
    """Her start square d3 is not judged; the Bishop killed on d4 no longer guards d5,
    c4 or e4 (§2: judged as the pieces stand at that moment)."""
    position = board({"d3": "Q", "d4": "b", "a1": "K", "h8": "k"})
    moves = texts(position, "d3")
    # quiet moves: every square out of range; those she reaches by a step or a bishop
    # slide without flying (c2, e2, b1, f1) are written that way, being shorter than ">"
    walks = {"c2", "e2", "b1", "f1"}
    flights = ALL_SQUARES - QUEEN_BISHOP_RANGE_D4 - {"a1", "h8", "d4", "d3"} - walks
    assert {t for t in moves if "x" not in t and "*" not in t} == \
        {f"Qd3>{s}" for s in flights} | {f"Qd3-{s}" for s in walks}
    assert {t for t in moves if "x" in t or "*" in t} == {
        "Qd3>g7xh8",  # the King, from a flight next to it
        "Qd3*d4", "Qd3xd4",
        "Qd3xd4-d5-d6", "Qd3xd4-c4-c5", "Qd3xd4-d5-e5", "Qd3xd4-c4-b4", "Qd3xd4-c4-c3",
        "Qd3xd4-e4-f4", "Qd3xd4-d3-e3", "Qd3xd4-d3-d2",
    }


def test_queen_may_pass_back_over_her_start_square_though_it_is_in_range() -> None:
    """Decision: the start square is not judged for the whole turn. d3 is within 2 of the
    Bishop on f5, and every armour path killing on d4 and d2 crosses d3 between them
    (no flight and single action kills twice)."""
    position = board({"d3": "Q", "f5": "b", "d4": "p", "d2": "p", "a1": "K", "h8": "k"})
    move = CAB.parse_move(position, "Qd3xd4-d3xd2")
    assert (move.target, move.captures) == ("d2", ("d2", "d4"))
    assert CAB.format_move(position, move) == "Qd3xd4-d3xd2"


def kills(position: Position, square: str) -> set[str]:
    """The canonical texts of the legal moves that kill the piece on ``square``."""
    return {CAB.format_move(position, m) for m in CAB.legal_moves(position)
            if square in m.captures}


def test_queen_cannot_step_onto_a_king_in_range_of_its_own_artillery() -> None:
    """A consequence of the range rule: the King on e5 is within 2 of its own Bishop on
    e7, so the Queen cannot stop on e5; without the Bishop she kills it."""
    assert kills(board({"e4": "Q", "e5": "k", "e7": "b", "a1": "K"}), "e5") == set()
    assert kills(board({"e4": "Q", "e5": "k", "a1": "K"}), "e5") == {"Qe4xe5"}


def test_queen_kills_a_lone_bishop_only_from_her_start_square() -> None:
    """Every square from which she could kill a Bishop is within its range: only her
    start square, which is never judged, will do."""
    assert kills(board({"d3": "Q", "d5": "b", "a1": "K", "h8": "k"}), "d5") == {"Qd3*d5"}
    assert kills(board({"d1": "Q", "d5": "b", "a1": "K", "h8": "k"}), "d5") == set()


def test_queen_may_not_fly_to_or_pass_squares_in_range_of_bishops_and_rooks() -> None:
    position = board({"a1": "Q", "h1": "K", "d5": "b", "h8": "r", "a8": "k"})
    in_range = {"d6", "d7", "d4", "d3", "c5", "b5", "e5", "f5", "c6", "b7", "e6", "f7",
                "c4", "b3", "e4", "f3",  # the Bishop on d5: within 2
                "h5", "h4", "e8", "d8"}  # the Rook on h8: exactly 3 or 4 (e5, d4 above)
    moves = CAB.legal_moves(position)
    quiet = {m.target for m in moves if m.origin == "a1" and not m.captures}
    assert quiet == ALL_SQUARES - in_range - {"a1", "h1", "d5", "h8", "a8"}
    assert refusal(position, "Qa1>e6") == \
        "aviation (the Queen) may not enter e6: it is within range of Black's light " \
        "artillery (Bishop) on d5"
    assert refusal(position, "Qa1>h3-h4") == \
        "aviation (the Queen) may not enter h4: it is within range of Black's heavy artillery " \
        "(Rook) on h8"


def test_queen_at_the_start_may_not_enter_e6_guarded_by_the_c8_bishop() -> None:
    assert refusal(CAB.start_position(), "Qd1>e6") == \
        "aviation (the Queen) may not enter e6: it is within range of Black's light " \
        "artillery (Bishop) on c8"


def test_queen_flying_back_to_her_square_without_killing_is_no_move() -> None:
    position = board({"d1": "Q", "a1": "K", "h8": "k"})
    assert not any(m.origin == m.target == "d1" for m in CAB.legal_moves(position))
    assert refusal(position, "Qd1>d2-d1") == "a turn must change the position"


def test_queen_flight_then_action_ending_where_a_flight_ends_is_that_flight() -> None:
    position = board({"d1": "Q", "a1": "K", "h8": "k"})
    assert CAB.parse_move(position, "Qd1>e5-e6") == CAB.parse_move(position, "Qd1>e6")
    assert CAB.format_move(position, CAB.parse_move(position, "Qd1>e5-e6")) == "Qd1>e6"
    # a step she can take without flying is written without the flight
    assert CAB.format_move(position, CAB.parse_move(position, "Qd1>d3-d2")) == "Qd1-d2"


def test_queen_armour_action_without_flight_kills_what_it_passes() -> None:
    position = board({"d1": "Q", "d2": "p", "e3": "p", "a1": "K", "h8": "k"})
    move = CAB.parse_move(position, "Qd1xd2-d3xe3")
    assert move.captures == ("d2", "e3") and move.target == "e3"
    assert CAB.format_move(position, move) == "Qd1xd2-d3xe3"


def test_king_steps_one_square_kills_by_moving_and_not_into_check() -> None:
    position = board({"e2": "K", "e4": "p", "f2": "b", "h8": "k"})
    assert texts(position, "e2") == {"Ke2-d1", "Ke2-e1", "Ke2-f1", "Ke2-d2", "Ke2xf2"}
    assert refusal(position, "Ke2-e3") == "the headquarters (King) may not move into check on e3"


def test_king_is_not_killed_by_shots_or_by_armour_passing_over_it() -> None:
    position = board({"e1": "K", "a8": "k", "a4": "R", "c6": "B", "a7": "N"}, "w")
    # Rook a4 is 4 from a8, Bishop c6 within 2 of a8: neither may shoot the King
    assert not any("a8" in m.captures and m.origin in ("a4", "c6")
                   for m in CAB.legal_moves(position))
    # the Knight passes over a8 without killing it
    assert "Na7-a8-b8-c8" in texts(position, "a7")


# --- §3 castling -----------------------------------------------------------------------------
def test_castling_both_ways_when_king_and_rooks_stand_on_their_squares() -> None:
    position = board({"e1": "K", "a1": "R", "h1": "R", "e8": "k"})
    assert texts(position, "e1") == {"Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f2", "Ke1-f1",
                                     "O-O", "O-O-O"}
    short = play(position, "O-O")
    assert (cell(short, "g1"), cell(short, "f1"), cell(short, "e1"), cell(short, "h1")) \
        == ("K", "R", None, None)
    long = play(position, "O-O-O")
    assert (cell(long, "c1"), cell(long, "d1"), cell(long, "a1")) == ("K", "R", None)


def test_castling_after_the_king_has_moved_and_come_back() -> None:
    position = board({"e1": "K", "h1": "R", "e8": "k"})
    position = play(position, "Ke1-f2", "Ke8-e7", "Kf2-e1", "Ke7-e8")
    assert "O-O" in texts(position)
    assert CAB.format_position(position).split()[2] == "K"


def test_castling_not_across_an_attacked_square_and_not_into_check() -> None:
    position = board({"e1": "K", "a1": "R", "h1": "R", "f4": "n", "a8": "k"})
    # the Knight on f4 reaches f1 (f3, f2) and e2, not d1, d2, f2 or c1
    assert texts(position, "e1") == {"Ke1-d1", "Ke1-d2", "Ke1-f2", "O-O-O"}
    assert refusal(position, "O-O") == \
        "the headquarters (King) may not cross f1: Black's armour (Knight) on f4 attacks it"
    # the King's own square after castling, attacked only once the Rook has moved
    into = board({"e1": "K", "h1": "R", "h2": "p", "e8": "k"})
    assert refusal(into, "O-O") == ("the headquarters (King) would be attacked on g1 after "
                                    "castling, by Black's infantry (Pawn) on h2")


def test_castling_not_out_of_check() -> None:
    position = board({"e1": "K", "h1": "R", "e4": "n", "a8": "k"})
    assert CAB.status_text(position) == "check"
    assert "O-O" not in texts(position)
    assert refusal(position, "O-O") == \
        "the headquarters (King) may not castle out of check: Black's armour (Knight) on e4 " \
        "attacks e1"


def test_castling_is_a_rook_move_and_kills_nothing() -> None:
    position = board({"e1": "K", "h1": "R", "h4": "p", "a8": "k"})
    move = CAB.parse_move(position, "O-O")
    assert move.kind == "castle" and move.captures == ()
    assert [(s.origin, s.target) for s in move.steps] == [("e1", "g1"), ("h1", "f1")]


# --- §4 check and the end of the game ---------------------------------------------------------
def test_check_must_be_escaped() -> None:
    position = board({"e4": "K", "a1": "R", "e5": "p", "h8": "k"})
    assert CAB.status_text(position) == "check"
    assert texts(position) == {"Ke4-d3", "Ke4-e3", "Ke4-f3", "Ke4xe5", "Ra1*e5"}
    assert refusal(position, "Ra1-b1") == "it would leave the White headquarters (King) in check"


def test_no_check_without_a_move_ending_on_the_king() -> None:
    position = board({"e4": "K", "e6": "p", "c4": "b", "e8": "r", "h8": "k"})
    assert CAB.status_text(position) == ""


def test_killing_the_enemy_king_is_legal_even_in_check() -> None:
    position = board({"e4": "K", "e5": "p", "a5": "N", "a8": "k"})
    assert CAB.status_text(position) == "check"
    assert "Na5-a6-a7xa8" in texts(position)
    after = play(position, "Na5-a6-a7xa8")
    assert CAB.outcome(after) == ("win", 0, "White killed the Black headquarters (King)")
    assert CAB.legal_moves(after) == []


def test_with_no_legal_move_a_move_ignoring_check_must_be_made() -> None:
    position = board({"h1": "K", "g2": "p", "f3": "p", "a8": "k"})
    assert CAB.status_text(position) == "check"
    assert texts(position) == {"Kh1-g1", "Kh1-h2", "Kh1xg2"}
    assert not CAB.outcome(position).is_over
    after = play(position, "Kh1-g1", "Pg2xg1=Q")
    assert (CAB.outcome(after).status, CAB.outcome(after).winner) == ("win", 1)


def test_with_no_legal_move_castling_needs_only_its_squares_and_pieces() -> None:
    """In check (d2), every escape square attacked (d1 e2 f1 f2 by Pawns, d2 guarded by
    c3): the fallback allows every move that ignores check, castling into check too."""
    position = board({"e1": "K", "h1": "R", "d2": "p", "c3": "p", "g2": "p", "a8": "k"})
    assert CAB.status_text(position) == "check"
    assert texts(position) == {"Ke1-d1", "Ke1xd2", "Ke1-e2", "Ke1-f1", "Ke1-f2", "O-O",
                               "Rh1-g1", "Rh1-f1"} | {f"Rh1-h{r}" for r in range(2, 9)}


def test_stalemate_when_there_is_no_move_at_all() -> None:
    position = board({"a1": "K", "a2": "R", "b1": "R", "b2": "R",
                      "a3": "b", "b3": "b", "c2": "b", "c1": "b", "h8": "k"})
    assert CAB.legal_moves(position) == []
    outcome = CAB.outcome(position)
    assert (outcome.status, outcome.winner) == ("draw", None)
    assert outcome.reason == "stalemate: White has no move at all"


def test_threefold_repetition_is_a_draw() -> None:
    history = [board({"e1": "K", "e8": "k"})]
    for text in ["Ke1-e2", "Ke8-e7", "Ke2-e1", "Ke7-e8"] * 2:
        assert not CAB.outcome(history[-1], history).is_over
        history.append(play(history[-1], text))
    # the start position has now stood three times with White to move
    assert CAB.outcome(history[-1], history).status == "draw"
    assert CAB.outcome(history[-1], history[:-1]).status == "draw"
    assert not CAB.outcome(history[-1], history[1:-1]).is_over  # twice is not enough


# --- §5 notation ---------------------------------------------------------------------------------
def test_canonical_text_prefers_the_shot_first_between_equal_lengths() -> None:
    position = board({"c1": "B", "e1": "n", "h1": "K", "h8": "k"})
    a = CAB.parse_move(position, "Bc1-e3*e1")
    assert a == CAB.parse_move(position, "Bc1*e1-e3")
    assert CAB.format_move(position, a) == "Bc1*e1-e3"


def test_moves_may_be_written_without_the_piece_letter_and_in_any_case() -> None:
    start = CAB.start_position()
    assert CAB.format_move(start, CAB.parse_move(start, "e2-e4")) == "Pe2-e4"
    assert CAB.format_move(start, CAB.parse_move(start, "PE2-E4")) == "Pe2-e4"
    assert CAB.format_move(start, CAB.parse_move(start, "d1>b6xa7")) == "Qd1>b6xa7"
    assert CAB.format_move(start, CAB.parse_move(start, "qd1>b6xa7")) == "Qd1>b6xa7"


def test_knight_moves_may_leave_out_intermediate_squares_when_unique() -> None:
    position = board({"d4": "N", "d5": "p", "e6": "p", "e1": "K", "e8": "k"})
    assert CAB.format_move(position, CAB.parse_move(position, "Nd4xd5xe6")) == "Nd4xd5-d6xe6"
    assert CAB.format_move(position, CAB.parse_move(position, "d4-e4xe6")) == "Nd4-e4-e5xe6"
    with pytest.raises(AmbiguousMoveError) as caught:
        CAB.parse_move(position, "Nd4xe6")
    assert caught.value.candidates == ("Nd4-e4-e5xe6", "Nd4xd5-d6xe6")


def test_promotion_without_the_piece_is_ambiguous() -> None:
    position = board({"g7": "P", "a1": "K", "a8": "k"})
    with pytest.raises(AmbiguousMoveError) as caught:
        CAB.parse_move(position, "g7-g8")
    assert caught.value.candidates == ("Pg7-g8=B", "Pg7-g8=N", "Pg7-g8=Q", "Pg7-g8=R")


def test_lenient_separators_castling_forms_and_annotations() -> None:
    start = CAB.start_position()
    assert CAB.format_move(start, CAB.parse_move(start, "e2e4")) == "Pe2-e4"
    assert CAB.format_move(start, CAB.parse_move(start, "Qd1-b6")) == "Qd1>b6"
    assert CAB.format_move(start, CAB.parse_move(start, "Pe2-e4+")) == "Pe2-e4"
    position = board({"e1": "K", "h1": "R", "e8": "k"})
    castle = CAB.parse_move(position, "O-O")
    assert CAB.parse_move(position, "0-0") == castle == CAB.parse_move(position, "Ke1-g1")
    exact = board({"e4": "P", "d5": "p", "a1": "K", "h8": "k"})
    assert CAB.format_move(exact, CAB.parse_move(exact, "Pe4-d5")) == "Pe4xd5"


@pytest.mark.parametrize(("text", "reason"), [
    ("e4-e5", "there is no piece on e4"),
    ("e7-e5", "the infantry (Pawn) on e7 is Black's, and it is White's turn"),
    ("Ne2-e4", "the piece on e2 is infantry (Pawn), not armour (Knight)"),
    ("Pe2-e5", "infantry (a Pawn) steps one square in any direction to an empty square or "
               "onto an enemy piece, or two squares straight forward from its own second rank"),
    ("Qd1>g6*e8", "no piece may shoot the headquarters (King): it dies only to a piece "
                  "moving onto it"),
    ("Qd1>e2", "aviation (the Queen) flies only to an empty square"),
    ("Nb1-b2-b3-c3", "armour (the Knight) may not pass through or stop on its own infantry on b2"),
    ("Bc1>e3", "only aviation (the Queen) flies (>)"),
    ("O-O", "the squares between the headquarters (King) and the heavy artillery must be empty"),
])
def test_illegal_moves_say_why(text: str, reason: str) -> None:
    assert refusal(CAB.start_position(), text) == reason


@pytest.mark.parametrize("text", ["", "   ", "hello", "Pe2-", "e9-e4", "Pe2-e4=K", "Pe2-e4=",
                                  "e2", "Pe2/e4", "Z1-a2", "O-O-O-O"])
def test_malformed_texts_are_syntax_errors(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        CAB.parse_move(CAB.start_position(), text)


def test_a_written_kill_is_never_read_as_a_plain_move() -> None:
    position = board({"h1": "R", "e1": "K", "e8": "k"})
    assert CAB.format_move(position, CAB.parse_move(position, "Rh1-h8")) == "Rh1-h8"
    with pytest.raises(IllegalMoveError):
        CAB.parse_move(position, "Rh1xh8")


def test_shots_out_of_reach_and_blocked_knight_paths_say_why() -> None:
    start = CAB.start_position()
    assert refusal(start, "Qd1>c5*c8") == \
        "aviation (Queen) shoots only within 2 squares along a line (c8 is out of reach from c5)"
    assert refusal(start, "Nb1-c3") == \
        "every path from b1 to c3 passes through or stops on a piece of its own side"
    assert refusal(start, "Nb1-b3") == \
        "armour (a Knight) makes exactly three single orthogonal steps (it may turn or step " \
        "back), " \
        "so it ends 1 or 3 steps from where it started"


def test_bishop_kill_by_moving_is_refused_with_the_shot_suggested() -> None:
    position = board({"c1": "B", "d2": "p", "h1": "K", "h8": "k"})
    assert refusal(position, "Bc1xd2") == \
        "light artillery (Bishop) never kills by moving onto a piece; it shoots, as in Bc1*e3"


def test_no_move_after_the_game_is_over() -> None:
    over = board({"e1": "K", "e2": "n"}, "b")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        CAB.parse_move(over, "e2-e3")


# --- §5 position strings ---------------------------------------------------------------------
def test_start_position_string_round_trips() -> None:
    start = CAB.start_position()
    assert CAB.format_position(start) == START
    assert CAB.parse_position(START) == start


def test_position_string_may_give_only_its_first_two_or_three_fields() -> None:
    full = CAB.parse_position(START)
    assert CAB.parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w") == full
    assert CAB.parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq") == full


def test_a_chess_en_passant_square_is_read_and_dropped() -> None:
    """Decision: no en passant, so a pasted chess FEN's square is ignored."""
    text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert CAB.format_position(CAB.parse_position(text)) == text.replace(" e3 ", " - ")


def test_castling_field_is_derived_from_the_board() -> None:
    position = CAB.parse_position("r3k3/8/8/8/8/8/8/4K2R b - - 3 20")
    assert CAB.format_position(position) == "r3k3/8/8/8/8/8/8/4K2R b Kq - 3 20"
    assert CAB.format_position(play(position, "Ke8-d8")) == "r2k4/8/8/8/8/8/8/4K2R w K - 4 21"


def test_counters_reset_on_a_kill_or_a_pawn_move() -> None:
    position = CAB.parse_position("4k3/8/8/8/3p4/8/8/R3K3 w Q - 7 30")
    assert CAB.format_position(play(position, "Ra1-a2")).endswith(" 8 30")
    assert CAB.format_position(play(position, "Ra1*d4")).endswith(" 0 30")
    assert CAB.format_position(play(position, "Ra1-a2", "Pd4-d3")).endswith(" 0 31")


@pytest.mark.parametrize("text", [
    "",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x",
    "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w XY - 0 1",
    "kk6/8/8/8/8/8/8/K7 w", "8/8/8/8/8/8/8/8 w", "P3k3/8/8/8/8/8/8/4K3 w",
    "4k3/8/8/8/8/8/8/p3K3 w",
])
def test_bad_position_strings_are_refused(text: str) -> None:
    with pytest.raises(PositionError):
        CAB.parse_position(text)


def test_a_finished_game_position_still_reads_and_writes() -> None:
    text = "8/8/8/8/8/8/8/4K3 b - - 0 40"
    position = CAB.parse_position(text)
    assert CAB.format_position(position) == text
    assert CAB.outcome(position).winner == 0
    assert CAB.legal_moves(position) == []


def test_pieces_at_names_each_piece_and_side() -> None:
    start = CAB.start_position()
    assert CAB.pieces_at(start, "d1")[0].letter == "Q" and CAB.pieces_at(start, "d1")[0].side == 0
    assert CAB.pieces_at(start, "g8")[0].symbol == "n"
    assert CAB.pieces_at(start, "e4") == ()


def test_every_error_is_an_engine_error() -> None:
    for error in (MoveSyntaxError, IllegalMoveError, AmbiguousMoveError, PositionError):
        assert issubclass(error, EngineError)
    assert isinstance(CAB.legal_moves(CAB.start_position())[0], Move)
