"""The computer's Commander Chess: the engine's raw turns and an evaluation from the rules.

Material follows the rules' own scale (§8.4 points, ×10 to centipawns), which already ranks
the pieces by reach and by what they can take: Navy 80, Air force 40, Artillery 30, Tank
and Missile 20, Infantry, Engineer, Anti-aircraft gun and Militia 10. Three changes:

* the **Commander** has no material value (capturing it ends the game: as a capture it
  gains `COMMANDER_CAPTURE`, more than everything else on the board); its safety is a
  term below;
* a **Headquarters** scores 0 points but carries the Commander and blocks: 50;
* a **hero** (§6.5: a piece that gives check becomes heroic) moves and captures further,
  has a larger air-defence zone and can fly through zones: +40% of its value.

Position terms:

* **Commander safety**: -150 when the side to move is in check (it must answer; tested
  when an enemy piece stands within three squares), -25 per
  enemy piece within three squares of a Commander, more (`HUNT`) as that Commander's
  side runs out of pieces — the drive to go for the enemy Commander and for its guard:
  every piece that comes near it, and every guard taken, scores.
* **Guards**: +8 per friendly piece next to the own Commander (a guard blocks the lines
  to it).
* **Air defence cover** (§4): the Commander standing outside every friendly air-defence
  zone while the enemy has an air force: -60.
* **Terrain** (§1): a land or heavy piece across the river (+15), where it attacks the
  enemy's half; a Navy on open sea files a–b is where it moves freely (+10) — the mobility
  term, since reach on this board is decided by terrain.

The search's own representation (speed): a state carries its Zobrist key, the material
and terrain score, both Commanders' squares and each side's count of pieces and air
forces, all updated from the squares a turn changed (the end-of-turn promotions
included). Inside the tree a side's turns are the engine's **pseudo-legal** ones (the
rules of movement without the test that the mover's Commander is left unattacked,
`rules.pseudo_legal_turns`): a turn that leaves the Commander attacked is refuted by its
capture one ply later, since taking the Commander is a capture worth more than anything.
A deploy's first steps are every piece's options, and the deploys that begin with a step
are generated when that step is played (a first step that no complete deploy follows is
a dead end, scored as a heavy loss). Only the root (the move actually played) and sides
down to `EXACT_STACKS` stacks (where stalemate, a draw, must not be mistaken for
checkmate) use the engine's legal turns. The quiescence search generates whole-stack
captures only, read off precomputed capture rays for the stacks with an enemy within
reach (a passenger's capture, a deploy step, waits for the full search).
"""

from __future__ import annotations

from typing import NamedTuple

from ..commander.board import (
    LAND_CAPABLE,
    N_SQUARES,
    NAVY_REACH,
    ORTHOGONAL,
    RAY,
    TOPO,
    ZONE,
)
from ..commander.pieces import CAPTURE_BLOCKED, PIECES, POINTS, REMOVE, STACKS
from ..commander.rules import (
    CAPTURE,
    CAPTURES,
    STAY,
    SUICIDE,
    apply_steps,
    attacked,
    commander_square,
    last_guard,
    legal_turns,
    promote_checkers,
    pseudo_legal_deploys,
    pseudo_legal_moves,
    unit_options,
    zone_masks,
)
from ..commander.variant import to_move
from ..move import Move
from ..position import Position
from .core import WIN
from .zobrist import SIDE, board_key, number

VALUES = {letter: 10 * points for letter, points in POINTS.items()}
VALUES["C"] = 0
VALUES["H"] = 50
COMMANDER_CAPTURE = 20_000
HERO = 0.4
IN_CHECK = 150
NEAR_COMMANDER = 25
HUNT = 60  # per missing guard below `FEW_GUARDS`, on each enemy piece near the Commander
FEW_GUARDS = 8
GUARD = 8
UNCOVERED = 60
ACROSS_RIVER = 15
OPEN_SEA = 10
EXACT_STACKS = 4  # a side with this many stacks or fewer gets the engine's legal turns
CACHE_LIMIT = 1_500  # turn lists kept: enough for a move's interior nodes, a small heap
_RANK = tuple(c[1] for c in TOPO.coords)
_FILE = tuple(c[0] for c in TOPO.coords)
_ZONES = tuple(tuple(frozenset(z) for z in level) for level in ZONE)
#: The value of each piece string (heroes included), looked up per piece.
_PIECE_VALUE = {p: int(VALUES[i.letter] * (1 + HERO if i.heroic else 1)) for p, i in PIECES.items()}
#: Squares within three files and ranks of each square (the Commander's surroundings),
#: and those next to it.
_NEAR3 = tuple(tuple(t for t in range(N_SQUARES) if t != q and abs(_FILE[t] - _FILE[q]) <= 3
                     and abs(_RANK[t] - _RANK[q]) <= 3) for q in range(N_SQUARES))
