"""Commander Chess: every worked example of the rule file (§10, and the two of §7.5), each as
its own test asserting exactly what the rules say: the set of legal turns, the position
after a turn, or the outcome."""

from __future__ import annotations

import pytest

from engine import IllegalMoveError, Position, get_variant

V = get_variant("commander")
START = ("6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/"
         "1N2FH1HF2/6C4 r - - 0 1")


def pos(fen: str) -> Position:
    return V.parse_position(fen)


def sans(position: Position, origin: str | None = None) -> set[str]:
    """The SAN of every legal turn, or of those starting on ``origin``."""
    return {V.format_move(position, m) for m in V.legal_moves(position)
            if origin is None or m.origin == origin}


def count(position: Position, origin: str) -> int:
    return sum(1 for m in V.legal_moves(position) if m.origin == origin)


def play(position: Position, text: str) -> Position:
    return V.apply(position, V.parse_move(position, text))


def fen_after(fen: str, text: str) -> str:
    return V.format_position(play(pos(fen), text))


def refused(position: Position, text: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        V.parse_move(position, text)
    return caught.value.reason


# --- Example 1 ------------------------------------------------------------------------------
EXAMPLE_1 = {
    "g1": "Cc1 Cd1 Ce1 Cf1 Cg2 Ch1 Ci1 Cj1 Ck1",
    "e2": "F&b2 Fc2 F&c4 Fd1 Fd2 Fe1 Fe3 Fe5 Fee6 Ff1 Ff3 Feg2 Feg4 Fh5 Fei6",
    "i2": "Fie6 Ff5 Fig2 Fig4 Fh1 Fh3 Fi1 Fi3 Fi5 Fii6 Fj1 Fj2 Fk2 Fk4",
    "b2": "Na1 Nba2 Na3 Nb1 Nbb3 Nbb4 Nbb5 Nb6 Nbc1 Nbc2 Nbc3",
    "c4": "Nca2 Na4 Na6 Ncb3 Ncb4 Ncb5 Ncc1 Ncc2 Ncc3 N&c5 Nc6 Nc7",
    "d3": "Ac2 Ac3 Ad1 Ad2 Ad4 A&d5 Ae3 Af3",
    "j3": "Ah3 Ai3 Aj1 Aj2 Aj4 A&j5 Ak2 Ak3 Ak4",
    "g3": "Se3 Sf3 Sg2 Sg4 Sh3 Si3",
    "e4": "Gd4 Ge3 Ge5",
    "i4": "Gi3 Gi5 Gj4",
    "f4": "Tf3 Tf5 Tf6 Tfg4",
    "h4": "Thg4 Th3 Th5 Th6",
    "c5": "I&c4 Ic6",
    "k5": "Ik4 Ik6",
    "d5": "Ed4 Ed6 Ee5",
    "j5": "Ei5 Ej4 Ej6",
    "g5": "M&f4 Mf5 Mf6 Mg4 Mg6 M&h4 Mh5 Mh6",
}


def test_example_1_reds_116_legal_turns_in_the_start_position() -> None:
    start = V.start_position()
    assert V.format_position(start) == START
    expected = {san for texts in EXAMPLE_1.values() for san in texts.split()}
    assert len(expected) == 116
    assert sans(start) == expected
    for origin, texts in EXAMPLE_1.items():
        assert sans(start, origin) == set(texts.split()), origin
    assert sans(start, "f2") == sans(start, "h2") == set()
    assert V.perft(start, 1) == 116


# --- Examples 2-11: single pieces ---------------------------------------------------------
def test_example_2_navy_destinations() -> None:
    start = V.start_position()
    assert sans(start, "b2") == {"Na1", "Nba2", "Na3", "Nb1", "Nbb3", "Nbb4", "Nbb5", "Nb6",
                                 "Nbc1", "Nbc2", "Nbc3"}
    assert {m.target for m in V.legal_moves(start) if m.origin == "c4"} == {
        "a2", "a4", "a6", "b3", "b4", "b5", "c1", "c2", "c3", "c5", "c6", "c7"}


def test_example_3_heavy_piece_at_the_river() -> None:
    p = pos("7c1ee/11/11/11/4i6/11/11/4A6/11/11/11/6C2EE r - - 0 1")
    assert sans(p, "e5") == {"Ac3", "Ac5", "Ad4", "Ad5", "Ad6", "Ae2", "Ae3", "Ae4", "Ae6",
                             "Af4", "Af5", "Af6", "Ag3", "Ag5", "Ah2", "Ah5", "Axe8"}
    assert fen_after("7c1ee/11/11/11/4i6/11/11/4A6/11/11/11/6C2EE r - - 0 1", "Axe8") == \
        "7c1ee/11/11/11/4A6/11/11/11/11/11/11/6C2EE b - - 0 1"


def test_example_4_heavy_piece_on_a_reef_file() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/5A5/11/11/11/6C2EE r - - 0 1")
    assert sans(p, "f5") == {"Ac2", "Ac5", "Ad3", "Ad5", "Ae4", "Ae5", "Ae6", "Af2", "Af3",
                             "Af4", "Af6", "Af7", "Af8", "Ag4", "Ag5", "Ag6", "Ah3", "Ah5",
                             "Ai2", "Ai5"}


def test_example_5_the_flight_e2_e6_is_shot_down() -> None:
    fen = "7c1ee/11/11/11/11/11/11/4g6/11/11/4F6/6C2EE r - - 0 1"
    p = pos(fen)
    assert sans(p, "e2") == {"F@e5", "Fc2", "Fc4", "Fd1", "Fd2", "Fd3", "Fe1", "Fe3", "Ff1",
                             "Ff2", "Ff3", "Fg2", "Fg4", "Fh2", "Fh5", "Fi2", "Fi6"}
    assert "shot down" in refused(p, "Fe6")
    assert "shot down" in refused(p, "Fe4")
    assert fen_after(fen, "F@e5") == "7c1ee/11/11/11/11/11/11/11/11/11/11/6C2EE b - - 0 1"


def test_example_6_two_overlapping_zones() -> None:
    a = pos("7c1ee/11/11/11/4g6/11/11/11/4F6/11/11/6C2EE r - - 0 1")
    b = pos("7c1ee/11/11/11/4g1s4/11/11/11/4F6/11/11/6C2EE r - - 0 1")
    c = pos("7c1ee/11/11/11/4g6/6s4/11/11/4F6/11/11/6C2EE r - - 0 1")
    in_a = {"F@e8", "Fc2", "Fc4", "Fc6", "Fd3", "Fd4", "Fd5", "Fe1", "Fe2", "Fe3", "Fe5",
            "Fe6", "Ff3", "Ff4", "Ff5", "Fg2", "Fg4", "Fg6", "Fh1", "Fh4", "Fh7", "Fi4", "Fi8"}
    assert sans(a, "e4") == in_a
    assert sans(b, "e4") == in_a - {"Fg6", "Fh7", "Fi8"}
    assert sans(c, "e4") == in_a - {"F@e8", "Fg6", "Fh7", "Fi8"}


def test_example_7_the_air_force_exception() -> None:
    a = pos("7c1ee/11/11/4t6/11/4i6/11/11/4F6/11/11/6C2EE r - - 0 1")
    b = pos("7c1ee/11/11/11/11/4i6/11/11/4F6/11/11/6C2EE r - - 0 1")
    common = {"Fc2", "Fc4", "Fc6", "Fd3", "Fd4", "Fd5", "Fe1", "Fe2", "Fe3", "Fe5", "Fe6",
              "Fe8", "Ff3", "Ff4", "Ff5", "Fg2", "Fg4", "Fg6", "Fh1", "Fh4", "Fh7", "Fi4",
              "Fi8", "Fxe7"}
    assert sans(a, "e4") == common | {"F_e7"}
    assert sans(b, "e4") == common


def test_example_8_air_force_against_a_navy_at_sea() -> None:
    a = pos("7c1ee/11/11/11/11/11/11/1n1F7/11/11/11/6C2EE r - - 0 1")
    b = pos("7c1ee/11/11/11/11/11/11/1n1+F7/11/11/11/6C2EE r - - 0 1")
    assert count(a, "d5") == 23
    assert {"F@b5", "Fc4", "Fc6"} <= sans(a, "d5")
    assert "Fc5" not in sans(a, "d5")
    assert count(b, "d5") == 27
    assert {"+F_b5", "+Fc5", "+Fi5"} <= sans(b, "d5")
    assert not any("b5" in s and s != "+F_b5" for s in sans(b, "d5"))


def test_example_9_navy_capture_kinds() -> None:
    p = pos("7c1ee/11/11/11/2t8/4n6/11/2N2i5/11/11/11/6C2EE r - - 0 1")
    assert sans(p, "c5") == {"Nxc8", "N_e7", "N_f5", "Nc6", "Nc7", "Nc4", "Nc3", "Nc2", "Nc1",
                             "Nb4", "Na3", "Nb5", "Na5", "Nb6", "Na7"}


def test_example_10_what_blocks_a_navy() -> None:
    a = pos("7c1ee/11/11/11/11/11/11/2i8/11/2N8/11/6C2EE r - - 0 1")
    b = pos("7c1ee/11/11/11/11/11/11/2I8/11/2N8/11/6C2EE r - - 0 1")
    assert sans(a, "c3") == {"Na1", "Na3", "Na5", "Nb2", "Nb3", "Nb4", "Nc1", "Nc2", "Nc4",
                             "Nxc5"}
    assert sans(b, "c3") == {"Na1", "Na3", "Na5", "Nb2", "Nb3", "Nb4", "Nc1", "Nc2", "Nc4",
                             "N&c5", "Nc6", "Nc7"}


def test_example_11_missile_and_navy_target_restrictions() -> None:
    a = pos("7c1ee/11/11/11/11/3f7/2n8/1n1S7/11/11/11/6C2EE r - - 0 1")
    b = pos("7c1ee/11/11/11/11/11/2f8/2N8/11/11/11/6C2EE r - - 0 1")
    assert sans(a, "d5") == {"Sc4", "Sc5", "Sd3", "Sd4", "Sd6", "Se4", "Se5", "Se6", "Sf5",
                             "Sxd7"}
    assert sans(b, "c5") == {"Na3", "Na5", "Na7", "Nb4", "Nb5", "Nb6", "Nc1", "Nc2", "Nc3",
                             "Nc4"}


# --- Examples 12-19: stacks, deploys, commanders ----------------------------------------------
EX12 = "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1"


def test_example_12_a_tank_carrying_an_infantry_has_80_turns() -> None:
    p = pos(EX12)
    tank = ["c4", "d4", "e2", "e3", "e5", "e6", "f4", "g4"]
    infantry = ["d4", "e3", "e5", "f4"]
    expected = {f"(TI){t}" for t in tank} | {f"I<T>{t}" for t in tank}
    expected |= {f"T<I>{i}" for i in infantry}
    expected |= {f"T>{t},I>{'&' if i == t else ''}{i}" for t in tank for i in infantry}
    # the infantry first: the tank may join it, and cannot pass it
    for i in infantry:
        blocked = {"d4": "c4", "e3": "e2", "e5": "e6", "f4": "g4"}[i]
        expected |= {f"I>{i},T>{'&' if t == i else ''}{t}" for t in tank if t != blocked}
    assert len(expected) == 80
    assert sans(p, "e4") == expected
    assert "I>e5,T>e6" not in sans(p, "e4")
    after = "7c1ee/11/11/11/11/11/11/4(TI)6/11/11/11/6C2EE b - - 1 1"
    assert fen_after(EX12, "T>e6,I>e5") == \
        "7c1ee/11/11/11/11/11/4T6/4I6/11/11/11/6C2EE b - - 1 1"
    assert fen_after(EX12, "I<T>e6") == "7c1ee/11/11/11/11/11/4T6/11/4I6/11/11/6C2EE b - - 1 1"
    assert fen_after(EX12, "T>e5,I>&e5") == fen_after(EX12, "(TI)e5") == after
    assert V.parse_move(p, "T>e5,I>&e5") != V.parse_move(p, "(TI)e5")
    assert V.parse_move(p, "T>c4,I>e5") != V.parse_move(p, "I>e5,T>c4")


def test_example_13_splitting_a_three_piece_stack() -> None:
    fen = "7c1ee/11/11/11/11/11/11/2(NTI)8/11/11/11/6C2EE r - - 0 1"
    p = pos(fen)
    turns = sans(p, "c5")
    assert len(turns) == 1723
    assert {"N<T>d5,I>&d5", "N<I>d5,T>&d5", "N<T>e5,I>d5", "(TI)<N>a3", "T>e5,I>c6,N>b5",
            "(NTI)c9"} <= turns
    assert "N<T>e5,I>&e5" not in turns
    assert fen_after(fen, "N<T>d5,I>&d5") == fen_after(fen, "N<I>d5,T>&d5") == \
        "7c1ee/11/11/11/11/11/11/2N(TI)7/11/11/11/6C2EE b - - 1 1"


EX14 = "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1"


def test_example_14_three_captures_in_one_turn() -> None:
    p = pos(EX14)
    after = play(p, "N>xc9,T>xe6,F>xf9")
    assert V.format_position(after) == "7c1ee/11/11/2N2F5/11/11/4T6/11/11/11/11/6C2EE b - - 0 1"
    assert V.format_position(play(p, "F>xf9,T>xe6,N>xc9")) == V.format_position(after)
    assert V.parse_move(p, "F>xf9,T>xe6,N>xc9") != V.parse_move(p, "N>xc9,T>xe6,F>xf9")
    assert {"(NF)<T>xe6", "N<T>xe6,F>xf9", "(NT)<F>xf9", "(NFT)xc9"} <= sans(p, "c6")
    assert not any("F>_f9" in s for s in sans(p, "c6"))  # landing on f9 is safe
    assert V.destroyed_points(after, [p]) == (80 + 30 + 10, 0)


EX15 = "7c1ee/11/11/11/11/11/1(NF)g8/11/11/11/11/6C2EE r - - 0 1"


def test_example_15_a_carried_air_force_inside_a_zone() -> None:
    p = pos(EX15)
    turns = sans(p, "b6")
    whole = {t for t in turns if t.startswith("(NF)") and "<" not in t}
    assert whole == {"(NF)a5", "(NF)a6", "(NF)a7", "(NF)b2", "(NF)b3", "(NF)b4", "(NF)b5",
                     "(NF)b7", "(NF)b8", "(NF)b9", "(NF)b10", "(NF)c5", "(NF)c7", "(NF)xc6"}
    assert {t for t in turns if t.startswith("N<F>")} == {"N<F>@c6"}
    assert {"N>b9,F>&b9", "N>xc6,F>&c6"} <= turns
    assert "N>c5,F>&c5" not in turns
    assert len(turns) == 67


def test_example_16_the_commanders_line_of_sight() -> None:
    a = pos("4c4ee/11/11/11/11/11/11/11/11/11/11/3C5EE r - - 0 1")
    b = pos("4c4ee/11/11/11/11/11/11/11/11/11/11/3(TC)5EE r - - 0 1")
    assert sans(a, "d1") == {"Cc1"} | {f"Cd{r}" for r in range(2, 12)}
    turns = sans(b, "d1")
    assert {"(TC)f1", "C<T>e1", "T>d3,C>&d3"} <= turns
    assert not {"(TC)e1", "T<C>e1", "T<C>f1", "T>f1,C>&f1"} & turns
    assert {t for t in turns if t.startswith("(TC)")} == {"(TC)c1", "(TC)d2", "(TC)d3",
                                                          "(TC)f1"}
    assert len(turns) == 112
    assert "face each other" in refused(b, "(TC)e1")
    assert "line of sight" in refused(b, "T<C>f1")


def test_example_17_boarding_a_navy_at_sea() -> None:
    p = pos("7c1ee/11/11/11/11/11/11/11/11/1NC8/11/9EE r - - 0 1")
    assert sans(p, "c3") == {"C&b3", "Cc1", "Cc2", "Cd3", "Ce3", "Cf3", "Cg3"} | {
        f"Cc{r}" for r in range(4, 12)}
    assert V.format_position(play(p, "C&b3")) == \
        "7c1ee/11/11/11/11/11/11/11/11/1(NC)9/11/9EE b - - 1 1"
    tank = pos("7c1ee/11/11/11/11/11/11/11/11/1N1T7/11/6C2EE r - - 0 1")
    assert "T&b3" in sans(tank, "d3")


def test_example_18_entering_a_deploy_step_by_step() -> None:
    p = pos(EX12)
    step = V.parse_move(p, "T>e6")
    assert step.kind == "step"
    partial = V.apply(p, step)
    assert partial.side == 0 and partial.pending
    assert V.format_position(partial) == \
        "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1 e4:I:T>e6..."
    assert V.parse_position(V.format_position(partial)) == partial
    done = play(partial, "I>e5")
    assert V.format_position(done) == "7c1ee/11/11/11/11/11/4T6/4I6/11/11/11/6C2EE b - - 1 1"
    turn = V.turn_so_far(partial)
    assert V.format_move(p, turn) == "I<T>e6"
    whole = V.parse_move(p, "T>e6,I>e5")
    assert V.format_move(p, whole) == "T>e6,I>e5"
    assert V.format_lan(p, whole) == "e4::T>e6,I>e5"
    assert V.format_lan(p, turn) == "e4:I:T>e6"
    assert V.format_position(V.end_turn(partial)) == \
        "7c1ee/11/11/11/11/11/4T6/11/4I6/11/11/6C2EE b - - 1 1"


def test_example_19_commander_and_headquarters() -> None:
    a = pos("7c1ee/11/11/11/11/11/11/11/11/11/6H4/6C2EE r - - 0 1")
    b = pos("7c1ee/11/11/11/11/11/11/11/11/11/11/6(HC)2EE r - - 0 1")
    assert sans(a, "g1") == {"C&g2", "Cc1", "Cd1", "Ce1", "Cf1"}
    assert sans(b, "g1") == {"H<C>c1", "H<C>d1", "H<C>e1", "H<C>f1"} | {
        f"H<C>g{r}" for r in range(2, 12)}


# --- Examples 20-24: heroes, the end of the game, firing from a stack ------------------------
def test_example_20_promotion_by_check() -> None:
    fen = "6c2ee/4T6/11/11/11/11/11/11/11/11/11/5C3EE r - - 0 1"
    p = pos(fen)
    assert sans(p, "e11") == {"Tc11", "Td11", "Te10", "Te9", "Te12", "Tf11", "Tg11"}
    assert fen_after(fen, "Te12") == "4+T1c2ee/11/11/11/11/11/11/11/11/11/11/5C3EE b - - 1 1"
    assert fen_after(fen, "Tg11").split("/")[1] == "6+T4"
    for quiet in ("Tc11", "Td11", "Te10", "Te9", "Tf11"):
        assert "+" not in fen_after(fen, quiet)


def test_example_21_last_guard_including_a_headquarters() -> None:
    p = pos("3c5ee/11/11/11/11/11/11/7t3/11/7I3/7H3/6C4 b - - 0 1")
    after = play(p, "Txh3")
    assert V.format_position(after) == "3c5ee/11/11/11/11/11/11/11/11/7t3/7+H3/6C4 r - - 0 2"
    hq = {"+Hxh3", "+Hi3", "+Hj4", "+Hi2", "+Hj2", "+Hi1", "+Hh1", "+H&g1", "+Hg2", "+Hf2",
          "+Hg3", "+Hf4"}
    commander = {"Ce1", "Cf1", "Ch1", "Ci1", "Cj1", "Ck1", "Cg2"} | {
        f"Cg{r}" for r in range(4, 12)}
    assert sans(after, "h2") == hq
    assert sans(after, "g1") == commander
    assert len(V.legal_moves(after)) == 27


def test_example_22_checkmate() -> None:
    p = pos("3c7/11/11/11/11/11/11/11/11/3G6+t/11/9IC r - - 0 1")
    assert V.legal_moves(p) == []
    assert V.outcome(p).status == "win" and V.outcome(p).winner == 1
    assert "checkmated" in V.outcome(p).reason
    assert "Red is in check" in V.status_text(p)


def test_example_23_stalemate() -> None:
    p = pos("7c3/11/11/11/11/11/11/11/10m/9t1/8t2/10C r - - 0 1")
    assert V.legal_moves(p) == []
    assert V.outcome(p).status == "draw" and "stalemate" in V.outcome(p).reason


def test_example_24_firing_from_inside_a_stack() -> None:
    fen_a = "7c1ee/11/11/11/11/11/11/11/2(NT)1i6/11/11/6C2EE r - - 0 1"
    a = pos(fen_a)
    turns = sans(a, "c4")
    assert {"(NT)_e4", "N<N>_e4,T>e4", "N<T>d4,N>_e4", "N<T>xe4"} <= turns
    assert "T<N>_e4" not in turns
    assert len(turns) == 199
    assert fen_after(fen_a, "N<N>_e4,T>e4") == \
        "7c1ee/11/11/11/11/11/11/11/2N1T6/11/11/6C2EE b - - 0 1"
    b = pos("7c1ee/11/11/11/11/11/11/11/11/n(NT)9/11/6C2EE r - - 0 1")
    turns = sans(b, "b3")
    assert {t for t in turns if "a3" in t} == {"(NT)xa3", "N>xa3,T>c3", "N>xa3,T>d3",
                                               "N>xa3,T>&a3", "T>c3,N>xa3", "T>d3,N>xa3"}
    assert len(turns) == 64


# --- the two examples of §7.5 -------------------------------------------------------------
def test_section_7_5_a_deploy_clears_the_way_to_the_commander() -> None:
    fen = "9ee/11/11/11/11/11/4c6/3gig5/4(FT)6/11/11/6C2EE r - - 0 1"
    p = pos(fen)
    assert not any(m.captures == ("e6",) for m in V.legal_moves(p))  # not in check
    after = play(p, "F>@e5,T>xe6")
    assert V.format_position(after) == "9ee/11/11/11/11/11/4T6/3g1g5/11/11/11/6C2EE b - - 0 1"
    assert V.outcome(after) == V.outcome(after, [p])
    assert V.outcome(after).winner == 0 and "captured" in V.outcome(after).reason


def test_section_7_5_the_commander_captures_along_an_opened_file() -> None:
    fen = "4c4ee/11/11/11/4it5/11/11/11/4(FC)6/11/11/9EE r - - 0 1"
    p = pos(fen)
    after = play(p, "F<F>_e8,C>xe12")
    assert V.format_position(after) == \
        "4C4ee/11/11/11/5t5/11/11/11/4F6/11/11/9EE b - - 0 1"
    assert V.outcome(after).winner == 0
    assert "face each other" in refused(p, "(FC)_e8")
