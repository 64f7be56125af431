"""Commander Chess rules on raw values: every legal turn, attacks, and making a turn.

A board is a sequence of 132 cells, ``None`` or a stack string (`pieces`). A raw
turn is ``(origin, steps, deploy)``; a raw step is ``(unit, target, kind)`` where ``unit`` is
the acting stack string (a whole stack, or one piece in a deploy), ``target`` the square it
goes to or fires at, and ``kind`` one of `QUIET`, `CAPTURE`, `STAY`, `SUICIDE`, `JOIN`.
Nothing here builds `Move` objects, so counting (perft) stays fast.

Legality (§7.4) is decided without replaying the opponent's whole attack set for every
turn. Before the turns of a position are generated, `Safety` notes whether the mover is in
check and what could change that. A turn needs the full test ("is my commander attacked
after the end-of-turn promotions") only when it could matter: the mover is in check; an
enemy non-heroic air force is lined up with the commander (whether its flight gets through
depends on the mover's air defence, which the turn may move, remove or promote); the turn
starts on or joins the commander's square; it empties a square one or two steps from the
commander with an enemy piece behind it within three steps (the longest capture that pieces
block); it empties the last square between the two commanders; or it leaves the opponent
one last guard, who becomes heroic and reaches further. Enemy pieces do not move during the
mover's turn and the mover's pieces only add blockers, so every other turn leaves the
attacks on the commander as they were: safe. The full test then applies only the
promotions that can change those attacks. A test forces the full test for every turn and
compares.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import (
    ALIGN,
    DIRECTIONS,
    HEAVY_REACH,
    LAND_CAPABLE,
    LAND_REACH,
    NAVIGABLE,
    NAVY_REACH,
    OPPOSITE,
    ORTHOGONAL,
    RAY,
    ZONE,
    between,
)
from .pieces import (
    AIR,
    CAPTURE_BLOCKED,
    GROUND,
    HEAVY,
    MERGE,
    NAVY,
    PIECES,
    REMOVE,
    STACKS,
    TERRAIN_CLASS,
    promote,
)

QUIET, CAPTURE, STAY, SUICIDE, JOIN = range(5)
KIND_SYMBOL = ("", "x", "_", "@", "&")
CAPTURES = frozenset((CAPTURE, STAY, SUICIDE))
SAFE, KAMIKAZE, SHOT_DOWN = range(3)

Board = Sequence[str | None]
RawStep = tuple[str, int, int]
RawTurn = tuple[int, tuple[RawStep, ...], bool]


# --- finding things -------------------------------------------------------------------------
def commander_square(board: Board, side: int) -> int | None:
    """Where ``side``'s commander stands (alone or in a stack), or None."""
    for q, s in enumerate(board):
        if s is not None:
            info = STACKS[s]
            if info.has_commander and info.side == side:
                return q
    return None


def zone_masks(board: Board, side: int) -> list[int]:
    """Per square, one bit per air-defence provider of ``side`` whose zone covers it (§4.3)."""
    masks = [0] * len(board)
    bit = 1
    for q, s in enumerate(board):
        if s is None:
            continue
        info = STACKS[s]
        if info.zone and info.side == side:
            for t in ZONE[info.zone][q]:
                masks[t] |= bit
            bit <<= 1
    return masks


def flight_status(zones: Sequence[int], path: Sequence[int]) -> int:
    """SAFE, KAMIKAZE or SHOT_DOWN for a flight over ``path`` (Q1..Qk) (§4.4)."""
    last = zones[path[-1]]
    crossed = 0
    for q in path[:-1]:
        crossed |= zones[q]
    if not crossed | last:
        return SAFE
    if last and not crossed & ~last:
        return KAMIKAZE
    return SHOT_DOWN


def sight(board: Board, enemy_commander: int | None, origin: int, lifted: bool) -> set[int]:
    """The enemy commander's line of sight (§7.2): empty squares along its file and rank up
    to the first piece, with ``origin`` counted empty when the moving unit empties it."""
    seen: set[int] = set()
    if enemy_commander is None:
        return seen
    for d in ORTHOGONAL:
        for q in RAY[enemy_commander][d]:
            if q == origin:
                if not lifted:
                    break
            elif board[q] is not None:
                break
            seen.add(q)
    return seen