_NEXT = tuple(frozenset(r[0] for r in RAY[q] if r) for q in range(N_SQUARES))
#: Squares on the eight rays of each square within k steps, for k = 0..5.
_WITHIN = tuple(tuple(frozenset(t for ray in RAY[q] for t in ray[:k]) for k in range(6))
                for q in range(N_SQUARES))
#: Squares on the four orthogonal rays of each square (the Commander's long capture).
_ORTHOGONAL_LINES = tuple(frozenset(t for d in ORTHOGONAL for t in RAY[q][d])
                          for q in range(N_SQUARES))

# a state: cells, side to move, key, deploy in progress (or None), whether its turns must
# be the engine's legal ones, the Commanders' squares (-1: gone), material and terrain
# (Red's view), each side's pieces besides its Commander and its air forces
CELLS, SIDE_TO_MOVE, KEY, DEPLOY, EXACT, COMMANDERS, SCORE, GUARDS, AIR = range(9)
State = tuple
END = "end"
STEP_WIDTH = 5  # deploy steps searched after the first (ending the deploy is always searched)


def stack_value(stack: str) -> int:
    """Material of a stack: the sum of its pieces (a Commander inside counts as its end)."""
    info = STACKS[stack]
    value = sum(_PIECE_VALUE[p] for p in info.pieces)
    return value + COMMANDER_CAPTURE if info.has_commander else value


class _Squares(dict):
    """(square, stack) -> the stack's material and terrain score there, Red's view."""

    def __missing__(self, found: tuple[int, str]) -> int:
        q, stack = found
        info = STACKS[stack]
        score = 0
        for p in info.pieces:
            score += _PIECE_VALUE[p]
            letter = PIECES[p].letter
            if letter != "N" and letter != "C" and (_RANK[q] >= 6) == (info.side == 0):
                score += ACROSS_RIVER
        if info.letter == "N" and _FILE[q] < 2:
            score += OPEN_SEA
        self[found] = value = score if info.side == 0 else -score
        return value


_SQUARE_SCORE = _Squares()


class _Counts(dict):
    """stack -> (side, pieces besides a Commander, air forces)."""

    def __missing__(self, stack: str) -> tuple[int, int, int]:
        info = STACKS[stack]
        air = sum(1 for p in info.pieces if PIECES[p].letter == "F")
        self[stack] = counts = (info.side, info.guards, air)
        return counts


_COUNTS = _Counts()


class _Reach(dict):
    """stack -> the farthest its leader captures, any direction and target (0: never)."""

    def __missing__(self, stack: str) -> int:
        lead = PIECES[STACKS[stack].leader]
        self[stack] = reach = min(5, max(max(c) for c in lead.capture))
        return reach


_REACH = _Reach()


class _CaptureRays(dict):
    """(stack, square) -> per direction (the squares a capture may reach, the ranges per
    target class, whether the first piece stops it, each square's kind of capture: normal
    or stay, whether it takes the enemy Commander at any distance), read from the engine's
    tables as `unit_options` reads them; None for an air force leading (its captures
    depend on air defence)."""

    def __missing__(self, found: tuple[str, int]) -> tuple | None:
        stack, origin = found
        lead = PIECES[STACKS[stack].leader]
        letter = lead.letter
        rays = None
        if letter != "F":
            rays = []
            for d in range(8):
                ranges = lead.capture[d]
                far = letter == "C" and not d & 1  # the Commander's long-distance capture
                ray = RAY[origin][d] if far else RAY[origin][d][:max(ranges)]
                if not ray:
                    continue
                if letter == "N":  # fires over anything; lands where it could sail
                    sail = NAVY_REACH[origin][d]
                    kinds = tuple(CAPTURE if k <= sail else STAY for k in range(1, len(ray) + 1))
                else:  # lands on land only; the stay capture otherwise (§3.2)
                    kinds = tuple(CAPTURE if LAND_CAPABLE[t] else STAY for t in ray)
                rays.append((ray, ranges, letter in CAPTURE_BLOCKED, kinds, far))
            rays = tuple(rays)
        self[found] = rays
        return rays


_CAPTURE_RAYS = _CaptureRays()


class Deploy(NamedTuple):
    """A deploy in progress: the state at the start of the turn, the stack's square, the
    steps so far and the deploys (legal, or pseudo-legal inside the tree) that begin with
    them."""

    base: State
    origin: int
    steps: tuple[tuple, ...]
    candidates: tuple[tuple, ...]


