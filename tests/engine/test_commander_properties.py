"""Commander Chess properties over random games (hypothesis): every move round-trips
through SAN and LAN, positions round-trip through FEN (the deploy-in-progress suffix
included), a deploy entered step by step ends where the whole deploy does, nothing raises,
and the board never breaks the rules: every stack valid, on terrain its carrier may stand
on, no more pieces than a full set, no hero ever demoted."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Move, Position, get_variant
from engine.boards import COMMANDER

V = get_variant("commander")
FULL_SET = {"C": 1, "H": 2, "F": 2, "N": 2, "A": 2, "S": 1, "G": 2, "T": 2, "I": 2, "E": 2,
            "M": 1}
CARRIES = {"N": "FTCIM", "F": "TCIM", "T": "CIM", "E": "AGS", "H": "C"}
PLIES = 36
SAMPLE = 6
SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def check_board(position: Position) -> dict[tuple[int, str], tuple[int, int]]:
    """Assert the board obeys §5.1 and §5.6 and the set limits; per (side, letter) the
    number of heroes and of pieces."""
    counts: Counter = Counter()
    heroes: Counter = Counter()
    for i, node in enumerate(COMMANDER.nodes):
        pieces = V.pieces_at(position, node)
        if not pieces:
            continue
        carrier, *rest = pieces
        assert len({p.side for p in pieces}) == 1 and len(pieces) <= 3, (node, pieces)
        if rest:
            assert all(p.letter in CARRIES[carrier.letter] for p in rest), (node, pieces)
            assert len(rest) <= (1 if carrier.letter in "EH" else 2), (node, pieces)
            assert not (carrier.letter == "F" and [p.letter for p in rest].count("T") > 1)
        tags = COMMANDER.terrain[i]
        assert ("navigable" if carrier.letter == "N" else "land-capable") in tags, (node,
                                                                                  pieces)
        for p in pieces:
            counts[(p.side, p.letter)] += 1
            heroes[(p.side, p.letter)] += p.heroic
    for (side, letter), n in counts.items():
        assert n <= FULL_SET[letter], (side, letter, n)
    return {k: (heroes[k], counts[k]) for k in counts}


def check_heroes_kept(before: dict, after: dict) -> None:
    """A heroic piece stays heroic unless pieces of its kind were lost."""
    for key, (heroic, count) in before.items():
        heroic_now, count_now = after.get(key, (0, 0))
        assert heroic_now >= heroic - (count - count_now), key


def random_game(rng: random.Random, plies: int) -> list[Position]:
    position = V.start_position()
    game = [position]
    for _ in range(plies):
        moves = V.legal_moves(position)
        if not moves:
            break
        lively = [m for m in moves if m.captures or m.kind == "deploy"]
        position = V.make_move(position, rng.choice(lively if lively and rng.random() < 0.5
                                                    else moves))
        game.append(position)
        if V.outcome(position).is_over:
            break
    return game


def enter_step_by_step(position: Position, move: Move) -> Position:
    """Play a deploy by sending its steps one at a time, as a client may (§5.5)."""
    current = position
    for step in move.steps:
        text = V.format_move(current, Move((step,), "step"))
        entered = V.parse_move(current, text)
        assert entered.steps == (step,), (text, entered)
        current = V.apply(current, entered)
        if current.pending:
            assert V.parse_position(V.format_position(current), relaxed=True) == current
    if current.pending:
        current = V.end_turn(current)
    return current


@SETTINGS
@given(st.randoms(use_true_random=False))
def test_random_games_round_trip_and_keep_the_rules(rng: random.Random) -> None:
    game = random_game(rng, PLIES)
    heroes = check_board(game[0])
    for position in game:
        heroes_now = check_board(position)
        check_heroes_kept(heroes, heroes_now)
        heroes = heroes_now
        text = V.format_position(position)
        assert V.parse_position(text, relaxed=True) == position
        V.status_text(position)
        V.outcome(position, game[:1], "land")
        moves = V.legal_moves(position)
        assert len(moves) == len(set(moves)) == V.count_moves(position)
        for move in rng.sample(moves, min(SAMPLE, len(moves))):
            san = V.format_move(position, move)
            assert V.parse_move(position, san) == move, san
            lan = V.format_lan(position, move)
            assert V.parse_move(position, lan) == move, lan
            after = V.make_move(position, move)
            assert V.apply(position, move) == after
            if move.kind == "deploy":
                assert enter_step_by_step(position, move) == after, san
