"""The search core: exact choices in small positions, time limits on an injected clock,
determinism per seed, and turns of several steps."""

from __future__ import annotations

import pytest

from engine import get_variant
from engine.search import CONTEMPT, LEVELS, WIN, Level, Thinker, game_for
from engine.search.clash import ClashGame
from engine.search.core import Search


class SteppingClock:
    """Each reading is ``tick`` seconds after the previous one: time runs with the work."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def still_clock() -> float:
    return 0.0


def test_combined_arms_kills_the_king_when_it_can() -> None:
    variant = get_variant("combined-arms")
    position = variant.parse_position("8/8/8/8/8/8/3k4/3P3K w - - 0 1")
    thought = Thinker("combined-arms", still_clock).think(position, LEVELS[5], depth=3)
    assert variant.format_move(position, thought.move) == "Pd1xd2"
    assert thought.score == WIN - 1


def test_clash_takes_the_last_commander() -> None:
    variant = get_variant("clash")
    position = variant.parse_position("2c1f/4/2B2/4/5/4/5/4/C4 w 1")
    thought = Thinker("clash", still_clock).think(position, LEVELS[5], depth=3)
    assert variant.format_move(position, thought.move) == "e7xe9"


def test_a_search_stops_at_its_time_limit() -> None:
    clock = SteppingClock(0.001)  # every clock reading costs a millisecond
    variant = get_variant("clash")
    thought = Thinker("clash", clock).think(variant.start_position(), LEVELS[5], seconds=2.0)
    assert thought.seconds <= 2.0 * 1.1
    assert thought.depth >= 1
    assert thought.move in variant.legal_moves(variant.start_position())


def test_the_8x8_searches_stop_at_their_time_limit() -> None:
    for name in ("combined-arms", "mini-chieftain"):
        clock = SteppingClock(0.001)
        variant = get_variant(name)
        position = variant.start_position()
        thought = Thinker(name, clock).think(position, LEVELS[5], seconds=0.5)
        assert thought.seconds <= 0.5 * 1.1
        assert thought.depth >= 1 and thought.move in variant.legal_moves(position)


def test_the_same_seed_plays_the_same_moves() -> None:
    variant = get_variant("mini-chieftain")
    position = variant.start_position()
    first = [Thinker("mini-chieftain", still_clock, seed=s).think(position, LEVELS[1]).move
             for s in range(6)]
    again = [Thinker("mini-chieftain", still_clock, seed=s).think(position, LEVELS[1]).move
             for s in range(6)]
    assert first == again
    assert len(set(first)) > 1  # the beginner's noise varies with the seed


def test_a_chieftain_turn_of_two_moves_is_searched_step_by_step() -> None:
    variant = get_variant("mini-chieftain")
    position = variant.start_position()
    thought = Thinker("mini-chieftain", still_clock).think(position, LEVELS[4], depth=3)
    assert thought.move.kind == "turn" and len(thought.move.steps) == 2
    assert thought.move in variant.legal_moves(position)


def test_the_start_is_not_scored_as_won() -> None:
    game = ClashGame()
    position = get_variant("clash").start_position()
    result = Search(game, still_clock).run(game.root(position), 2, 1.0)
    assert abs(result.score) < 1000 and result.depth == 2


def test_clash_never_gives_up_its_last_commander() -> None:
    variant = get_variant("clash")
    # Black's last Commander on e9 could turn into a Factor or a Brute: that loses at once
    position = variant.parse_position("2c1f/4/5/4/5/4/5/4/C4 b 1")
    for seed in range(20):  # level 1's careless moves too (two in five)
        thought = Thinker("clash", still_clock, seed).think(position, LEVELS[1], depth=1)
        after = variant.make_move(position, thought.move)
        assert "c" in after.cells, variant.format_move(position, thought.move)


@pytest.mark.parametrize("depth", [1, 2])
def test_the_side_ahead_does_not_repeat_a_position(depth: int) -> None:
    variant = get_variant("combined-arms")
    position = variant.parse_position("k7/8/8/8/8/8/8/R6K w - - 0 1")  # a Rook ahead
    moves = sorted(variant.legal_moves(position), key=repr)
    fresh = moves[len(moves) // 2]
    # every other move leads back to a position the game has seen: a draw, not the lead
    history = [variant.make_move(position, m) for m in moves if m != fresh]
    thought = Thinker("combined-arms", still_clock).think(position, LEVELS[5], depth=depth,
                                                          history=history)
    assert thought.move == fresh and thought.score > 300


def test_a_repetition_scores_the_contempt_below_a_draw_for_the_computer() -> None:
    variant = get_variant("combined-arms")
    position = variant.start_position()
    history = [variant.make_move(position, m) for m in variant.legal_moves(position)]
    thought = Thinker("combined-arms", still_clock).think(position, LEVELS[4], depth=1,
                                                          history=history)
    assert thought.score == -CONTEMPT == -25  # every move repeats: none is better


# mini-Chieftain: White's Hero on b2 may leap to b4 and take the Shaman, which the Man on b5
# takes back (its Chieftain on c8 commands it). With one Chieftain, White's turn is that
# one move; with a second on h1 the capture is the first step of a turn, and a depth-1
# search's horizon falls inside the turn.
BAITS = ["2c5/8/8/1m6/1s6/8/1H6/C7 w - 1", "2c5/8/8/1m6/1s6/8/1H6/C6C w - 1"]


def steps(turn: str) -> list[str]:
    return turn.replace(",", " ").split()


@pytest.mark.parametrize("bait", BAITS)
def test_without_quiescence_a_defended_piece_looks_free(bait: str) -> None:
    variant = get_variant("mini-chieftain")
    position = variant.parse_position(bait)
    blind = Level(0, 1.0, 1, 0, "no quiescence", quiescence=0)
    grab = Thinker("mini-chieftain", still_clock).think(position, blind).move
    assert "Hb2xb4" in steps(variant.format_move(position, grab))
    for level in LEVELS.values():  # from level 3 on the Man's reply is seen
        if level.quiescence == 0:
            continue
        depth = min(level.depth, 3)
        thought = Thinker("mini-chieftain", still_clock).think(position, level, depth=depth)
        assert "Hb2xb4" not in steps(variant.format_move(position, thought.move)), level


def test_each_level_adds_a_skill_to_the_one_below() -> None:
    lv = LEVELS
    assert [(lv[n].depth, lv[n].quiescence, lv[n].noise) for n in lv] == [
        (1, 0, 300), (1, 0, 50), (1, None, 30), (2, None, 0), (64, None, 0)]
    assert [lv[n].careless for n in lv] == [0.4, 0, 0, 0, 0]
    assert [lv[n].seconds for n in lv] == [0.5, 1.0, 2.0, 4.0, 8.0]


@pytest.mark.parametrize(("name", "depths"), [("mini-chieftain", [1, 1, 1, 3]),
                                              ("clash", [1, 1, 1, 2])])
def test_a_chieftain_level_counts_a_turn_of_two_moves_as_its_plies(
        name: str, depths: list[int]) -> None:
    variant = get_variant(name)
    position = variant.start_position()
    assert [Thinker(name, still_clock).think(position, LEVELS[n]).depth
            for n in (1, 2, 3, 4)] == depths


def test_the_beginner_sometimes_moves_without_looking() -> None:
    variant = get_variant("mini-chieftain")
    position = variant.parse_position(BAITS[0])
    level = LEVELS[1]
    careful = Level(1, level.seconds, level.depth, 0, "no noise", quiescence=0)
    grabs = [steps(variant.format_move(position, Thinker("mini-chieftain", still_clock, seed)
                                       .think(position, careful).move)) for seed in range(10)]
    assert grabs == [["Hb2xb4"]] * 10  # without noise or carelessness it always grabs
    careless = Level(1, level.seconds, level.depth, 0, "careless", quiescence=0,
                     careless=level.careless)
    moves = {variant.format_move(position, Thinker("mini-chieftain", still_clock, seed)
                                 .think(position, careless).move) for seed in range(10)}
    assert len(moves) > 3 and "Hb2xb4" in moves


def test_a_careless_beginner_still_plays_a_legal_turn_of_two_moves() -> None:
    variant = get_variant("mini-chieftain")
    position = variant.parse_position(BAITS[1])  # two Chieftains: a turn of two moves
    level = LEVELS[1]
    moves = [Thinker("mini-chieftain", still_clock, seed).think(position, level).move
             for seed in range(12)]
    legal = variant.legal_moves(position)
    assert all(m in legal for m in moves)
    assert len({variant.format_move(position, m) for m in moves}) > 3  # it varies by seed


@pytest.mark.parametrize(("bait", "shares"), [(BAITS[0], [0.95]), (BAITS[1], [0.5225, 0.95])])
def test_the_last_move_of_a_chieftain_turn_thinks_with_all_the_time_left(
        bait: str, shares: list[float]) -> None:
    """A move another move of the turn may follow gets 55% of the time left; the last one
    (or the only one of a side down to one Chieftain) all of it. The clock stands still,
    so the time left is the level's 95% at each move."""
    position = get_variant("mini-chieftain").parse_position(bait)
    thinker = Thinker("mini-chieftain", still_clock)
    given: list[float] = []
    run = thinker.search.run

    def recorded(state, depth, seconds, *rest):  # type: ignore[no-untyped-def]
        given.append(seconds)
        return run(state, depth, seconds, *rest)

    thinker.search.run = recorded  # type: ignore[method-assign]
    thinker.think(position, LEVELS[4], seconds=1.0)
    assert given == pytest.approx(shares)


