"""Commander Chess notation (§9): FEN with its validity rules and the deploy-in-progress
suffix, SAN and LAN as written, what the parser accepts and refuses, and turns entered
step by step (§5.5)."""

from __future__ import annotations

import pytest

from engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
    PositionError,
    get_variant,
)

V = get_variant("commander")
START = ("6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/"
         "1N2FH1HF2/6C4 r - - 0 1")
EX12 = "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1"
EX13 = "7c1ee/11/11/11/11/11/11/2(NTI)8/11/11/11/6C2EE r - - 0 1"
EX14 = "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1"


def pos(fen: str) -> Position:
    return V.parse_position(fen, relaxed=True)


def san(position: Position, text: str) -> str:
    """The canonical SAN of the turn that ``text`` names."""
    return V.format_move(position, V.parse_move(position, text))


def lan(position: Position, text: str) -> str:
    return V.format_lan(position, V.parse_move(position, text))


def refused(position: Position, text: str, error: type = IllegalMoveError) -> str:
    with pytest.raises(error) as caught:
        V.parse_move(position, text)
    assert text in str(caught.value)
    return caught.value.reason  # type: ignore[attr-defined]


# --- §9.1 FEN -------------------------------------------------------------------------------------
def test_9_1_fen_round_trips_and_reads_counts_of_ten_and_eleven() -> None:
    assert V.format_position(V.parse_position(START)) == START
    p = V.parse_position("7c1ee/11/11/11/11/11/11/11/11/11/1N9/10C r - - 7 12")
    assert V.pieces_at(p, "b2")[0].letter == "N" and V.pieces_at(p, "k1")[0].letter == "C"
    assert (p.side, p.halfmove, p.fullmove) == (0, 7, 12)


def test_9_1_2_readers_accept_stack_pieces_in_any_order() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/2(ITN)8/11/11/11/6C2EE b - - 0 1")
    assert V.format_position(p) == "7c1ee/11/11/11/11/11/11/2(NTI)8/11/11/11/6C2EE b - - 0 1"


@pytest.mark.parametrize("fen, why", [
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C4 r - - 0", "six fields"),
    ("6c4/11/11/11/11/11/11/11/11/11/6C4 r - - 0 1", "12 ranks"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C3 r - - 0 1", "describes 10 squares"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C4 w - - 0 1", "r (Red) or b (Blue)"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C4 r KQ - 0 1", "always '-'"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C4 r - - -1 1", "half-move clock"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C4 r - - 0 0", "move number"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6X4 r - - 0 1", "not a piece"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6(CT)(TA)2 r - - 0 1", "not a valid stack"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C(Tt)3 r - - 0 1", "mixes Red and Blue"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/1T4C4 r - - 0 1", "land-capable"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/3N2C4 r - - 0 1", "water"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/11 b - - 0 1", "exactly one commander"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/3CC1C4 r - - 0 1", "exactly one commander"),
    ("6c4/11/11/11/11/11/11/11/11/11/11/6C1MMM r - - 0 1", "pieces M"),
])
def test_9_1_3_invalid_positions_are_refused_with_the_reason(fen: str, why: str) -> None:
    with pytest.raises(PositionError) as caught:
        V.parse_position(fen)
    assert why in str(caught.value) and fen in str(caught.value)


def test_9_1_3_the_final_position_of_a_won_game_is_read_but_cannot_be_played() -> None:
    final = "9ee/11/11/11/11/11/4T6/3g1g5/11/11/11/6C2EE b - - 0 1"
    p = V.parse_position(final)
    assert V.format_position(p) == final
    assert V.legal_moves(p) == [] and V.outcome(p).winner == 0
    for bad in ("9ee/11/11/11/11/11/4T6/3g1g5/11/11/11/6C2EE r - - 0 1",  # Red to move
                "9ee/11/11/11/11/11/4T6/3g1g5/11/11/11/9EE b - - 0 1"):  # no commander at all
        with pytest.raises(PositionError) as caught:
            V.parse_position(bad)
        assert "exactly one commander" in str(caught.value)
    assert V.outcome(V.parse_position(bad, relaxed=True)).is_over


def test_9_1_4_the_deploy_in_progress_suffix() -> None:
    text = EX12 + " e4:I:T>e6..."
    partial = V.parse_position(text)
    assert partial.pending and partial.side == 0
    assert V.format_position(partial) == text
    assert V.pieces_at(partial, "e6")[0].letter == "T"
    assert [p.letter for p in V.pieces_at(partial, "e4")] == ["I"]
    for bad, why in ((EX12 + " e4:I:T>e9...", "not the start of a legal turn"),
                     (EX12 + " e4:T:T>e6...", "holds I"),
                     (EX12 + " e4:I:T>e6", "deploy in progress")):
        with pytest.raises(PositionError) as caught:
            V.parse_position(bad)
        assert why in str(caught.value)