# --- attacks (§3.4) -------------------------------------------------------------------------
def _scan(board: Board, target: int, by: int, first: bool) -> bool | list[tuple[int, int]]:
    """Whether side ``by`` attacks the stack on ``target`` (``first``), or every attacking
    (square, piece index) of ``by``. Passengers attack as if acting alone."""
    tinfo = STACKS[board[target]]  # type: ignore[index]
    tclass = tinfo.target
    facing = tinfo.has_commander
    zones: list[int] | None = None
    found: list[tuple[int, int]] = []
    rays = RAY[target]
    for d in DIRECTIONS:
        ray = rays[d]
        back = OPPOSITE[d]
        look_far = facing and not d & 1
        clear = True
        for k, q in enumerate(ray, 1):
            s = board[q]
            if s is not None:
                info = STACKS[s]
                if info.side == by:
                    for i, p in enumerate(info.pieces):
                        pinfo = PIECES[p]
                        letter = pinfo.letter
                        hit = False
                        if k <= pinfo.capture[back][tclass]:
                            if letter in CAPTURE_BLOCKED:
                                hit = clear
                            elif letter == "F" and not pinfo.heroic:
                                if zones is None:
                                    zones = zone_masks(board, 1 - by)
                                crossed = 0
                                for m in ray[:k - 1]:
                                    crossed |= zones[m]
                                hit = not crossed & ~zones[target]
                            else:
                                hit = True
                        elif letter == "C" and look_far and clear:
                            hit = True  # the long-distance capture of the commander
                        if hit:
                            if first:
                                return True
                            found.append((q, i))
                clear = False
            if k >= 5 and not (look_far and clear):
                break
    return False if first else found


def attacked(board: Board, target: int, by: int) -> bool:
    """Whether side ``by`` attacks the stack on ``target``."""
    return bool(_scan(board, target, by, True))


def attackers(board: Board, target: int, by: int) -> list[tuple[int, int]]:
    """Every (square, index in its stack) of a piece of ``by`` attacking ``target``."""
    return _scan(board, target, by, False)  # type: ignore[return-value]


def air_threat(board: Board, target: int, by: int) -> bool:
    """A non-heroic air force of ``by`` lined up with ``target`` within its range: whether it
    may attack depends on the other side's air defence."""
    for ray in RAY[target]:
        for q in ray[:4]:
            s = board[q]
            if s is not None:
                info = STACKS[s]
                if info.plain_air and info.side == by:
                    return True
    return False


# --- end of turn (§6.2, §6.3) ---------------------------------------------------------------
def end_of_turn(board: list[str | None], mover: int) -> None:
    """Promotion by check for the mover, then the last guard of both sides, in place."""
    promote_checkers(board, mover, commander_square(board, 1 - mover))
    last_guard(board, 0)
    last_guard(board, 1)


def promote_checkers(board: list[str | None], mover: int, enemy: int | None) -> list[int]:
    """Promotion by check (§6.2), in place: every piece of ``mover`` attacking the enemy
    commander on ``enemy`` becomes heroic. Returns the squares whose stacks changed."""
    if enemy is None:
        return []
    by_square: dict[int, list[int]] = {}
    for q, i in attackers(board, enemy, mover):
        if not PIECES[STACKS[board[q]].pieces[i]].heroic:  # type: ignore[index]
            by_square.setdefault(q, []).append(i)
    for q, indices in by_square.items():
        board[q] = promote(board[q], indices)  # type: ignore[arg-type]
    return list(by_square)


def last_guard(board: list[str | None], side: int) -> None:
    """If ``side`` has exactly one piece besides its commander, it becomes heroic (§6.3)."""
    guards = 0
    where = -1
    for q, s in enumerate(board):
        if s is not None:
            info = STACKS[s]
            if info.guards and info.side == side:
                guards += info.guards
                where = q
                if guards > 1:
                    return
    if guards == 1:
        pieces = STACKS[board[where]].pieces  # type: ignore[index]
        i = next(i for i, p in enumerate(pieces) if PIECES[p].letter != "C")
        if not PIECES[pieces[i]].heroic:
            board[where] = promote(board[where], (i,))  # type: ignore[arg-type]