@pytest.mark.parametrize(("home", "forward", "gain"), [
    ("3c4/8/8/8/8/8/3G4/3C4 w - 1", "3c4/8/8/8/3G4/8/8/3C4 w - 1", 8),
    ("3c4/8/8/8/8/8/3V4/3C4 w - 1", "3c4/8/8/8/3V4/8/8/3C4 w - 1", 8),
    ("3c4/3g4/8/8/8/8/8/3C4 w - 1", "3c4/8/8/3g4/8/8/8/3C4 w - 1", -8),
    ("3c4/3v4/8/8/8/8/8/3C4 w - 1", "3c4/8/8/3v4/8/8/8/3C4 w - 1", -8),
])
def test_micro_chieftain_golds_and_silvers_gain_by_advancing_as_men_do(
        home: str, forward: str, gain: int) -> None:
    """micro-Chieftain's Golds and Silvers stand where mini-Chieftain's Men do and, like
    them, are worth 4 centipawns more per rank forward (both squares within command, so
    only the rank differs; White is to move, so Black's gain counts negative): without it
    level 5 had nothing to gain by going forward and walked its pieces to and fro in closed
    positions."""
    variant, game = get_variant("micro-chieftain"), game_for("micro-chieftain")
    scores = [game.evaluate(game.root(variant.parse_position(text)))
              for text in (home, forward)]
    assert scores[1] - scores[0] == gain