# --- §9.2 SAN, §9.3 LAN ---------------------------------------------------------------------------
def test_9_2_2_single_and_whole_stack_moves() -> None:
    p = pos("7c1ee/11/11/11/11/2i8/2(NF)8/11/4+T6/1n1A7/1N9/6C2EE r - - 0 1")
    assert san(p, "+Te5") == "+Te5"
    assert san(p, "(NF)xc7") == "(NF)xc7"
    assert san(p, "A_b3") == "A_b3"
    assert lan(p, "A_b3") == "Ad3_b3"
    assert lan(p, "+Te5") == "+Te4e5"
    assert lan(p, "(NF)xc7") == "(NF)c6xc7"


def test_9_2_2_disambiguation_by_file_rank_or_square() -> None:
    start = V.start_position()
    assert {san(start, t) for t in ("Feg2", "Fig2", "Nbc3", "Ncc3", "Tfg4", "Thg4")} == {
        "Feg2", "Fig2", "Nbc3", "Ncc3", "Tfg4", "Thg4"}
    two = pos("7c1ee/11/11/11/11/11/11/11/3A7/11/1n1A7/6C2EE r - - 0 1")
    assert {V.format_move(two, m) for m in V.legal_moves(two) if "b2" in m.captures} == {
        "A2_b2", "A4_b2"}
    three = pos("7c1ee/11/11/11/11/11/4A6/11/11/11/2A1A6/6C2EE r - - 0 1")
    assert {V.format_move(three, m) for m in V.legal_moves(three) if m.target == "e4"} == {
        "Ae2e4", "A6e4", "Ace4"}


def test_9_2_3_deploys_write_the_stay_part_and_the_steps_in_order() -> None:
    p = pos(EX14)
    assert san(p, "(NF)<T>xe6") == "(NF)<T>xe6"
    assert lan(p, "(NF)<T>xe6") == "c6:(NF):T>xe6"
    assert lan(p, "N>xc9,T>xe6,F>xf9") == "c6::N>xc9,T>xe6,F>xf9"
    assert san(pos(EX12), "I<T>e6") == "I<T>e6"
    assert lan(pos(EX12), "I<T>e6") == "e4:I:T>e6"


def test_9_2_3_a_deploy_that_two_stacks_could_make_is_written_long() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/3(TI)1(TI)5/11/11/6C2EE r - - 0 1")
    texts = {V.format_move(p, m) for m in V.legal_moves(p)}
    assert {"d4:T:I>e4", "f4:T:I>e4"} <= texts
    assert "T<I>e4" not in texts
    assert "T<I>c4" in texts  # only d4 can make this one
    with pytest.raises(AmbiguousMoveError) as caught:
        V.parse_move(p, "T<I>e4")
    assert set(caught.value.candidates) == {"d4:T:I>e4", "f4:T:I>e4"}
    assert san(p, "d4:T:I>e4") == "d4:T:I>e4"


# --- §9.4 what the parser accepts --------------------------------------------------------------
def test_9_4_1_white_space_and_trailing_annotations_are_ignored() -> None:
    start = V.start_position()
    for text in ("  Fe3  ", "Fe3+", "Fe3#", "Fe3^", "Fe3!!", "Fe3+!?", "\tFe3?\n"):
        assert san(start, text) == "Fe3"


def test_9_4_2_3_over_disambiguated_and_dashed_long_forms() -> None:
    start = V.start_position()
    for text in ("Fe2e3", "Fee3", "F2e3", "Fe2-e3"):
        assert san(start, text) == "Fe3"
    assert san(start, "Ed5-d6") == "Ed6"


def test_9_4_4_stack_letters_in_any_order() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/11/11/1(NF)9/6C2EE r - - 0 1")
    assert san(p, "(FN)b6") == "(NF)b6"
    assert san(p, "(FN)b2b6") == "(NF)b6"


def test_9_4_5_heroic_marks_may_be_left_out_but_never_wrongly_written() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/4+T6/11/11/6C2EE r - - 0 1")
    assert san(p, "Te5") == "+Te5"
    plain = pos("7c1ee/11/11/11/11/11/11/11/4T6/11/11/6C2EE r - - 0 1")
    assert "not heroic" in refused(plain, "+Te5")
    mixed = pos("7c1ee/11/11/11/11/11/11/2(N+TT)8/11/11/11/6C2EE r - - 0 1")
    assert san(mixed, "(N+T)<T>d5") == "(N+T)<T>d5"  # the plain tank leaves
    assert san(mixed, "(NT)<+T>d5") == "(NT)<+T>d5"  # the heroic one leaves
    with pytest.raises(AmbiguousMoveError) as caught:  # no + written: either tank fits
        V.parse_move(mixed, "(NT)<T>d5")
    assert set(caught.value.candidates) == {"(N+T)<T>d5", "(NT)<+T>d5"}