# --- one unit's options (§2.2, §3) ----------------------------------------------------------
def unit_options(board: list[str | None], origin: int, side: int, unit: str, left: str | None,
                 zones: Sequence[int], out: list[tuple[int, int]]) -> None:
    """Append (target, kind) for every quiet move, join and capture of ``unit`` (a whole
    stack, or one piece of it) from ``origin``; ``left`` is what stays on ``origin``."""
    info = STACKS[unit]
    lead = PIECES[info.leader]
    letter = lead.letter
    terrain = TERRAIN_CLASS[letter]
    if terrain == AIR:
        _air_options(board, origin, side, unit, left, lead, zones, out)
    elif terrain == NAVY:
        _navy_options(board, origin, side, unit, lead, out)
    else:
        _ground_options(board, origin, side, unit, left, lead, terrain == HEAVY,
                        letter == "C" or (letter == "H" and info.has_commander), out)


def _ground_options(board: list[str | None], origin: int, side: int, unit: str,
                    left: str | None, lead, heavy: bool, walks: bool,
                    out: list[tuple[int, int]]) -> None:
    """Land and heavy leaders: blocked moves; captures blocked unless artillery or missile."""
    moves, caps, limits = lead.move, lead.capture, lead.reach
    blocked_captures = lead.letter in CAPTURE_BLOCKED
    commander = lead.letter == "C"
    reach = HEAVY_REACH[origin] if heavy else LAND_REACH[origin]
    seen = sight(board, _enemy_commander(board, side), origin, left is None) if walks else None
    rays = RAY[origin]
    for d in DIRECTIONS:
        limit = limits[d]
        if not limit:
            continue
        mr = moves[d]
        far = commander and not d & 1
        quiet_reach = reach[d]
        join_reach = quiet_reach if heavy else quiet_reach + 1
        crossed = False  # the walking commander has passed through the line of sight
        blocked = False
        for k, t in enumerate(rays[d], 1):
            if k > limit:
                break
            s = board[t]
            if s is None:
                if not blocked and k <= mr and k <= quiet_reach and not crossed:
                    out.append((t, QUIET))
            else:
                o = STACKS[s]
                if o.side == side:
                    if (not blocked and k <= mr and k <= join_reach and not crossed
                            and MERGE[(s, unit)] is not None):
                        out.append((t, JOIN))
                elif ((k <= caps[d][o.target] and not (blocked and blocked_captures))
                      or (far and not blocked and o.has_commander)):
                    out.append((t, CAPTURE if LAND_CAPABLE[t] else STAY))
                if blocked_captures:
                    break
                blocked = True
            if seen is not None and t in seen:
                crossed = True


def _enemy_commander(board: Board, side: int) -> int | None:
    return commander_square(board, 1 - side)


def _air_options(board: list[str | None], origin: int, side: int, unit: str, left: str | None,
                 lead, zones: Sequence[int], out: list[tuple[int, int]]) -> None:
    """Air-force leaders: fly over everything; air defence decides (§2.3.7, §4.4)."""
    moves, caps = lead.move, lead.capture
    plain = not lead.heroic
    rays = RAY[origin]
    for d in DIRECTIONS:
        limit = moves[d]
        crossed = 0
        for k, t in enumerate(rays[d], 1):
            if k > limit:
                break
            status = SAFE
            if plain:
                z = zones[t]
                if crossed | z:
                    status = KAMIKAZE if z and not crossed & ~z else SHOT_DOWN
                crossed |= z
            s = board[t]
            if s is None:
                if status == SAFE and LAND_CAPABLE[t]:
                    out.append((t, QUIET))
                continue
            o = STACKS[s]
            if o.side == side:
                if status == SAFE and MERGE[(s, unit)] is not None:
                    out.append((t, JOIN))
            elif k <= caps[d][o.target]:
                if status == KAMIKAZE:
                    out.append((t, SUICIDE))
                elif status == SAFE:
                    if not LAND_CAPABLE[t]:
                        out.append((t, STAY))
                        continue
                    out.append((t, CAPTURE))
                    if (o.target == GROUND and not o.has_commander
                            and _unsafe_landing(board, origin, left, t, unit, side)):
                        out.append((t, STAY))


