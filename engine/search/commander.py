"""The computer's Commander Chess: the engine's raw turns and an evaluation from the rules.

Material follows the rules' own scale (§8.4 points, ×10 to centipawns), which already ranks
the pieces by reach and by what they can take: Navy 80, Air force 40, Artillery 30, Tank
and Missile 20, Infantry, Engineer, Anti-aircraft gun and Militia 10. Two changes:

* the **Commander** has no material value (capturing it ends the game); its safety is a
  term below;
* a **Headquarters** scores 0 points but carries the Commander and blocks: 50;
* a **hero** (§6.5: a piece that gives check becomes heroic) moves and captures further,
  has a larger air-defence zone and can fly through zones: +40% of its value.

Position terms:

* **Commander safety**: -150 when the Commander is attacked (the side to move must answer;
  the other side cannot be left in check), -25 per enemy piece within three squares.
* **Air defence cover** (§4): the Commander standing outside every friendly air-defence
  zone while the enemy has an air force that could reach it: -60.
* **Terrain** (§1): a land or heavy piece across the river (+15), where it attacks the
  enemy's half; a Navy on open sea files a–b is where it moves freely (+10) — the mobility
  term, since reach on this board is decided by terrain.
"""

from __future__ import annotations

from typing import NamedTuple

from ..commander.board import TOPO, ZONE
from ..commander.pieces import PIECES, POINTS, STACKS
from ..commander.rules import (
    CAPTURES,
    SUICIDE,
    apply_steps,
    attacked,
    commander_square,
    legal_turns,
    make_turn,
)
from ..commander.variant import to_move
from ..move import Move
from ..position import Position
from .core import WIN
from .zobrist import board_key, number

VALUES = {letter: 10 * points for letter, points in POINTS.items()}
VALUES["C"] = 0
VALUES["H"] = 50
COMMANDER_CAPTURE = 20_000
HERO = 0.4
IN_CHECK = 150
NEAR_COMMANDER = 25
UNCOVERED = 60
ACROSS_RIVER = 15
OPEN_SEA = 10
_RANK = tuple(c[1] for c in TOPO.coords)
_FILE = tuple(c[0] for c in TOPO.coords)
_ZONES = tuple(tuple(frozenset(z) for z in level) for level in ZONE)
#: The value of each piece string (heroes included), looked up per piece.
_PIECE_VALUE = {p: int(VALUES[i.letter] * (1 + HERO if i.heroic else 1)) for p, i in PIECES.items()}

State = tuple[tuple[str | None, ...], int, int, "Deploy | None"]
END = "end"
STEP_WIDTH = 5  # deploy steps searched after the first (ending the deploy is always searched)


def stack_value(stack: str) -> int:
    """Material of a stack: the sum of its pieces (a Commander inside counts as its end)."""
    info = STACKS[stack]
    value = sum(_PIECE_VALUE[p] for p in info.pieces)
    return value + COMMANDER_CAPTURE if info.has_commander else value


class Deploy(NamedTuple):
    """A deploy in progress: the board at the start of the turn, the stack's square, the
    steps so far and the legal deploys that begin with them."""

    start: tuple[str | None, ...]
    origin: int
    steps: tuple[tuple, ...]
    candidates: tuple[tuple, ...]


