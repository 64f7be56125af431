"""`bench/ai.py`'s resignation adjudication: a game ends, scored for the side ahead, once
that side has led by the given material after each of the given number of turns."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

from engine import get_variant

_SPEC = importlib.util.spec_from_file_location(
    "bench_ai", Path(__file__).resolve().parents[2] / "bench" / "ai.py")
ai = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
sys.modules["bench_ai"] = ai  # its dataclasses look their module up
_SPEC.loader.exec_module(ai)  # type: ignore[union-attr]


def played(resign: tuple[int, int]) -> tuple[tuple[float, bool], list[int]]:
    """Greedy (White) against random in Combined Arms: the result and White's material
    lead after each turn."""
    variant = get_variant("combined-arms")
    leads: list[int] = []

    def watched(choose):  # type: ignore[no-untyped-def]
        def move(position, history):  # type: ignore[no-untyped-def]
            leads.append(ai.material(variant, position, 0))
            return choose(position, history)
        return move

    players = (watched(ai.greedy_player(variant, random.Random(1))),
               watched(ai.random_player(variant, random.Random(2))))
    return ai.play_game(variant, players, random.Random(3), 2, 200, 300, resign), leads


def test_a_game_played_out_is_not_adjudicated() -> None:
    assert played((0, 0))[0] == (1.0, False)


def test_the_side_ahead_wins_once_its_lead_has_held_for_the_turns_asked() -> None:
    full, full_leads = played((0, 0))
    result, leads = played((1000, 4))
    assert result == (1.0, True)
    assert len(leads) < len(full_leads)  # the same game, ended early
    assert leads == full_leads[:len(leads)]
    # the lead held after each of the last four turns (the last one seen by no player),
    # and not after the turn before them: the game ended as soon as it could
    after = full_leads[len(leads)]
    assert [lead >= 1000 for lead in [*leads[-4:], after]] == [False, True, True, True, True]
