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


def test_a_chieftain_turn_typed_on_one_line_is_recorded_in_the_order_given():
    """Rules §3: the record keeps the player's order; each move in canonical text."""
    v = get_variant("mini-chieftain")
    start = v.parse_position("6n1/3mcc2/8/8/8/4M3/8/3C4 b - 1")
    for text, record in (("g8-f6; d7d6", "Ng8-f6, Md7-d6"), ("Md7-d6 Ng8-f6", "Md7-d6, Ng8-f6"),
                         ("g8f6 end", "Ng8-f6, end")):
        move = v.parse_move(start, text)
        assert v.record_text(start, move, text) == record
    assert v.format_move(start, v.parse_move(start, "g8-f6; d7d6")) == "Md7-d6, Ng8-f6"


def test_other_variants_record_the_canonical_text():
    v = get_variant("commander")
    start = v.parse_position("7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1")
    move = v.parse_move(start, "T>e6,I>e5")
    assert v.record_text(start, move, "T>e6,I>e5") == v.format_move(start, move) == "T>e6,I>e5"
