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
#: Positions where the computer's chosen move is checked (the 8x8 games search fastest).
CHOSEN = {"combined-arms": 200, "mini-chieftain": 200, "micro-chieftain": 200}


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


def whole_turns(game, state) -> list[tuple[list, object]]:
    """Every way the search can play a turn from ``state``, step by step: (the steps, the
    state after them)."""
    side = game.side(state)
    found: list[tuple[list, object]] = []

    def walk(current, path: list) -> None:
        for move in game.moves(current):
            after = game.play(current, move)
            if game.side(after) != side:
                found.append((path + [move], after))
            else:
                walk(after, path + [move])
    walk(state, [])
    return found


@pytest.mark.parametrize("name", SINGLE_MOVE)
def test_search_turns_are_the_engine_moves(name: str) -> None:
    variant, game = get_variant(name), game_for(name)
    for position in random_positions(name, POSITIONS[name]):
        state = game.root(position)
        turns = whole_turns(game, state)
        moves = [game.to_turn(position, path) for path, _ in turns]
        assert sorted(map(repr, moves)) == sorted(map(repr, variant.legal_moves(position)))
        move, after = moves[len(moves) // 2], turns[len(moves) // 2][1]
        expected = variant.make_move(position, move)
        assert after[0] == expected.cells and after[1] == expected.side
        assert after[2] == board_key(expected.cells, expected.side)  # incremental Zobrist
        assert after[3:] == game.root(expected)[3:]  # and whatever else a state carries


def test_commander_deploys_are_searched_step_by_step() -> None:
    variant, game = get_variant("commander"), game_for("commander")
    # a Red air force carrying a tank on e4, a Blue infantry on f5
    position = variant.parse_position("7c1ee/11/11/11/11/11/11/5i5/4(FT)6/11/11/6C2EE r - - 0 1",
                                      relaxed=True)
    deploys = [m for m in variant.legal_moves(position) if m.kind == "deploy"]
    state = game.root(position)
    firsts = [m for m in game.moves(state) if m[0] == "step"]
    assert len(deploys) > 20 and len(firsts) == len({d.steps[0] for d in deploys})
    assert game.several_steps(state)
    turns = whole_turns(game, state)
    assert sorted(repr(game.to_turn(position, path)) for path, _ in turns) == \
        sorted(map(repr, variant.legal_moves(position)))
    thought = Thinker("commander", FakeClock(), seed=2).think(position, LEVELS[4], depth=3)
    assert thought.move in variant.legal_moves(position)


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
        while game.side(state) == side and game.result(state) is None:
            moves = game.moves(state)
            code = rng.choice(moves)
            played.append(code)
            state = game.play(state, code)
            if game.side(state) == side:  # the next moves carried in the state are right
                assert game.moves(state) == game.moves((*state[:7], None))
        turn = game.to_turn(position, played)
        after = variant.apply(position, turn)  # checks every move of the turn in order
        assert state[0].cells == after.cells and game.side(state) == after.side
        assert state[1] == board_key(after.cells, after.side)
        # the score and masks carried move by move are those of the board
        assert state[2:7] == game.root(after)[2:7]


@pytest.mark.parametrize("name", ["combined-arms", "mini-chieftain", "micro-chieftain"])
def test_quiescence_captures_are_the_capturing_moves(name: str) -> None:
    """The games' own capture lists (quiescence's moves) are legal moves that gain
    something, with that gain, and take every way of winning material the engine's moves
    have, in every random position and turn in progress (Combined Arms lists one move per
    piece, kills and promotion, whatever square it ends on; Chieftain every move)."""
    game = game_for(name)

    def effect(move: object) -> object:
        return (move[0], move[2], move[3]) if name == "combined-arms" else move

    for position in random_positions(name, POSITIONS[name]):
        state = game.root(position)
        capturing = {m: g for m in game.moves(state) if (g := game.gain(state, m)) > 0}
        listed = game.captures(state)
        assert all(capturing[m] == g for g, m in listed)
        effects = [effect(m) for _, m in listed]
        assert len(effects) == len(set(effects))
        assert set(effects) == {effect(m) for m in capturing}


@pytest.mark.parametrize("name", ["clash", "combined-arms", "commander", "mini-chieftain",
                                  "micro-chieftain"])
def test_chosen_moves_are_legal(name: str) -> None:
    variant = get_variant(name)
    clock = FakeClock()
    thinker = Thinker(name, clock, seed=1)
    for position in random_positions(name, CHOSEN.get(name, 25), seed=11):
        thought = thinker.think(position, LEVELS[1], depth=1)
        assert thought.move in variant.legal_moves(position)
    # deeper searches (futility pruning, turns of several moves) on fewer
    for position in random_positions(name, CHOSEN.get(name, 0) // 10, seed=13):
        thought = thinker.think(position, LEVELS[5], depth=2)
        assert thought.move in variant.legal_moves(position)
