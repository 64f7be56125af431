"""mini-Chieftain and micro-Chieftain, rule by rule (``shared/rules/chieftain.md``).

Each test is one rule or one worked fact of the rule file, named after it. Positions are
hand-made ({square: letter}, upper case White, lower case Black) and written as position
strings by `position_string`, which follows the rule file's description of the format (§5)
independently of the engine. Move sets are compared exactly, by canonical text.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    Piece,
    Position,
    PositionError,
    Step,
    get_variant,
)

MINI = get_variant("mini-chieftain")
MICRO = get_variant("micro-chieftain")
MINI_START = "hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNH w - 1"
MICRO_START = "hnsccsnh/vgvggvgv/8/8/8/8/VGVGGVGV/HNSCCSNH w - 1"
RELAY = {"d1": "C", "e1": "C", "a5": "M", "d8": "c", "e8": "c"}  # rules §6
LAST_CHIEFTAIN = {"d1": "H", "e1": "C", "g1": "C", "c2": "M", "d4": "c", "d8": "m"}


def position_string(pieces: Mapping[str, str], side: str = "w", made: str = "-",
                    number: int = 1) -> str:
    """The position string (rules §5) of ``pieces`` ({"a5": "M", ...})."""
    rows = []
    for rank in range(8, 0, -1):
        row, empty = "", 0
        for file in "abcdefgh":
            piece = pieces.get(f"{file}{rank}")
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {made} {number}"


def board(pieces: Mapping[str, str], side: str = "w", made: str = "-", number: int = 1,
          variant: object = MINI) -> Position:
    return variant.parse_position(position_string(pieces, side, made, number))  # type: ignore[attr-defined]


def turn_texts(position: Position, variant: object = MINI) -> set[str]:
    return {variant.format_move(position, m) for m in variant.legal_moves(position)}  # type: ignore[attr-defined]


def next_texts(position: Position, origin: str | None = None, variant: object = MINI) -> set[str]:
    """The canonical texts of the single moves available as the next move of the turn."""
    return {variant.format_move(position, m) for m in variant.next_moves(position)  # type: ignore[attr-defined]
            if origin is None or m.origin == origin}


def play(position: Position, text: str, variant: object = MINI) -> Position:
    return variant.apply(position, variant.parse_move(position, text))  # type: ignore[attr-defined]


def refusal(position: Position, text: str, variant: object = MINI) -> str:
    """The reason the engine gives for refusing ``text``."""
    with pytest.raises(IllegalMoveError) as caught:
        variant.parse_move(position, text)  # type: ignore[attr-defined]
    return caught.value.reason


# --- registry and set-ups (§1) ------------------------------------------------------------------
def test_both_games_are_registered_with_their_ids_orders_and_names() -> None:
    assert (MINI.name, MINI.order, MINI.display_name) == ("mini-chieftain", 40, "mini-Chieftain")
    assert (MICRO.name, MICRO.order, MICRO.display_name) == (
        "micro-chieftain", 50, "micro-Chieftain")
    assert get_variant("Mini-Chieftain") is MINI and get_variant("MICRO-chieftain") is MICRO
    assert type(MINI).__mro__[1] is type(MICRO).__mro__[1]  # one shared implementation


def test_mini_setup_is_the_chess_array_with_chieftains_heroes_shamans_and_men() -> None:
    start = MINI.start_position()
    assert MINI.format_position(start) == MINI_START
    assert MINI.pieces_at(start, "d1") == (Piece("C", 0),)
    assert MINI.pieces_at(start, "e8") == (Piece("C", 1),)
    assert MINI.pieces_at(start, "a1") == (Piece("H", 0),)
    assert MINI.pieces_at(start, "c8") == (Piece("S", 1),)
    assert MINI.pieces_at(start, "e4") == ()
    assert (start.side, start.fullmove, start.in_progress) == (0, 1, False)


def test_micro_setup_puts_silvers_on_a_c_f_h_and_golds_on_b_d_e_g() -> None:
    start = MICRO.start_position()
    assert MICRO.format_position(start) == MICRO_START
    assert [MICRO.pieces_at(start, f"{f}2")[0].letter for f in "abcdefgh"] == list("VGVGGVGV")
    assert [MICRO.pieces_at(start, f"{f}7")[0].symbol for f in "abcdefgh"] == list("vgvggvgv")


def test_another_setup_loads_from_a_position_string() -> None:
    text = position_string({"a1": "C", "h8": "c", "b2": "H"})
    assert MINI.format_position(MINI.parse_position(text)) == text
    assert next_texts(MINI.parse_position(text), "b2") == {
        "Hb2-b3", "Hb2-b4", "Hb2-b5", "Hb2-b1", "Hb2-a2", "Hb2-c2", "Hb2-d2", "Hb2-e2"}


def test_mini_refuses_gold_and_silver() -> None:
    with pytest.raises(PositionError, match="'v' is not a piece letter of mini-Chieftain"):
        MINI.parse_position(MICRO_START)


# --- the pieces (§2), exact move sets ------------------------------------------------------
def test_chieftain_makes_one_or_two_king_steps_through_an_empty_middle_never_back() -> None:
    # a2 own: blocked; b2 enemy: taken, and the move ends there; c1 enemy two steps away
    position = board({"a1": "C", "a2": "M", "b2": "m", "c1": "m", "h8": "c"})
    assert next_texts(position, "a1") == {"Ca1-b1", "Ca1xb2", "Ca1xc1", "Ca1-c2"}


def test_chieftain_may_turn_between_its_two_steps() -> None:
    position = board({"d4": "C", "h8": "c"})
    expected = {f"Cd4-{f}{r}" for f in "bcdef" for r in range(2, 7)} - {"Cd4-d4"}
    assert next_texts(position, "d4") == expected  # all 24 squares within 2, bends included


def test_hero_steps_leaps_or_does_both_in_one_orthogonal_line() -> None:
    position = board({"a1": "C", "d4": "H", "d5": "M", "b4": "M", "e4": "m", "f4": "m",
                      "h8": "c"})
    assert next_texts(position, "d4") == {
        "Hd4-d6", "Hd4-d7",  # leap over d5; leap to d6 then step (d5 is not empty)
        "Hd4xe4", "Hd4xf4",  # g4 needs e4 or f4 empty
        "Hd4-d3", "Hd4-d2", "Hd4-d1",
        "Hd4-c4", "Hd4-a4",  # step to c4 then leap over b4 (own)
    }


def test_shaman_is_the_hero_on_diagonals() -> None:
    position = board({"a1": "C", "d4": "S", "e5": "M", "f6": "M", "c5": "m", "h8": "c"})
    assert next_texts(position, "d4") == {
        "Sd4xc5", "Sd4-b6", "Sd4-a7",  # a7: leap to b6 then step (c5 holds a piece)
        "Sd4-e3", "Sd4-f2", "Sd4-g1",
        "Sd4-c3", "Sd4-b2",  # a1 is its own Chieftain; NE is shut by e5 and f6
    }


def test_knight_is_the_chess_knight() -> None:
    position = board({"d1": "C", "b1": "N", "d2": "M", "a3": "m", "h8": "c"})
    assert next_texts(position, "b1") == {"Nb1xa3", "Nb1-c3"}
    centre = board({"d1": "C", "d4": "N", "h8": "c"})
    assert next_texts(centre, "d4") == {"Nd4-" + s for s in
                                        ("b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5")}


def test_man_steps_one_square_in_any_direction() -> None:
    position = board({"e1": "C", "e4": "M", "e5": "M", "d5": "m", "h8": "c"})
    assert next_texts(position, "e4") == {"Me4-d3", "Me4-e3", "Me4-f3", "Me4-d4", "Me4-f4",
                                          "Me4xd5", "Me4-f5"}


def test_gold_steps_orthogonally_or_diagonally_forward_for_each_side() -> None:
    white = board({"d1": "C", "d4": "G", "d5": "v", "h8": "c"}, variant=MICRO)
    assert next_texts(white, "d4", MICRO) == {"Gd4xd5", "Gd4-e4", "Gd4-d3", "Gd4-c4",
                                              "Gd4-c5", "Gd4-e5"}
    black = board({"a1": "C", "e8": "c", "e7": "g"}, side="b", variant=MICRO)
    assert next_texts(black, "e7", MICRO) == {"Ge7-f7", "Ge7-e6", "Ge7-d7", "Ge7-d6",
                                              "Ge7-f6"}


def test_silver_steps_diagonally_or_straight_forward_for_each_side() -> None:
    white = board({"d1": "C", "d4": "V", "c5": "g", "h8": "c"}, variant=MICRO)
    assert next_texts(white, "d4", MICRO) == {"Vd4xc5", "Vd4-e5", "Vd4-c3", "Vd4-e3",
                                              "Vd4-d5"}
    black = board({"a1": "C", "e8": "c", "e7": "v"}, side="b", variant=MICRO)
    assert next_texts(black, "e7", MICRO) == {"Ve7-d8", "Ve7-f8", "Ve7-d6", "Ve7-f6",
                                              "Ve7-e6"}


def test_no_piece_captures_its_own() -> None:
    position = MINI.start_position()
    for move in MINI.next_moves(position):
        target = MINI.pieces_at(position, move.target)
        assert not target or target[0].side == 1


# --- worked facts (§6) ----------------------------------------------------------------------
def test_start_turn_is_one_or_two_moves() -> None:
    lengths = {len(m.steps) for m in MINI.legal_moves(MINI.start_position())}
    assert lengths == {1, 2}


def test_start_neither_chieftain_moves_first_but_one_may_move_second() -> None:
    start = MINI.start_position()
    assert not {t for t in next_texts(start) if t.startswith("C")}
    assert "Md2-d3, Cd1-d2" in turn_texts(start)
    assert MINI.format_move(start, MINI.parse_move(start, "Md2-d3, Cd1-d2")) == "Md2-d3, Cd1-d2"


def test_start_hero_leaps_to_a3_and_reaches_a4_because_a3_is_empty() -> None:
    assert next_texts(MINI.start_position(), "a1") == {"Ha1-a3", "Ha1-a4"}


def test_start_any_two_pieces_may_move_except_two_a_file_or_two_h_file_pieces() -> None:
    start = MINI.start_position()
    singles = [m.steps[0] for m in MINI.next_moves(start)]
    turns = {frozenset((s.origin, s.target) for s in m.steps) for m in MINI.legal_moves(start)}
    checked = 0
    for i, a in enumerate(singles):
        for b in singles[i + 1:]:
            if a.origin == b.origin or a.target == b.target:
                continue  # the same piece, or two pieces to one square
            same_wing = a.origin[0] == b.origin[0] and a.origin[0] in "ah"
            legal = frozenset({(a.origin, a.target), (b.origin, b.target)}) in turns
            assert legal is not same_wing, (a, b)
            checked += 1
    assert checked > 500
    assert "d1 has already activated a move" in refusal(start, "Ha1-a3, Ma2-b3").replace(
        "the Chieftain on ", "")


def test_relay_the_moved_chieftain_keeps_its_activation() -> None:
    position = board(RELAY)
    turn = MINI.parse_move(position, "Cd1-c3, Ma5-a6")
    assert turn == Move((Step("d1", "c3", unit="C"), Step("a5", "a6", unit="M")), "turn")
    after = MINI.apply(position, turn)
    assert MINI.format_position(after) == position_string(
        {"c3": "C", "e1": "C", "a6": "M", "d8": "c", "e8": "c"}, side="b")


def test_relay_in_the_other_order_the_man_cannot_be_activated() -> None:
    reason = refusal(board(RELAY), "Ma5-a6, Cd1-c3")
    assert reason.startswith("move 1, Ma5-a6: the Man on a5 cannot be activated: no unused "
                             "Chieftain is within 3 squares of a5 (the Chieftain on d1 is "
                             "4 squares away; the Chieftain on e1 is 4 squares away)")
    assert reason.endswith("(these moves are legal in the order Cd1-c3, Ma5-a6)")


def test_relay_the_engine_finds_the_assignment_when_several_start() -> None:
    # after Cd1-c3 either Chieftain may be the one still free; the Man needs c3's
    after = play(board(RELAY), "Cd1-c3")
    assert after.in_progress and after.pending == (Step("d1", "c3", unit="C"),)
    assert next_texts(after, "a5") == {"Ma5-a4", "Ma5-b4", "Ma5-b5", "Ma5-a6", "Ma5-b6"}
    assert next_texts(after, "e1") == {f"Ce1-{s}" for s in (
        "c1", "d1", "f1", "g1", "c2", "d2", "e2", "f2", "g2", "d3", "e3", "f3", "g3")}


def test_a_piece_four_squares_from_every_unused_chieftain_may_not_move() -> None:
    position = board(RELAY)
    assert next_texts(position, "a5") == set()
    assert refusal(position, "Ma5-a6") == (
        "the Man on a5 cannot be activated: no unused Chieftain is within 3 squares of a5 "
        "(the Chieftain on d1 is 4 squares away; the Chieftain on e1 is 4 squares away)")


# --- activation and the turn (§3) -----------------------------------------------------------
def test_a_chieftain_activates_only_one_piece() -> None:
    reason = refusal(MINI.start_position(), "Ha1-a3, Ma2-b3")
    assert reason == ("move 2, Ma2-b3: the Man on a2 cannot be activated: no unused Chieftain "
                      "is within 3 squares of a2 (the Chieftain on d1 has already activated "
                      "a move this turn; the Chieftain on e1 is 4 squares away)")


def test_no_piece_moves_twice_in_a_turn() -> None:
    reason = refusal(MINI.start_position(), "Ma2-a3, Ma3-a4")
    assert reason == ("move 2, Ma3-a4: the Man on a3 has already moved this turn; no piece "
                      "moves twice")
    after = play(MINI.start_position(), "Ma2-a3")
    assert next_texts(after, "a3") == set()


def test_the_allowance_is_one_move_per_chieftain() -> None:
    reason = refusal(MINI.start_position(), "Md2-d3, Me2-e3, Mc2-c3")
    assert reason == ("move 3, Mc2-c3: the turn allows 2 moves (one per Chieftain) and 2 have "
                      "been made")


def test_three_chieftains_allow_three_moves_and_move_each_other() -> None:
    position = board({"b2": "C", "d2": "C", "f2": "C", "b1": "H", "e8": "c"})
    assert max(len(m.steps) for m in MINI.legal_moves(position)) == 3
    # d2 moves b2 away, b2 (moved, still unused) moves f2... in any order the engine finds
    turn = MINI.parse_move(position, "Cb2-a4, Cf2-h4, Cd2-d4")
    assert len(turn.steps) == 3
    assert MINI.format_move(position, turn) == "Cb2-a4, Cd2-d4, Cf2-h4"


def test_capturing_the_last_enemy_chieftain_ends_the_turn_and_wins_at_once() -> None:
    position = board(LAST_CHIEFTAIN, number=9)
    after = play(position, "Hd1xd4")  # one move, the turn could have gone on
    assert not after.in_progress and after.side == 1
    assert MINI.outcome(after) == ("win", 0, "Black has no Chieftain left")
    assert MINI.outcome(after).score == "1-0"
    assert MINI.legal_moves(after) == [] and MINI.next_moves(after) == []
    assert refusal(position, "Hd1xd4, Mc2-c3") == (
        "move 2, Mc2-c3: the game is already won: the last enemy Chieftain has been captured")
    assert refusal(after, "Mc2-c3") == "the game is over"


def test_the_capture_of_the_last_chieftain_may_end_a_turn_in_progress() -> None:
    position = play(board(LAST_CHIEFTAIN, number=9), "Mc2-c3")
    assert position.in_progress
    assert MINI.format_move(position, MINI.parse_move(position, "Hd1xd4")) == "Hd1xd4"
    after = play(position, "d1xd4")
    assert MINI.outcome(after).winner == 0 and not after.in_progress


def test_in_every_turn_the_capture_of_the_last_chieftain_comes_last() -> None:
    position = board(LAST_CHIEFTAIN, number=9)
    wins = [m for m in MINI.legal_moves(position) if "d4" in m.captures]
    assert wins and all(m.steps[-1].captures == ("d4",) for m in wins)


def test_a_turn_is_its_set_of_moves_listed_once_in_canonical_order() -> None:
    start = MINI.start_position()
    a = MINI.parse_move(start, "Md2-d3, Nb1-c3")
    b = MINI.parse_move(start, "Nb1-c3 ; Md2xd3")
    assert a == b
    assert MINI.format_move(start, a) == "Nb1-c3, Md2-d3"
    sets = [frozenset(m.steps) for m in MINI.legal_moves(start)]
    assert len(sets) == len(set(sets)) == MINI.count_moves(start) == 742


def test_canonical_order_is_the_legal_order_that_sorts_first() -> None:
    # Md2-d3 must come first for the Chieftain to reach d2, though d1 sorts before d2
    start = MINI.start_position()
    assert MINI.format_move(start, MINI.parse_move(start, "Md2-d3 Cd1-d2")) == "Md2-d3, Cd1-d2"
    position = board(RELAY)
    assert "Cd1-c3, Ma5-a6" in turn_texts(position)
    assert "Ma5-a6, Cd1-c3" not in turn_texts(position)


# --- entering a turn move by move (§5) ------------------------------------------------------
def test_a_single_move_is_the_next_move_and_the_turn_goes_on() -> None:
    start = MINI.start_position()
    move = MINI.parse_move(start, "Md2-d3")
    assert move == Move((Step("d2", "d3", unit="M"),), "step")
    after = MINI.apply(start, move)
    assert after.in_progress and after.side == 0 and after.fullmove == 1
    assert MINI.format_position(after) == \
        "hnsccsnh/mmmmmmmm/8/8/8/3M4/MMM1MMMM/HNSCCSNH w Md2-d3 1"
    assert MINI.outcome(after).status == "ongoing"
    assert "1 of 2" in MINI.status_text(after)


def test_the_turn_ends_when_the_allowance_is_used() -> None:
    after = play(play(MINI.start_position(), "Md2-d3"), "Cd1-d2")
    assert not after.in_progress and after.side == 1
    assert MINI.format_position(after) == \
        "hnsccsnh/mmmmmmmm/8/8/8/3M4/MMMCMMMM/HNS1CSNH b - 1"


def test_end_finishes_the_turn_early() -> None:
    started = play(MINI.start_position(), "Md2-d3")
    ended = MINI.parse_move(started, "end")
    assert ended == Move((), "turn") and MINI.format_move(started, ended) == "end"
    after = MINI.apply(started, ended)
    assert after == MINI.end_turn(started)
    assert MINI.format_position(after) == "hnsccsnh/mmmmmmmm/8/8/8/3M4/MMM1MMMM/HNSCCSNH b - 1"
    black = play(after, "Md7-d6")
    assert MINI.end_turn(black).fullmove == 2


def test_end_needs_a_turn_in_progress() -> None:
    start = MINI.start_position()
    with pytest.raises(IllegalMoveError, match="a turn needs at least one move"):
        MINI.end_turn(start)
    assert "a turn needs at least one move" in refusal(start, "end")


def test_a_one_move_whole_turn_is_written_with_end() -> None:
    start = MINI.start_position()
    turn = MINI.parse_move(start, "Ma2-a3, end")
    assert turn == Move((Step("a2", "a3", unit="M"),), "turn")
    assert MINI.format_move(start, turn) == "Ma2-a3, end"
    assert MINI.parse_move(start, "Ma2-a3 end") == turn
    assert MINI.apply(start, turn).side == 1


def test_the_turn_ends_when_no_further_move_is_possible() -> None:
    # a full board with one hole, c1: only a1's Chieftain reaches the pieces beside it, and
    # after one of them moves only a1's pieces are beside the new hole
    pieces = {f"{f}{r}": "M" for f in "abcdefgh" for r in range(1, 9)}
    pieces |= {"a1": "C", "h8": "C", "a8": "c"}
    del pieces["c1"]
    position = board(pieces)
    assert turn_texts(position) == {"Mb1-c1", "Mb2-c1", "Mc2-c1", "Md2-c1", "Md1-c1"}
    move = MINI.parse_move(position, "Mb1-c1")
    assert move == Move((Step("b1", "c1", unit="M"),), "turn")
    after = MINI.apply(position, move)
    assert after.side == 1 and not after.in_progress


def test_a_turn_in_progress_may_be_finished_whole() -> None:
    started = play(board(RELAY), "Cd1-c3")
    finish = MINI.parse_move(started, "Ma5-a6")
    assert finish == Move((Step("a5", "a6", unit="M"),), "turn")
    assert MINI.format_move(started, finish) == "Ma5-a6"
    assert MINI.apply(started, finish) == MINI.apply(board(RELAY),
                                                     MINI.parse_move(board(RELAY),
                                                                     "Cd1-c3, Ma5-a6"))
    assert Move((), "turn") in MINI.legal_moves(started)


def test_moves_entered_one_by_one_equal_the_whole_turn() -> None:
    start = MINI.start_position()
    whole = play(start, "Nb1-c3, Md2-d3")
    assert play(play(start, "Md2-d3"), "Nb1-c3") == whole
    assert play(play(start, "Nb1-c3"), "Md2-d3") == whole


def test_a_position_with_a_turn_in_progress_round_trips() -> None:
    started = play(board(RELAY), "Cd1-c3")
    text = MINI.format_position(started)
    assert text == position_string({"c3": "C", "e1": "C", "a5": "M", "d8": "c", "e8": "c"},
                                   made="Cd1-c3")
    again = MINI.parse_position(text)
    assert again == started
    assert MINI.format_move(again, MINI.parse_move(again, "Ma5-a6")) == "Ma5-a6"
    captured = play(board(LAST_CHIEFTAIN, number=9), "Mc2-c3")
    assert MINI.parse_position(MINI.format_position(captured)) == captured


def test_a_capture_in_progress_is_recorded_with_x() -> None:
    pieces = {"d1": "C", "e1": "C", "d2": "M", "e3": "m", "d8": "c", "e8": "c"}
    started = play(board(pieces), "d2xe3")
    assert MINI.format_position(started).split()[2] == "Md2xe3"
    assert MINI.parse_position(MINI.format_position(started)) == started


RELAY_AFTER_C = {"c3": "C", "e1": "C", "a5": "M", "d8": "c", "e8": "c"}


@pytest.mark.parametrize(("pieces", "made", "why"), [
    (RELAY_AFTER_C | {"a6": "M", "a5": None}, "Cd1-c3,Ma5-a6", "already over"),  # allowance
    (RELAY_AFTER_C, "Md1-c3", "must stand on c3"),
    (RELAY_AFTER_C | {"h5": "M"}, "Mh6-h5", "not legal there"),  # no Chieftain reaches h6
    (RELAY_AFTER_C | {"c4": "C", "c3": None}, "Cd1-c3,Cc3-c4", "not legal there"),  # twice
    (RELAY_AFTER_C, "Qd1-c3", "not a move written like Cd1-c3"),
    (RELAY_AFTER_C | {"d1": "M"}, "Cd1-c3", "d1 is not free"),
])
def test_a_turn_in_progress_that_cannot_be_is_refused(pieces: dict[str, str | None],
                                                      made: str, why: str) -> None:
    placed = {square: letter for square, letter in pieces.items() if letter is not None}
    with pytest.raises(PositionError, match=why):
        MINI.parse_position(position_string(placed, made=made))


# --- notation (§5) --------------------------------------------------------------------------
def test_input_may_omit_letters_swap_x_and_dash_and_separate_by_commas_semicolons_spaces() -> None:
    start = MINI.start_position()
    expected = MINI.parse_move(start, "Nb1-c3, Md2-d3")
    for text in ("b1-c3; d2-d3", "nb1xc3 md2xd3", "b1c3,d2d3", " Nb1 - c3 ,Md2-d3 "):
        assert MINI.parse_move(start, text) == expected, text


def test_short_input_names_a_move_by_letter_and_destination() -> None:
    start = MINI.start_position()
    assert MINI.parse_move(start, "Nc3") == Move((Step("b1", "c3", unit="N"),), "step")
    with pytest.raises(AmbiguousMoveError) as caught:
        MINI.parse_move(start, "Mb3")
    assert caught.value.candidates == ("Ma2-b3", "Mb2-b3", "Mc2-b3")


@pytest.mark.parametrize(("text", "reason"), [
    ("Qd1-d2", "'Q' is not a piece letter (C, H, S, N, M)"),
    ("d2", "a move is written like Cd1-c3 (piece letter, from, - or x, to), and moves are "
           "separated by commas"),
    ("Md2-d3, d4", "'d4' is not a move: a move is written like Cd1-c3"),
    ("", "there is no move in it"),
    ("end Md2-d3", "'end' must come after the last move"),
])
def test_syntax_errors_say_what_is_wrong(text: str, reason: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        MINI.parse_move(MINI.start_position(), text)
    assert reason in caught.value.reason


@pytest.mark.parametrize(("text", "reason"), [
    ("Md4-d5", "there is no piece on d4"),
    ("Me7-e6", "the Man on e7 is Black's, and it is White's turn"),
    ("Hd1-d3", "the piece on d1 is a Chieftain, not a Hero"),
    ("Cd1-d2", "d2 is occupied by your own Man"),
    ("Ha1-a5", "a Hero moves 1, 2 or 3 squares along one rank or file"),
    ("Sc1-c3", "a Shaman moves 1, 2 or 3 squares along one diagonal"),
    ("Nb1-b3", "a kNight moves like a chess knight (two squares one way, one the other)"),
    ("Ma2-a4", "a Man moves one square in any direction"),
    ("Cd1-d4", "a Chieftain moves 1 or 2 king steps"),
    ("Cd1-d3", "the Chieftain may not jump: every square between d1 and d3 (c2, d2, e2) is "
               "occupied"),
    ("Ha1-a1", "a move must leave its square"),
])
def test_illegal_moves_say_why(text: str, reason: str) -> None:
    assert refusal(MINI.start_position(), text) == reason


def test_the_heros_three_square_move_needs_one_of_the_two_middle_squares_empty() -> None:
    position = board({"d1": "C", "a1": "H", "a2": "M", "a3": "m", "h8": "c"})
    assert next_texts(position, "a1") == {"Ha1xa3", "Ha1-b1", "Ha1-c1"}
    assert refusal(position, "Ha1-a4") == (
        "the Hero's 3-square move from a1 to a4 needs a2 or a3 empty (step to a2 then leap, "
        "or leap to a3 then step); both are occupied")


def test_gold_and_silver_errors_name_their_moves() -> None:
    start = MICRO.start_position()
    assert refusal(start, "Gb2-b1", MICRO) == "b1 is occupied by your own kNight"
    assert refusal(start, "Gb2-a1", MICRO) == ("a Gold moves one square orthogonally or one "
                                               "square diagonally forward")
    assert refusal(start, "Vc2-c4", MICRO) == ("a Silver moves one square diagonally or one "
                                               "square straight forward")
    assert refusal(start, "Gd2-d4", MICRO) == ("a Gold moves one square orthogonally or one "
                                               "square diagonally forward")


def test_apply_checks_steps_in_the_order_given() -> None:
    position = board(RELAY)
    wrong = Move((Step("a5", "a6", unit="M"), Step("d1", "c3", unit="C")), "turn")
    with pytest.raises(IllegalMoveError, match="move 1, Ma5-a6: the Man on a5 cannot be "):
        MINI.apply(position, wrong)
    with pytest.raises(IllegalMoveError, match="the piece on d1 is a Chieftain, not a Hero"):
        MINI.apply(position, Move((Step("d1", "c3", unit="H"),), "step"))
    with pytest.raises(IllegalMoveError, match="a turn needs at least one move"):
        MINI.apply(position, Move((), "turn"))
    with pytest.raises(IllegalMoveError, match="the move is Cd1-c3$"):
        MINI.apply(position, Move((Step("d1", "c3", ("c3",), "C"),), "step"))


# --- the end of the game (§4) ---------------------------------------------------------------
def test_chieftains_may_be_left_attacked() -> None:
    position = board({"d1": "C", "e1": "C", "d2": "m", "d8": "c", "e8": "c"})
    assert "Ce1-f1" in next_texts(position)  # the d1 Chieftain stays attacked: no check


def test_no_legal_move_is_a_draw() -> None:
    pieces = {f"{f}{r}": "M" for f in "abcde" for r in range(1, 6)} | {"a1": "C", "h8": "c"}
    position = board(pieces)
    assert MINI.legal_moves(position) == []
    assert MINI.outcome(position) == ("draw", None, "White has no legal move")


def test_threefold_repetition_at_the_start_of_a_turn_is_a_draw() -> None:
    position = board({"d1": "C", "d8": "c"})
    history = [position]
    for text in ("Cd1-d2", "Cd8-d7", "Cd2-d1", "Cd7-d8") * 2:
        assert MINI.outcome(position, history[:-1]).status == "ongoing"
        position = play(position, text)
        history.append(position)
    assert history[0].cells == position.cells and position.fullmove == 5
    assert MINI.outcome(position, history[:-1]) == (
        "draw", None, "the same position occurred three times at the start of a turn")
    assert MINI.draw_by_agreement


def test_positions_in_the_middle_of_a_turn_do_not_count_for_repetition() -> None:
    start = MINI.start_position()
    middle = play(start, "Md2-d3")
    assert MINI.outcome(start, [middle, middle]).status == "ongoing"
    assert MINI.outcome(middle, [middle, middle]).status == "ongoing"


def test_a_position_without_any_chieftain_is_refused() -> None:
    with pytest.raises(PositionError, match="neither side has a Chieftain"):
        MINI.parse_position(position_string({"a1": "M", "h8": "m"}))
