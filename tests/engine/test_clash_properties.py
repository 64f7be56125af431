"""Clash of Command properties over random legal games and random text (hypothesis).

Games are drawn from the start position by choosing move indices, so every position here
is reachable in play. The whole file runs in a few seconds.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import AmbiguousMoveError, EngineError, Position, get_variant

CLASH = get_variant("clash")
NODES = CLASH.topology.nodes

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def games(draw: st.DrawFn, max_plies: int = 40) -> list[Position]:
    """The positions of a random legal game from the start, the start first."""
    position = CLASH.start_position()
    played = [position]
    for _ in range(draw(st.integers(0, max_plies))):
        moves = CLASH.legal_moves(position)
        if not moves:
            break
        position = CLASH.make_move(position, moves[draw(st.integers(0, len(moves) - 1))])
        played.append(position)
    return played


def play_to_the_end(rng: random.Random, limit: int = 1000) -> list[Position]:
    """The positions of a random game played until it ends (or for ``limit`` plies).

    Moves that turn a Commander into something else are mostly avoided, or nearly every
    game would end by a side giving up its own last Commander; captures are preferred
    with a per-game bias, so that games end well within the limit."""
    position = CLASH.start_position()
    played = [position]
    capture_bias = rng.random() * 0.7
    for _ in range(limit):
        moves = CLASH.legal_moves(position)
        if not moves:
            break
        if rng.random() < 0.95:
            moves = [m for m in moves if not (m.steps[0].unit == "C" and m.steps[0].becomes)
                     ] or moves
        captures = [m for m in moves if m.captures]
        move = rng.choice(captures if captures and rng.random() < capture_bias else moves)
        position = CLASH.make_move(position, move)
        played.append(position)
    return played


# --- moves and positions in play -------------------------------------------------------------


@SETTINGS
@given(games())
def test_every_legal_move_formats_and_parses_back_to_itself(game: list[Position]) -> None:
    for position in game[-3:]:
        for move in CLASH.legal_moves(position):
            text = CLASH.format_move(position, move)
            assert CLASH.parse_move(position, text) == move, text
            assert CLASH.parse_move(position, text.upper()) == move, text


@SETTINGS
@given(games())
def test_canonical_texts_of_the_legal_moves_are_pairwise_distinct(game: list[Position]) -> None:
    for position in game:
        moves = CLASH.legal_moves(position)
        texts = [CLASH.format_move(position, m) for m in moves]
        assert len(set(texts)) == len(texts) == len(set(moves))
        assert CLASH.count_moves(position) == len(moves) == CLASH.perft(position, 1)


@SETTINGS
@given(games())
def test_position_strings_round_trip(game: list[Position]) -> None:
    for position in game:
        text = CLASH.format_position(position)
        again = CLASH.parse_position(text)
        assert again == position
        assert CLASH.format_position(again) == text


@SETTINGS
@given(games())
def test_make_move_and_apply_never_raise_for_a_legal_move(game: list[Position]) -> None:
    for position in game[-3:]:
        for move in CLASH.legal_moves(position):
            after = CLASH.apply(position, move)
            assert after == CLASH.make_move(position, move)
            assert after.side == 1 - position.side
            assert after.fullmove == position.fullmove + position.side
            # every capture empties its node unless the mover lands there
            for node in move.captures:
                if node != move.target:
                    assert not CLASH.pieces_at(after, node)


@SETTINGS
@given(games())
def test_moves_change_only_the_nodes_they_touch(game: list[Position]) -> None:
    index = CLASH.topology.index
    for position in game[-2:]:
        for move in CLASH.legal_moves(position):
            after = CLASH.make_move(position, move)
            changed = {NODES[i] for i, (a, b) in enumerate(zip(position.cells, after.cells,
                                                                 strict=True)) if a != b}
            assert changed <= set(move.touched), CLASH.format_move(position, move)
            assert after.cells[index[move.target]] is not None


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_finished_game_has_no_legal_moves_and_names_the_right_winner(
        rng: random.Random) -> None:
    game = play_to_the_end(rng)
    assert CLASH.outcome(game[-1]).is_over
    for before, after in zip(game, game[1:], strict=False):
        assert not CLASH.outcome(before).is_over
        outcome = CLASH.outcome(after)
        mover, opponent = before.side, 1 - before.side
        has_commander = {0: "C" in after.cells, 1: "c" in after.cells}
        if has_commander[0] and has_commander[1]:
            assert outcome.status == "ongoing"
            assert CLASH.legal_moves(after)  # a side with a Commander can always move
            continue
        # rules §6: the opponent has none (whether or not the mover has one): the mover
        # wins; only the mover has none: the opponent wins
        winner = mover if not has_commander[opponent] else opponent
        assert (outcome.status, outcome.winner) == ("win", winner)
        assert outcome.score == ("1-0" if winner == 0 else "0-1")
        assert CLASH.legal_moves(after) == []
        assert after is game[-1]


# --- the parser under random text ------------------------------------------------------------

TOKENS = st.sampled_from(
    [f"{f}{r}" for f in "abcdefghij" for r in range(0, 11)]
    + ["-", "x", "X", "/", "=", ",", ":", " ", "  ", "on", "C", "F", "D", "H", "B", "S",
       "c", "f", "d", "h", "b", "s", "K", "Q", "Commander", "factor", "Droid", "hawk",
       "BRUTE", "Slicer", "king", "\u0131", "\u017f", "\u212a", "\u00b2", "\u00a0", "\t",
       "\u2013", "?", "0", "1", "9", "10", "xx", "--", "//"])
MOVE_LIKE = st.lists(TOKENS, max_size=10).map("".join)


def parse_or_refuse(position: Position, text: str) -> None:
    try:
        move = CLASH.parse_move(position, text)
    except AmbiguousMoveError as error:
        legal = {CLASH.format_move(position, m) for m in CLASH.legal_moves(position)}
        assert len(error.candidates) > 1
        assert list(error.candidates) == sorted(error.candidates)
        assert set(error.candidates) <= legal
    except EngineError as error:
        assert str(error)
    else:
        assert move in CLASH.legal_moves(position), text


@settings(max_examples=150, deadline=None)
@given(games(max_plies=20), st.text())
def test_parser_on_any_text_raises_engine_errors_or_finds_a_legal_move(
        game: list[Position], text: str) -> None:
    parse_or_refuse(game[-1], text)


@settings(max_examples=1000, deadline=None)
@given(games(max_plies=20), MOVE_LIKE)
def test_parser_on_move_like_text_raises_engine_errors_or_finds_a_legal_move(
        game: list[Position], text: str) -> None:
    parse_or_refuse(game[-1], text)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("cfdhbsCFDHBS123456789/ wb0-"), max_size=60))
def test_position_reader_raises_only_position_errors(text: str) -> None:
    try:
        position = CLASH.parse_position(text)
    except EngineError:
        return
    assert CLASH.parse_position(CLASH.format_position(position)) == position
