"""mini-Chieftain and micro-Chieftain (Joe Joyce, 2008), complete.

The rules for players: ``docs/rules/chieftain.md``, whose "Choices this project made"
lists every decision taken where the original rules are silent, each with its test.
Section marks (§) below refer to the numbered rules specification the engine was
built from; the players' document says the same in its own words.

Both games share this one implementation; each is a small class with its own pieces and
start position (a position string, so another set-up is loaded the same way).

Representation
==============
One cell per square of the 8×8 `CHESS` board, ``None`` or a piece letter (upper case
White, lower case Black; ``V`` is the Silver). One move of one piece is a `Step`: origin,
target, ``captures == (target,)`` when it takes, ``unit`` the piece's upper-case letter.
A whole turn is ``Move(kind="turn")`` whose steps are its moves in the canonical legal
order (rules §3: the legal order that sorts first, squares a1, b1, ..., h8); from a
position with a turn in progress it holds the moves still to come, and
``Move((), "turn")`` (text ``end``) ends the turn at once. One move entered on its own is
``Move(kind="step")``: `make_move` plays it and the turn goes on, with the moves made so
far in ``Position.pending`` (the board shows them made) — unless the allowance is used, no
further move is possible or the game is won, and then the other side is to move.
``position.in_progress`` says whether a turn is half-played.

Activation
==========
Which Chieftains are still free depends on which assignment of Chieftains to the moves
made so far is chosen, and several may work. The generator therefore keeps every feasible
assignment, as the set of "used" bitmasks over the mover's Chieftains (numbered by their
squares at the start of the turn, in board order); a move is possible when some feasible
assignment leaves a Chieftain within 3 of the piece. Whole turns are found by a depth-first
search in ascending move order, so the first sequence reaching a set of moves is its
canonical order; a set already searched with a superset of the current assignments is not
searched again, so a turn of N moves costs far fewer than N! orders.

Speed
=====
`ChieftainVariant.next_moves` lists the single moves available as the next move of the
turn; `ChieftainVariant.move_perft(position, depth)` counts the tree of single moves (a
node is one move; the turn passes by itself when the allowance is used or no further
move is possible; stopping early is not counted as a choice) and is the figure compared
with python-chess. `perft` counts whole turns (each set of moves once).

Decisions (the rule file is silent on these)
============================================
* A text of one move is the next move of the turn: the turn goes on after it when it can.
  A text of several moves is a whole turn (it ends after its last move); ``end`` after
  moves (``Ma2-a3, end``) or alone (in a turn in progress) ends the turn. So the
  canonical text of a one-move turn that stops before the allowance is used, where a
  further move was possible, is ``Ma2-a3, end``.
* A whole turn given in one text must be legal in the order given (rules §3: "moves are
  made one after another"); an order that fails is refused, naming the move that could
  not be activated and, when one exists, a legal order of the same moves.
* Threefold repetition counts only positions at the start of a turn (no turn in
  progress), with the same side to move; the move number does not count.
* A position string whose turn in progress should already be over (allowance used, game
  won or no further move possible) is refused, so every position has one canonical form.
* The short input ``Nc3`` (piece letter and destination) is accepted when it names one
  move; otherwise the error lists the candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from .boards import CHESS
from .errors import EngineError, IllegalMoveError, MoveSyntaxError, PositionError
from .move import Move, Step
from .phrases import a_or_an, said, said_n
from .position import Piece, Position
from .variant import ONGOING, Outcome, Variant, register

TOPO = CHESS
NAMES = TOPO.nodes  # node i is file i % 8, rank i // 8: a1, b1, ..., h1, a2, ..., h8
INDEX = TOPO.index
N_SQUARES = len(NAMES)
_AT = {TOPO.coords[i]: i for i in range(N_SQUARES)}
assert all(_AT[(i % 8, i // 8)] == i for i in range(N_SQUARES)), "board order is a1, b1, ..."

# the pieces' names, as phrases (`engine.phrases`: a service words them in its language)
PIECE_NAMES = {"C": said("Chieftain"), "H": said("Hero"), "S": said("Shaman"),
               "N": said("kNight"), "M": said("Man"), "G": said("Gold"), "V": said("Silver")}
ACTIVATION_RANGE = 3

_KING_V = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_KNIGHT_V = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_ORTHO_V = ((1, 0), (0, 1), (-1, 0), (0, -1))
_DIAG_V = ((1, 1), (-1, 1), (-1, -1), (1, -1))


def _targets(vectors: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """For every square, the squares one vector away (those on the board)."""
    out = []
    for f, r in (TOPO.coords[i] for i in range(N_SQUARES)):
        out.append(tuple(_AT[(f + df, r + dr)] for df, dr in vectors
                         if (f + df, r + dr) in _AT))
    return tuple(out)


def _lines(vectors: Sequence[tuple[int, int]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every square, the first 1-3 squares of each line in ``vectors``."""
    out = []
    for f, r in (TOPO.coords[i] for i in range(N_SQUARES)):
        lines = []
        for df, dr in vectors:
            line = tuple(_AT[(f + k * df, r + k * dr)] for k in (1, 2, 3)
                         if (f + k * df, r + k * dr) in _AT)
            if line:
                lines.append(line)
        out.append(tuple(lines))
    return tuple(out)


