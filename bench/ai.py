"""Strength and speed of the computer player, per variant.

Matches (each game from a different opening: ``--opening`` random plies first, then the
players; colours alternate):

* level 5 against a random mover (target: >= 99% wins);
* level 5 against a greedy player that takes the move leaving the best material after one
  ply, ties broken at random (what the strongest public Commander Chess program does)
  (target: >= 90% of points);
* each level against the level below (target: >= 65% of points).

Every computer move has ``--seconds`` (the issue's figure: 1 s); a level keeps its own
depth limit and noise. A game not decided after ``--turns`` turns is counted as a draw.
The p99 time per computer move is reported beside ``--seconds`` (target: <= +10%).

Search speed: nodes per second of the level-5 search from ``--positions`` positions of
random games per variant, ``--seconds`` each, beside a textbook alpha-beta (negamax,
iterative deepening, material evaluation, captures first, no quiescence) over python-chess
searching positions of random chess games for the same time, in the same run (target:
>= 0.5x).

Run: ``.venv/bin/python bench/ai.py [--games 100] [--seconds 1] [--variants clash,...]``
(the full matches take hours on a 2-core machine).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from engine import Move, Position, Variant, all_variants, get_variant
from engine.search import LEVELS, Thinker
from engine.search.chieftain import VALUES as CHIEFTAIN_VALUES
from engine.search.clash import VALUES as CLASH_VALUES
from engine.search.combined_arms import VALUES as ARMS_VALUES
from engine.search.commander import stack_value

Chooser = Callable[[Position], Move]


# --- material (for the greedy player) -------------------------------------------------------
def _letters(values: dict[str, int]) -> Callable[[object, int], int]:
    def value(cell: object, side: int) -> int:
        letter = str(cell)
        v = values[letter.upper()]
        return v if letter.isupper() == (side == 0) else -v
    return value


def _stack(cell: object, side: int) -> int:
    from engine.commander.pieces import STACKS
    info = STACKS[cell]  # type: ignore[index]
    return stack_value(cell) if info.side == side else -stack_value(cell)  # type: ignore[arg-type]


MATERIAL = {"clash": _letters(CLASH_VALUES), "combined-arms": _letters(ARMS_VALUES),
            "mini-chieftain": _letters(CHIEFTAIN_VALUES),
            "micro-chieftain": _letters(CHIEFTAIN_VALUES), "commander": _stack}


def material(variant: Variant, position: Position, side: int) -> int:
    value = MATERIAL[variant.name]
    return sum(value(c, side) for c in position.cells if c is not None)


# --- players --------------------------------------------------------------------------------
def random_player(variant: Variant, rng: random.Random) -> Chooser:
    return lambda position: rng.choice(variant.legal_moves(position))


def greedy_player(variant: Variant, rng: random.Random) -> Chooser:
    def choose(position: Position) -> Move:
        side = position.side
        best, found = None, []
        for move in variant.legal_moves(position):
            after = variant.make_move(position, move)
            lost = variant.outcome(after).winner == 1 - side
            score = -10**9 if lost else material(variant, after, side)
            if variant.outcome(after).winner == side:
                score = 10**9
            if best is None or score > best:
                best, found = score, [move]
            elif score == best:
                found.append(move)
        return rng.choice(found)
    return choose


@dataclass
class Timing:
    seconds: list[float] = field(default_factory=list)
    nodes: int = 0


def computer_player(variant: Variant, level: int, seconds: float, seed: int,
                    timing: Timing) -> Chooser:
    thinker = Thinker(variant.name, time.perf_counter, seed)

    def choose(position: Position) -> Move:
        start = time.perf_counter()
        thought = thinker.think(position, LEVELS[level], seconds)
        timing.seconds.append(time.perf_counter() - start)
        timing.nodes += thought.nodes
        return thought.move
    return choose


# --- matches --------------------------------------------------------------------------------
def play_game(variant: Variant, players: tuple[Chooser, Chooser], rng: random.Random,
              opening: int, turns: int) -> float:
    """The first player's points (1, 1/2 or 0) in one game."""
    position = variant.start_position()
    history = [position]
    for _ in range(opening):
        moves = variant.legal_moves(position)
        if not moves:
            break
        position = variant.make_move(position, rng.choice(moves))
        history.append(position)
    for _ in range(turns):
        outcome = variant.outcome(position, history[:-1])
        if outcome.is_over:
            return 0.5 if outcome.winner is None else float(outcome.winner == 0)
        position = variant.make_move(position, players[position.side](position))
        history.append(position)
    outcome = variant.outcome(position, history[:-1])
    if outcome.is_over and outcome.winner is not None:
        return float(outcome.winner == 0)
    return 0.5


@dataclass
class MatchResult:
    name: str
    points: float
    games: int
    wins: int
    target: str


def match(variant: Variant, name: str, make_a: Callable[[int], Chooser],
          make_b: Callable[[int], Chooser], games: int, opening: int, turns: int,
          target: str) -> MatchResult:
    """``games`` games of A against B, colours alternating; A's points."""
    points, wins = 0.0, 0
    for g in range(games):
        rng = random.Random(1000 + g)
        a, b = make_a(g), make_b(g)
        if g % 2 == 0:
            score = play_game(variant, (a, b), rng, opening, turns)
        else:
            score = 1.0 - play_game(variant, (b, a), rng, opening, turns)
        points += score
        wins += score == 1.0
    return MatchResult(name, points, games, wins, target)