def _unsafe_landing(board: list[str | None], origin: int, left: str | None, target: int,
                    unit: str, side: int) -> bool:
    """Would the air-force unit be attacked on ``target`` after a normal capture there,
    end-of-turn promotions included (§3.3)?"""
    after = list(board)
    after[origin] = left
    after[target] = unit
    end_of_turn(after, side)
    return attacked(after, target, 1 - side)


def _navy_options(board: list[str | None], origin: int, side: int, unit: str, lead,
                  out: list[tuple[int, int]]) -> None:
    """Navy leaders: sail on water through friendly pieces; fire over anything (§2.3.8)."""
    moves, caps = lead.move, lead.capture
    reach = NAVY_REACH[origin]
    rays = RAY[origin]
    for d in DIRECTIONS:
        mr = moves[d]
        limit = mr  # a navy's move range is never shorter than its capture ranges
        sail = reach[d]
        stopped = False  # an enemy piece lies on the way
        for k, t in enumerate(rays[d], 1):
            if k > limit:
                break
            s = board[t]
            if s is None:
                if not stopped and k <= sail:
                    out.append((t, QUIET))
                continue
            o = STACKS[s]
            if o.side == side:
                if not stopped and k <= sail and MERGE[(s, unit)] is not None:
                    out.append((t, JOIN))
                continue
            if k <= caps[d][o.target]:
                out.append((t, CAPTURE if k <= sail else STAY))
            stopped = True


# --- legality (§7.4) ------------------------------------------------------------------------
class Safety:
    """Decides whether a turn leaves the mover's commander safe, doing the full test only
    for turns that could change the attacks on it (see the module docstring)."""

    __slots__ = ("side", "commander", "enemy_commander", "always", "air", "critical",
                 "line", "enemy_guards")

    def __init__(self, board: Board, side: int, commander: int, enemy_commander: int) -> None:
        self.side = side
        self.commander = commander
        self.enemy_commander = enemy_commander
        self.air = air_threat(board, commander, 1 - side)
        self.always = self.air or attacked(board, commander, 1 - side)
        # squares one or two steps from the commander whose emptying could open a blocked
        # capture: occupied, with an enemy piece behind them within three steps
        critical = set()
        for ray in RAY[commander]:
            near = ray[:3]
            for j in (0, 1):
                if j < len(near) and board[near[j]] is not None and any(
                        board[q] is not None and STACKS[board[q]].side != side  # type: ignore
                        for q in near[j + 1:]):
                    critical.add(near[j])
        self.critical = critical
        line = ALIGN[commander].get(enemy_commander)
        self.line = between(commander, enemy_commander) if line and not line[0] & 1 else ()
        self.enemy_guards = sum(STACKS[s].guards for s in board
                                if s is not None and STACKS[s].side != side)

    def allows(self, board: list[str | None], origin: int, targets: Sequence[int],
               emptied: Sequence[int], captured: Sequence[str]) -> bool:
        """Is the turn just applied to ``board`` legal? ``targets``: the squares its steps
        went to; ``emptied``: squares the turn may have emptied."""
        side = self.side
        commander = self.commander
        guards = self.enemy_guards
        for c in captured:
            info = STACKS[c]
            if info.has_commander:  # the game ends; only the own commander must survive
                return origin != commander or commander_square(board, side) is not None
            guards -= info.guards
        moved = origin == commander
        if not (self.always or moved or guards == 1 or commander in targets):
            line = self.line
            for q in emptied:
                if board[q] is None and (q in self.critical or (
                        q in line and all(board[x] is None for x in line))):
                    break
            else:
                return True
        after = list(board)
        where = commander
        if moved:
            where = next((q for q in (origin, *targets) if after[q] is not None
                          and STACKS[after[q]].has_commander  # type: ignore[index]
                          and STACKS[after[q]].side == side), -1)  # type: ignore[index]
            if where < 0:
                return False
        if self.air if where == commander else air_threat(after, where, 1 - side):
            end_of_turn(after, side)  # own promotions change own air-defence levels
        elif guards == 1:
            last_guard(after, 1 - side)
        return not attacked(after, where, 1 - side)