def test_9_4_6_deploys_in_san_or_lan_with_the_order_as_written() -> None:
    p = pos(EX14)
    a = V.parse_move(p, "N>xc9,T>xe6,F>xf9")
    b = V.parse_move(p, "c6::F>xf9,T>xe6,N>xc9")
    assert a != b and [s.unit for s in b.steps] == ["F", "T", "N"]


def test_9_4_7_a_left_out_capture_or_join_symbol_when_only_one_turn_fits() -> None:
    start = V.start_position()
    assert san(start, "Nc5") == "N&c5"
    p = pos("7c1ee/11/11/4t6/11/4i6/11/11/4F6/11/11/6C2EE r - - 0 1")
    assert san(p, "Fxe7") == "Fxe7" and san(p, "F_e7") == "F_e7"
    with pytest.raises(AmbiguousMoveError) as caught:
        V.parse_move(p, "Fe7")
    assert set(caught.value.candidates) == {"Fxe7", "F_e7"}


def test_9_4_8_a_pair_moving_together_and_a_whole_stack_written_with_arrow() -> None:
    p = pos(EX13)
    assert san(p, "(TI)>d5") == "N<T>d5,I>&d5"
    assert san(p, "(NTI)>c9") == "(NTI)c9"
    assert san(pos(EX12), "(TI)>e5") == "(TI)e5"


def test_9_2_3_a_piece_standing_alone_written_as_a_step_is_its_move() -> None:
    start = V.start_position()
    assert san(start, "I>c6") == "Ic6" and san(start, "Tf4>f5") == "Tf5"
    # when a stack's piece can make the step too, the step is the deploy's
    p = pos("7c1ee/11/11/11/11/11/11/4I6/3(TI)7/11/11/6C2EE r - - 0 1")
    assert V.parse_move(p, "I>d5").kind == "step" and V.parse_move(p, "I>d5").origin == "d4"
    assert san(p, "Id5") == "Id5" and V.parse_move(p, "Id5").origin == "e5"


@pytest.mark.parametrize("text", ["fe3", "FE3", "f>e3", "(nf)b6", "Fe13", "Fz3", "", "   ",
                                  "Fe3-", "F-xe3", "T>e6;I>e5"])
