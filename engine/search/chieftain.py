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
mobility term), advancement (+4 per rank for Men and for micro's Golds and Silvers,
which stand in their place: without it a side ahead in a closed position had nothing to
gain by going forward), and **Chieftain safety** (-30 per enemy piece within two squares
of a Chieftain; doubled for the last one).
"""

from __future__ import annotations

from ..chieftain import (
    CHIEF,
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
from .zobrist import SIDE, board_key, number

END = -1
STEP_WIDTH = 5
VALUES = {"C": 900, "H": 500, "S": 350, "N": 300, "M": 100, "G": 160, "V": 140}
LAST_CHIEFTAIN = 800
IN_COMMAND = 12
OUT_OF_COMMAND = 8
ADVANCE = 4
THREAT = 30
#: the pieces that gain by advancing: the Man and micro's shogi generals, which take its place
ADVANCING = frozenset("MGV")
_VALUE = {**VALUES, **{k.lower(): v for k, v in VALUES.items()}}
#: squares within two king steps of each square (where a piece threatens a Chieftain)
_NEAR2 = tuple(sum(1 << b for b in range(64) if DISTANCE[a][b] <= 2) for a in range(64))


def _square_value(letter: str, side: int, i: int) -> int:
    """Material and placement of one piece on square ``i``, for its own side."""
    if letter in ADVANCING:
        return VALUES["M"] + ADVANCE * (i // 8 if side == 0 else 7 - i // 8)
    return VALUES[letter]


#: Per piece letter (either case) and square: its material and placement, signed for White.
_TABLE = {(letter if side == 0 else letter.lower()):
          tuple((1 - 2 * side) * _square_value(letter, side, i) for i in range(64))
          for letter in VALUES for side in (0, 1)}

#: A state: the turn, the Zobrist key of its board and side, White's material and
#: placement score, both sides' occupied squares and Chieftains (bitmasks), and the turn's
#: next moves when already known (None: not yet generated). The score and masks are
#: updated move by move, so the evaluation does not walk the board.
State = tuple[Turn, int, int, int, int, int, int, "list[int] | None"]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class ChieftainGame:
    """`Game` for mini- and micro-Chieftain: a move is a code ``origin << 6 | target`` or
    `END`."""

    quiescence_depth = 4
    pruning = True

    def root(self, position: Position) -> State:
        turn = turn_from_position(position)
        score, occ, chiefs = 0, [0, 0], [0, 0]
        for i, p in enumerate(turn.cells):
            if p is not None:
                s = 0 if p.isupper() else 1
                score += _TABLE[p][i]
                occ[s] |= 1 << i
                if p in CHIEF:
                    chiefs[s] |= 1 << i
        return (turn, board_key(turn.cells, turn.side), score, occ[0], occ[1], chiefs[0],
                chiefs[1], None)

    def moves(self, state: State) -> list[int]:
        turn, codes = state[0], state[7]
        if codes is None:
            codes = generate(turn)
        return [END, *codes] if turn.made else codes

    def play(self, state: State, code: int) -> State:
        turn, key, score, occ0, occ1, chief0, chief1, _codes = state
        if code == END:
            return (start_turn(turn.cells, 1 - turn.side), key ^ SIDE, score, occ0, occ1,
                    chief0, chief1, None)
        o, t = code >> 6, code & 63
        cells = turn.cells
        piece, victim = cells[o], cells[t]
        ob, tb = 1 << o, 1 << t
        score += _TABLE[piece][t] - _TABLE[piece][o]  # type: ignore[index]
        key ^= number(o, piece) ^ number(t, piece)
        if victim is not None:
            score -= _TABLE[victim][t]
            key ^= number(t, victim)
        if turn.side == 0:
            occ0, occ1 = occ0 ^ ob | tb, occ1 & ~tb
            chief0 = chief0 ^ ob | tb if piece == "C" else chief0
            chief1 &= ~tb
        else:
            occ1, occ0 = occ1 ^ ob | tb, occ0 & ~tb
            chief1 = chief1 ^ ob | tb if piece == "c" else chief1
            chief0 &= ~tb
        after = play(turn, code)
        codes = None if is_closed(after) else generate(after)
        if not codes:  # the turn passes: allowance used, game won or no further move
            return (start_turn(after.cells, 1 - turn.side), key ^ SIDE, score, occ0, occ1,
                    chief0, chief1, None)
        return after, key, score, occ0, occ1, chief0, chief1, codes

    def side(self, state: State) -> int:
        return state[0].side

    def key(self, state: State) -> int:
        turn, key = state[0], state[1]
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

    def captures(self, state: State) -> list[tuple[int, int]]:
        """The next moves that take a piece, with what they take (`core.noisy_moves`)."""
        turn, codes = state[0], state[7]
        if codes is None:
            codes = generate(turn)
        enemy = state[4] if turn.side == 0 else state[3]
        cells = turn.cells
        return [(_VALUE[cells[c & 63]], c) for c in codes  # type: ignore[index]
                if enemy >> (c & 63) & 1]

    def in_danger(self, state: State) -> bool:
        """Whether an enemy piece stands within two squares of one of the mover's
        Chieftains (futility pruning's guard; the safety term's threat)."""
        side = state[0].side
        chiefs, enemy = (state[5], state[4]) if side == 0 else (state[6], state[3])
        return any(_NEAR2[c] & enemy for c in _bits(chiefs))

    def several_steps(self, state: State) -> bool:
        """Whether another move of the turn may follow this one: the allowance (one move
        per Chieftain) has at least two moves left. The last move, or the only move of a
        side down to one Chieftain, then gets all the time left (it got a share of it,
        so level 5 thought about half its time in these games)."""
        turn = state[0]
        return len(turn.chiefs) - turn.made > 1

    def step_width(self, state: State) -> int:
        return STEP_WIDTH if state[0].made else 0

    def level_depth(self, plies: int) -> int:
        """The moves a level of ``plies`` plies searches: a turn is up to two moves (one per
        Chieftain), so each ply past the first adds a whole turn's two. Counting single
        moves instead, level 4's two plies were one turn of its own and no reply: it played
        as level 3 did (half the points in 20 games)."""
        return 2 * plies - 1

    def turn_end(self, state: State) -> int | None:
        """``END`` once the turn has begun (quiescence stands pat by ending the turn)."""
        return END if state[0].made else None

    def evaluate(self, state: State) -> int:
        """Material and placement (carried in the state), then per side: the command
        radius (pieces a Chieftain can activate) and the Chieftains' safety."""
        total = state[2]
        occ, chiefs = (state[3], state[4]), (state[5], state[6])
        for s in (0, 1):
            mine = chiefs[s]
            squares = _bits(mine)
            command = 0
            for c in squares:
                command |= NEAR[c]
            men = occ[s] & ~mine
            active = (men & command).bit_count()
            term = IN_COMMAND * active - OUT_OF_COMMAND * (men.bit_count() - active)
            last = len(squares) == 1
            if last:
                term += LAST_CHIEFTAIN
            weight = THREAT * (2 if last else 1)
            enemy = occ[1 - s]
            for c in squares:
                term -= weight * (_NEAR2[c] & enemy).bit_count()
            total += term if s == 0 else -term
        return total if state[0].side == 0 else -total

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