def _commander(cells: tuple, side: int) -> int:
    q = commander_square(cells, side)
    return -1 if q is None else q


def _state(cells: tuple, side: int, base: State | None, deploy: Deploy | None,
           exact: bool, touched: object = range(N_SQUARES)) -> State:
    """The state of ``cells`` with ``side`` to move. Key, score, Commanders and counts are
    updated from ``base`` (the state the change started from) over the ``touched``
    squares, which hold every square that differs (or counted afresh without a base)."""
    if base is None:
        key = board_key(cells, side)
        score = sum(_SQUARE_SCORE[(q, s)] for q, s in enumerate(cells) if s is not None)
        commanders = (_commander(cells, 0), _commander(cells, 1))
        counts = [0, 0, 0, 0]  # Red's and Blue's guards, Red's and Blue's air forces
        for s in cells:
            if s is not None:
                owner, guards, air = _COUNTS[s]
                counts[owner] += guards
                counts[2 + owner] += air
    else:
        old = base[CELLS]
        key = base[KEY] ^ (SIDE if side != base[SIDE_TO_MOVE] else 0)
        score = base[SCORE]
        counts = [*base[GUARDS], *base[AIR]]
        moved = False
        for q in touched:  # type: ignore[attr-defined]
            a, b = old[q], cells[q]
            if a is not b and a != b:
                if a is not None:
                    key ^= number(q, a)
                    score -= _SQUARE_SCORE[(q, a)]
                    owner, guards, air = _COUNTS[a]
                    counts[owner] -= guards
                    counts[2 + owner] -= air
                    moved = moved or guards < STACKS[a].size
                if b is not None:
                    key ^= number(q, b)
                    score += _SQUARE_SCORE[(q, b)]
                    owner, guards, air = _COUNTS[b]
                    counts[owner] += guards
                    counts[2 + owner] += air
                    moved = moved or guards < STACKS[b].size
        commanders = base[COMMANDERS]
        if moved:
            commanders = (_commander(cells, 0), _commander(cells, 1))
    if deploy is not None:
        key ^= number(-1 - deploy.origin, deploy.steps)
    return (cells, side, key, deploy, exact, commanders, score, (counts[0], counts[1]),
            (counts[2], counts[3]))