KING = _targets(_KING_V)
KNIGHT = _targets(_KNIGHT_V)
ORTHO_LINES = _lines(_ORTHO_V)
DIAG_LINES = _lines(_DIAG_V)
# forward is towards rank 8 for White (side 0), towards rank 1 for Black
GOLD = (_targets(_ORTHO_V + ((1, 1), (-1, 1))), _targets(_ORTHO_V + ((1, -1), (-1, -1))))
SILVER = (_targets(_DIAG_V + ((0, 1),)), _targets(_DIAG_V + ((0, -1),)))
KING_MASK = tuple(sum(1 << t for t in KING[i]) for i in range(N_SQUARES))
DISTANCE = tuple(tuple(max(abs(TOPO.coords[a][0] - TOPO.coords[b][0]),
                           abs(TOPO.coords[a][1] - TOPO.coords[b][1]))
                       for b in range(N_SQUARES)) for a in range(N_SQUARES))
NEAR = tuple(sum(1 << b for b in range(N_SQUARES) if DISTANCE[a][b] <= ACTIVATION_RANGE)
             for a in range(N_SQUARES))

#: per side: own letter -> piece kind (upper-case letter); other letters and None are absent
OWN = ({k: k for k in PIECE_NAMES}, {k.lower(): k for k in PIECE_NAMES})
CHIEF = ("C", "c")

MINI_START = "hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNH w - 1"
MICRO_START = "hnsccsnh/vgvggvgv/8/8/8/8/VGVGGVGV/HNSCCSNH w - 1"

RULES = """\
**{name}** — 8×8; a turn moves 1 to N different pieces, N = your Chieftains at its start.
Every move needs its own Chieftain within 3 squares (king distance) of the piece when it \
starts; a Chieftain activates one piece per turn, itself included, and keeps its \
activation if another Chieftain moves it. The engine finds the activation.
Win: capture every enemy Chieftain (the game ends at once). No check. Draws: agreement, \
threefold repetition, no legal move.
• **C Chieftain**: 1 or 2 king steps, may turn, never jumps, not back to its start.
• **H Hero**: along a rank or file: step 1, leap 2, or 3 (step+leap or leap+step: a2 or a3 \
empty for a1-a4).
• **S Shaman**: the Hero's move on diagonals.
• **N kNight**: the chess knight. • **M Man**: 1 step any way.{extra}
Enter a whole turn (`Cd1-c3, Ma5-a6`) or one move at a time, then `end` to stop early."""
MICRO_EXTRA = ("\n• **G Gold**: 1 step orthogonally or diagonally forward. "
               "• **V Silver**: 1 step diagonally or straight forward.")


# --- the turn as the generator sees it ------------------------------------------------------
class Turn(NamedTuple):
    """A turn in progress: board, mover, activation state, moves made.

    ``chiefs`` are the current squares of the mover's Chieftains (numbered by their
    squares at the start of the turn); ``feasible`` holds every bitmask of Chieftains that
    some working assignment has used so far; ``moved`` is a bitmask of the squares of the
    pieces that have moved; ``enemy_chiefs`` counts the opponent's Chieftains.
    """

    cells: tuple[str | None, ...]
    side: int
    chiefs: tuple[int, ...]
    feasible: tuple[int, ...]
    moved: int
    made: int
    enemy_chiefs: int


def start_turn(cells: tuple[str | None, ...], side: int) -> Turn:
    """The state at the start of ``side``'s turn."""
    mine, theirs = CHIEF[side], CHIEF[1 - side]
    chiefs = tuple(i for i, p in enumerate(cells) if p == mine)
    return Turn(cells, side, chiefs, (0,), 0, 0, cells.count(theirs))


def is_closed(turn: Turn) -> bool:
    """The turn is over whatever the board: allowance used or the game won."""
    return turn.made >= len(turn.chiefs) or turn.enemy_chiefs == 0


def active_squares(turn: Turn) -> int:
    """Bitmask of the squares whose unmoved pieces some free Chieftain can activate now."""
    if turn.enemy_chiefs == 0 or turn.made >= len(turn.chiefs):
        return 0
    mask = 0
    chiefs = turn.chiefs
    for used in turn.feasible:
        for c, sq in enumerate(chiefs):
            if not used >> c & 1:
                mask |= NEAR[sq]
    return mask & ~turn.moved


def generate(turn: Turn) -> list[int]:
    """Every move available as the next move of the turn, as codes ``origin << 6 | target``."""
    eligible = active_squares(turn)
    if not eligible:
        return []
    side = turn.side
    cells = turn.cells
    own = OWN[side]
    out: list[int] = []
    add = out.append
    for o, p in enumerate(cells):
        kind = own.get(p)  # type: ignore[arg-type]
        if kind is None or not eligible >> o & 1:
            continue
        base = o << 6
        if kind == "M" or kind == "N" or kind == "G" or kind == "V":
            table = (KING if kind == "M" else KNIGHT if kind == "N"
                     else GOLD[side] if kind == "G" else SILVER[side])
            for t in table[o]:
                if cells[t] not in own:
                    add(base | t)
        elif kind == "H" or kind == "S":
            for line in (ORTHO_LINES if kind == "H" else DIAG_LINES)[o]:
                a = line[0]
                qa = cells[a]
                if qa not in own:
                    add(base | a)
                if len(line) > 1:
                    b = line[1]
                    qb = cells[b]
                    if qb not in own:
                        add(base | b)
                    # distance 3: step then leap (a empty) or leap then step (b empty)
                    if len(line) > 2 and (qa is None or qb is None) and cells[line[2]] not in own:
                        add(base | line[2])
        else:  # Chieftain: one or two king steps through an empty middle square
            reach = 0
            for t in KING[o]:
                q = cells[t]
                if q is None:
                    reach |= KING_MASK[t] | 1 << t
                elif q not in own:
                    reach |= 1 << t
            reach &= ~(1 << o)
            while reach:
                low = reach & -reach
                t = low.bit_length() - 1
                reach ^= low
                if cells[t] not in own:
                    add(base | t)
    return out


