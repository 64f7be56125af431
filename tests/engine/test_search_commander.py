"""The computer's Commander Chess goes for the enemy Commander: the rules' two deploys
that take it (§7.5) are found, each step searched in turn."""

from __future__ import annotations

import pytest

from engine import get_variant
from engine.search import LEVELS, WIN, Thinker


@pytest.mark.parametrize(("fen", "expected"), [
    # the air force fires at e8 and stays, opening the file to the Commander's long capture
    ("4c4ee/11/11/11/4it5/11/11/11/4(FC)6/11/11/9EE r - - 0 1", "F<F>_e8,C>xe12"),
    # the air force exchanges itself for the infantry; the tank drives through to e6
    ("9ee/11/11/11/11/11/4c6/3gig5/4(FT)6/11/11/6C2EE r - - 0 1", "F>@e5,T>xe6"),
])
def test_a_deploy_that_takes_the_commander_is_played(fen: str, expected: str) -> None:
    variant = get_variant("commander")
    position = variant.parse_position(fen, relaxed=True)
    thought = Thinker("commander", lambda: 0.0).think(position, LEVELS[5], depth=3)
    assert variant.format_move(position, thought.move) == expected
    assert thought.score == WIN - 2  # the Commander falls at the deploy's second step
    assert variant.outcome(variant.make_move(position, thought.move)).winner == 0
