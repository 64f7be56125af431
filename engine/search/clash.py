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
"""

from __future__ import annotations

from collections.abc import Sequence

from ..clash import FORWARD, NAMES, NEIGHBOURS, NO_NODE, STEP, TOPO, generate, make_raw
from ..move import Move, Step
from ..position import Position
from .board import OneMoveGame, State
from .zobrist import SIDE, moved_key

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


class ClashGame(OneMoveGame):
    """`Game` for Clash of Command: a state is (cells, side, key); a move is a raw move."""

    royal = "C"
    quiescence_depth = 6

    def moves(self, state: State) -> list:
        return generate(state[0], state[1])

    def play(self, state: State, raw: tuple) -> State:
        cells, side, key = state
        after = tuple(make_raw(cells, side, raw))
        key = moved_key(key, cells, after, (raw[0], raw[1], *raw[2])) ^ SIDE
        return after, 1 - side, key

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
        score = [0, 0]
        commanders: list[list[int]] = [[], []]
        for i, p in enumerate(cells):
            if p is None:
                continue
            s = 0 if p.isupper() else 1
            kind = p.upper()
            if kind != "C":
                score[s] += VALUES[kind]
            if kind == "C" or kind == "F":
                score[s] += BUILD_ROOM * _room(cells, i, s)
                if kind == "C":
                    commanders[s].append(i)
                    score[s] -= COMMANDER_FORWARD * (_RANK[i] if s == 0 else _TOP - _RANK[i])
            elif kind == "D" or kind == "H":
                score[s] += ADVANCE * (_RANK[i] if s == 0 else _TOP - _RANK[i])
        for s in (0, 1):
            n = len(commanders[s])
            score[s] += sum(LAST_COMMANDERS[:n]) + VALUES["C"] * max(0, n - len(LAST_COMMANDERS))
            threats = _THREATS[1 - s]
            for c in commanders[s]:
                score[s] -= THREAT * sum(1 for t in _NEAR2[c] if cells[t] is not None
                                         and cells[t] in threats)  # type: ignore[operator]
        total = score[0] - score[1]
        return total if side == 0 else -total

    def to_move(self, position: Position, raw: tuple) -> Move:
        i, t, caps, drop, becomes = raw
        unit = position.cells[i].upper()  # type: ignore[union-attr]
        return Move((Step(NAMES[i], NAMES[t], tuple(NAMES[c] for c in caps), unit, "", drop,
                          becomes),))


def _room(cells: Sequence[str | None], i: int, side: int) -> int:
    """Empty nodes straight or diagonally forward of ``i`` (where a builder can build)."""
    n = 0
    for d in FORWARD[side]:
        t = STEP[d][i]
        if t != NO_NODE and cells[t] is None:
            n += 1
    return n