def play(turn: Turn, code: int) -> Turn:
    """The state after the mover plays ``code`` (which must be one of `generate`)."""
    o, t = code >> 6, code & 63
    cells = list(turn.cells)
    piece = cells[o]
    taken = cells[t]
    cells[o] = None
    cells[t] = piece
    chiefs = turn.chiefs
    feasible = tuple({used | 1 << c for used in turn.feasible
                      for c, sq in enumerate(chiefs)
                      if not used >> c & 1 and NEAR[sq] >> o & 1})
    if piece == CHIEF[turn.side]:
        chiefs = tuple(t if sq == o else sq for sq in chiefs)
    enemy = turn.enemy_chiefs - (taken == CHIEF[1 - turn.side])
    return Turn(tuple(cells), turn.side, chiefs, feasible, turn.moved | 1 << t, turn.made + 1,
                enemy)


def turn_sets(turn: Turn) -> dict[frozenset[int], tuple[int, ...]]:
    """Every distinct set of further moves (at least one) that can complete the turn, each
    with its canonical order (the legal order that sorts first)."""
    found: dict[frozenset[int], tuple[int, ...]] = {}
    searched: dict[frozenset[int], set[int]] = {}
    allowance = len(turn.chiefs)

    def walk(state: Turn, order: tuple[int, ...], done: frozenset[int]) -> None:
        last = state.made + 1 >= allowance
        for code in sorted(generate(state)):
            key = done | {code}
            if key not in found:
                found[key] = order + (code,)
            if last:
                continue
            after = play(state, code)
            if after.enemy_chiefs == 0:
                continue
            seen = searched.get(key)
            if seen is not None and seen.issuperset(after.feasible):
                continue  # everything reachable from here was reached before, in a smaller order
            searched.setdefault(key, set()).update(after.feasible)
            walk(after, order + (code,), key)

    walk(turn, (), frozenset())
    return found


def legal_order(turn: Turn, codes: frozenset[int]) -> tuple[int, ...] | None:
    """The canonical (first-sorting) legal order of the moves ``codes``, or None."""
    if not codes:
        return ()
    if is_closed(turn):
        return None
    available = set(generate(turn))
    for code in sorted(codes & available):
        rest = legal_order(play(turn, code), codes - {code})
        if rest is not None:
            return (code, *rest)
    return None


def apply_codes(cells: tuple[str | None, ...], codes: Sequence[int]) -> tuple[str | None, ...]:
    """The board after the moves ``codes`` (in an order in which they are legal)."""
    board = list(cells)
    for code in codes:
        o, t = code >> 6, code & 63
        board[t] = board[o]
        board[o] = None
    return tuple(board)


def perft_turns(turn: Turn, depth: int) -> int:
    """Leaves of the tree of whole turns (the turn in progress completed first)."""
    sets = turn_sets(turn)
    nodes = len(sets) + (1 if turn.made else 0)  # a turn in progress may also stop now
    if depth <= 1:
        return nodes
    other = 1 - turn.side
    total = sum(perft_turns(start_turn(apply_codes(turn.cells, order), other), depth - 1)
                for order in sets.values())
    if turn.made:
        total += perft_turns(start_turn(turn.cells, other), depth - 1)
    return total


def perft_moves(turn: Turn, depth: int) -> int:
    """Leaves of the tree of single moves; the turn passes when it cannot go on."""
    codes = generate(turn)
    if not codes and turn.made and turn.enemy_chiefs:
        turn = start_turn(turn.cells, 1 - turn.side)
        codes = generate(turn)
    if depth <= 1:
        return len(codes)
    total = 0
    for code in codes:
        after = play(turn, code)
        if is_closed(after):
            after = start_turn(after.cells, 1 - after.side)
        total += perft_moves(after, depth - 1)
    return total


# --- moves as values and text ---------------------------------------------------------------
# Steps and one-step moves are immutable values, so each is built once and shared (at most
# 7 letters × 4,096 codes × taking or not).
_STEPS: dict[tuple[str, int, bool], Step] = {}
_STEP_MOVES: dict[Step, Move] = {}


def make_step(cells: Sequence[str | None], side: int, code: int) -> Step:
    """The step of move ``code`` played on ``cells`` by ``side``."""
    piece = cells[code >> 6]
    assert piece is not None
    target = cells[code & 63]
    taken = target is not None and target not in OWN[side]
    key = (piece, code, taken)
    step = _STEPS.get(key)
    if step is None:
        o, t = NAMES[code >> 6], NAMES[code & 63]
        step = _STEPS[key] = Step(o, t, (t,) if taken else (), piece.upper())
    return step


