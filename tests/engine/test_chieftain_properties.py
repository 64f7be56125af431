"""Properties of mini-/micro-Chieftain over random games (hypothesis, bounded in time).

Every turn formats and parses back to itself; position strings round-trip, in the middle
of a turn too; playing a turn move by move gives the same position as playing it whole;
nothing raises; a finished game (a side without Chieftains, or no legal move) has no
legal moves.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import IllegalMoveError, Move, Position, Variant, get_variant

VARIANTS = [get_variant("mini-chieftain"), get_variant("micro-chieftain")]
TURNS_PER_GAME = 40  # seeded games of this length mostly reach their end
SAMPLED_TEXTS = 6  # turns per position whose text is parsed back (all would be ~2,000)


def round_trips(variant: Variant, position: Position) -> None:
    text = variant.format_position(position)
    again = variant.parse_position(text)
    assert again == position, text
    assert variant.format_position(again) == text


def play_step_by_step(variant: Variant, position: Position, turn: Move) -> Position:
    """Enter ``turn`` one move at a time by text, then ``end`` if the turn is still open."""
    for step in turn.steps:
        move = variant.parse_move(position, f"{step.origin}-{step.target}")
        position = variant.apply(position, move)
        if position.in_progress:
            round_trips(variant, position)
    if position.in_progress:
        position = variant.apply(position, variant.parse_move(position, "end"))
    return position


def pick(variant: Variant, position: Position, rnd: random.Random, moves: list[Move]) -> Move:
    """A random turn; one taking a Chieftain whenever there is one, and most of the time
    one taking something, so that games reach their end."""
    chiefs = [m for m in moves if any(variant.pieces_at(position, c)[0].letter == "C"
                                      for c in m.captures)]
    if chiefs:
        return rnd.choice(chiefs)
    captures = [m for m in moves if m.captures]
    if captures and rnd.random() < 0.8:
        return rnd.choice(captures)
    return rnd.choice(moves)


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), rnd=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant(variant: Variant, rnd: random.Random) -> None:
    position = variant.start_position()
    history: list[Position] = []
    for _ in range(TURNS_PER_GAME):
        round_trips(variant, position)
        outcome = variant.outcome(position, history)
        if outcome.is_over:
            event(f"game over: {outcome.status}")
            if outcome.status == "win" or "no legal move" in outcome.reason:
                assert variant.legal_moves(position) == []
                assert variant.next_moves(position) == []
            break
        moves = variant.legal_moves(position)
        assert moves and len(moves) == variant.count_moves(position)
        assert len({frozenset(m.steps) for m in moves}) == len(moves)
        turn = pick(variant, position, rnd, moves)
        for move in [turn, *rnd.sample(moves, min(SAMPLED_TEXTS, len(moves)))]:
            text = variant.format_move(position, move)
            assert variant.parse_move(position, text) == move, text
        whole = variant.apply(position, turn)
        assert not whole.in_progress and whole.side == 1 - position.side
        assert play_step_by_step(variant, position, turn) == whole
        reordered = Move(tuple(reversed(turn.steps)), "turn")
        try:  # another order of the same moves is the same turn whenever it is legal
            assert variant.apply(position, reordered) == whole
        except IllegalMoveError:
            pass
        history.append(position)
        position = whole
    variant.status_text(position)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(variant=st.sampled_from(VARIANTS), rnd=st.randoms(use_true_random=False))
def test_turns_in_progress_list_their_completions(variant: Variant, rnd: random.Random) -> None:
    """From the middle of a turn, every listed completion applies, ends the turn and
    parses back from its text; ``end`` is one of them."""
    position = variant.start_position()
    for _ in range(rnd.randrange(0, 6)):  # a few random whole turns first
        moves = variant.legal_moves(position)
        if not moves:
            return
        position = variant.apply(position, pick(variant, position, rnd, moves))
    singles = variant.next_moves(position)
    if not singles:
        return
    started = variant.apply(position, rnd.choice(singles))
    if not started.in_progress:
        return
    completions = variant.legal_moves(started)
    assert Move((), "turn") in completions
    for move in rnd.sample(completions, min(8, len(completions))):
        text = variant.format_move(started, move)
        assert variant.parse_move(started, text) == move, text
        after = variant.apply(started, move)
        assert not after.in_progress and after.side == 1 - started.side