def test_9_4_case_rules_and_malformed_text_are_syntax_errors(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        V.parse_move(V.start_position(), text)


def test_9_4_case_rule_messages_say_what_to_write() -> None:
    assert "upper case" in refused(V.start_position(), "fe3", MoveSyntaxError)
    assert "lower case" in refused(V.start_position(), "FE3", MoveSyntaxError)


# --- refusals give the reason ---------------------------------------------------------------------
def test_refusals_name_the_rule() -> None:
    start = V.start_position()
    assert "ambiguous" in str(pytest.raises(AmbiguousMoveError, V.parse_move, start, "Tg4")
                              .value)
    assert "cannot move" in refused(start, "Hf3")
    assert "out of reach" in refused(start, "Fe7")
    assert "blocked" in refused(start, "Ad6")
    assert "carry table" in refused(start, "F&e4")
    assert "stack (NF)" in refused(pos("7c1ee/11/11/11/11/11/11/11/11/11/1(NF)9/6C2EE r - - 0 "
                                       "1"), "Nb6")
    assert "deep water" in refused(pos("7c1ee/11/11/11/11/11/4A6/11/11/11/11/6C2EE r - - 0 1"),
                                   "Ae8")
    assert "shot down" in refused(pos("7c1ee/11/11/11/4g1s4/11/11/11/4F6/11/11/6C2EE r - - 0 1"),
                                  "Fh7")
    assert "only trade itself" in refused(pos("7c1ee/11/11/11/11/11/11/4g6/11/11/4F6/6C2EE r - "
                                              "- 0 1"), "Fxe5")
    assert "must land" in refused(pos("7c1ee/11/11/11/11/4i6/11/11/4F6/11/11/6C2EE r - - 0 1"),
                                  "F_e7")
    assert "without moving" in refused(pos("7c1ee/11/11/11/11/11/11/11/11/n1T8/11/6C2EE r - "
                                           "- 0 1"), "Txa3")
    assert "not heroic" in refused(start, "+Hg3")
    assert "you have no" in refused(start, "(TI)e5")
    assert "attacked" in refused(pos("7c1ee/11/11/11/11/11/11/11/11/5t5/11/6C2EE r - - 0 1"),
                                 "Cf1")
    assert "face each other" in refused(pos("4c4ee/11/11/11/11/11/11/11/11/11/11/3C5EE r - - 0 "
                                            "1"), "Ce1")
    assert "game is over" in refused(pos("3c7/11/11/11/11/11/11/11/11/3G6+t/11/9IC r - - 0 1"),
                                     "Gd4")


@pytest.mark.parametrize(("text", "reason"), [
    ("N1c9", "you have no navy on rank 1; yours are on b2 and c4"),
    ("Nac9", "you have no navy on file a; yours are on b2 and c4"),
    ("Nb1c9", "you have no navy on b1; yours are on b2 and c4"),
])
def test_a_start_no_piece_of_that_kind_stands_on_is_named_with_where_they_stand(
        text: str, reason: str) -> None:
    """The navies stand alone on b2 and c4: a start written on rank 1, file a or b1 fits
    none of them, and the refusal says so (not that a lone navy is "part of a stack")."""
    assert refused(V.start_position(), text) == reason


def test_a_piece_carried_in_a_stack_is_told_to_move_the_stack_or_deploy() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1")
    assert refused(p, "Ie5") == ("the infantry on e4 is part of the stack (TI): move the "
                                 "whole stack as (TI)e5, or deploy the piece, as in T<I>e5")
    assert refused(p, "T1e5") == "you have no tank on rank 1; yours is on e4"


# --- step by step (§5.5) --------------------------------------------------------------------------
def test_steps_may_name_their_origin_and_end_the_turn_by_themselves() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/3(TI)1(TI)5/11/11/6C2EE r - - 0 1")
    with pytest.raises(AmbiguousMoveError):
        V.parse_move(p, "I>e4")
    step = V.parse_move(p, "Id4>e4")
    assert step.kind == "step" and step.origin == "d4"
    assert V.format_move(p, step) == "Id>e4"
    partial = V.apply(p, step)
    done = V.apply(partial, V.parse_move(partial, "T>d3"))  # nothing left on d4: complete
    assert not done.pending and done.side == 1


def test_a_side_shown_to_move_in_a_turn_in_progress_has_the_board_as_it_stands() -> None:
    """`as_if_to_move` (a waiting player planning): Blue shown to move while Red's deploy
    is half made sees the pieces where they stand, with no turn in progress."""
    p = pos("7c1ee/11/11/11/11/11/11/11/3(TI)1(TI)5/11/11/6C2EE r - - 0 1")
    partial = V.apply(p, V.parse_move(p, "Id4>e4"))
    blue = V.as_if_to_move(partial, 1)
    assert (blue.side, blue.pending, blue.extra, blue.cells) == (1, (), (), partial.cells)
    assert V.format_position(blue) == "7c1ee/11/11/11/11/11/11/11/3TI(TI)5/11/11/6C2EE b - - 0 1"
    assert sorted({m.origin for m in V.next_steps(blue)}) == ["h12", "j12", "k12"]
    assert V.as_if_to_move(p, 0) is p  # Red is to move there already


def test_a_step_that_captures_the_commander_ends_the_turn() -> None:
    p = V.parse_position("9ee/11/11/11/11/11/4c6/3gig5/4(FT)6/11/11/6C2EE r - - 0 1")
    partial = V.apply(p, V.parse_move(p, "F>@e5"))
    assert partial.pending and V.format_position(partial).endswith(":T:F>@e5...")
    assert {V.format_move(partial, m) for m in V.legal_moves(partial)} == {
        "T>e5", "T>xe6", "T>e3", "T>e2", "T>f4", "T>g4", "T>d4", "T>c4"}
    done = V.apply(partial, V.parse_move(partial, "T>xe6"))
    assert V.outcome(done).winner == 0


def test_steps_are_refused_when_no_legal_turn_could_follow() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/11/n(NT)9/11/6C2EE r - - 0 1")
    # the tank firing at a3 leaves no way to finish the turn (example 24 B)
    assert "no legal turn starts with these steps" in refused(p, "T>_a3")
    partial = V.apply(p, V.parse_move(p, "N>b5"))
    assert "cannot stand on the sea square b1" in refused(partial, "T>b1")
    with pytest.raises(IllegalMoveError) as caught:
        V.end_turn(partial)
    assert "sea square b3" in caught.value.reason
    with pytest.raises(IllegalMoveError):
        V.end_turn(p)


def test_a_whole_turn_written_on_a_turn_in_progress_is_refused() -> None:
    partial = V.apply(pos(EX12), V.parse_move(pos(EX12), "T>e6"))
    assert "in progress" in refused(partial, "Ce1")
    assert "at most once" in refused(partial, "T>e5")