def step_move(step: Step) -> Move:
    """``Move((step,), "step")``, shared."""
    move = _STEP_MOVES.get(step)
    if move is None:
        move = _STEP_MOVES[step] = Move((step,), "step")
    return move


def step_code(step: Step) -> int:
    return INDEX[step.origin] << 6 | INDEX[step.target]


def step_text(step: Step) -> str:
    """``Cd1-d3`` / ``He1xe4``: letter, from, ``-`` or ``x``, to."""
    return f"{step.unit}{step.origin}{'x' if step.captures else '-'}{step.target}"


def turn_from_position(position: Position) -> Turn:
    """The turn state of ``position``, recomputing the activations from its pending moves."""
    turn = start_turn(_cells_before(position.cells, position.pending, position.side),
                      position.side)
    for step in position.pending:
        turn = play(turn, step_code(step))
    return turn._replace(cells=position.cells)


def _cells_before(cells: tuple[str | None, ...], pending: Sequence[Step],
                  side: int) -> tuple[str | None, ...]:
    """The board at the start of the turn, as far as the mover's pieces go (a captured
    piece comes back as an enemy Man: its kind never matters to the mover's moves)."""
    if not pending:
        return cells
    board = list(cells)
    stand_in = "m" if side == 0 else "M"
    for step in reversed(pending):
        o, t = INDEX[step.origin], INDEX[step.target]
        board[o] = board[t]
        board[t] = stand_in if step.captures else None
    return tuple(board)


_MOVE = re.compile(r"(?P<letter>[a-z])?(?P<origin>[a-h][1-8])(?:\s*(?P<sep>[-x:×])\s*)?"
                   r"(?P<target>[a-h][1-8])(?![0-9a-z])", re.IGNORECASE)
_SHORT = re.compile(r"(?P<letter>[a-z])(?P<sep>[x:×])?(?P<target>[a-h][1-8])(?![0-9a-z])",
                    re.IGNORECASE)
_END = re.compile(r"end(?![0-9a-z])", re.IGNORECASE)
_GAP = re.compile(r"[\s,;]*")
_STRICT_STEP = re.compile(r"([CHSNMGV])([a-h][1-8])([-x])([a-h][1-8])")


class MoveSpec(NamedTuple):
    """One move as written: piece letter (or ""), origin (-1 when only the target is
    given), target, and the text itself."""

    letter: str
    origin: int
    target: int
    text: str


def _king_distance_word(n: int) -> str:
    return said_n("{n} square", "{n} squares", n)


_SIDE_WORDS = Variant.side_names


def _piece(letter: str) -> str:
    return PIECE_NAMES.get(letter.upper(), letter)