class CommanderGame:
    """`Game` for Commander Chess. A state is (cells, side, key, deploy): ``deploy`` is
    None at the start of a turn, else the `Deploy` in progress (``cells`` then show its
    steps made). A move is a raw whole-stack turn, a deploy step ``("step", origin, raw
    step)``, or
    `END` (the deploy stops here). Deploys are searched one step at a time (rules §5.5:
    one piece after another from the stack): their steps come from the engine's own list
    of complete legal deploys, so every path ends in a legal turn."""

    quiescence_depth = 3  # a turn list costs a millisecond here: keep the horizon short

    def __init__(self) -> None:
        self._turns: dict[tuple, list] = {}

    def root(self, position: Position) -> State:
        return position.cells, position.side, board_key(position.cells, position.side), None

    def _legal(self, cells: tuple[str | None, ...], side: int) -> list:
        """The engine's legal turns, kept for the positions whose deploys are being
        searched (a deploy's steps read them again)."""
        found = self._turns.get((cells, side))
        if found is None:
            if len(self._turns) > 2000:
                self._turns.clear()
            found = self._turns[(cells, side)] = legal_turns(cells, side)
        return found

    def moves(self, state: State) -> list:
        cells, side, _, deploy = state
        if deploy is None:
            turns = self._legal(cells, side)
            whole = [t for t in turns if not t[2]]
            firsts = list(dict.fromkeys(("step", t[0], t[1][0]) for t in turns if t[2]))
            return whole + firsts
        n = len(deploy.steps)
        done = any(len(t[1]) == n for t in deploy.candidates)
        following = list(dict.fromkeys(("step", deploy.origin, t[1][n])
                                       for t in deploy.candidates if len(t[1]) > n))
        return [END, *following] if done else following

    def play(self, state: State, move: tuple) -> State:
        cells, side, key, deploy = state
        if move == END:
            return self._finish(deploy.start, side, (deploy.origin, deploy.steps, True))
        if move[0] != "step":
            return self._finish(cells, side, move)
        origin, step = move[1], move[2]
        if deploy is None:
            deploy = Deploy(cells, origin, (), tuple(t for t in self._legal(cells, side)
                                                     if t[2] and t[0] == origin))
        steps = deploy.steps + (step,)
        n = len(steps)
        candidates = tuple(t for t in deploy.candidates if t[1][:n] == steps)
        if all(len(t[1]) == n for t in candidates):  # complete, and nothing extends it
            return self._finish(deploy.start, side, (deploy.origin, steps, True))
        board = list(deploy.start)
        apply_steps(board, deploy.origin, steps, True)
        after = tuple(board)
        key = board_key(after, side) ^ number(-1 - deploy.origin, steps)
        return after, side, key, Deploy(deploy.start, deploy.origin, steps, candidates)

    def _finish(self, cells: tuple[str | None, ...], side: int, turn: tuple) -> State:
        board, _, _ = make_turn(cells, side, turn)
        after = tuple(board)
        # the end of a turn may promote pieces anywhere (heroes): the key is recomputed
        return after, 1 - side, board_key(after, 1 - side), None

    def side(self, state: State) -> int:
        return state[1]

    def key(self, state: State) -> int:
        return state[2]

    def result(self, state: State) -> int | None:
        cells, side = state[0], state[1]
        if commander_square(cells, side) is None:
            return -WIN
        return WIN if commander_square(cells, 1 - side) is None else None

    def stuck(self, state: State) -> int:
        cells, side = state[0], state[1]
        own = commander_square(cells, side)
        if own is not None and attacked(cells, own, 1 - side):
            return -WIN  # checkmated
        return 0  # stalemate is a draw

    def gain(self, state: State, move: tuple) -> int:
        if move == END:
            return 0
        cells = state[0]
        total = 0
        for unit, target, kind in ((move[2],) if move[0] == "step" else move[1]):
            if kind in CAPTURES:
                victim = cells[target]
                if victim is not None:
                    total += stack_value(victim)
                if kind == SUICIDE:
                    total -= stack_value(unit)
        return max(total, 0)

    def several_steps(self, state: State) -> bool:
        """Whether the turn starting in ``state`` may take several steps."""
        return any(m[0] == "step" for m in self.moves(state))

    def step_width(self, state: State) -> int:
        return STEP_WIDTH if state[3] is not None else 0

    def evaluate(self, state: State) -> int:
        cells, side = state[0], state[1]
        score = [0, 0]
        commanders = [-1, -1]
        air = [False, False]
        providers: list[list[tuple[int, int]]] = [[], []]
        pieces_at: list[list[int]] = [[], []]
        for q, stack in enumerate(cells):
            if stack is None:
                continue
            info = STACKS[stack]
            s = info.side
            pieces_at[s].append(q)
            for p in info.pieces:
                score[s] += _PIECE_VALUE[p]
                letter = PIECES[p].letter
                if letter == "F":
                    air[s] = True
                elif letter != "N" and letter != "C" and (_RANK[q] >= 6) == (s == 0):
                    score[s] += ACROSS_RIVER
            if info.has_commander:
                commanders[s] = q
            if info.zone:
                providers[s].append((info.zone, q))
            if info.letter == "N" and _FILE[q] < 2:
                score[s] += OPEN_SEA
        for s in (0, 1):
            c = commanders[s]
            if c < 0:
                continue
            if attacked(cells, c, 1 - s):
                score[s] -= IN_CHECK
            cf, cr = _FILE[c], _RANK[c]
            score[s] -= NEAR_COMMANDER * sum(
                1 for q in pieces_at[1 - s] if abs(_FILE[q] - cf) <= 3 and abs(_RANK[q] - cr) <= 3)
            if air[1 - s] and not any(c in _ZONES[z][q] for z, q in providers[s]):
                score[s] -= UNCOVERED
        total = score[0] - score[1]
        return total if side == 0 else -total

    def to_turn(self, position: Position, moves: list) -> Move:
        """The engine's move for the moves the search played in one turn from
        ``position``: a whole-stack move, or a deploy's steps."""
        if moves[0][0] != "step":
            return to_move(moves[0])
        steps = tuple(m[2] for m in moves if m != END)
        return to_move((moves[0][1], steps, True))