class CommanderGame:
    """`Game` for Commander Chess. A state is a tuple (see `CELLS`...`SCORE`): ``deploy``
    is None at the start of a turn, else the `Deploy` in progress (``cells`` then show its
    steps made). A move is a raw whole-stack turn, a deploy step ``("step", origin, raw
    step)``, or `END` (the deploy stops here). Deploys are searched one step at a time
    (rules §5.5: one piece after another from the stack): their steps come from the
    engine's own list of complete deploys, so every path ends in a turn of that list."""

    quiescence_depth = 4

    def __init__(self) -> None:
        self._lists: dict[tuple, tuple[list, list]] = {}

    def root(self, position: Position) -> State:
        """The position's state; its turns are the engine's legal ones."""
        return _state(position.cells, position.side, None, None, True)

    def inner(self, position: Position) -> State:
        """The position's state as the tree sees it: its turns are the pseudo-legal ones."""
        return _state(position.cells, position.side, None, None, False)

    # --- turns --------------------------------------------------------------------------
    def _turns(self, state: State) -> tuple[list, list | None]:
        """(the search's moves, the complete turns when they are the legal ones) of a
        state at the start of a turn, kept while the tree comes back to them (iterative
        deepening, deploys). Inside the tree a deploy's first steps are every piece's
        options (a step that no complete deploy follows leads to a dead end, `stuck`);
        the deploys themselves are listed when one of their steps is played."""
        cells, side = state[CELLS], state[SIDE_TO_MOVE]
        found = self._lists.get((cells, side, state[EXACT]))
        if found is None:
            if len(self._lists) > CACHE_LIMIT:
                self._lists.clear()
            if state[EXACT] or _few_stacks(cells, side):
                turns = legal_turns(cells, side)
                whole = [t for t in turns if not t[2]]
                firsts = list(dict.fromkeys(("step", t[0], t[1][0]) for t in turns if t[2]))
                found = (whole + firsts, turns)
            else:
                found = (pseudo_legal_moves(cells, side) + _first_steps(cells, side), None)
            self._lists[(cells, side, state[EXACT])] = found
        return found

    def _deploys(self, state: State, origin: int, first: tuple) -> tuple:
        """The deploys of the stack on ``origin`` that begin with the step ``first``
        (legal ones when the state's turns are)."""
        turns = self._turns(state)[1]
        if turns is not None:
            return tuple(t for t in turns if t[2] and t[0] == origin and t[1][0] == first)
        cells, side = state[CELLS], state[SIDE_TO_MOVE]
        found = self._lists.get((cells, side, origin, first))
        if found is None:
            found = self._lists[(cells, side, origin, first)] = tuple(
                pseudo_legal_deploys(cells, side, origin, first))
        return found

    def moves(self, state: State) -> list:
        deploy = state[DEPLOY]
        if deploy is None:
            return self._turns(state)[0]
        n = len(deploy.steps)
        done = any(len(t[1]) == n for t in deploy.candidates)
        following = list(dict.fromkeys(("step", deploy.origin, t[1][n])
                                       for t in deploy.candidates if len(t[1]) > n))
        return [END, *following] if done else following

    def captures(self, state: State) -> list:
        """The captures of whole stacks that gain material, as (gain, move) for the
        quiescence search, among those `pseudo_legal_turns` lists:
        read off each stack's capture rays; air forces, whose captures depend on air
        defence, ask the engine for their options when an enemy is within their reach."""
        if state[DEPLOY] is not None:
            return [(g, m) for m in self.moves(state) if (g := self.gain(state, m)) > 0]
        cells, side = state[CELLS], state[SIDE_TO_MOVE]
        own: list[int] = []
        enemy: set[int] = set()
        for q in range(N_SQUARES):
            s = cells[q]
            if s is not None:
                if STACKS[s].side == side:
                    own.append(q)
                else:
                    enemy.add(q)
        facing = state[COMMANDERS][1 - side]
        board = zones = None
        out: list = []
        add = out.append
        for origin in own:
            stack = cells[origin]
            if not enemy & _WITHIN[origin][_REACH[stack]] and not (
                    facing in _ORTHOGONAL_LINES[origin] and STACKS[stack].letter == "C"):
                continue  # no enemy within reach (nor the enemy Commander in line)
            rays = _CAPTURE_RAYS[(stack, origin)]
            if rays is None:  # an air force leads
                if board is None:
                    board = list(cells)
                    zones = zone_masks(board, 1 - side)
                options: list[tuple[int, int]] = []
                unit_options(board, origin, side, stack, None, zones, options)  # type: ignore
                out.extend((origin, ((stack, t, kind),), False) for t, kind in options
                           if kind in CAPTURES)
                continue
            for ray, ranges, blocked, kinds, far in rays:
                for k, t in enumerate(ray):
                    s = cells[t]
                    if s is None:
                        continue
                    o = STACKS[s]
                    if o.side != side and (k < ranges[o.target] or far and o.has_commander):
                        add((origin, ((stack, t, kinds[k]),), False))
                    if blocked:
                        break
        gain = self.gain
        return [(g, m) for m in out if (g := gain(state, m)) > 0]

    def play(self, state: State, move: tuple) -> State:
        deploy = state[DEPLOY]
        if move == END:
            return self._finish(deploy.base, (deploy.origin, deploy.steps, True))
        if move[0] != "step":
            return self._finish(state, move)
        origin, step = move[1], move[2]
        if deploy is None:
            deploy = Deploy(state, origin, (), self._deploys(state, origin, step))
        steps = deploy.steps + (step,)
        n = len(steps)
        candidates = tuple(t for t in deploy.candidates if t[1][:n] == steps)
        # complete, and nothing extends it (no candidate at all: a dead end, see `stuck`)
        if candidates and all(len(t[1]) == n for t in candidates):
            return self._finish(deploy.base, (deploy.origin, steps, True))
        base = deploy.base
        board = list(base[CELLS])
        apply_steps(board, deploy.origin, steps, True)
        return _state(tuple(board), base[SIDE_TO_MOVE], base,
                      Deploy(base, deploy.origin, steps, candidates), False,
                      {deploy.origin, *(step[1] for step in steps)})

    def _finish(self, base: State, turn: tuple) -> State:
        """The state after a whole turn from ``base``, end-of-turn promotions included
        (the engine's `make_turn`, on the squares it may change)."""
        mover = base[SIDE_TO_MOVE]
        board = list(base[CELLS])
        origin, steps, deploy = turn
        _, took = apply_steps(board, origin, steps, deploy)
        touched = {origin, *(step[1] for step in steps)}  # a set: a square counts once
        if took:  # the game is over: no end-of-turn promotions
            return _state(tuple(board), 1 - mover, base, None, False, touched)
        enemy = base[COMMANDERS][1 - mover]
        if enemy >= 0:
            touched.update(promote_checkers(board, mover, enemy))
        state = _state(tuple(board), 1 - mover, base, None, False, touched)
        guards = state[GUARDS]
        if guards[0] == 1 or guards[1] == 1:  # a last guard becomes heroic (§6.3)
            last_guard(board, 0)
            last_guard(board, 1)
            state = _state(tuple(board), 1 - mover, base, None, False)
        return state

    # --- the game's state ---------------------------------------------------------------
    def side(self, state: State) -> int:
        return state[SIDE_TO_MOVE]

    def key(self, state: State) -> int:
        return state[KEY]

    def result(self, state: State) -> int | None:
        commanders, side = state[COMMANDERS], state[SIDE_TO_MOVE]
        if commanders[side] < 0:
            return -WIN
        return WIN if commanders[1 - side] < 0 else None

    def stuck(self, state: State) -> int:
        cells, side = state[CELLS], state[SIDE_TO_MOVE]
        own = state[COMMANDERS][side]
        if state[DEPLOY] is not None:
            return -WIN // 2  # a pseudo-legal deploy step that no complete deploy follows
        if own >= 0 and attacked(cells, own, 1 - side):
            return -WIN  # checkmated
        return 0  # stalemate is a draw

    def gain(self, state: State, move: tuple) -> int:
        if move == END:
            return 0
        cells = state[CELLS]
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
        return STEP_WIDTH if state[DEPLOY] is not None else 0

    # --- evaluation ---------------------------------------------------------------------
    def evaluate(self, state: State) -> int:
        cells, side = state[CELLS], state[SIDE_TO_MOVE]
        commanders, guards, air = state[COMMANDERS], state[GUARDS], state[AIR]
        total = state[SCORE]
        for s in (0, 1):
            c = commanders[s]
            if c >= 0:
                term, near = _commander_terms(cells, c, s, guards[s], air[1 - s])
                # in check: only asked with an enemy piece near (the attack test costs)
                if s == side and near and attacked(cells, c, 1 - s):
                    term -= IN_CHECK
                total += term if s == 0 else -term
        return total if side == 0 else -total

    def to_turn(self, position: Position, moves: list) -> Move:
        """The engine's move for the moves the search played in one turn from
        ``position``: a whole-stack move, or a deploy's steps."""
        if moves[0][0] != "step":
            return to_move(moves[0])
        steps = tuple(m[2] for m in moves if m != END)
        return to_move((moves[0][1], steps, True))