class ChieftainVariant(Variant):
    """The shared implementation of mini- and micro-Chieftain."""

    topology = CHESS
    piece_letters: ClassVar[str] = "CHSNM"

    # --- positions -------------------------------------------------------------------
    def parse_position(self, text: str) -> Position:
        fields = text.split()
        if len(fields) != 4:
            raise PositionError(said("{position}: a position has four fields: placement, side "
                                     "to move (w or b), the moves of the turn in progress (or "
                                     "-) and the move number", position=repr(text)))
        placement, side_text, moves, number = fields
        cells = self._read_placement(text, placement)
        if side_text not in ("w", "b"):
            raise PositionError(said("{position}: the side to move must be w or b",
                                     position=repr(text)))
        if not number.isdigit() or int(number) < 1:
            raise PositionError(said("{position}: the move number must be a whole number "
                                     "from 1", position=repr(text)))
        if "C" not in cells and "c" not in cells:
            raise PositionError(said("{position}: neither side has a Chieftain",
                                     position=repr(text)))
        side = 0 if side_text == "w" else 1
        pending = self._read_pending(text, cells, side, moves)
        return Position(self.name, cells, side, int(number), 0, pending)

    def _read_placement(self, text: str, placement: str) -> tuple[str | None, ...]:
        rows = placement.split("/")
        if len(rows) != 8:
            raise PositionError(said("{position}: the placement needs {n} ranks separated by "
                                     "'/'", position=repr(text), n=8))
        cells: list[str | None] = [None] * N_SQUARES
        for rank, row in zip(range(7, -1, -1), rows, strict=True):
            f = 0
            for ch in row:
                if ch in "12345678":
                    f += int(ch)
                elif ch.upper() in self.piece_letters:
                    if f < 8:
                        cells[_AT[(f, rank)]] = ch
                    f += 1
                else:
                    raise PositionError(said("{position}: {character} is not a piece letter "
                                             "of {variant} ({letters})", position=repr(text),
                                             character=repr(ch), variant=self.display_name,
                                             letters=", ".join(self.piece_letters)))
            if f != 8:
                raise PositionError(said("{position}: rank {rank} must describe {squares} "
                                         "squares, not {n}", position=repr(text),
                                         rank=rank + 1, squares=8, n=f))
        return tuple(cells)

    def _read_pending(self, text: str, cells: tuple[str | None, ...], side: int,
                      moves: str) -> tuple[Step, ...]:
        """The moves of the turn in progress, checked by replaying them from the start."""
        if moves == "-":
            return ()
        steps = []
        for item in moves.split(","):
            m = _STRICT_STEP.fullmatch(item)
            if m is None or m.group(1) not in self.piece_letters:
                raise PositionError(said("{position}: {item} is not a move written like Cd1-c3",
                                         position=repr(text), item=repr(item)))
            letter, origin, sep, target = m.groups()
            steps.append(Step(origin, target, (target,) if sep == "x" else (), letter))
        board = list(cells)
        stand_in = "m" if side == 0 else "M"  # a captured piece's kind never matters here
        for s in reversed(steps):  # take the moves back, last first
            o, t = INDEX[s.origin], INDEX[s.target]
            piece = board[t]
            if piece is None or piece.upper() != s.unit or piece.isupper() != (side == 0):
                raise PositionError(said("{position}: after {move} a {side} {piece} must "
                                         "stand on {square}", position=repr(text),
                                         move=step_text(s), side=_SIDE_WORDS[side],
                                         piece=PIECE_NAMES[s.unit], square=s.target))
            if board[o] is not None:
                raise PositionError(said("{position}: {move} cannot have been played: "
                                         "{square} is not free", position=repr(text),
                                         move=step_text(s), square=s.origin))
            board[o] = piece
            board[t] = stand_in if s.captures else None
        turn = start_turn(tuple(board), side)
        for k, s in enumerate(steps):
            code = step_code(s)
            if is_closed(turn) or code not in generate(turn) \
                    or make_step(turn.cells, side, code) != s:
                raise PositionError(said("{position}: move {n} of the turn in progress, "
                                         "{move}, is not legal there", position=repr(text),
                                         n=k + 1, move=step_text(s)))
            turn = play(turn, code)
        if is_closed(turn) or not generate(turn):
            raise PositionError(said("{position}: the turn in progress is already over; write "
                                     "the position with the other side to move",
                                     position=repr(text)))
        return tuple(steps)

    def format_position(self, position: Position) -> str:
        rows = []
        cells = position.cells
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = cells[rank * 8 + f]
                if p is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + p
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        moves = ",".join(step_text(s) for s in position.pending) or "-"
        return f"{'/'.join(rows)} {'wb'[position.side]} {moves} {position.fullmove}"

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        p = position.cells[INDEX[node]]
        return () if p is None else (Piece(p.upper(), 0 if p.isupper() else 1),)

    def repetition_key(self, position: Position) -> object:
        return (position.cells, position.side, position.pending)

    # --- moves ---------------------------------------------------------------------
    def legal_moves(self, position: Position) -> list[Move]:
        """Every whole turn (each set of moves once, in canonical order); from a turn in
        progress, every way to finish it, ``end`` (no further move) included."""
        if self._game_over(position):
            return []
        turn = turn_from_position(position)
        moves = [self._turn_move(turn, order) for order in turn_sets(turn).values()]
        if position.pending:
            moves.append(Move((), "turn"))
        return moves

    def count_moves(self, position: Position) -> int:
        if self._game_over(position):
            return 0
        return len(turn_sets(turn_from_position(position))) + (1 if position.pending else 0)

    def perft(self, position: Position, depth: int) -> int:
        if depth == 0:
            return 1
        if self._game_over(position):
            return 0
        return perft_turns(turn_from_position(position), depth)

    def next_moves(self, position: Position) -> list[Move]:
        """The single moves available as the next move of the turn (``Move(kind="step")``)."""
        if self._game_over(position):
            return []
        turn = turn_from_position(position)
        cells, side = turn.cells, turn.side
        return [step_move(make_step(cells, side, code)) for code in generate(turn)]

    def next_steps(self, position: Position) -> list[Move]:
        """One move at a time: `next_moves`."""
        return self.next_moves(position)

    def steps_left(self, position: Position) -> int | None:
        """The moves the turn still allows: one per Chieftain, less those made."""
        turn = turn_from_position(position)
        return max(0, len(turn.chiefs) - turn.made)

    def move_perft(self, position: Position, depth: int) -> int:
        """Leaf count of the tree of single moves (see the module docstring, "Speed")."""
        if depth == 0:
            return 1
        if self._game_over(position):
            return 0
        return perft_moves(turn_from_position(position), depth)

    def _turn_move(self, turn: Turn, order: Sequence[int]) -> Move:
        cells, side = turn.cells, turn.side
        return Move(tuple(make_step(cells, side, code) for code in order), "turn")

    def make_move(self, position: Position, move: Move) -> Position:
        if move.kind == "step":
            turn = play(turn_from_position(position), step_code(move.steps[0]))
            if is_closed(turn) or not generate(turn):
                return self._next_turn(position, turn.cells)
            step = make_step(position.cells, position.side, step_code(move.steps[0]))
            return position.with_(cells=turn.cells, pending=position.pending + (step,))
        cells = apply_codes(position.cells, [step_code(s) for s in move.steps])
        return self._next_turn(position, cells)

    def _next_turn(self, position: Position, cells: tuple[str | None, ...]) -> Position:
        return Position(self.name, cells, 1 - position.side,
                        position.fullmove + position.side)

    def record_text(self, position: Position, move: Move, text: str) -> str:
        """A turn of several moves typed on one line is recorded in the order the player
        gave (rules §3), each move in canonical text: ``Nf6-h5, Md6-c5`` stays so, as
        when the same moves are sent one at a time."""
        if move.kind != "turn" or len(move.steps) < 2:
            return self.format_move(position, move)
        specs, _ = self._read_moves(text)
        start = turn = turn_from_position(position)
        codes = []
        for k, spec in enumerate(specs):
            codes.append(self._match(position, turn, spec, text, k, len(specs), specs))
            turn = play(turn, codes[-1])
        given = [make_step(start.cells, start.side, code) for code in codes]
        if sorted(map(step_code, given)) != sorted(map(step_code, move.steps)):
            return self.format_move(position, move)  # not the moves of ``move``
        return ", ".join(step_text(step) for step in given)

    def turn_record(self, position: Position, texts: Sequence[str]) -> str | None:
        """A turn entered move by move is recorded as one entry in the order the player gave
        (rules §3: the game record keeps that order): ``Md2-d3, Cd1-d2``."""
        text = ", ".join(t.strip() for t in texts)
        try:
            self.parse_move(position, text)
        except EngineError:
            return None
        return text

    def end_turn(self, position: Position) -> Position:
        if not position.pending:
            raise IllegalMoveError("end", said("there is no turn in progress to end: a turn "
                                               "needs at least one move"))
        return self._next_turn(position, position.cells)

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move`` (a whole turn or one step), checked move by move in
        the order given; raises `IllegalMoveError` saying why it is not legal."""
        desc = self._describe(position, move)
        if self._game_over(position):
            raise IllegalMoveError(desc, said("the game is over"))
        if move.kind not in ("turn", "step") or (move.kind == "step" and len(move.steps) != 1):
            raise IllegalMoveError(desc, said("that is not a move of this game"))
        if move.kind == "turn" and not move.steps and not position.pending:
            raise IllegalMoveError(desc, said("a turn needs at least one move"))
        turn = turn_from_position(position)
        for k, step in enumerate(move.steps):
            if step.origin not in INDEX or step.target not in INDEX:
                raise IllegalMoveError(desc, said("{move} is not a move on the board",
                                                  move=step.origin + "-" + step.target))
            code = step_code(step)
            legal = not is_closed(turn) and code in generate(turn)
            if not legal or make_step(turn.cells, turn.side, code) != step:
                reason = self._why_not(turn, MoveSpec(step.unit, INDEX[step.origin],
                                                      INDEX[step.target], step_text(step)))
                if legal and turn.cells[code >> 6].upper() == step.unit:  # type: ignore[union-attr]
                    reason = said("the move is {move}",
                                  move=step_text(make_step(turn.cells, turn.side, code)))
                raise IllegalMoveError(desc, self._numbered(k, len(move.steps), step_text(step),
                                                            reason))
            turn = play(turn, code)
        return self.make_move(position, move)

    # --- text ------------------------------------------------------------------------
    def format_move(self, position: Position, move: Move) -> str:
        if move.kind == "step":
            return step_text(move.steps[0])
        if not move.steps:
            return "end"
        text = ", ".join(step_text(s) for s in move.steps)
        if len(move.steps) == 1 and self._goes_on(position, move.steps[0]):
            text += ", end"
        return text

    def _goes_on(self, position: Position, step: Step) -> bool:
        """Whether the turn could continue after ``step`` (so a lone move would not end it)."""
        after = play(turn_from_position(position), step_code(step))
        return not is_closed(after) and bool(generate(after))

    def parse_move(self, position: Position, text: str) -> Move:
        specs, end = self._read_moves(text)
        if self._game_over(position):
            raise IllegalMoveError(text, said("the game is over"))
        start = turn_from_position(position)
        if not specs:
            if position.pending:
                return Move((), "turn")
            raise IllegalMoveError(text, said("there is no turn in progress to end: a turn "
                                              "needs at least one move"))
        turn = start
        codes: list[int] = []
        for k, spec in enumerate(specs):
            code = self._match(position, turn, spec, text, k, len(specs), specs)
            turn = play(turn, code)
            codes.append(code)
        if len(specs) == 1 and not end and not is_closed(turn) and generate(turn):
            return step_move(make_step(start.cells, start.side, codes[0]))
        order = legal_order(start, frozenset(codes))
        assert order is not None  # the order given is legal, so a first-sorting one exists
        return self._turn_move(start, order)

    def _read_moves(self, text: str) -> tuple[list[MoveSpec], bool]:
        """The moves written in ``text`` and whether it ends with ``end``."""
        specs: list[MoveSpec] = []
        end = False
        pos = 0
        while True:
            pos = _GAP.match(text, pos).end()  # type: ignore[union-attr]
            if pos >= len(text):
                break
            if end:
                raise MoveSyntaxError(text, said("'end' must come after the last move"))
            m = _MOVE.match(text, pos) or _SHORT.match(text, pos)
            if m is not None:
                letter = (m.group("letter") or "").upper()
                if letter and letter not in self.piece_letters:
                    raise MoveSyntaxError(text, said("{letter} is not a piece letter "
                                                     "({letters})",
                                                     letter=repr(m.group("letter")),
                                                     letters=", ".join(self.piece_letters)))
                origin = m.groupdict().get("origin")
                specs.append(MoveSpec(letter, INDEX[origin.lower()] if origin else -1,
                                      INDEX[m.group("target").lower()], m.group(0)))
                pos = m.end()
                continue
            m = _END.match(text, pos)
            if m is not None:
                end = True
                pos = m.end()
                continue
            word = re.split(r"[\s,;]", text[pos:], maxsplit=1)[0]
            # the whole text is quoted by the caller already: name only a part of it
            how = said("a move is written like Cd1-c3 (piece letter, from, - or x, to), and "
                       "moves are separated by commas")
            raise MoveSyntaxError(text, how if word == text.strip() else said(
                "{word} is not a move: {how}", word=repr(word), how=how))
        if not specs and not end:
            raise MoveSyntaxError(text, said("there is no move in it"))
        return specs, end

    def _match(self, position: Position, turn: Turn, spec: MoveSpec, text: str, k: int,
               count: int, specs: Sequence[MoveSpec]) -> int:
        """The code of the move ``spec`` names as the next move of ``turn``."""
        closed = self._why_closed(turn)
        if closed:
            raise IllegalMoveError(text, self._numbered(k, count, spec.text, closed))
        available = generate(turn)
        if spec.origin >= 0:
            code = spec.origin << 6 | spec.target
            piece = turn.cells[spec.origin]
            if code in available and (not spec.letter or piece.upper() == spec.letter):  # type: ignore[union-attr]
                return code
            reason = self._why_not(turn, spec)
            if count > 1:
                reason = self._numbered(k, count, spec.text, reason)
                hint = self._other_order_hint(position, turn, specs)
                if hint:
                    reason = said("{reason} (these moves are legal in the order {moves})",
                                  reason=reason, moves=hint)
            raise IllegalMoveError(text, reason)
        candidates = [c for c in available if c & 63 == spec.target
                      and turn.cells[c >> 6].upper() == spec.letter]  # type: ignore[union-attr]
        moves = [step_move(make_step(turn.cells, turn.side, c)) for c in candidates]
        name = _piece(spec.letter)
        found = self.choose(position, text, moves, lambda: self._numbered(
            k, count, spec.text, said("no {piece} can move to {square} now", piece=name,
                                      square=NAMES[spec.target])))
        return step_code(found.steps[0])

    def _numbered(self, k: int, count: int, move_text: str, reason: str) -> str:
        return reason if count == 1 else said("move {n}, {move}: {reason}", n=k + 1,
                                              move=move_text, reason=reason)

    def _why_closed(self, turn: Turn) -> str:
        """Why no further move may be made in ``turn``, or "" when one may."""
        if turn.enemy_chiefs == 0:
            return said("the game is already won: the last enemy Chieftain has been captured")
        n = len(turn.chiefs)
        if turn.made >= n:
            return said("{allowed} and {made}", allowed=said_n(
                "the turn allows {n} move (one per Chieftain)",
                "the turn allows {n} moves (one per Chieftain)", n), made=said_n(
                "{n} has been made", "{n} have been made", turn.made))
        if turn.made and not generate(turn):
            return said("no further move is possible this turn")
        return ""

    def _other_order_hint(self, position: Position, turn: Turn,
                          specs: Sequence[MoveSpec]) -> str:
        """The same moves in an order that is legal, when there is one ("" if none)."""
        if any(s.origin < 0 for s in specs):
            return ""
        start = turn_from_position(position)
        codes = frozenset(s.origin << 6 | s.target for s in specs)
        if len(codes) != len(specs):
            return ""
        order = legal_order(start, codes)
        if order is None:
            return ""
        return ", ".join(step_text(s) for s in self._turn_move(start, order).steps)

    def _why_not(self, turn: Turn, spec: MoveSpec) -> str:
        """Why the move ``spec`` (origin and target given) is not a legal next move."""
        cells, side = turn.cells, turn.side
        o, t = spec.origin, spec.target
        origin = NAMES[o]
        closed = self._why_closed(turn)
        if closed:
            return closed
        piece = cells[o]
        if piece is None:
            return said("there is no piece on {square}", square=origin)
        kind = piece.upper()
        name = _piece(kind)
        if (piece.isupper()) != (side == 0):
            return said("the {piece} on {square} is {owner}'s, and it is {side}'s turn",
                        piece=name, square=origin, owner=_SIDE_WORDS[1 - side],
                        side=_SIDE_WORDS[side])
        if spec.letter and spec.letter != kind:
            return said("the piece on {square} is {piece}, not {named}", square=origin,
                        piece=a_or_an(name), named=a_or_an(_piece(spec.letter)))
        if turn.moved >> o & 1:
            return said("the {piece} on {square} has already moved this turn; no piece moves "
                        "twice", piece=name, square=origin)
        shape = _shape_reason(cells, side, kind, o, t)
        if shape:
            return shape
        return self._activation_reason(turn, o, name)

    def _activation_reason(self, turn: Turn, o: int, name: str) -> str:
        origin = NAMES[o]
        parts = []
        for c, sq in enumerate(turn.chiefs):
            d = DISTANCE[sq][o]
            if d > ACTIVATION_RANGE:
                parts.append(said("the Chieftain on {square} is {distance} away",
                                  square=NAMES[sq], distance=_king_distance_word(d)))
            elif all(used >> c & 1 for used in turn.feasible):
                parts.append(said("the Chieftain on {square} has already activated a move "
                                  "this turn", square=NAMES[sq]))
        if not turn.chiefs:
            parts.append(said("there is no Chieftain"))
        return said("the {piece} on {square} cannot be activated: no unused Chieftain is "
                    "within {n} squares of {square} ({why})", piece=name, square=origin,
                    n=ACTIVATION_RANGE, why=_semicolons(parts))

    # --- the end of the game -------------------------------------------------------
    def _game_over(self, position: Position) -> bool:
        cells = position.cells
        return "C" not in cells or "c" not in cells

    def outcome(self, position: Position, history: Sequence[Position] = (),
                mode: str = "standard") -> Outcome:
        cells = position.cells
        white, black = "C" in cells, "c" in cells
        if not (white and black):
            loser = 0 if not white else 1
            return Outcome("win", 1 - loser, said("{side} has no Chieftain left",
                                                  side=_SIDE_WORDS[loser]))
        if position.pending:
            return ONGOING
        side = position.side
        if not generate(start_turn(cells, side)):
            return Outcome("draw", None, said("{side} has no legal move",
                                              side=_SIDE_WORDS[side]))
        same = sum(1 for p in history
                   if not p.pending and p.side == side and p.cells == cells)
        if same + 1 >= 3:
            return Outcome("draw", None, said("the same position occurred three times at "
                                              "the start of a turn"))
        return ONGOING

    def status_text(self, position: Position) -> str:
        if self._game_over(position):
            return ""
        turn = turn_from_position(position)
        side = _SIDE_WORDS[position.side]
        n = len(turn.chiefs)
        if not position.pending:
            return said_n("{side} may move up to {n} piece", "{side} may move up to {n} pieces",
                          n, side=side)
        free = [NAMES[sq] for c, sq in enumerate(turn.chiefs)
                if any(not used >> c & 1 for used in turn.feasible)]
        made = ", ".join(step_text(s) for s in position.pending)
        return said("{side}'s turn in progress: {made} ({count} of {n}); Chieftains free to "
                    "activate: {free}; send a move or 'end'", side=side, made=made,
                    count=turn.made, n=n, free=", ".join(free))


def _semicolons(parts: Sequence[str]) -> str:
    """Reasons one after the other (``a; b``), each a phrase."""
    joined = parts[0] if parts else ""
    for more in parts[1:]:
        joined = said("{first}; {then}", first=joined, then=more)
    return joined


def _shape_reason(cells: Sequence[str | None], side: int, kind: str, o: int, t: int) -> str:
    """Why a ``kind`` on ``o`` cannot go to ``t`` on this board, or "" if its move can."""
    origin, target = NAMES[o], NAMES[t]
    if o == t:
        return said("a move must leave its square")
    name = _piece(kind)
    if kind in "HS":
        lines = ORTHO_LINES[o] if kind == "H" else DIAG_LINES[o]
        line = next((ln for ln in lines if t in ln), None)
        if line is None:
            return said("{piece} moves 1, 2 or 3 squares along one rank or file",
                        piece=a_or_an(name)) if kind == "H" else \
                said("{piece} moves 1, 2 or 3 squares along one diagonal", piece=a_or_an(name))
        if line.index(t) == 2 and cells[line[0]] is not None and cells[line[1]] is not None:
            a, b = NAMES[line[0]], NAMES[line[1]]
            return said("the {piece}'s 3-square move from {origin} to {target} needs {a} or "
                        "{b} empty (step to {a} then leap, or leap to {b} then step); both are "
                        "occupied", piece=name, origin=origin, target=target, a=a, b=b)
    elif kind == "C":
        if DISTANCE[o][t] > 2:
            return said("a Chieftain moves 1 or 2 king steps")
        if DISTANCE[o][t] == 2:
            middles = sorted(m for m in KING[o] if t in KING[m])
            if all(cells[m] is not None for m in middles):
                return said("the Chieftain may not jump: every square between {origin} and "
                            "{target} ({squares}) is occupied", origin=origin, target=target,
                            squares=", ".join(NAMES[m] for m in middles))
    else:
        table = {"M": KING, "N": KNIGHT, "G": GOLD[side], "V": SILVER[side]}[kind]
        if t not in table[o]:
            return {
                "M": said("a Man moves one square in any direction"),
                "N": said("a kNight moves like a chess knight (two squares one way, one the "
                          "other)"),
                "G": said("a Gold moves one square orthogonally or one square diagonally "
                          "forward"),
                "V": said("a Silver moves one square diagonally or one square straight "
                          "forward"),
            }[kind]
    q = cells[t]
    if q is not None and q in OWN[side]:
        return said("{square} is occupied by your own {piece}", square=target,
                    piece=_piece(q))
    return ""


@register
class MiniChieftain(ChieftainVariant):
    name = "mini-chieftain"
    order = 40
    aliases = ("minichieftain", "mini")
    display_name = said("mini-Chieftain")
    start_fen = MINI_START
    piece_letters = "CHSNM"
    piece_names = {k: PIECE_NAMES[k] for k in "CHSNM"}
    rules_text = RULES.format(name="mini-Chieftain", extra="")


@register
class MicroChieftain(ChieftainVariant):
    name = "micro-chieftain"
    order = 50
    aliases = ("microchieftain", "micro")
    display_name = said("micro-Chieftain")
    start_fen = MICRO_START
    piece_letters = "CHSNMGV"
    piece_names = {k: PIECE_NAMES[k] for k in "CHSNMGV"}
    rules_text = RULES.format(name="micro-Chieftain", extra=MICRO_EXTRA)