# --- speed ----------------------------------------------------------------------------------
def random_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        position = variant.start_position()
        for _ in range(rng.randrange(4, 30)):
            moves = variant.legal_moves(position)
            if not moves or variant.outcome(position).is_over:
                break
            position = variant.make_move(position, rng.choice(moves))
        if variant.legal_moves(position) and not variant.outcome(position).is_over:
            out.append(position)
    return out


def variant_speed(variant: Variant, positions: int, seconds: float) -> float:
    thinker = Thinker(variant.name, time.perf_counter)
    nodes, spent = 0, 0.0
    for position in random_positions(variant, positions, 5):
        thought = thinker.think(position, LEVELS[5], seconds)
        nodes += thought.nodes
        spent += thought.seconds
    return nodes / spent


CHESS_VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500,
                chess.QUEEN: 900, chess.KING: 0}


class ChessSearch:
    """The anchor: textbook negamax alpha-beta over python-chess, material evaluation."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.nodes = 0

    def evaluate(self, board: chess.Board) -> int:
        score = 0
        for piece_type, value in CHESS_VALUES.items():
            score += value * (len(board.pieces(piece_type, chess.WHITE))
                              - len(board.pieces(piece_type, chess.BLACK)))
        return score if board.turn == chess.WHITE else -score

    def negamax(self, board: chess.Board, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 127 and time.perf_counter() > self.deadline:
            raise TimeoutError
        if board.is_checkmate():
            return -100_000
        if depth == 0 or board.is_game_over():
            return self.evaluate(board)
        moves = sorted(board.legal_moves, key=lambda m: not board.is_capture(m))
        best = -10**9
        for move in moves:
            board.push(move)
            score = -self.negamax(board, depth - 1, -beta, -alpha)
            board.pop()
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best


def chess_speed(positions: int, seconds: float) -> float:
    rng = random.Random(5)
    nodes, spent = 0, 0.0
    for _ in range(positions):
        board = chess.Board()
        for _ in range(rng.randrange(4, 30)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        start = time.perf_counter()
        search = ChessSearch(start + seconds)
        try:
            for depth in range(1, 64):
                search.negamax(board, depth, -10**9, 10**9)
        except TimeoutError:
            pass
        nodes += search.nodes
        spent += time.perf_counter() - start
    return nodes / spent


# --- the report -----------------------------------------------------------------------------
def run_variant(variant: Variant, args: argparse.Namespace, anchor: float) -> None:
    timing = Timing()
    s, games, opening, turns = args.seconds, args.games, args.opening, args.turns

    def computer(level: int) -> Callable[[int], Chooser]:
        return lambda g: computer_player(variant, level, s, g, timing)

    results = [
        match(variant, "L5 vs random", computer(5),
              lambda g: random_player(variant, random.Random(g)), games, opening, turns,
              "wins >= 99%"),
        match(variant, "L5 vs greedy", computer(5),
              lambda g: greedy_player(variant, random.Random(g)), games, opening, turns,
              "points >= 90%"),
    ]
    for level in range(2, 6):
        results.append(match(variant, f"L{level} vs L{level - 1}", computer(level),
                             computer(level - 1), games, opening, turns, "points >= 65%"))
    speed = variant_speed(variant, args.positions, s)
    p99 = statistics.quantiles(timing.seconds, n=100)[98] if len(timing.seconds) > 1 else 0.0
    print(f"\n{variant.display_name} ({variant.name})")
    for r in results:
        share = r.points / r.games
        won = r.wins / r.games
        print(f"  {r.name:<14} {r.points:>5.1f}/{r.games:<4} points {share:>6.1%}  "
              f"wins {won:>6.1%}   target {r.target}")
    print(f"  search speed   {speed:,.0f} nodes/s = {speed / anchor:.2f} x python-chess "
          f"alpha-beta (target >= 0.5)")
    print(f"  time per move  median {statistics.median(timing.seconds):.3f} s, p99 {p99:.3f} s "
          f"for a limit of {s:g} s (target <= {s * 1.1:.3f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per computer move")
    parser.add_argument("--opening", type=int, default=2, help="random plies first")
    parser.add_argument("--turns", type=int, default=200, help="turns before a game is drawn")
    parser.add_argument("--positions", type=int, default=20, help="positions for speed")
    parser.add_argument("--variants", default=",".join(v.name for v in all_variants()))
    args = parser.parse_args()
    anchor = chess_speed(args.positions, args.seconds)
    print(f"Computer player: {args.games} games per match, {args.seconds:g} s per move, "
          f"{args.opening} random plies first, drawn after {args.turns} turns "
          f"({platform.python_implementation()} {platform.python_version()}, "
          f"python-chess {chess.__version__})")
    print(f"python-chess textbook alpha-beta: {anchor:,.0f} nodes/s")
    for name in args.variants.split(","):
        run_variant(get_variant(name), args, anchor)


if __name__ == "__main__":
    main()