def _commander_terms(cells: tuple, c: int, side: int, count: int,
                     enemy_air: int) -> tuple[int, int]:
    """The safety of ``side``'s Commander on ``c``: enemy pieces around it, each worth more
    as ``side``'s guards (``count`` pieces besides the Commander) run out, the guards next
    to it, and air-defence cover when the enemy has air forces (zones reach three
    squares at most, so the providers covering it stand among those around it). Returns
    the score and how many enemy pieces are near."""
    near = guards = 0
    zones = _ZONES
    here = STACKS[cells[c]]
    covered = bool(here.zone) and c in zones[here.zone][c]
    for q in _NEAR3[c]:
        s = cells[q]
        if s is not None:
            info = STACKS[s]
            if info.side != side:
                near += 1
            elif info.zone and not covered and c in zones[info.zone][q]:
                covered = True
    for q in _NEXT[c]:
        s = cells[q]
        if s is not None and STACKS[s].side == side:
            guards += 1
    pressure = NEAR_COMMANDER + HUNT * max(0, FEW_GUARDS - count) // 2
    score = GUARD * guards - pressure * near
    if enemy_air and not covered:
        score -= UNCOVERED
    return score, near


def _first_steps(cells: tuple, side: int) -> list:
    """Every first step of a deploy of ``side`` (each piece's options, as `rules._extend`
    tries them first), as the search's moves."""
    board = zones = None
    out: list = []
    for origin, stack in enumerate(cells):
        if stack is None:
            continue
        info = STACKS[stack]
        if info.size < 2 or info.side != side:
            continue
        if board is None:
            board = list(cells)
            zones = zone_masks(board, 1 - side)
        for i, piece in enumerate(info.pieces):
            if piece in info.pieces[:i]:
                continue
            options: list[tuple[int, int]] = []
            unit_options(board, origin, side, piece, REMOVE[(stack, piece)], zones,  # type: ignore
                         options)
            out.extend(("step", origin, (piece, t, kind)) for t, kind in options)
    return out


def _few_stacks(cells: tuple, side: int) -> bool:
    """Whether ``side`` has at most `EXACT_STACKS` stacks."""
    n = 0
    for s in cells:
        if s is not None and STACKS[s].side == side:
            n += 1
            if n > EXACT_STACKS:
                return False
    return True
