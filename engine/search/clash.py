"""The computer's Clash of Command: the engine's raw moves and an evaluation from the rules.

Material (centipawns, a Droid on its own row about 120). The rules' win condition decides
the values more than any exchange arithmetic: a side with no Commander has lost, and
Commanders never capture, so:

* **Commanders: 1,000 each, the third from last 1,300, the second from last 2,000 and
  the last 4,000**: the game is lost with the last Commander, so each one lost costs more
  than the one before, and none is traded for material or turned into a builder to dodge
  a threat (the program known to throw its Commanders away lost exactly that way).
* **Factor 300**: a builder, like the Commander it makes a new Droid or Hawk every time it
  steps, so it is the army's reserve.
* **Slicer 650**: slides any distance capturing every piece on the line, the only piece
  that takes several at once; every advanced piece threatens to become one.
* **Brute 250**: captures one or two steps away round corners, but cannot move otherwise.
* **Hawk 180** / **Droid 120**: they alternate after every move; the Hawk captures in
  every direction by jump, approach or withdrawal, the Droid only sideways and back.

Position terms: builders' room (each empty forward node where a Commander or Factor can
build, +6: a builder walled in builds nothing — the mobility term), advancement of Droids
and Hawks towards the back row where they become Slicers (+10 per row), and Commander
safety (-35 per enemy Brute, Hawk or Slicer within two nodes, which can reach it next
move), and Commanders staying home (-40 per row a Commander has stepped forward: a
Commander builds only by stepping forward, where it meets the enemy; Factors build as
well and risk less).

Speed: the material and the placement terms (every term but room and threats) are a sum
over the pieces of a per-node value, kept in the state and updated from the nodes a move
changes, as the Zobrist key is; the evaluation itself looks at builders only. The
quiescence search takes the capturing moves alone.
"""

from __future__ import annotations

from ..clash import FORWARD, N_NODES, NAMES, NEIGHBOURS, NO_NODE, STEP, TOPO, generate, make_raw
from ..move import Move, Step
from ..position import Position
from .board import OneMoveGame, State
from .zobrist import SIDE, number

VALUES = {"C": 1000, "F": 300, "S": 650, "B": 250, "H": 180, "D": 120}
#: What the last, second from last and third from last Commander are worth.
LAST_COMMANDERS = (4000, 2000, 1300)
BUILD_ROOM = 6
ADVANCE = 10
THREAT = 35
COMMANDER_FORWARD = 40
_VALUE = {**VALUES, **{k.lower(): v for k, v in VALUES.items()}}
_RANK = tuple(c[1] for c in TOPO.coords)
_TOP = max(_RANK)
#: Nodes within two steps of each node.
_NEAR2 = tuple(frozenset(NEIGHBOURS[i]) | {t for m in NEIGHBOURS[i] for t in NEIGHBOURS[m]}
               for i in range(len(NAMES)))
_THREATS = ("BHS", "bhs")
_BUILDERS = {"C": 0, "F": 0, "c": 1, "f": 1}
#: The nodes straight or diagonally forward of each node, per side (where a builder builds).
_FORWARD_NODES = tuple(tuple(tuple(STEP[d][i] for d in FORWARD[s] if STEP[d][i] != NO_NODE)
                             for i in range(len(NAMES))) for s in (0, 1))
#: The material of n Commanders.
_COMMANDERS = tuple(sum(LAST_COMMANDERS[:n]) + VALUES["C"] * max(0, n - len(LAST_COMMANDERS))
                    for n in range(64))


class _Squares(dict):
    """(node, piece) -> the piece's material and placement there, White's view: its value
    (a Commander's comes from how many are left), Droids' and Hawks' advance, Commanders'
    staying home."""

    def __missing__(self, found: tuple[int, str]) -> int:
        i, p = found
        s = 0 if p.isupper() else 1
        kind = p.upper()
        rows = _RANK[i] if s == 0 else _TOP - _RANK[i]
        score = 0
        if kind == "C":
            score -= COMMANDER_FORWARD * rows
        else:
            score += VALUES[kind]
            if kind == "D" or kind == "H":
                score += ADVANCE * rows
        self[found] = value = score if s == 0 else -score
        return value


_SQUARE_SCORE = _Squares()


class ClashGame(OneMoveGame):
    """`Game` for Clash of Command: a state is (cells, side, key, placement score: the
    sum of `_SQUARE_SCORE`, updated move by move); a move is a raw move."""

    royal = "C"
    quiescence_depth = 6

    def root(self, position: Position) -> State:
        cells = position.cells
        return (*super().root(position),
                sum(_SQUARE_SCORE[(i, p)] for i, p in enumerate(cells) if p is not None))

    def moves(self, state: State) -> list:
        return generate(state[0], state[1])

    def captures(self, state: State) -> list:
        """The moves that gain material, as (gain, move) for the quiescence search."""
        gain = self.gain
        return [(g, m) for m in generate(state[0], state[1]) if m[2] and (g := gain(state, m))]

    def play(self, state: State, raw: tuple) -> State:
        cells, side, key, score = state
        after = tuple(make_raw(cells, side, raw))
        for i in {raw[0], raw[1], *raw[2]}:
            a, b = cells[i], after[i]
            if a != b:
                if a is not None:
                    key ^= number(i, a)
                    score -= _SQUARE_SCORE[(i, a)]
                if b is not None:
                    key ^= number(i, b)
                    score += _SQUARE_SCORE[(i, b)]
        return after, 1 - side, key ^ SIDE, score

    def gain(self, state: State, raw: tuple) -> int:
        caps = raw[2]
        if not caps:
            return 0
        cells, side = state[0], state[1]
        total = 0
        for c in caps:
            p = cells[c]
            v = _VALUE[p]  # type: ignore[index]
            total += v if p.isupper() == (side == 1) else -v  # type: ignore[union-attr]
        return max(total, 0)

    def evaluate(self, state: State) -> int:
        cells, side = state[0], state[1]
        total = state[3]
        commanders = [0, 0]
        for i in range(N_NODES):
            p = cells[i]
            if p is None or p not in _BUILDERS:
                continue
            s = _BUILDERS[p]
            room = 0
            for t in _FORWARD_NODES[s][i]:
                if cells[t] is None:
                    room += 1
            threat = 0
            if p == "C" or p == "c":
                commanders[s] += 1
                threats = _THREATS[1 - s]
                for t in _NEAR2[i]:
                    q = cells[t]
                    if q is not None and q in threats:
                        threat += 1
            value = BUILD_ROOM * room - THREAT * threat
            total += value if s == 0 else -value
        total += _COMMANDERS[commanders[0]] - _COMMANDERS[commanders[1]]
        return total if side == 0 else -total

    def to_move(self, position: Position, raw: tuple) -> Move:
        i, t, caps, drop, becomes = raw
        unit = position.cells[i].upper()  # type: ignore[union-attr]
        return Move((Step(NAMES[i], NAMES[t], tuple(NAMES[c] for c in caps), unit, "", drop,
                          becomes),))
