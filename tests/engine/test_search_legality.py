"""The computer plays only legal moves: its move generation, making of moves and Zobrist
keys agree with the engine's over thousands of random positions per variant, and the
moves it chooses are in `Variant.legal_moves`."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import Position, get_variant
from engine.chieftain import make_step
from engine.search import LEVELS, Thinker, game_for
from engine.search.chieftain import END
from engine.search.zobrist import board_key

#: Random positions checked per variant (Commander Chess's move lists cost more).
POSITIONS = {"clash": 2000, "combined-arms": 1000, "mini-chieftain": 2000,
             "micro-chieftain": 2000, "commander": 500}
SINGLE_MOVE = ("clash", "combined-arms", "commander")


def random_positions(name: str, count: int, seed: int = 7) -> Iterator[Position]:
    """Positions along random games from the start (each game up to 60 moves; Chieftain
    games go one move at a time, so turns in progress are among them)."""
    variant = get_variant(name)
    rng = random.Random(seed)
    made = 0
    step_by_step = getattr(variant, "next_moves", None)
    while True:
        position = variant.start_position()
        for _ in range(60):
            moves = (step_by_step or variant.legal_moves)(position)
            if not moves or variant.outcome(position).is_over:
                break
            yield position
            made += 1
            if made >= count:
                return
            position = variant.make_move(position, rng.choice(moves))


class FakeClock:
    """A clock that moves only when a test says so: searches run on depth alone."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("name", SINGLE_MOVE)
def test_search_moves_are_the_engine_moves(name: str) -> None:
    variant, game = get_variant(name), game_for(name)
    for position in random_positions(name, POSITIONS[name]):
        state = game.root(position)
        raws = game.moves(state)
        legal = variant.legal_moves(position)
        assert sorted(map(repr, (game.to_move(position, r) for r in raws))) == \
            sorted(map(repr, legal))
        raw = raws[len(raws) // 2]
        after = game.play(state, raw)
        expected = variant.make_move(position, game.to_move(position, raw))
        assert after[0] == expected.cells and after[1] == expected.side
        assert after[2] == board_key(expected.cells, expected.side)  # incremental Zobrist


@pytest.mark.parametrize("name", ["mini-chieftain", "micro-chieftain"])
def test_chieftain_steps_are_the_engine_steps(name: str) -> None:
    variant, game = get_variant(name), game_for(name)
    rng = random.Random(3)
    for position in random_positions(name, POSITIONS[name]):
        state = game.root(position)
        codes = [c for c in game.moves(state) if c != END]
        steps = variant.next_moves(position)
        assert sorted(make_step(position.cells, position.side, c) for c in codes) == \
            sorted(m.steps[0] for m in steps)
        # a whole turn played step by step is a legal turn of the engine
        played: list[int] = []
        side = game.side(state)
        while game.side(state) == side and not game.lost(state):
            moves = game.moves(state)
            code = rng.choice(moves)
            played.append(code)
            state = game.play(state, code)
        turn = game.to_turn(position, played)
        after = variant.apply(position, turn)  # checks every move of the turn in order
        assert state[0].cells == after.cells and game.side(state) == after.side
        assert state[1] == board_key(after.cells, after.side)


@pytest.mark.parametrize("name", ["clash", "combined-arms", "commander", "mini-chieftain",
                                  "micro-chieftain"])
def test_chosen_moves_are_legal(name: str) -> None:
    variant = get_variant(name)
    clock = FakeClock()
    thinker = Thinker(name, clock, seed=1)
    for position in random_positions(name, 25, seed=11):
        thought = thinker.think(position, LEVELS[1], depth=1)
        assert thought.move in variant.legal_moves(position)
