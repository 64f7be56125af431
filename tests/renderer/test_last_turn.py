"""The renderer marks every step of a turn played in several steps: ``last_move`` takes one
move or a list of them."""

from __future__ import annotations

from engine import get_variant
from renderer import render

SIZE = 320


def test_a_list_of_steps_marks_each_of_them():
    rules = get_variant("mini-chieftain")
    start = rules.start_position()
    first = rules.parse_move(start, "Nb1-c3")
    middle = rules.make_move(start, first)
    second = rules.parse_move(middle, "Md2-d3")
    after = rules.make_move(middle, second)
    both = render(after, size=SIZE, last_move=[first, second])
    assert both == render(after, size=SIZE, last_move=first._replace(
        steps=first.steps + second.steps))  # the same marks as one move of both steps
    assert both != render(after, size=SIZE, last_move=second)
    assert render(after, size=SIZE, last_move=[second]) == render(after, size=SIZE,
                                                                  last_move=second)
    assert render(after, size=SIZE, last_move=[]) == render(after, size=SIZE)