# --- every legal turn (§5.8) ----------------------------------------------------------------
def legal_turns(cells: Board, side: int) -> list[RawTurn]:
    """Every legal turn of ``side``: whole-stack moves, then deploys, stack by stack."""
    board = list(cells)
    own = commander_square(board, side)
    enemy = commander_square(board, 1 - side)
    if own is None or enemy is None:
        return []
    return _turns(board, side, Safety(board, side, own, enemy))


class _Unchecked:
    """A `Safety` that allows every turn (for `pseudo_legal_turns`)."""

    @staticmethod
    def allows(*_: object) -> bool:
        return True


def pseudo_legal_turns(cells: Board, side: int) -> list[RawTurn]:
    """Every turn of ``side`` that obeys the rules of movement, in `legal_turns`' order,
    without the test that the mover's commander survives unattacked (§7.4 items 2–3):
    `legal_turns` is the same list less the turns that fail it. A search that answers
    such a turn by capturing the commander needs no more (and a turn costs a fraction)."""
    return _turns(list(cells), side, _Unchecked())  # type: ignore[arg-type]


def pseudo_legal_moves(cells: Board, side: int) -> list[RawTurn]:
    """The whole-stack moves among `pseudo_legal_turns` (no deploys)."""
    return _turns(list(cells), side, _Unchecked(), False)  # type: ignore[arg-type]


def pseudo_legal_deploys(cells: Board, side: int, origin: int,
                         first: RawStep | None = None) -> list[RawTurn]:
    """The deploys of the stack on ``origin`` among `pseudo_legal_turns` (those that
    begin with the step ``first`` when given)."""
    board = list(cells)
    out: list[RawTurn] = []
    _extend(board, origin, side, zone_masks(board, 1 - side), _Unchecked(),  # type: ignore
            STACKS[board[origin]].pieces, (), False, (), (origin,), (), out,  # type: ignore
            first)
    return out


def _turns(board: list[str | None], side: int, safety: Safety,
           deploys: bool = True) -> list[RawTurn]:
    """Every turn of ``side`` that ``safety`` allows (whole-stack moves only unless
    ``deploys``)."""
    cells = tuple(board)
    zones = zone_masks(board, 1 - side)
    unchecked = isinstance(safety, _Unchecked)
    out: list[RawTurn] = []
    for origin, stack in enumerate(cells):
        if stack is None or STACKS[stack].side != side:
            continue
        options: list[tuple[int, int]] = []
        unit_options(board, origin, side, stack, None, zones, options)
        if unchecked:  # every option is a turn: nothing to play on the board
            out.extend((origin, ((stack, t, kind),), False) for t, kind in options)
        else:
            for t, kind in options:
                old = board[t]
                _place(board, origin, t, kind, stack, None)
                if safety.allows(board, origin, (t,), (origin, t),
                                 (old,) if kind in CAPTURES else ()):  # type: ignore[arg-type]
                    out.append((origin, ((stack, t, kind),), False))
                board[t] = old
                board[origin] = stack
        if deploys and STACKS[stack].size > 1:
            _extend(board, origin, side, zones, safety, STACKS[stack].pieces, (), False,
                    (), (origin,), (), out)
    return out


def _place(board: list[str | None], origin: int, t: int, kind: int, unit: str,
           left: str | None) -> None:
    """Play one step on ``board`` in place: ``unit`` leaves ``origin`` (where ``left``
    stays) to move, join, capture on ``t``, fire at ``t`` (stay) or be lost with it
    (suicide)."""
    if kind == QUIET or kind == CAPTURE:
        board[t] = unit
        board[origin] = left
    elif kind == JOIN:
        board[t] = MERGE[(board[t], unit)]  # type: ignore[index]
        board[origin] = left
    elif kind == STAY:
        board[t] = None
    else:
        board[t] = None
        board[origin] = left


