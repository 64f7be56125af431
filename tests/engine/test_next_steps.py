"""Moves offered one step at a time (`Variant.next_steps`) and the steps a turn in progress
still allows (`Variant.steps_left`)."""

from __future__ import annotations

from engine import get_variant

DEPLOY = "7c1ee/11/11/11/11/11/11/11/4(TI)6/11/11/6C2EE r - - 0 1"


def _texts(rules, position) -> list[str]:
    return sorted(rules.format_move(position, m) for m in rules.next_steps(position))


def test_a_chieftain_turn_is_offered_one_move_at_a_time():
    rules = get_variant("mini-chieftain")
    start = rules.start_position()
    assert len(rules.legal_moves(start)) == 742  # whole turns of two moves
    assert rules.next_steps(start) == rules.next_moves(start)
    assert len(rules.next_steps(start)) == 36
    assert rules.steps_left(start) == 2  # one move per Chieftain
    after = rules.make_move(start, rules.parse_move(start, "Nb1-c3"))
    assert after.in_progress and rules.steps_left(after) == 1
    assert "Nb1-c3" not in _texts(rules, after) and "Nc3-d5" not in _texts(rules, after)


def test_a_deploy_is_offered_by_its_first_step_then_the_next_ones():
    rules = get_variant("commander")
    start = rules.parse_position(DEPLOY)
    texts = _texts(rules, start)
    assert len(rules.legal_moves(start)) == 97 and len(texts) == 37
    stack = [t for t in texts if "e4" not in t and ("T" in t or "I" in t)]
    assert stack == ["(TI)c4", "(TI)d4", "(TI)e2", "(TI)e3", "(TI)e5", "(TI)e6", "(TI)f4",
                     "(TI)g4", "I>d4", "I>e3", "I>e5", "I>f4", "T>c4", "T>d4", "T>e2", "T>e3",
                     "T>e5", "T>e6", "T>f4", "T>g4"]
    after = rules.make_move(start, rules.parse_move(start, "T>e6"))
    assert _texts(rules, after) == ["I>d4", "I>e3", "I>e5", "I>f4"]
    assert rules.steps_left(after) is None  # a deploy has no fixed count


def test_a_variant_of_single_moves_offers_its_legal_moves():
    rules = get_variant("clash")
    start = rules.start_position()
    assert rules.next_steps(start) == rules.legal_moves(start)
    assert rules.steps_left(start) is None
