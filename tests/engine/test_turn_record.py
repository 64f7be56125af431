"""A turn entered step by step is one record entry: the variant's text for the whole turn."""

from __future__ import annotations

from engine import get_variant


def test_a_commander_deploy_entered_step_by_step_is_recorded_under_its_full_san():
    v = get_variant("commander")
    start = v.parse_position("7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1")
    assert v.turn_record(start, ["T>e6", "I>e5"]) == "T>e6,I>e5"
    assert v.turn_record(start, ["T>e6", "end"]) == "I<T>e6"


def test_a_chieftain_turn_is_recorded_in_the_order_the_player_gave():
    v = get_variant("mini-chieftain")
    assert v.turn_record(v.start_position(), ["Md2-d3", "Cd1-d2"]) == "Md2-d3, Cd1-d2"


def test_single_moves_of_other_variants_have_no_whole_turn_text():
    v = get_variant("clash")
    assert v.turn_record(v.start_position(), ["b2-a3/D"]) is None
    assert v.turn_record(v.start_position(), ["z9"]) is None
