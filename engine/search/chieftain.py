"""The computer's mini- and micro-Chieftain: turns searched one move at a time.

A turn here is up to one move per Chieftain, each piece activated by a Chieftain within
three squares (the command radius). The search plays a turn step by step: a state is the
engine's `Turn` (board, activations, moves made), its moves are the next single moves and,
once a move has been made, ``END`` (stop the turn here; listed first so it is always
searched). A step that leaves the same side to move is searched without a change of sign;
after the first step only the best-ordered few are searched (`STEP_WIDTH`).

Material (centipawns, a Man about 100):

* **Chieftain 900**, and 800 more for the last one: losing every Chieftain loses the game,
  and each Chieftain is also one move per turn and the only way to activate pieces, so
  losing one halves the army's tempo.
* **Hero 500**: orthogonal up to three squares, jumping — a short rook that cannot be
  blocked.
* **Shaman 350**: the same on diagonals (one colour of squares).
* **kNight 300**: as in chess.
* **Man 100**: one step in any direction; **Gold 160** and **Silver 140** (micro): the
  shogi generals, stronger than a Man but without backward/sideways steps.

Position terms: **command radius** (+12 for each piece within three squares of a friendly
Chieftain, which can move this turn; -8 for each piece out of command, which cannot — the
mobility term), Men's advancement (+4 per rank), and **Chieftain safety** (-30 per enemy
piece within two squares of a Chieftain; doubled for the last one).
"""

from __future__ import annotations

from ..chieftain import (
    DISTANCE,
    NEAR,
    OWN,
    Turn,
    generate,
    is_closed,
    legal_order,
    make_step,
    play,
    start_turn,
    turn_from_position,
)
from ..move import Move
from ..position import Position
from .core import WIN
from .zobrist import SIDE, board_key, moved_key

END = -1
STEP_WIDTH = 5
VALUES = {"C": 900, "H": 500, "S": 350, "N": 300, "M": 100, "G": 160, "V": 140}
LAST_CHIEFTAIN = 800
IN_COMMAND = 12
OUT_OF_COMMAND = 8
ADVANCE = 4
THREAT = 30
_VALUE = {**VALUES, **{k.lower(): v for k, v in VALUES.items()}}

State = tuple[Turn, int]  # the turn, the Zobrist key of its board and side


class ChieftainGame:
    """`Game` for mini- and micro-Chieftain: a move is a code ``origin << 6 | target`` or
    `END`."""

    quiescence_depth = 4

    def root(self, position: Position) -> State:
        turn = turn_from_position(position)
        return turn, board_key(turn.cells, turn.side)

    def moves(self, state: State) -> list[int]:
        turn = state[0]
        codes = generate(turn)
        return [END, *codes] if turn.made else codes

    def play(self, state: State, code: int) -> State:
        turn, key = state
        if code == END:
            return start_turn(turn.cells, 1 - turn.side), key ^ SIDE
        after = play(turn, code)
        key = moved_key(key, turn.cells, after.cells, (code >> 6, code & 63))
        if is_closed(after) or not generate(after):
            return start_turn(after.cells, 1 - turn.side), key ^ SIDE
        return after, key

    def side(self, state: State) -> int:
        return state[0].side

    def key(self, state: State) -> int:
        turn, key = state
        if not turn.made:
            return key
        return key ^ hash((turn.made, turn.moved, turn.feasible, turn.chiefs))

    def result(self, state: State) -> int | None:
        turn = state[0]
        if not turn.chiefs:
            return -WIN
        return WIN if not turn.enemy_chiefs else None

    def stuck(self, state: State) -> int:
        return 0  # no legal move at the start of a turn is a draw

    def gain(self, state: State, code: int) -> int:
        if code == END:
            return 0
        turn = state[0]
        victim = turn.cells[code & 63]
        if victim is None or victim in OWN[turn.side]:
            return 0
        return _VALUE[victim]

    def several_steps(self, state: State) -> bool:
        """Whether the turn starting in ``state`` may take several steps."""
        return True

    def step_width(self, state: State) -> int:
        return STEP_WIDTH if state[0].made else 0

    def evaluate(self, state: State) -> int:
        turn = state[0]
        cells = turn.cells
        chiefs: list[list[int]] = [[], []]
        for i, p in enumerate(cells):
            if p == "C":
                chiefs[0].append(i)
            elif p == "c":
                chiefs[1].append(i)
        command = [0, 0]
        for s in (0, 1):
            for c in chiefs[s]:
                command[s] |= NEAR[c]
        score = [0, 0]
        for i, p in enumerate(cells):
            if p is None:
                continue
            s = 0 if p.isupper() else 1
            kind = p.upper()
            score[s] += VALUES[kind]
            if kind == "C":
                continue
            score[s] += IN_COMMAND if command[s] >> i & 1 else -OUT_OF_COMMAND
            if kind == "M":
                score[s] += ADVANCE * (i // 8 if s == 0 else 7 - i // 8)
        for s in (0, 1):
            if len(chiefs[s]) == 1:
                score[s] += LAST_CHIEFTAIN
            weight = THREAT * (2 if len(chiefs[s]) == 1 else 1)
            enemy = OWN[1 - s]
            for c in chiefs[s]:
                row = DISTANCE[c]
                score[s] -= weight * sum(1 for i, p in enumerate(cells)
                                         if p is not None and p in enemy and row[i] <= 2)
        total = score[0] - score[1]
        return total if turn.side == 0 else -total

    def to_turn(self, position: Position, codes: list[int]) -> Move:
        """The whole turn made of the moves ``codes`` played from ``position``, as the
        engine lists it (canonical order)."""
        turn = turn_from_position(position)
        order = legal_order(turn, frozenset(c for c in codes if c != END))
        assert order is not None, codes
        steps = []
        for code in order:
            steps.append(make_step(turn.cells, turn.side, code))
            turn = play(turn, code)
        return Move(tuple(steps), "turn")

