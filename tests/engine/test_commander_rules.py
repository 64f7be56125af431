"""Commander Chess rules, section by section (§1-§7 of the rule file): hand-made positions,
each asserting the exact set of legal turns of the piece under test (SAN), or the exact
position or reason that the rule fixes.

Positions are written as {square: unit} and turned into FEN here, independently of the
engine. Unless a test says otherwise, the commanders stand on g1 (Red) and h12 (Blue) with
two engineers each on j1/k1 and j12/k12, as in the rule file's examples, so that nothing
else interferes and no side is down to its last guard.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine import IllegalMoveError, Position, PositionError, get_variant
from engine.boards import COMMANDER
from engine.commander.board import NAMES, ZONE

V = get_variant("commander")
FILLER = {"g1": "C", "j1": "E", "k1": "E", "h12": "c", "j12": "e", "k12": "e"}


def fen(units: Mapping[str, str], side: str = "r", filler: bool = True) -> str:
    """The FEN of ``units`` ({"e4": "T", "c5": "(NTI)", "e8": "+t"}), plus the filler."""
    placed = {**FILLER, **units} if filler else dict(units)
    placed = {sq: u for sq, u in placed.items() if u}
    rows = []
    for rank in range(12, 0, -1):
        row, empty = "", 0
        for file in "abcdefghijk":
            unit = placed.get(f"{file}{rank}")
            if unit is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + unit
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} - - 0 1"


def pos(units: Mapping[str, str], side: str = "r", filler: bool = True) -> Position:
    """The position; piece counts are not checked (§9.1.3 item 3), the rest is."""
    return V.parse_position(fen(units, side, filler), relaxed=True)


def sans(position: Position, origin: str) -> set[str]:
    return {V.format_move(position, m) for m in V.legal_moves(position) if m.origin == origin}


def play(position: Position, text: str) -> Position:
    return V.apply(position, V.parse_move(position, text))


def placement(position: Position) -> str:
    return V.format_position(position).split()[0]


def refused(position: Position, text: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        V.parse_move(position, text)
    return caught.value.reason


# --- §1 board -----------------------------------------------------------------------------------
def test_1_1_grid_of_132_points_named_a1_to_k12() -> None:
    assert len(COMMANDER) == 132
    assert NAMES[0] == "a1" and NAMES[10] == "k1" and NAMES[131] == "k12"
    assert COMMANDER.node("e9") == 8 * 11 + 4  # the seed's point 8,4


def test_1_2_terrain_classes_and_their_counts() -> None:
    tags = COMMANDER.terrain
    assert sum("sea" in t for t in tags) == 24
    assert sum("coast" in t for t in tags) == 12
    assert sorted(NAMES[i] for i, t in enumerate(tags) if "mouth" in t) == ["d6", "d7", "e6",
                                                                          "e7"]
    assert sum("land" in t for t in tags) == 92
    assert sum("navigable" in t for t in tags) == 40
    assert sum("land-capable" in t for t in tags) == 108


def test_1_3_light_pieces_wade_through_deep_water_in_any_direction() -> None:
    p = pos({"e5": "T", "e6": "M"})
    assert sans(p, "e6") == {"Md5", "Md6", "Md7", "Me7", "Mf5", "Mf6", "Mf7", "M&e5"}
    p = pos({"e5": "T"})
    assert sans(p, "e5") == {"Te6", "Te7", "Te4", "Te3", "Tf5", "Tg5", "Td5", "Tc5"}


def test_1_3_heavy_pieces_cross_only_over_a_reef_unless_capturing() -> None:
    assert sans(pos({"g6": "G"}), "g6") == {"Gg5", "Gh6", "Gf6"}
    assert sans(pos({"f6": "G"}), "f6") == {"Gf7", "Gf5", "Ge6", "Gg6"}
    assert sans(pos({"g6": "G", "g7": "i"}), "g6") == {"Gxg7", "Gg5", "Gh6", "Gf6"}
    # a diagonal step across the river is never a reef crossing
    assert sans(pos({"e6": "S"}), "e6") == {"Se5", "Se4", "Sf6", "Sg6", "Sd6", "Sc6", "Sf5",
                                            "Sd5"}
    assert "deep water" in refused(pos({"g6": "G"}), "Gg7")


def test_1_4_land_pieces_never_stand_on_the_sea() -> None:
    p = pos({"c5": "I"})
    assert sans(p, "c5") == {"Ic4", "Ic6", "Id5"}
    assert "sea" in refused(p, "Ib5")


def test_1_5_navy_moves_on_water_and_never_across_a_land_corner() -> None:
    assert sans(pos({"d6": "N"}), "d6") == {"Nd7", "Ne6", "Nc6", "Nb6", "Na6", "Ne7", "Nc7",
                                            "Nb8", "Na9"}
    assert sans(pos({"c8": "N"}), "c8") == {"Nc9", "Nc10", "Nc11", "Nc12", "Nc7", "Nc6", "Nc5",
                                            "Nc4", "Nb8", "Na8", "Nb9", "Na10", "Nb7", "Na6"}
    assert "land corner" in refused(pos({"c8": "N"}), "Nd7")


def test_1_6_initial_position_is_blue_reflecting_red_across_the_river() -> None:
    start = V.start_position()
    red = {sq: p for sq in NAMES for p in V.pieces_at(start, sq) if p.side == 0}
    blue = {sq: p for sq in NAMES for p in V.pieces_at(start, sq) if p.side == 1}
    assert len(red) == len(blue) == 19
    for sq, piece in red.items():
        mirrored = f"{sq[0]}{13 - int(sq[1:])}"
        assert blue[mirrored].letter == piece.letter
    assert {sq: p.letter for sq, p in red.items() if p.letter in "CHN"} == {
        "g1": "C", "f2": "H", "h2": "H", "b2": "N", "c4": "N"}


# --- §2 pieces ----------------------------------------------------------------------------------
def test_2_2_blocking_moves_stop_at_any_piece_but_artillery_fires_over() -> None:
    p = pos({"d3": "A", "d4": "I", "d5": "i", "b3": "n"})
    assert sans(p, "d3") == {"Axd5", "Ad2", "Ad1", "Ae3", "Af3", "Ag3", "Ac3", "A_b3", "Ae4",
                             "Af5", "Ag6", "Ac4", "Ae2", "Af1", "Ac2"}


def test_2_3_1_commander_moves_along_lines_and_captures_next_to_it() -> None:
    p = pos({"g1": "", "e3": "C", "e6": "i"})
    assert sans(p, "e3") == {"Ce4", "Ce2", "Ce1", "Cf3", "Cg3", "Cd3", "Cc3"}
    p = pos({"g1": "", "e3": "C", "e4": "i"})
    assert sans(p, "e3") == {"Cxe4", "Ce2", "Ce1", "Cf3", "Cg3", "Cd3", "Cc3"}


def test_2_3_1_commander_captures_the_facing_commander_at_any_distance() -> None:
    p = pos({"g1": "", "e1": "C", "h12": "", "e12": "c"})
    assert sans(p, "e1") == {"Cxe12", "Cd1", "Cc1", "Cf1", "Cg1", "Ch1", "Ci1"}
    after = play(p, "Cxe12")
    assert V.outcome(after).winner == 0


def test_2_3_1_heroic_commander_moves_diagonally_and_captures_two_away() -> None:
    p = pos({"g1": "", "e3": "+C"})
    assert sans(p, "e3") == {f"+Ce{r}" for r in range(4, 12)} | {
        "+Ce2", "+Ce1", "+Cf3", "+Cg3", "+Cd3", "+Cc3", "+Cf4", "+Cg5", "+Cd4", "+Cc5", "+Cf2",
        "+Cg1", "+Cd2", "+Cc1"}
    p = pos({"g1": "", "e3": "+C", "e5": "i"})
    assert {s for s in sans(p, "e3") if s[2] == "e" or s[3] == "e"} == {"+Cxe5", "+Ce2",
                                                                        "+Ce1"}


def test_2_3_2_infantry_engineer_and_gun_step_orthogonally_heroes_two_any_way() -> None:
    assert sans(pos({"e4": "I"}), "e4") == {"Ie5", "Ie3", "Id4", "If4"}
    assert sans(pos({"e4": "+I"}), "e4") == {
        "+Ie5", "+Ie6", "+Ie3", "+Ie2", "+Id4", "+Ic4", "+If4", "+Ig4", "+If5", "+Ig6", "+Id5",
        "+Ic6", "+If3", "+Ig2", "+Id3", "+Ic2"}
    assert sans(pos({"e4": "E", "e5": "A"}), "e4") == {"E&e5", "Ee3", "Ed4", "Ef4"}
    assert placement(play(pos({"e4": "E", "e5": "A"}), "A&e4")).split("/")[8] == "4(EA)6"


def test_2_3_3_militia_steps_any_way() -> None:
    assert sans(pos({"e4": "M"}), "e4") == {"Me5", "Mf5", "Mf4", "Mf3", "Me3", "Md3", "Md4",
                                            "Md5"}
    assert len(sans(pos({"e4": "+M"}), "e4")) == 16


def test_2_3_4_tank_one_or_two_and_fires_at_sea_without_moving() -> None:
    assert sans(pos({"e4": "T"}), "e4") == {"Te5", "Te6", "Te3", "Te2", "Td4", "Tc4", "Tf4",
                                            "Tg4"}
    assert sans(pos({"c3": "T", "a3": "n"}), "c3") == {"Tc4", "Tc5", "Tc2", "Tc1", "Td3",
                                                       "Te3", "T_a3"}
    assert sans(pos({"e4": "+T"}), "e4") == {
        "+Te5", "+Te6", "+Te7", "+Te3", "+Te2", "+Te1", "+Tf4", "+Tg4", "+Th4", "+Td4", "+Tc4",
        "+Tf5", "+Tg6", "+Th7", "+Td5", "+Tc6", "+Tf3", "+Tg2", "+Th1", "+Td3", "+Tc2"}


def test_2_3_6_missile_ring_moves_and_fire_over_pieces() -> None:
    assert sans(pos({"e3": "S"}), "e3") == {"Se4", "Se5", "Se2", "Se1", "Sf3", "Sg3", "Sd3",
                                            "Sc3", "Sf4", "Sd4", "Sf2", "Sd2"}
    assert sans(pos({"e3": "S", "e4": "I", "e5": "i"}), "e3") == {
        "Sxe5", "Se2", "Se1", "Sf3", "Sg3", "Sd3", "Sc3", "Sf4", "Sd4", "Sf2", "Sd2"}
    assert sans(pos({"e3": "+S"}), "e3") == {
        "+Se4", "+Se5", "+Se6", "+Se2", "+Se1", "+Sf3", "+Sg3", "+Sh3", "+Sd3", "+Sc3", "+Sf4",
        "+Sg5", "+Sd4", "+Sc5", "+Sf2", "+Sd2", "+Sc1"}  # g1: own commander
    assert "never captures a navy" in refused(pos({"d5": "S", "c6": "n"}), "Sxc6")


def test_2_3_7_air_force_flies_over_pieces_and_carries_a_tank() -> None:
    p = pos({"e4": "(FT)", "e5": "I", "f5": "i", "d5": "E"})
    turns = {s for s in sans(p, "e4") if s.startswith("(FT)")}
    assert {"(FT)&e5", "(FT)e6", "(FT)e8", "(FT)xf5"} <= turns  # (F T I) is a valid stack
    assert "(FT)e9" not in turns  # range 4
    assert "(FT)&d5" not in turns  # an engineer is never carried
    p = pos({"e4": "F", "e5": "T"})
    assert placement(play(p, "F&e5")).split("/")[7] == "4(FT)6"
    assert placement(play(p, "T&e4")).split("/")[8] == "4(FT)6"


def test_2_3_8_heroic_navy_reaches_one_further() -> None:
    p = pos({"c1": "+N", "c5": "i"})
    assert sans(p, "c1") == {"+Nc2", "+Nc3", "+Nc4", "+Nxc5", "+Nb1", "+Na1", "+Nb2", "+Na3"}
    p = pos({"c1": "N", "c5": "i"})
    assert sans(p, "c1") == {"Nc2", "Nc3", "Nc4", "Nb1", "Na1", "Nb2", "Na3"}


def test_2_3_9_headquarters_never_moves_and_gives_no_protection() -> None:
    p = pos({"f2": "H", "h2": "H"})
    assert sans(p, "f2") == sans(p, "h2") == set()
    sheltered = pos({"g1": "", "f2": "(HC)", "f4": "t"}, side="b")
    after = play(sheltered, "Txf2")
    assert V.outcome(after).winner == 1 and "captured" in V.outcome(after).reason


# --- §3 captures ----------------------------------------------------------------------------------
def test_3_1_a_capture_removes_the_whole_stack() -> None:
    p = pos({"e3": "A", "e6": "(ti)"})
    after = play(p, "Axe6")
    assert V.pieces_at(after, "e6")[0].letter == "A" and len(V.pieces_at(after, "e6")) == 1
    assert V.destroyed_points(after, [p]) == (30, 0)


def test_3_2_the_capture_kind_is_part_of_the_move() -> None:
    p = pos({"e4": "F", "e7": "i", "e9": "t"})
    stay, land = V.parse_move(p, "F_e7"), V.parse_move(p, "Fxe7")
    assert stay != land
    assert V.pieces_at(V.apply(p, stay), "e4")[0].letter == "F"
    assert V.pieces_at(V.apply(p, land), "e7")[0].letter == "F"


def test_3_3_no_stay_capture_of_a_stack_holding_the_commander() -> None:
    # Blue's commander rides a tank on e8, guarded by a tank on e10: landing is unsafe, yet
    # capturing the commander ends the game, so only the normal capture exists.
    p = pos({"h12": "", "e8": "(tc)", "e10": "t", "e4": "F"})
    assert {s for s in sans(p, "e4") if "e8" in s} == {"Fxe8"}


def test_3_3_air_forces_and_navies_on_land_give_no_stay_option() -> None:
    p = pos({"e4": "F", "e7": "f", "e9": "t"})
    assert {s for s in sans(p, "e4") if "e7" in s} == {"Fxe7"}


def test_3_4_passengers_attack_and_are_promoted_by_check() -> None:
    p = pos({"h10": "(TI)"})
    after = play(p, "(TI)h11")
    assert placement(after).split("/")[1] == "7(+T+I)3"


def test_3_4_a_discovered_check_promotes_the_piece_whose_line_opened() -> None:
    p = pos({"f12": "T", "g12": "I"})
    after = play(p, "Ig11")
    assert placement(after).split("/")[0] == "5+T1c1ee"
    assert placement(after).split("/")[1] == "6I4"


# --- §4 air defence ------------------------------------------------------------------------------
def test_4_2_zone_shapes_and_edges() -> None:
    def names(level: int, sq: str) -> set[str]:
        return {NAMES[q] for q in ZONE[level][NAMES.index(sq)]}
    assert names(1, "g1") == {"g1", "f1", "h1", "g2"}
    assert names(2, "k1") == {"k1", "j1", "i1", "k2", "k3", "j2"}
    assert len(names(1, "f6")) == 5 and len(names(2, "f6")) == 13 and len(names(3, "f6")) == 29


def test_4_1_heroic_providers_reach_further_and_carried_ones_not_at_all() -> None:
    plain = pos({"c3": "F", "f6": "g"})
    heroic = pos({"c3": "F", "f6": "+g"})
    carried = pos({"c3": "F", "f6": "(eg)"})
    assert {"Fd4", "Fe5"} <= sans(plain, "c3")
    assert "Fd4" in sans(heroic, "c3") and "Fe5" not in sans(heroic, "c3")
    assert {"Fd4", "Fe5", "Fxf6"} <= sans(carried, "c3")
    assert "F@f6" in sans(plain, "c3") and "F@f6" in sans(heroic, "c3")


def test_4_4_a_join_is_refused_in_the_kamikaze_state() -> None:
    p = pos({"e2": "F", "e5": "T", "e6": "g"})
    assert "F&e5" not in sans(p, "e2")
    assert "shot down" in refused(p, "F&e5")


# --- §5 stacks ------------------------------------------------------------------------------------
@pytest.mark.parametrize("unit", ["(NFT)", "(NTI)", "(NII)", "(NFF)", "(NTT)", "(NCM)", "(FTI)",
                                  "(FCI)", "(TII)", "(TCM)", "(EA)", "(HC)"])
def test_5_1_valid_stacks(unit: str) -> None:
    square = "c5" if "N" in unit else "e5"
    units = {square: unit}
    if "C" in unit:
        units["g1"] = ""
    assert V.pieces_at(V.parse_position(fen(units), relaxed=True), square)


@pytest.mark.parametrize("unit", ["(NFTI)", "(FTT)", "(TA)", "(NE)", "(HCI)", "(IM)", "(FF)",
                                  "(Tt)"])
def test_5_1_invalid_stacks_are_refused(unit: str) -> None:
    with pytest.raises(PositionError):
        V.parse_position(fen({"c5": unit}, filler=True), relaxed=True)


def test_5_2_canonical_order_carrier_first_heroes_first() -> None:
    p = V.parse_position(fen({"c5": "(TN)", "e5": "(I+IT)", "b2": "(+TF+N)"}), relaxed=True)
    text = placement(p)
    assert "(NT)" in text and "(T+II)" in text and "(+NF+T)" in text
    assert [x.letter for x in V.pieces_at(p, "b2")] == ["N", "F", "T"]
    assert [x.heroic for x in V.pieces_at(p, "b2")] == [True, False, True]


def test_5_3_the_carry_table_decides_the_carrier_of_a_join() -> None:
    p = pos({"c4": "I", "c3": "N"})
    assert placement(play(p, "N&c4")).split("/")[8] == "2(NI)8"
    assert placement(play(p, "I&c3")).split("/")[9] == "2(NI)8"


def test_5_3_only_a_lone_commander_enters_its_headquarters() -> None:
    p = pos({"g1": "(TC)", "g2": "H"})
    assert "(TC)&g2" not in sans(p, "g1")
    assert "headquarters" in refused(p, "(TC)&g2")
    assert "T<C>&g2" in sans(p, "g1")
    assert "headquarters" in refused(pos({"f3": "I", "f2": "H"}), "I&f2")


def test_5_4_a_stack_moves_as_its_carrier_with_the_carriers_heroic_flag() -> None:
    assert {s for s in sans(pos({"e4": "(T+I)"}), "e4") if s.startswith("(")} == {
        "(T+I)e5", "(T+I)e6", "(T+I)e3", "(T+I)e2", "(T+I)d4", "(T+I)c4", "(T+I)f4",
        "(T+I)g4"}
    assert len({s for s in sans(pos({"e4": "(+TI)"}), "e4") if s.startswith("(")}) == 21


def test_5_5_what_stays_behind_must_be_a_valid_stack() -> None:
    turns = sans(pos({"c5": "(NII)"}), "c5")
    assert not any(t.startswith("(II)<") for t in turns)
    assert {"(NI)<I>d5", "N<I>d5,I>c6", "N<I>d5,I>&d5"} - turns == {"N<I>d5,I>&d5"}
    assert "valid stack" in refused(pos({"c5": "(NII)"}), "(II)<N>c9")


def test_5_5_each_piece_acts_once_and_a_stay_capture_keeps_it_on_the_origin() -> None:
    p = pos({"c4": "(NT)", "e4": "i"})
    turns = sans(p, "c4")
    assert "N<N>_e4,T>e4" in turns
    assert not any(t.count("N>") > 1 for t in turns)


def test_5_6_a_passenger_leaving_a_navy_at_sea_lands_by_its_own_rules() -> None:
    turns = sans(pos({"b3": "(NT)"}), "b3")
    assert {t for t in turns if t.startswith("N<T>")} == {"N<T>c3", "N<T>d3"}


def test_5_7_heroes_stay_heroes_in_and_out_of_stacks() -> None:
    p = pos({"e4": "T", "e5": "+I"})
    joined = play(p, "+I&e4")
    assert placement(joined).split("/")[8] == "4(T+I)6"
    assert "T<+I>d4" in sans(joined.with_(side=0), "e4")


def test_5_8_a_deploy_is_one_node_in_perft() -> None:
    p = pos({"e4": "(TI)"})
    assert V.perft(p, 1) == len(V.legal_moves(p)) == 80 + len(
        [m for m in V.legal_moves(p) if m.origin != "e4"])


# --- §6 heroes ------------------------------------------------------------------------------------
def test_6_2_a_kamikaze_check_promotes_the_air_force() -> None:
    p = pos({"e3": "F", "h12": "", "e8": "c", "e9": "g"})
    after = play(p, "Fe4")
    assert V.pieces_at(after, "e4")[0].heroic


def test_6_2_no_promotion_when_the_turn_captures_the_commander() -> None:
    p = pos({"h12": "", "e8": "c", "e6": "T"})
    after = play(p, "Txe8")
    assert not V.pieces_at(after, "e8")[0].heroic


def test_6_3_last_guard_counts_passengers_and_a_commander_alone_gets_nothing() -> None:
    p = pos({"g1": "(TC)", "j1": "", "k1": "", "h12": "", "a12": "", "c12": "c", "j12": "",
             "k12": ""}, filler=True)
    after = play(p, "(TC)g2")
    assert [x.heroic for x in V.pieces_at(after, "g2")] == [True, False]
    assert not any(x.heroic for x in V.pieces_at(after, "c12"))


# --- §7 commanders --------------------------------------------------------------------------------
def test_7_4_a_turn_may_not_destroy_the_own_commander() -> None:
    p = pos({"g1": "", "e4": "(FC)", "e6": "g"})
    turns = sans(p, "e4")
    assert "(FC)@e6" not in turns
    assert {"C<F>@e6", "F>@e6,C>e8"} <= turns  # the air force alone may trade itself
    assert "destroyed" in refused(p, "(FC)@e6")


def test_7_5_a_stack_may_escape_check_by_splitting() -> None:
    # Red's commander rides a tank on e1, attacked along the e-file by Blue's commander;
    # the tank cannot leave the file with it... unless it moves sideways: every legal turn
    # takes the commander off the file.
    p = pos({"g1": "", "e1": "(TC)", "h12": "", "e12": "c"})
    turns = sans(p, "e1")
    assert "T<C>d1" in turns and "(TC)d1" in turns
    assert not any(t in turns for t in ("(TC)e2", "C<T>d1"))
