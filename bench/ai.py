"""Strength and speed of the computer player, per variant.

Matches (each game from a different opening: ``--opening`` random plies first, then the
players; colours alternate):

* level 5 against a random mover (target: >= 99% wins);
* level 5 against a greedy player that takes the move leaving the best material after one
  ply, ties broken at random (what the strongest public Commander Chess program does)
  (target: >= 90% of points);
* each level against the level below (target: >= 65% of points).

Time per move: every level thinks for its own documented time (`engine.search.LEVELS`:
0.5, 1, 2, 4 and 8 s) times ``--scale``; the default 0.125 gives level 5 the issue's 1 s
per move (level 1 then has 0.0625 s), so the levels stay as distinct as in play, each
with its own depth limit and noise. ``--seconds`` instead gives every level the same time.

A game not decided after ``--turns`` turns (a Chieftain turn is all its moves) is
adjudicated on material (the values the evaluations use, the greedy player's): the side
ahead by at least ``--margin`` centipawns (default 300: a minor piece, three Men) wins,
else it is a draw; ``--margin 0`` counts every such game a draw. Draws by the rules
(repetition, no move) stay draws. Both counts are printed.

The p99 time per computer move is reported per level against its limit (target: <= the
limit + 10%), on the clock the computer used: ``--clock wall`` (the default, as the bot
plays) or ``--clock cpu``, this process's processor time, so that on a machine shared
with other jobs each level still gets its own thinking time and plays at its strength.

Search speed: nodes per second of the level-5 search from ``--positions`` positions of
random games per variant, ``--speed-seconds`` each, beside a textbook alpha-beta (negamax,
iterative deepening, material evaluation, captures first, no quiescence) over python-chess
searching positions of random chess games for the same time; the two alternate position
by position in one process and are timed on its processor time, so the load of a shared
machine slows neither (target: >= 0.5x).

Run: ``.venv/bin/python bench/ai.py [--games 100] [--scale 0.125] [--variants clash,...]
[--parts speed,random,greedy,ladder] [--jobs 2 --clock cpu]`` (the full matches take hours
on a 2-core machine; ``--jobs`` plays games in parallel processes).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import chess

from engine import Move, Position, Variant, all_variants, get_variant
from engine.search import LEVELS, Thinker
from engine.search.chieftain import VALUES as CHIEFTAIN_VALUES
from engine.search.clash import VALUES as CLASH_VALUES
from engine.search.combined_arms import VALUES as ARMS_VALUES
from engine.search.commander import stack_value

Chooser = Callable[[Position, list[Position]], Move]  # position, earlier ones


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
    return lambda position, _history: rng.choice(variant.legal_moves(position))


def greedy_player(variant: Variant, rng: random.Random) -> Chooser:
    def choose(position: Position, _history: list[Position]) -> Move:
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
    """Seconds per computer move, per time limit."""

    seconds: dict[float, list[float]] = field(default_factory=dict)


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def computer_player(variant: Variant, level: int, seconds: float, seed: int,
                    timing: Timing, clock: Callable[[], float]) -> Chooser:
    thinker = Thinker(variant.name, clock, seed)
    spent = timing.seconds.setdefault(seconds, [])

    def choose(position: Position, history: list[Position]) -> Move:
        start = clock()
        thought = thinker.think(position, LEVELS[level], seconds, history=history)
        spent.append(clock() - start)
        return thought.move
    return choose


#: A player as the matches name it, so that a game can be played in another process:
#: ("random",), ("greedy",) or ("computer", level, seconds per move, clock name).
Spec = tuple


def make_player(variant: Variant, spec: Spec, seed: int, timing: Timing) -> Chooser:
    if spec[0] == "random":
        return random_player(variant, random.Random(seed))
    if spec[0] == "greedy":
        return greedy_player(variant, random.Random(seed))
    _kind, level, seconds, clock = spec
    return computer_player(variant, level, seconds, seed, timing, CLOCKS[clock])


# --- matches --------------------------------------------------------------------------------
def play_game(variant: Variant, players: tuple[Chooser, Chooser], rng: random.Random,
              opening: int, turns: int, margin: int,
              resign: tuple[int, int] = (0, 0)) -> tuple[float, bool]:
    """The first player's points (1, 1/2 or 0) in one game, and whether it was
    adjudicated: at the turn limit, or (``resign`` = (centipawns, turns), centipawns 0:
    never) for the side that has led by at least that much material after each of that
    many turns in a row, as an engine-testing harness adjudicates a resignation."""
    lead, needed = resign
    streak, leader = 0, 0
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
            return (0.5 if outcome.winner is None else float(outcome.winner == 0)), False
        position = variant.make_move(position, players[position.side](position, history[:-1]))
        history.append(position)
        if lead:
            ahead = material(variant, position, 0)
            side = 1 if ahead > 0 else -1
            streak = streak + 1 if abs(ahead) >= lead and side == leader else \
                int(abs(ahead) >= lead)
            leader = side
            if streak >= needed and not variant.outcome(position, history[:-1]).is_over:
                return float(side > 0), True
    outcome = variant.outcome(position, history[:-1])
    if outcome.is_over:
        return (0.5 if outcome.winner is None else float(outcome.winner == 0)), False
    ahead = material(variant, position, 0)
    if margin and abs(ahead) >= margin:
        return float(ahead > 0), True
    return 0.5, True


@dataclass
class MatchResult:
    name: str
    points: float
    games: int
    wins: int
    draws: int
    adjudicated: int
    target: str


def one_game(task: tuple) -> tuple[float, bool, dict[float, list[float]]]:
    """Game ``g`` of A against B (A White in even games): A's points, whether it was
    adjudicated, and the computer's seconds per move by limit. Runs in a worker process
    with ``--jobs``."""
    name, spec_a, spec_b, g, opening, turns, margin, resign = task
    variant = get_variant(name)
    timing = Timing()
    a, b = make_player(variant, spec_a, g, timing), make_player(variant, spec_b, g, timing)
    players = (a, b) if g % 2 == 0 else (b, a)
    score, judged = play_game(variant, players, random.Random(1000 + g), opening, turns,
                              margin, resign)
    return (1.0 - score if g % 2 else score), judged, timing.seconds


def match(variant: Variant, name: str, spec_a: Spec, spec_b: Spec,
          args: argparse.Namespace, target: str, timing: Timing) -> MatchResult:
    """``args.games`` games of A against B, colours alternating; A's points. With
    ``--jobs N`` the games are played N at a time in worker processes (each computer
    move then timed on its own process's clock)."""
    resign = (args.resign, args.resign_turns)
    tasks = [(variant.name, spec_a, spec_b, g, args.opening, args.turns, args.margin, resign)
             for g in range(args.first, args.first + args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            games = list(pool.map(one_game, tasks))
    else:
        games = [one_game(t) for t in tasks]
    points, wins, draws, adjudicated = 0.0, 0, 0, 0
    for score, judged, seconds in games:
        points += score
        wins += score == 1.0
        draws += score == 0.5
        adjudicated += judged
        for limit, spent in seconds.items():
            timing.seconds.setdefault(limit, []).extend(spent)
    return MatchResult(name, points, args.games, wins, draws, adjudicated, target)


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


def variant_speed(variant: Variant, positions: int, seconds: float) -> tuple[float, float]:
    """Nodes/s of the level-5 search and of the python-chess anchor, measured position
    by position in turn."""
    thinker = Thinker(variant.name, time.process_time)
    nodes, spent, anchor_nodes, anchor_spent = 0, 0.0, 0, 0.0
    for i, position in enumerate(random_positions(variant, positions, 5)):
        n, t = chess_search(random.Random(5 + i), seconds)
        anchor_nodes += n
        anchor_spent += t
        thought = thinker.think(position, LEVELS[5], seconds)
        nodes += thought.nodes
        spent += thought.seconds
    return nodes / spent, anchor_nodes / anchor_spent


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
        if not self.nodes & 127 and time.process_time() > self.deadline:
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


def chess_search(rng: random.Random, seconds: float) -> tuple[int, float]:
    """The anchor's nodes and seconds on one position of a random chess game."""
    while True:
        board = chess.Board()
        for _ in range(rng.randrange(4, 30)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            break
    start = time.process_time()
    search = ChessSearch(start + seconds)
    try:
        for depth in range(1, 64):
            search.negamax(board, depth, -10**9, 10**9)
    except TimeoutError:
        pass
    return search.nodes, time.process_time() - start


# --- the report -----------------------------------------------------------------------------
def level_seconds(args: argparse.Namespace, level: int) -> float:
    """The time per move of ``level`` in this run."""
    return args.seconds if args.seconds else LEVELS[level].seconds * args.scale


def run_variant(variant: Variant, args: argparse.Namespace) -> None:
    timing = Timing()
    parts = args.parts.split(",")

    def computer(level: int) -> Spec:
        return ("computer", level, level_seconds(args, level), args.clock)

    print(f"\n{variant.display_name} ({variant.name})", flush=True)
    if "speed" in parts:
        speed, anchor = variant_speed(variant, args.positions, args.speed_seconds)
        print(f"  search speed   {speed:,.0f} nodes/s, python-chess alpha-beta {anchor:,.0f} "
              f"nodes/s: {speed / anchor:.2f} x (target >= 0.5)", flush=True)
    if "random" in parts:
        report(match(variant, "L5 vs random", computer(5), ("random",), args, "wins >= 99%",
                     timing))
    if "greedy" in parts:
        report(match(variant, "L5 vs greedy", computer(5), ("greedy",), args,
                     "points >= 90%", timing))
    if "ladder" in parts:
        for level in map(int, args.ladder.split(",")):
            report(match(variant, f"L{level} vs L{level - 1}", computer(level),
                         computer(level - 1), args, "points >= 65%", timing))
    for limit, seconds in sorted(timing.seconds.items()):
        p99 = statistics.quantiles(seconds, n=100)[98] if len(seconds) > 1 else seconds[0]
        print(f"  time per move  limit {limit:.4g} s: median {statistics.median(seconds):.3f} s, "
              f"p99 {p99:.3f} s = {p99 / limit:.2f} x the limit over {len(seconds)} moves "
              f"(target <= 1.10)")


def report(r: MatchResult) -> None:
    print(f"  {r.name:<14} {r.points:>5.1f}/{r.games:<4} points {r.points / r.games:>6.1%}  "
          f"wins {r.wins / r.games:>6.1%}  draws {r.draws}  adjudicated {r.adjudicated}   "
          f"target {r.target}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--scale", type=float, default=0.125,
                        help="each level's time per move times this")
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="the same time per move for every level (0: --scale)")
    parser.add_argument("--opening", type=int, default=2, help="random plies first")
    parser.add_argument("--turns", type=int, default=200, help="turns before adjudication")
    parser.add_argument("--margin", type=int, default=300,
                        help="material lead that wins an adjudicated game (0: draws)")
    parser.add_argument("--resign", type=int, default=0,
                        help="material lead (centipawns) that wins once held for "
                             "--resign-turns turns in a row (0: play on)")
    parser.add_argument("--resign-turns", type=int, default=4)
    parser.add_argument("--positions", type=int, default=20, help="positions for speed")
    parser.add_argument("--speed-seconds", type=float, default=1.0,
                        help="search time per speed position")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="the computer's clock in matches: wall time, or this process's "
                             "processor time (the same strength on a loaded machine)")
    parser.add_argument("--parts", default="speed,random,greedy,ladder")
    parser.add_argument("--ladder", default="2,3,4,5",
                        help="the ladder's matches, by the higher level")
    parser.add_argument("--first", type=int, default=0,
                        help="number of the first game (its opening's seed), so that runs "
                             "of different games can be added up")
    parser.add_argument("--jobs", type=int, default=1,
                        help="games played at once, each in its own process (use --clock "
                             "cpu when they share cores)")
    parser.add_argument("--variants", default=",".join(v.name for v in all_variants()))
    args = parser.parse_args()
    times = ", ".join(f"L{n} {level_seconds(args, n):g} s" for n in LEVELS)
    resigned = (f", or once a side leads by {args.resign} for {args.resign_turns} turns"
                if args.resign else "")
    print(f"Computer player: {args.games} games per match ({times} per move, "
          f"{args.clock} clock), "
          f"{args.opening} random plies first, adjudicated after {args.turns} turns "
          f"(margin {args.margin}){resigned} ({platform.python_implementation()} "
          f"{platform.python_version()}, python-chess {chess.__version__})", flush=True)
    for name in args.variants.split(","):
        run_variant(get_variant(name), args)


if __name__ == "__main__":
    main()