def _extend(board: list[str | None], origin: int, side: int, zones: Sequence[int],
            safety: Safety, remaining: tuple[str, ...], steps: tuple[RawStep, ...],
            moved: bool, targets: tuple[int, ...], emptied: tuple[int, ...],
            captured: tuple[str, ...], out: list[RawTurn], only: RawStep | None = None) -> None:
    """Add every deploy that continues ``steps`` with one more step of a piece still able
    to act (§5.5); pieces that are alike are tried once. ``only``: the one next step to
    try (all when None)."""
    here = board[origin]
    for i, piece in enumerate(remaining):
        if piece in remaining[:i] or only is not None and only[0] != piece:
            continue
        left = REMOVE[(here, piece)]  # type: ignore[index]
        rest = remaining[:i] + remaining[i + 1:]
        options: list[tuple[int, int]] = []
        unit_options(board, origin, side, piece, left, zones, options)
        for t, kind in options:
            if only is not None and (only[1] != t or only[2] != kind):
                continue
            old = board[t]
            _place(board, origin, t, kind, piece, left)
            steps2 = steps + ((piece, t, kind),)
            moved2 = moved or kind != STAY
            targets2 = targets + (t,)
            if kind in CAPTURES:
                captured2 = captured + (old,)  # type: ignore[operator]
                emptied2 = emptied + (t,) if kind != CAPTURE else emptied
                ends = STACKS[old].has_commander  # type: ignore[index]
            else:
                captured2, emptied2, ends = captured, emptied, False
            if moved2:
                on = board[origin]
                if on is None or _may_stay(on, origin):
                    if safety.allows(board, origin, targets2, emptied2, captured2):
                        out.append((origin, steps2, True))
            if rest and not ends:
                z = zones
                if kind in CAPTURES and STACKS[old].zone:  # type: ignore[index]
                    z = zone_masks(board, 1 - side)
                _extend(board, origin, side, z, safety, rest, steps2, moved2, targets2,
                        emptied2, captured2, out)
            board[t] = old
            board[origin] = here


def _may_stay(stack: str, origin: int) -> bool:
    """Constraint 5 of §5.5: what stays is a valid stack whose carrier may stand there."""
    info = STACKS[stack]
    if not info.valid:
        return False
    return NAVIGABLE[origin] if info.letter == "N" else LAND_CAPABLE[origin]


# --- making a turn --------------------------------------------------------------------------
def apply_steps(board: list[str | None], origin: int, steps: Sequence[RawStep],
                deploy: bool) -> tuple[bool, bool]:
    """Play the steps on ``board`` in place; returns (captured anything, took a commander)."""
    captured = took_commander = False
    for unit, t, kind in steps:
        old = board[t]
        left = REMOVE[(board[origin], unit)] if deploy else None  # type: ignore[index]
        _place(board, origin, t, kind, unit, left)
        if kind in CAPTURES:
            captured = True
            if STACKS[old].has_commander:  # type: ignore[index]
                took_commander = True
    return captured, took_commander


def removed_stacks(cells: Board, origin: int, steps: Sequence[RawStep],
                   deploy: bool) -> list[str]:
    """What the steps take off the board, played from ``cells``: each captured stack
    whole, and the unit that trades itself (`SUICIDE`) with what it hits."""
    board = list(cells)
    lost: list[str] = []
    for unit, t, kind in steps:
        if kind in CAPTURES:
            lost.append(board[t])  # type: ignore[arg-type]
        if kind == SUICIDE:
            lost.append(unit)
        left = REMOVE[(board[origin], unit)] if deploy else None  # type: ignore[index]
        _place(board, origin, t, kind, unit, left)
    return lost


def make_turn(cells: Board, side: int, turn: RawTurn) -> tuple[list[str | None], bool, bool]:
    """The board after a complete turn with end-of-turn processing (§6.5), and whether it
    captured anything and whether it captured the enemy commander."""
    board = list(cells)
    origin, steps, deploy = turn
    captured, took = apply_steps(board, origin, steps, deploy)
    if not took:
        end_of_turn(board, side)
    return board, captured, took


def perft(cells: Board, side: int, depth: int) -> int:
    """Leaf count of the legal-turn tree, bulk-counted at the last ply."""
    turns = legal_turns(cells, side)
    if depth <= 1:
        return len(turns) if depth == 1 else 1
    other = 1 - side
    return sum(perft(make_turn(cells, side, t)[0], other, depth - 1) for t in turns)
