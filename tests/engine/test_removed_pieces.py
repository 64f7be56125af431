"""`Variant.removed_pieces`: what a move takes off the board, for every variant. Checked
against the board itself over seeded games: after every move, each side has the pieces it
had, less those the move removed, plus any piece it built (a Clash leave-behind);
transformations and promotions change no count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Move, Piece, Position, Variant, all_variants, get_variant


def counts(variant: Variant, position: Position) -> Counter[int]:
    return Counter(piece.side for node in variant.topology.nodes
                   for piece in variant.pieces_at(position, node))


def check(variant: Variant, position: Position, move: Move) -> tuple[Piece, ...]:
    removed = variant.removed_pieces(position, move)
    before, after = counts(variant, position), counts(variant, variant.make_move(position, move))
    built = sum(1 for step in move.steps if step.drop)
    for side in (0, 1):
        lost = sum(1 for piece in removed if piece.side == side)
        assert after[side] == before[side] - lost + (built if side == position.side else 0), (
            variant.format_position(position), variant.format_move(position, move), removed)
    return removed


def seeded_moves(variant: Variant, seed: int, steps: bool):
    """(position, move) along a seeded game that prefers captures; ``steps``: turns of
    several steps are entered one step at a time (`next_steps`), as players may."""
    rng = random.Random(seed)
    position = variant.start_position()
    for _ in range(80):
        moves = [m for m in (variant.next_steps(position) if steps
                             else variant.legal_moves(position)) if m.steps]
        if not moves:
            return
        captures = [m for m in moves if m.captures]
        move = rng.choice(captures if captures and rng.random() < 0.7 else moves)
        yield position, move
        position = variant.make_move(position, move)


@pytest.mark.parametrize("steps", [False, True], ids=["whole turns", "step by step"])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_the_pieces_removed_are_those_missing_from_the_board(variant, steps):
    removed = 0
    for seed in range(3):
        for position, move in seeded_moves(variant, seed, steps):
            removed += len(check(variant, position, move))
    assert removed > 0  # the games did capture


def test_a_move_that_captures_nothing_removes_nothing():
    clash = get_variant("clash")
    start = clash.start_position()
    move = clash.parse_move(start, "c3-c5")
    assert check(clash, start, move) == ()


def test_a_slicer_removes_every_piece_on_its_line_of_either_side():
    clash = get_variant("clash")
    position = clash.parse_position("4c/4/5/4/5/4/5/4/SDd1C w 1")
    move = clash.parse_move(position, "a1-g1")
    assert check(clash, position, move) == (Piece("D", 0), Piece("D", 1))


def test_commander_chess_loses_the_heroic_piece_as_it_was():
    commander = get_variant("commander")
    position = commander.parse_position("7c1ee/11/11/11/11/11/4+t6/11/11/4A6/11/6C2EE r - - 0 1")
    move = commander.parse_move(position, "Axe6")
    assert check(commander, position, move) == (Piece("T", 1, heroic=True),)
    assert commander.piece_points["T"] == 20
