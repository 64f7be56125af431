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

from ..commander import to_move, to_raw
from ..commander_board import TOPO, ZONE
from ..commander_pieces import PIECES, POINTS, STACKS
from ..commander_rules import CAPTURES, SUICIDE, attacked, commander_square, legal_turns, make_turn
from ..move import Move
from ..position import Position
from .zobrist import board_key

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

State = tuple[tuple[str | None, ...], int, int]


def stack_value(stack: str) -> int:
    """Material of a stack: the sum of its pieces (a Commander inside counts as its end)."""
    info = STACKS[stack]
    value = sum(_PIECE_VALUE[p] for p in info.pieces)
    return value + COMMANDER_CAPTURE if info.has_commander else value


class CommanderGame:
    """`Game` for Commander Chess: a state is (cells, side, key); a move is a raw turn
    (a whole-stack move or a complete deploy, from the engine's generator)."""

    quiescence_depth = 3  # a turn list costs a millisecond here: keep the horizon short

    def root(self, position: Position) -> State:
        return position.cells, position.side, board_key(position.cells, position.side)

    def moves(self, state: State) -> list:
        return legal_turns(state[0], state[1])

    def play(self, state: State, turn: tuple) -> State:
        cells, side, _ = state
        board, _, _ = make_turn(cells, side, turn)
        after = tuple(board)
        # the end of a turn may promote pieces anywhere (heroes): the key is recomputed
        return after, 1 - side, board_key(after, 1 - side)

    def side(self, state: State) -> int:
        return state[1]

    def key(self, state: State) -> int:
        return state[2]

    def lost(self, state: State) -> bool:
        return commander_square(state[0], state[1]) is None

    def stuck(self, state: State) -> int:
        cells, side = state[0], state[1]
        own = commander_square(cells, side)
        if own is not None and attacked(cells, own, 1 - side):
            return -1_000_000  # checkmated (`core.WIN`)
        return 0  # stalemate is a draw

    def gain(self, state: State, turn: tuple) -> int:
        cells = state[0]
        total = 0
        for unit, target, kind in turn[1]:
            if kind in CAPTURES:
                victim = cells[target]
                if victim is not None:
                    total += stack_value(victim)
                if kind == SUICIDE:
                    total -= stack_value(unit)
        return max(total, 0)

    def step_width(self, state: State) -> int:
        return 0

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

    def to_move(self, position: Position, turn: tuple) -> Move:
        return to_move(turn)

    def from_move(self, position: Position, move: Move) -> tuple:
        return to_raw(move, position.side)
