"""Combined Arms Brigade Chess (Saleh Waziruddin), complete.

The rules for players: ``docs/rules/combined-arms.md``, whose "Choices this project made"
lists every decision taken where the original rules are silent, each with its test.
Section marks (§) below refer to the numbered rules specification the engine was
built from; the players' document says the same in its own words.

Representation: the 8×8 `CHESS` board, one cell per square, ``None`` or a chess letter
(upper case White, lower case Black). A move is identified by its effect (rules §2a): one
`Step` with the start square, the final square, every killed square (in board order) and
the promotion piece in ``becomes``; ``unit`` is the mover's letter. Castling is
``Move(kind="castle")`` with the King's step and then the Rook's.

Generation works on bitboards (Python ints, bit ``8 * rank + file``) and raw tuples
``(origin, final, kill_mask, promotion)``: precomputed neighbour lists, rays, shooting
ranges and three-step armour paths, effects de-duplicated through sets of small tuples,
and the "does this leave my King in check" test memoised by the part of the move that can
matter to the King, so perft counts without building `Move` objects or copying per move.
The notation side (`_plays`) is a literal, slower simulation of every way of writing a
turn; it only names and reads the moves the generator made.

Decisions of the rule file are followed as written. Choices made here where the rule
file is still silent, each pinned by a test:

* The Queen's start square is exempt from the range rule for the whole turn: she may act
  from it, fly from it, and pass over or come back to it.
* "Judged with the pieces as they stand at that moment" is read square by square: an
  enemy Bishop or Rook killed by the Queen's armour path no longer counts for the
  squares she enters after it.
* In the "no legal move" fallback the whole set of moves legal with check ignored is
  allowed, including moves into check and castling through or into check.
* Threefold repetition compares the board and the side to move (the castling field is a
  function of the board; there is no en passant).
* The position parser ignores the castling and en passant fields it is given (after
  checking their syntax) and derives castling from the board, so a chess FEN pastes.
* The move parser, beyond §5, accepts lower-case piece letters, ``0-0`` for castling,
  ``Ke1-g1`` for castling, no separator or ``-`` for ``x`` (``e2e4``, ``Pe4-d5``), ``-``
  for the Queen's ``>``, a missing promotion piece (then ambiguous among the four), and
  trailing ``+``/``#``. Each leniency applies only when the stricter reading finds nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from .boards import CHESS
from .errors import IllegalMoveError, MoveSyntaxError, PositionError
from .move import Move, Step
from .phrases import said
from .position import Piece, Position
from .topology import NO_NODE
from .variant import ONGOING, Outcome, Variant, register

TOPO = CHESS
NAMES = TOPO.nodes
INDEX = TOPO.index
assert all(NAMES[8 * r + f] == f"{'abcdefgh'[f]}{r + 1}" for r in range(8) for f in range(8))

FULL = (1 << 64) - 1
BIT = tuple(1 << i for i in range(64))
NOT_FILE_A = FULL ^ sum(BIT[8 * r] for r in range(8))
NOT_FILE_H = FULL ^ sum(BIT[8 * r + 7] for r in range(8))
RANK = tuple(sum(BIT[8 * r + f] for f in range(8)) for r in range(8))

CHESS_NAMES = {"K": said("King"), "Q": said("Queen"), "R": said("Rook"), "B": said("Bishop"),
               "N": said("Knight"), "P": said("Pawn")}  # phrases, as every name here
#: the rules' own words for the pieces (§1), each with its chess name in brackets: messages
#: name a piece this way once, then by its rules' word alone
UNIT_NAMES = {"K": "headquarters", "Q": "aviation", "R": "heavy artillery",
              "B": "light artillery", "N": "armour", "P": "infantry"}
PIECE_NAMES = {k: f"{UNIT_NAMES[k]} ({CHESS_NAMES[k]})" for k in UNIT_NAMES}
PIECE_ROLES = {"K": "headquarters", "Q": "aviation", "R": "heavy artillery",
               "B": "light artillery", "N": "armour", "P": "infantry"}
PROMOTIONS = "NBRQ"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
SIDE_NAMES = ("White", "Black")
# the same names inside the engine's sentences, as phrases
_SIDES = (said("White"), said("Black"))
_UNITS = {"K": said("headquarters"), "Q": said("aviation"), "R": said("heavy artillery"),
          "B": said("light artillery"), "N": said("armour"), "P": said("infantry")}
_CHESS = CHESS_NAMES
assert _SIDES == SIDE_NAMES and _UNITS == UNIT_NAMES


def _piece(letter: str) -> str:
    """``heavy artillery (Rook)``: a piece's name in the rules' words and in chess's."""
    return said("{unit} ({chess})", unit=_UNITS[letter.upper()], chess=_CHESS[letter.upper()])

#: a raw move: origin, final square, bit mask of killed squares, promotion letter (upper
#: case), or ``"castle"`` in the last place for castling (origin and final are the King's)
Raw = tuple[int, int, int, str]
CASTLE = "castle"

RULES = """\
**Combined Arms Brigade Chess** — standard board and set-up; shots and armour kill only \
enemy pieces.
Win: kill the enemy King by moving onto it (checkmate does not end the game; with no \
legal move you must make a move that ignores check). Draw: no move at all, threefold \
repetition, agreement.
• **P infantry**: 1 square any direction to an empty square, or onto an enemy; 2 straight \
forward from its own 2nd rank (every time). Promotes on the last rank (`Pg7-g8=Q`).
• **N armour**: exactly 3 orthogonal steps, turning and doubling back as you like; kills \
every enemy it passes or stops on (`Nb1-b2xb3-c3`), a King only by stopping on it.
• **B light artillery**: slides like a bishop to an empty square; shoots an enemy within 2 \
in any direction (`Bc1*e3`); may move then shoot or shoot then move (`Bc1-f4*h6`).
• **R heavy artillery**: slides like a rook to an empty square, or shoots an enemy exactly \
3 or 4 away in any direction (`Ra1*a4`) — never both in one turn.
• **Q aviation**: may fly to any empty square (`Qd1>e5`), then may act once as infantry, \
armour or light artillery (`Qd1>e5xe6`, `Qd1>e5*d6`); never passes or stops within range \
of an enemy Bishop (2) or Rook (3–4).
• **K headquarters**: 1 square; only a piece moving onto it kills it. Castling (`O-O`, \
`O-O-O`) whenever King and Rook stand on their original squares."""


# --- board tables --------------------------------------------------------------------------
EIGHT = TOPO.directions  # N NE E SE S SW W NW
ORTHOGONAL = ("N", "E", "S", "W")
DIAGONAL = ("NE", "SE", "SW", "NW")


def _ray(s: int, direction: str) -> tuple[int, ...]:
    """The squares from ``s`` (exclusive) to the edge of the board in ``direction``."""
    return tuple(TOPO.ray(s, direction))


def _mask(squares: Iterable[int]) -> int:
    m = 0
    for s in squares:
        m |= BIT[s]
    return m


def _bits(m: int) -> Iterator[int]:
    """The squares of a mask, lowest first."""
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


NEIGHBOURS = tuple(tuple(t for d in EIGHT for t in _ray(s, d)[:1]) for s in range(64))
NEIGH8 = tuple(_mask(n) for n in NEIGHBOURS)
ORTH_LIST = tuple(tuple(t for d in ORTHOGONAL for t in _ray(s, d)[:1]) for s in range(64))
ORTH = tuple(_mask(n) for n in ORTH_LIST)
DIAG_RAYS = tuple(tuple(r for d in DIAGONAL if (r := _ray(s, d))) for s in range(64))
ORTH_RAYS = tuple(tuple(r for d in ORTHOGONAL if (r := _ray(s, d))) for s in range(64))
#: squares within 2 along the 8 lines (a Bishop's shots and range)
BISHOP_RANGE_LIST = tuple(tuple(t for d in EIGHT for t in _ray(s, d)[:2]) for s in range(64))
BISHOP_RANGE = tuple(_mask(x) for x in BISHOP_RANGE_LIST)
#: squares exactly 3 or 4 away along the 8 lines (a Rook's shots and range)
ROOK_RANGE_LIST = tuple(tuple(t for d in EIGHT for t in _ray(s, d)[2:4]) for s in range(64))
ROOK_RANGE = tuple(_mask(x) for x in ROOK_RANGE_LIST)


def _manhattan(s: int, t: int) -> int:
    """Orthogonal steps between two squares."""
    (f, r), (g, q) = TOPO.coords[s], TOPO.coords[t]
    return abs(f - g) + abs(r - q)


MAN2 = tuple(_mask([t for t in range(64) if 0 < _manhattan(s, t) <= 2]) for s in range(64))
MAN3 = tuple(_mask([t for t in range(64) if _manhattan(s, t) <= 3]) for s in range(64))


def _armour_paths(s: int) -> tuple[tuple[int, int, int], ...]:
    """Every three-step orthogonal path from ``s`` (squares after the start, in order)."""
    out = []
    for directions in product(ORTHOGONAL, repeat=3):
        path, at = [], s
        for d in directions:
            at = TOPO.neighbour(at, d) if at != NO_NODE else NO_NODE
            path.append(at)
        if NO_NODE not in path:
            out.append((path[0], path[1], path[2]))
    return tuple(out)


PATHS = tuple(_armour_paths(s) for s in range(64))


class ArmourClass(NamedTuple):
    """Armour paths from one square with the same final square and squares passed."""

    final: int
    passed: int  # mask of the squares passed over (not the start, not the final square)
    final_bit: int
    touched: int  # passed | final_bit
    paths: tuple[tuple[int, int, int], ...]


def _armour_classes(s: int) -> tuple[ArmourClass, ...]:
    groups: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for path in PATHS[s]:
        passed = _mask({path[0], path[1]} - {s, path[2]})
        groups.setdefault((path[2], passed), []).append(path)
    return tuple(ArmourClass(final, passed, BIT[final], passed | BIT[final], tuple(paths))
                 for (final, passed), paths in groups.items())


ARMOUR = tuple(_armour_classes(s) for s in range(64))
#: ARMOUR_THROUGH[s][x]: the classes from s that pass over or stop on x (a path that kills
#: passes an enemy, so the Queen's killing paths are found from the enemies near her)
ARMOUR_THROUGH = tuple(
    tuple(tuple(c for c in ARMOUR[s] if c.touched & BIT[x]) for x in range(64))
    for s in range(64))
#: paths ending on a square: (start, first, second, first | second bits)
REVERSE_PATHS = tuple(
    tuple((f, a, b, BIT[a] | BIT[b]) for f in range(64) for a, b, c in PATHS[f] if c == k)
    for k in range(64))
#: for a Knight on n and a target k: the masks of the squares its paths pass over
KNIGHT_PASSES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({_mask({a, b} - {n}) for a, b, c in PATHS[n] if c == k}))
    for n in range(64) for k in range(64))
KNIGHT_REACH = tuple(_mask([n for n in range(64) if KNIGHT_PASSES[64 * n + k]])
                     for k in range(64))

# castling: (side, name) -> King from, King to, Rook from, Rook to, squares to be empty,
# square the King crosses
CASTLINGS = {
    (0, "O-O"): (4, 6, 7, 5, BIT[5] | BIT[6], 5),
    (0, "O-O-O"): (4, 2, 0, 3, BIT[1] | BIT[2] | BIT[3], 3),
    (1, "O-O"): (60, 62, 63, 61, BIT[61] | BIT[62], 61),
    (1, "O-O-O"): (60, 58, 56, 59, BIT[57] | BIT[58] | BIT[59], 59),
}
CASTLE_BY_TARGET = {(side, v[1]): name for (side, name), v in CASTLINGS.items()}

LETTERS = ("KQRBNP", "kqrbnp")
ARTILLERY = frozenset("BRbr")


def _spread(m: int) -> int:
    """Every square orthogonally next to a square of ``m``."""
    return (((m << 8) | (m >> 8) | ((m & NOT_FILE_H) << 1) | ((m & NOT_FILE_A) >> 1))
            & FULL)


def _cover(bishops: int, rooks: int) -> int:
    """The squares within range of these Bishops and Rooks."""
    cov = 0
    while bishops:
        low = bishops & -bishops
        cov |= BISHOP_RANGE[low.bit_length() - 1]
        bishops ^= low
    while rooks:
        low = rooks & -rooks
        cov |= ROOK_RANGE[low.bit_length() - 1]
        rooks ^= low
    return cov


def _masks(cells: Sequence[str | None]) -> dict[str, int]:
    """One bitboard per piece letter."""
    m = dict.fromkeys("KQRBNPkqrbnp", 0)
    for i, p in enumerate(cells):
        if p is not None:
            m[p] |= BIT[i]
    return m


# --- check -----------------------------------------------------------------------------------
def _attacked(k: int, e_occ: int, e_pk: int, e_n: int, e_q: int,
              u_occ: int, u_b: int, u_r: int) -> bool:
    """Whether the enemy (its pieces ``e_*``; ``e_pk`` its Pawns and King) has a
    legal-looking move ending on ``k``, our pieces being ``u_occ`` with artillery
    ``u_b``/``u_r``. Only Pawns, Kings, Knights and Queens ever end a move on a piece."""
    if NEIGH8[k] & e_pk:
        return True
    knights = KNIGHT_REACH[k] & e_n
    while knights:
        low = knights & -knights
        knights ^= low
        for passes in KNIGHT_PASSES[64 * (low.bit_length() - 1) + k]:
            if not passes & e_occ:
                return True
    return bool(e_q) and _queen_reaches(k, e_occ, e_q, u_occ, u_b, u_r)


def _queen_reaches(k: int, e_occ: int, e_q: int, u_occ: int, u_b: int, u_r: int) -> bool:
    """Whether an enemy Queen can end her turn on ``k`` (rules §2, Queen)."""
    near = (u_b | u_r) & MAN2[k]  # artillery an armour path to k could kill on its way
    if (BISHOP_RANGE[k] & u_b & ~near) or (ROOK_RANGE[k] & u_r & ~near):
        return False  # k stays within range whatever the Queen kills on the way
    kb = BIT[k]
    cov = _cover(u_b, u_r)
    empty = FULL ^ (e_occ | u_occ)
    free = empty & ~cov
    queens = e_q
    while queens:
        qb = queens & -queens
        queens ^= qb
        land = free | qb  # where she can act from: a flight square or her own square
        if not cov & kb:
            if NEIGH8[k] & land:
                return True
            passable = ((FULL ^ e_occ) & ~cov) | qb
            second = ORTH[k] & passable
            if second:
                first = _spread(second) & passable
                if first and _spread(first) & land:
                    return True
        if near and _queen_kills_through(k, qb, land, e_occ & ~qb, u_b, u_r, near):
            return True
    return False


def _queen_kills_through(k: int, qb: int, land: int, blockers: int, u_b: int, u_r: int,
                         near: int) -> bool:
    """An armour path to ``k`` that kills covering artillery on its way, judged square
    by square with the pieces as they stand at that moment."""
    for f, a, b, ab in REVERSE_PATHS[k]:
        if not ab & near or not BIT[f] & land or ab & blockers:
            continue
        alive_b, alive_r = u_b, u_r
        for v in (a, b, k):
            vb = BIT[v]
            alive_b &= ~vb
            alive_r &= ~vb
            if vb != qb and ((BISHOP_RANGE[v] & alive_b) or (ROOK_RANGE[v] & alive_r)):
                break
        else:
            return True
    return False


# --- move generation -------------------------------------------------------------------------
def _armour_ok(paths: tuple[tuple[int, int, int], ...], start: int, e_b: int, e_r: int) -> bool:
    """Whether one of these Queen armour paths keeps out of enemy range at every square,
    killed artillery no longer counting from the moment it is killed."""
    for path in paths:
        alive_b, alive_r = e_b, e_r
        for v in path:
            vb = BIT[v]
            alive_b &= ~vb
            alive_r &= ~vb
            if v != start and ((BISHOP_RANGE[v] & alive_b) or (ROOK_RANGE[v] & alive_r)):
                break
        else:
            return True
    return False


def _pseudo(cells: Sequence[str | None], side: int, m: dict[str, int]) -> list[Raw]:
    """Every move of ``side`` that is legal if check is ignored, castling excepted."""
    own, foe = LETTERS[side], LETTERS[1 - side]
    u_occ = m[own[0]] | m[own[1]] | m[own[2]] | m[own[3]] | m[own[4]] | m[own[5]]
    e_k = m[foe[0]]
    e_occ = e_k | m[foe[1]] | m[foe[2]] | m[foe[3]] | m[foe[4]] | m[foe[5]]
    e_b, e_r = m[foe[3]], m[foe[2]]
    enemies = e_occ & ~e_k  # what shots and passing armour may kill
    empty = FULL ^ (u_occ | e_occ)
    out: list[Raw] = []
    add = out.append

    _pawn_moves(m[own[5]], side, empty, e_occ, add)

    for s in _bits(m[own[4]]):  # Knights
        effects = set()
        put = effects.add
        for final, passed, final_bit, touched, _paths in ARMOUR[s]:
            if not touched & u_occ:
                put((final, (passed & enemies) | (final_bit & e_occ)))
        for final, kills in effects:
            add((s, final, kills, ""))

    for s in _bits(m[own[3]]):  # Bishops
        _bishop_moves(s, empty, enemies, add)

    for s in _bits(m[own[2]]):  # Rooks
        for ray in ORTH_RAYS[s]:
            for t in ray:
                if not BIT[t] & empty:
                    break
                add((s, t, 0, ""))
        for x in _bits(ROOK_RANGE[s] & enemies):
            add((s, s, BIT[x], ""))

    for s in _bits(m[own[1]]):  # Queens
        _queen_moves(s, u_occ, e_occ, e_k, e_b, e_r, empty, add)

    for s in _bits(m[own[0]]):  # King
        for t in NEIGHBOURS[s]:
            tb = BIT[t]
            if tb & empty:
                add((s, t, 0, ""))
            elif tb & e_occ:
                add((s, t, tb, ""))
    return out


def _pawn_moves(pawns: int, side: int, empty: int, e_occ: int, add: Callable) -> None:
    last = RANK[7] if side == 0 else RANK[0]
    second = RANK[1] if side == 0 else RANK[6]
    forward = 8 if side == 0 else -8
    for s in _bits(pawns):
        for t in NEIGHBOURS[s]:
            tb = BIT[t]
            if tb & empty:
                kills = 0
            elif tb & e_occ:
                kills = tb
            else:
                continue
            if tb & last:
                for p in PROMOTIONS:
                    add((s, t, kills, p))
            else:
                add((s, t, kills, ""))
        if BIT[s] & second and BIT[s + forward] & empty and BIT[s + 2 * forward] & empty:
            add((s, s + 2 * forward, 0, ""))


def _bishop_moves(s: int, empty: int, enemies: int, add: Callable) -> None:
    """Slides, shots, and both orders of the two: each effect once."""
    first = BISHOP_RANGE[s] & enemies  # shoot from where it stands (then slide or stay)
    m = first
    while m:
        low = m & -m
        m ^= low
        add((s, s, low, ""))
    for ray in DIAG_RAYS[s]:
        for j, t in enumerate(ray):
            tb = BIT[t]
            if tb & empty:
                add((s, t, 0, ""))
                m = first | (BISHOP_RANGE[t] & enemies)  # shoot before or after sliding
                while m:
                    low = m & -m
                    m ^= low
                    add((s, t, low, ""))
                continue
            if tb & first:  # shoot the blocker, then slide on through its square
                for u in ray[j:]:
                    if u != t and not BIT[u] & empty:
                        break
                    add((s, u, tb, ""))
            break


def _queen_moves(s: int, u_occ: int, e_occ: int, e_k: int, e_b: int, e_r: int, empty: int,
                 add: Callable) -> None:
    """The Queen's effects: every flight square, then every kill of a flight plus action
    (or an action alone). A move without kills ends on a flight square, so those are
    exactly the flight squares."""
    qb = BIT[s]
    cov = _cover(e_b, e_r)
    flights = empty & ~cov
    m = flights
    while m:
        low = m & -m
        m ^= low
        add((s, low.bit_length() - 1, 0, ""))
    launch = flights | qb
    blockers = u_occ & ~qb
    enemies = e_occ & ~e_k
    artillery = e_b | e_r
    kills_seen: set[tuple[int, int]] = set()
    put = kills_seen.add
    targets = enemies
    while targets:  # bishop shots, from every square within 2 of the target
        xb = targets & -targets
        targets ^= xb
        fs = BISHOP_RANGE[xb.bit_length() - 1] & launch
        while fs:
            fb = fs & -fs
            fs ^= fb
            put((fb.bit_length() - 1, xb))
    targets = e_occ
    while targets:  # pawn captures, judged after the kill
        tb = targets & -targets
        targets ^= tb
        t = tb.bit_length() - 1
        if NEIGH8[t] & launch and not ((BISHOP_RANGE[t] & e_b & ~tb)
                                       or (ROOK_RANGE[t] & e_r & ~tb)):
            put((t, tb))
    for f in _bits(launch):  # armour actions that kill: the paths through an enemy
        near = MAN3[f] & e_occ
        through = ARMOUR_THROUGH[f]
        while near:
            xb = near & -near
            near ^= xb
            for final, passed, final_bit, touched, paths in through[xb.bit_length() - 1]:
                if touched & blockers:
                    continue
                kills = (passed & enemies) | (final_bit & e_occ)
                if not kills:
                    continue  # it only passed over the King
                if touched & ~qb & cov and (not kills & artillery
                                             or not _armour_ok(paths, s, e_b, e_r)):
                    continue
                put((final, kills))
    for final, kills in kills_seen:
        add((s, final, kills, ""))


class _Sides(NamedTuple):
    """The bitboards the legality test needs, from the mover's point of view."""

    k: int
    u_occ: int
    u_b: int
    u_r: int
    e_occ: int
    e_k: int
    e_pk: int
    e_n: int
    e_q: int


def _sides(m: dict[str, int], side: int) -> _Sides | None:
    """The bitboards of both sides for ``side`` to move, or None when a King is gone."""
    own, foe = LETTERS[side], LETTERS[1 - side]
    if not m[own[0]] or not m[foe[0]]:
        return None  # a King has been killed: the game is over
    u_occ = m[own[0]] | m[own[1]] | m[own[2]] | m[own[3]] | m[own[4]] | m[own[5]]
    e_occ = m[foe[0]] | m[foe[1]] | m[foe[2]] | m[foe[3]] | m[foe[4]] | m[foe[5]]
    return _Sides(m[own[0]].bit_length() - 1, u_occ, m[own[3]], m[own[2]], e_occ, m[foe[0]],
                  m[foe[5]] | m[foe[0]], m[foe[4]], m[foe[1]])


def _in_check(s: _Sides) -> bool:
    """Whether the mover's King is attacked now."""
    return _attacked(s.k, s.e_occ, s.e_pk, s.e_n, s.e_q, s.u_occ, s.u_b, s.u_r)


def _castlings(cells: Sequence[str | None], side: int, s: _Sides, checked: bool,
               relaxed: bool) -> list[Raw]:
    """Castling moves: both pieces on their original squares, the squares between empty;
    unless ``relaxed``, also not out of check (``checked``) nor across an attacked square
    (the landing square is judged with the other moves)."""
    out = []
    rook = LETTERS[side][2]
    for (who, _name), (k0, k1, r0, _r1, between, cross) in CASTLINGS.items():
        if who != side or s.k != k0 or cells[r0] != rook or (s.u_occ | s.e_occ) & between:
            continue
        if not relaxed:
            if checked:
                continue
            crossed = (s.u_occ ^ BIT[k0]) | BIT[cross]
            if _attacked(cross, s.e_occ, s.e_pk, s.e_n, s.e_q, crossed, s.u_b, s.u_r):
                continue
        out.append((k0, k1, 0, CASTLE))
    return out


def _after_is_safe(cells: Sequence[str | None], s: _Sides, raw: Raw) -> bool:
    """Whether the mover's King is out of check after ``raw``."""
    o, t, kills, promo = raw
    ob, tb = BIT[o], BIT[t]
    u_occ = (s.u_occ & ~ob) | tb
    u_b, u_r, k = s.u_b, s.u_r, s.k
    if promo == CASTLE:
        side = 0 if cells[o] == "K" else 1
        _k0, k1, r0, r1, _between, _cross = CASTLINGS[(side, CASTLE_BY_TARGET[(side, t)])]
        u_occ ^= BIT[r0] | BIT[r1]
        u_r ^= BIT[r0] | BIT[r1]
        k = k1
    elif o == k:
        k = t
    else:
        letter = cells[o].upper()  # type: ignore[union-attr]
        if letter == "B":
            u_b = (u_b & ~ob) | tb
        elif letter == "R":
            u_r = (u_r & ~ob) | tb
        elif promo == "B":
            u_b |= tb
        elif promo == "R":
            u_r |= tb
    keep = ~kills
    return not _attacked(k, s.e_occ & keep, s.e_pk & keep, s.e_n & keep, s.e_q & keep,
                         u_occ, u_b, u_r)


def _legal(cells: Sequence[str | None], side: int) -> list[Raw]:
    """Every legal move of ``side`` as raw tuples (none when a King is gone)."""
    m = _masks(cells)
    s = _sides(m, side)
    if s is None:
        return []
    pseudo = _pseudo(cells, side, m)
    k, e_k = s.k, s.e_k
    checked = _in_check(s)
    # Whether our King is attacked after a move depends only on what the move changes
    # near the King (every attack starts and passes within three orthogonal steps of
    # it), on our artillery (it keeps a Queen away) and on the enemy Queens; moves alike
    # in that part share one answer. While artillery out of reach of any Queen path keeps
    # the King in range, no Queen can reach it and only kills near it matter.
    region = MAN3[k]
    relevant_kills = region | s.e_q
    movable = region | s.u_b | s.u_r
    guards = ((BISHOP_RANGE[k] & s.u_b) | (ROOK_RANGE[k] & s.u_r)) & ~MAN2[k]
    no_queen = not s.e_q
    memo: dict[tuple[int, int, str, int], bool] = {}
    legal = []
    add = legal.append
    for raw in pseudo:
        o, t, kills, promo = raw
        if kills & e_k:
            add(raw)  # killing the enemy King is always legal
            continue
        if o == k:
            if _after_is_safe(cells, s, raw):
                add(raw)
            continue
        ob = BIT[o]
        if no_queen or guards & ~ob:
            key = (-1, -1, "", kills & region)
        else:
            art = ob & (s.u_b | s.u_r)
            key = (o if ob & movable else -1,
                   t if art or BIT[t] & region or promo == "B" or promo == "R" else -1,
                   promo, kills & relevant_kills)
        if key[0] < 0 and key[1] < 0 and not key[3]:
            if not checked:
                add(raw)
            continue
        safe = memo.get(key)
        if safe is None:
            safe = memo[key] = _after_is_safe(cells, s, raw)
        if safe:
            add(raw)
    for raw in _castlings(cells, side, s, checked, relaxed=False):
        if _after_is_safe(cells, s, raw):
            add(raw)
    if legal:
        return legal
    # rules §4: with no legal move, any move that is legal if check is ignored
    return pseudo + _castlings(cells, side, s, checked, relaxed=True)


def _make(cells: Sequence[str | None], raw: Raw) -> list[str | None]:
    """The cells after a raw move."""
    o, t, kills, promo = raw
    new = list(cells)
    piece = new[o]
    assert piece is not None
    if promo == CASTLE:
        side = 0 if piece == "K" else 1
        _k0, _k1, r0, r1, _between, _cross = CASTLINGS[(side, CASTLE_BY_TARGET[(side, t)])]
        new[r1], new[r0] = new[r0], None
    for x in _bits(kills):
        new[x] = None
    new[o] = None
    if promo and promo != CASTLE:
        piece = promo if piece.isupper() else promo.lower()
    new[t] = piece
    return new


def _perft(cells: tuple[str | None, ...], side: int, depth: int) -> int:
    """Leaf count of the legal-move tree, the last ply counted without making moves."""
    moves = _legal(cells, side)
    if depth == 1:
        return len(moves)
    return sum(_perft(tuple(_make(cells, m)), 1 - side, depth - 1) for m in moves)


@lru_cache(maxsize=512)
def _legal_cached(cells: tuple[str | None, ...], side: int) -> tuple[Raw, ...]:
    """`_legal`, kept for the positions that are read, written and played in turn."""
    return tuple(_legal(cells, side))


# --- the ways of writing a move (rules §5) ---------------------------------------------------
class Play(NamedTuple):
    """One way of playing and writing a move: its tokens after the start square, the
    tokens a lenient text may leave out (armour intermediate squares), and its effect."""

    tokens: tuple[tuple[str, int], ...]
    optional: tuple[int, ...]
    final: int
    kills: int
    promo: str


def _owner(letter: str) -> int:
    """0 for a White letter, 1 for a Black one."""
    return 0 if letter.isupper() else 1


def _plays(cells: Sequence[str | None], o: int, judge: bool = True) -> list[Play]:
    """Every way the piece on ``o`` can play, simulated step by step (castling apart).
    With ``judge`` false the Queen's range rule is not applied (to explain refusals)."""
    piece = cells[o]
    if piece is None:
        return []
    side = _owner(piece)
    kind = piece.upper()
    if kind == "P":
        return _pawn_plays(cells, o, side)
    if kind == "N":
        return [p for path in PATHS[o] if (p := _armour_play(cells, o, side, o, path, (),
                                                                 None))]
    if kind == "B":
        return _bishop_plays(cells, o, side)
    if kind == "R":
        slides = [Play((("-", t),), (), t, 0, "") for t in _slides(cells, o, ORTH_RAYS[o])]
        shots = [Play((("*", x),), (), o, BIT[x], "") for x in ROOK_RANGE_LIST[o]
                 if _shootable(cells, x, side)]
        return slides + shots
    if kind == "Q":
        return _queen_plays(cells, o, side, judge)
    return [Play(((("x" if cells[t] else "-"), t),), (), t, BIT[t] if cells[t] else 0, "")
            for t in NEIGHBOURS[o] if cells[t] is None or _owner(cells[t]) != side]


def _shootable(cells: Sequence[str | None], x: int, side: int) -> bool:
    """Whether ``side`` may shoot the piece on ``x``: an enemy, not the King."""
    p = cells[x]
    return p is not None and _owner(p) != side and p.upper() != "K"


def _slides(cells: Sequence[str | None], o: int, rays: Sequence[tuple[int, ...]]) -> list[int]:
    """The empty squares reached along ``rays`` before the first piece."""
    out = []
    for ray in rays:
        for t in ray:
            if cells[t] is not None:
                break
            out.append(t)
    return out


def _pawn_plays(cells: Sequence[str | None], o: int, side: int) -> list[Play]:
    """A Pawn's steps, kills, double step and promotions."""
    out = []
    last = 7 if side == 0 else 0
    for t in NEIGHBOURS[o]:
        p = cells[t]
        if p is not None and _owner(p) == side:
            continue
        token = (("x" if p else "-"), t)
        kills = BIT[t] if p else 0
        for promo in (PROMOTIONS if t // 8 == last else ("",)):
            out.append(Play((token,), (), t, kills, promo))
    forward = 8 if side == 0 else -8
    if o // 8 == (1 if side == 0 else 6) and cells[o + forward] is None \
            and cells[o + 2 * forward] is None:
        out.append(Play((("-", o + 2 * forward),), (), o + 2 * forward, 0, ""))
    return out


def _bishop_plays(cells: Sequence[str | None], o: int, side: int) -> list[Play]:
    """A Bishop's slides and shots, and both orders of a slide with a shot."""
    slides = _slides(cells, o, DIAG_RAYS[o])
    out = [Play((("-", t),), (), t, 0, "") for t in slides]
    for t in slides:  # move, then shoot from the new square
        board = list(cells)
        board[t], board[o] = board[o], None
        out += [Play((("-", t), ("*", x)), (), t, BIT[x], "") for x in BISHOP_RANGE_LIST[t]
                if _shootable(board, x, side)]
    for x in BISHOP_RANGE_LIST[o]:  # shoot, then stay or move on the emptied board
        if not _shootable(cells, x, side):
            continue
        out.append(Play((("*", x),), (), o, BIT[x], ""))
        board = list(cells)
        board[x] = None
        out += [Play((("*", x), ("-", t)), (), t, BIT[x], "")
                for t in _slides(board, o, DIAG_RAYS[o])]
    return out


def _armour_play(cells: Sequence[str | None], o: int, side: int, start: int,
                 path: tuple[int, int, int], prefix: tuple[tuple[str, int], ...],
                 artillery: list[int] | None) -> Play | None:
    """The armour path ``path`` from ``start`` for the piece that began its turn on
    ``o``; ``artillery`` lists the enemy artillery when the mover is a Queen that must
    keep out of its range."""
    kills = 0
    tokens = list(prefix)
    for j, v in enumerate(path):
        p = None if v == o else cells[v]
        mark = "-"
        if p is not None:
            if _owner(p) == side:
                return None
            if not BIT[v] & kills and (p.upper() != "K" or j == 2):
                kills |= BIT[v]
                mark = "x"
        if artillery is not None and v != o and \
                _within_range(v, artillery, kills, cells) is not None:
            return None
        tokens.append((mark, v))
    n = len(prefix)
    return Play(tuple(tokens), (n, n + 1), path[2], kills, "")


def _within_range(v: int, artillery: list[int], killed: int,
                  cells: Sequence[str | None]) -> int | None:
    """The first enemy artillery square (not yet killed) whose range holds ``v``."""
    for a in artillery:
        if BIT[a] & killed:
            continue
        reach = BISHOP_RANGE[a] if cells[a] in ("B", "b") else ROOK_RANGE[a]
        if reach & BIT[v]:
            return a
    return None


def _queen_plays(cells: Sequence[str | None], o: int, side: int, judge: bool) -> list[Play]:
    """A Queen's optional flight, then her optional action as infantry, armour or light
    artillery; with ``judge``, no square entered within enemy range (her own excepted)."""
    foe = LETTERS[1 - side]
    artillery = [i for i, p in enumerate(cells) if p is not None and p in foe[2:4]]
    arts = artillery if judge else None
    out = []
    launches = [(o, ())] + [(f, ((">", f),)) for f in range(64)
                            if cells[f] is None and not (
                                judge and _within_range(f, artillery, 0, cells) is not None)]
    for f, prefix in launches:
        if prefix:
            out.append(Play(prefix, (), f, 0, ""))
        for t in NEIGHBOURS[f]:  # as infantry
            p = None if t == o else cells[t]
            if p is not None and _owner(p) == side:
                continue
            kills = BIT[t] if p else 0
            if t != o and judge and _within_range(t, artillery, kills, cells) is not None:
                continue
            out.append(Play(prefix + ((("x" if p else "-"), t),), (), t, kills, ""))
        for path in PATHS[f]:  # as armour
            play = _armour_play(cells, o, side, f, path, prefix, arts)
            if play:
                out.append(play)
        for ray in DIAG_RAYS[f]:  # as light artillery: a slide ...
            for t in ray:
                if t != o and (cells[t] is not None or (
                        judge and _within_range(t, artillery, 0, cells) is not None)):
                    break
                out.append(Play(prefix + (("-", t),), (), t, 0, ""))
        out += [Play(prefix + (("*", x),), (), f, BIT[x], "")  # ... or a shot
                for x in BISHOP_RANGE_LIST[f] if _shootable(cells, x, side)]
    return out


def _play_text(letter: str, o: int, play: Play) -> str:
    """The full text of a play (rules §5)."""
    body = "".join(sep + NAMES[sq] for sep, sq in play.tokens)
    return f"{letter}{NAMES[o]}{body}" + (f"={play.promo}" if play.promo else "")


def _raw_of(o: int, play: Play) -> Raw:
    """The effect of a play from ``o``."""
    return (o, play.final, play.kills, play.promo)


@lru_cache(maxsize=256)
def _origin_plays(cells: tuple[str | None, ...], o: int, judge: bool = True) -> tuple[Play, ...]:
    """`_plays`, kept: formatting and parsing ask for the same pieces in turn."""
    return tuple(_plays(cells, o, judge))


@lru_cache(maxsize=256)
def _exact_index(cells: tuple[str | None, ...], o: int
                 ) -> dict[tuple[tuple[tuple[str, int], ...], str], set[Raw]]:
    """The effects of the plays from ``o`` by their exact tokens and promotion."""
    index: dict[tuple[tuple[tuple[str, int], ...], str], set[Raw]] = {}
    for play in _origin_plays(cells, o):
        index.setdefault((play.tokens, play.promo), set()).add(_raw_of(o, play))
    return index


@lru_cache(maxsize=128)
def _canonical(cells: tuple[str | None, ...], side: int) -> dict[Raw, str]:
    """The canonical text of every legal move: its shortest text, then the first in
    ASCII order (rules §2a)."""
    legal = _legal_cached(cells, side)
    texts: dict[Raw, str] = {}
    for raw in legal:
        if raw[3] == CASTLE:
            texts[raw] = CASTLE_BY_TARGET[(side, raw[1])]
    wanted = set(legal)
    for o in sorted({raw[0] for raw in legal if raw[3] != CASTLE}):
        letter = cells[o].upper()  # type: ignore[union-attr]
        for play in _origin_plays(cells, o):
            raw = _raw_of(o, play)
            if raw not in wanted:
                continue
            text = _play_text(letter, o, play)
            best = texts.get(raw)
            if best is None or (len(text), text) < (len(best), best):
                texts[raw] = text
    return texts


# --- reading a move ----------------------------------------------------------------------------
class Pattern(NamedTuple):
    """What a move text says."""

    letter: str | None
    origin: int
    tokens: tuple[tuple[str, int], ...]
    promo: str | None
    castle: str | None = None


_CASTLE_TEXT = re.compile(r"^[oO0](?:-[oO0]){1,2}$")
_SQUARE = re.compile(r"([a-z])(\d+)")


def parse_pattern(text: str) -> Pattern:
    """Read any accepted form of a move text (rules §5) into a pattern."""
    s = re.sub(r"\s+", "", text).rstrip("+#!?")
    if not s:
        raise MoveSyntaxError(text, said("there is no move in it"))
    if _CASTLE_TEXT.match(s):
        return Pattern(None, -1, (), None, "O-O" if s.count("-") == 1 else "O-O-O")
    letter = None
    if s[0].upper() in PIECE_NAMES and _SQUARE.match(s.lower(), 1):
        letter, s = s[0].upper(), s[1:]
    low = s.lower()
    pos = 0

    def square() -> int:
        nonlocal pos
        found = _SQUARE.match(low, pos)
        if found is None:
            raise MoveSyntaxError(text, said("expected a square (a1 to h8) at {text}",
                                             text=repr(s[pos:])))
        name = found.group(0)
        if name not in INDEX:
            raise MoveSyntaxError(text, said("{square} is not a square of the board (a1 to h8)",
                                             square=name))
        pos = found.end()
        return INDEX[name]

    if not _SQUARE.match(low):
        raise MoveSyntaxError(text, said("a move starts with the square of the piece that "
                                         "moves, as in e2-e4 or Nb1-b2-b3-c3, or is O-O or "
                                         "O-O-O"))
    origin = square()
    tokens: list[tuple[str, int]] = []
    promo = None
    while pos < len(low):
        ch = low[pos]
        if ch == "=" or (ch in "nbrqk" and pos == len(low) - 1 and tokens):
            piece = low[pos + 1:] if ch == "=" else ch
            if piece.upper() not in PROMOTIONS or len(piece) != 1:
                raise MoveSyntaxError(text, said("infantry (a Pawn) promotes to armour, light "
                                                 "or heavy artillery or aviation: end the "
                                                 "move with =N, =B, =R or =Q"))
            promo = piece.upper()
            break
        if ch in "-x*>":
            pos += 1
            tokens.append((ch, square()))
        elif _SQUARE.match(low, pos):
            tokens.append(("", square()))
        else:
            raise MoveSyntaxError(text, said("unexpected {character}: squares are joined by -, x "
                                             "(kill by moving), * (shot) or > (flight)",
                                             character=repr(s[pos])))
    if not tokens:
        raise MoveSyntaxError(text, said("it names only a start square; add where the piece "
                                         "goes or what it shoots, as in e2-e4 or Bc1*e3"))
    return Pattern(letter, origin, tuple(tokens), promo)


def _fits(pat: Pattern, play: Play, level: int, queen: bool) -> bool:
    """Whether the text describes this play: 1 exactly, 2 leaving out armour squares or
    the promotion piece, 3 also reading -, x and no separator alike (and - for >)."""
    if level == 1:
        return pat.tokens == play.tokens and (pat.promo or "") == play.promo
    if pat.promo is not None and pat.promo != play.promo:
        return False
    written, full = pat.tokens, play.tokens
    if written[-1][1] != full[-1][1] or len(written) > len(full):
        return False
    drop = len(full) - len(written)
    if drop > len(play.optional):
        return False
    for left_out in combinations(play.optional, drop):
        kept = [tok for i, tok in enumerate(full) if i not in left_out]
        if all(_sep_fits(w, k, level, queen and i == 0)
               for i, (w, k) in enumerate(zip(written, kept, strict=True))):
            return True
    return False


def _sep_fits(written: tuple[str, int], full: tuple[str, int], level: int,
              first_of_queen: bool) -> bool:
    """Whether a written token names a play's token (same square, fitting separator)."""
    if written[1] != full[1]:
        return False
    if written[0] == full[0]:
        return True
    if level < 3 or written[0] not in ("", "-"):
        return False  # a written x or * always means that kill
    return full[0] in ("-", "x") or (first_of_queen and full[0] == ">")


@register
class CombinedArmsBrigadeChess(Variant):
    name = "combined-arms"
    order = 30
    aliases = ("cab",)
    display_name = said("Combined Arms Brigade Chess")
    topology = TOPO
    start_fen = START
    draw_by_agreement = True
    piece_names = CHESS_NAMES  # the headings of the rules document (docs/rules)
    piece_roles = PIECE_ROLES
    rules_text = RULES

    # --- positions -------------------------------------------------------------------
    def parse_position(self, text: str) -> Position:
        fields = text.split()
        if len(fields) not in (2, 3, 6):
            raise PositionError(said("{position}: a position has six fields (placement, side "
                                     "to move, castling, en passant, half-move clock, move "
                                     "number), or only its first two or three",
                                     position=repr(text)))
        cells = _read_placement(text, fields[0])
        if fields[1] not in ("w", "b"):
            raise PositionError(said("{position}: the side to move must be w or b",
                                     position=repr(text)))
        if len(fields) >= 3 and not re.fullmatch(r"-|K?Q?k?q?", fields[2]):
            raise PositionError(said("{position}: the castling field is - or letters from KQkq",
                                     position=repr(text)))
        halfmove, fullmove = 0, 1
        if len(fields) == 6:
            if not re.fullmatch(r"-|[a-h][1-8]", fields[3]):
                raise PositionError(said("{position}: the en passant field is - (or a square, "
                                         "which is ignored: there is no en passant)",
                                         position=repr(text)))
            if not fields[4].isdigit() or not fields[5].isdigit() or int(fields[5]) < 1:
                raise PositionError(said("{position}: the half-move clock is a whole number "
                                         "from 0 and the move number a whole number from 1",
                                         position=repr(text)))
            halfmove, fullmove = int(fields[4]), int(fields[5])
        return Position(self.name, cells, 0 if fields[1] == "w" else 1, fullmove, halfmove)

    def format_position(self, position: Position) -> str:
        cells = position.cells
        rows = []
        for rank in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = cells[8 * rank + f]
                if p is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + p
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        castling = "".join(flag for flag, k, r, king, rook in (
            ("K", 4, 7, "K", "R"), ("Q", 4, 0, "K", "R"),
            ("k", 60, 63, "k", "r"), ("q", 60, 56, "k", "r"))
            if cells[k] == king and cells[r] == rook) or "-"
        return (f"{'/'.join(rows)} {'wb'[position.side]} {castling} - "
                f"{position.halfmove} {position.fullmove}")

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        p = position.cells[INDEX[node]]
        return () if p is None else (Piece(p.upper(), _owner(p)),)

    # --- moves ---------------------------------------------------------------------
    def legal_moves(self, position: Position) -> list[Move]:
        return list(_moves_cached(position.cells, position.side))

    def count_moves(self, position: Position) -> int:
        return len(_legal(position.cells, position.side))

    def perft(self, position: Position, depth: int) -> int:
        if depth == 0:
            return 1
        return _perft(position.cells, position.side, depth)

    def make_move(self, position: Position, move: Move) -> Position:
        raw = _raw_from_move(move)
        cells = position.cells
        reset = raw[2] or (cells[raw[0]] or "").upper() == "P"
        return Position(self.name, tuple(_make(cells, raw)), 1 - position.side,
                        position.fullmove + position.side,
                        0 if reset else position.halfmove + 1)

    def format_move(self, position: Position, move: Move) -> str:
        raw = _raw_from_move(move)
        text = _canonical(position.cells, position.side).get(raw)
        if text is not None:
            return text
        s = move.steps[0]  # not a legal move: a plain description of it
        if move.kind == "castle":
            return CASTLE_BY_TARGET.get((position.side, INDEX[s.target]), "O-O")
        body = "".join("x" + c for c in s.captures)
        return f"{s.unit}{s.origin}-{s.target}{body}" + (f"={s.becomes}" if s.becomes else "")

    def parse_move(self, position: Position, text: str) -> Move:
        pat = parse_pattern(text)
        cells, side = position.cells, position.side
        if self.outcome(position).is_over:
            raise IllegalMoveError(text, said("the game is over"))
        legal = _legal_cached(cells, side)
        if pat.castle:
            k0, k1 = CASTLINGS[(side, pat.castle)][:2]
            found = [r for r in legal if r == (k0, k1, 0, CASTLE)]
            return self.choose(position, text, [_to_move(cells, r) for r in found],
                               lambda: _why_no_castling(cells, side, pat.castle or ""))
        piece = cells[pat.origin]
        origin = NAMES[pat.origin]
        if piece is None:
            raise IllegalMoveError(text, said("there is no piece on {square}", square=origin))
        if _owner(piece) != side:
            raise IllegalMoveError(text, said("the {piece} on {square} is {owner}'s, and it is "
                                              "{side}'s turn", piece=_piece(piece),
                                              square=origin, owner=_SIDES[1 - side],
                                              side=_SIDES[side]))
        if pat.letter and pat.letter != piece.upper():
            raise IllegalMoveError(text, said("the piece on {square} is {piece}, not {named}",
                                              square=origin, piece=_piece(piece),
                                              named=_piece(pat.letter)))
        wanted = {r for r in legal if r[0] == pat.origin}
        plays = _origin_plays(cells, pat.origin)
        queen = piece.upper() == "Q"
        found = _exact_index(cells, pat.origin).get((pat.tokens, pat.promo or ""), set())
        found = found & wanted
        for level in (2, 3):
            if found:
                break
            found = {_raw_of(pat.origin, p) for p in plays if _fits(pat, p, level, queen)}
            found &= wanted
            if level == 2:
                found |= {r for r in wanted if r[3] == CASTLE and _castle_fits(pat, r)}
        moves = [_to_move(cells, r) for r in sorted(found)]
        return self.choose(position, text, moves,
                           lambda: _why_illegal(cells, side, pat, legal))

    # --- the end of the game -------------------------------------------------------
    def outcome(self, position: Position, history: Sequence[Position] = (),
                mode: str = "standard") -> Outcome:
        cells = position.cells
        for side in (0, 1):
            if LETTERS[side][0] not in cells:
                return Outcome("win", 1 - side, said(
                    "{winner} killed the {side} headquarters (King)", winner=_SIDES[1 - side],
                    side=_SIDES[side]))
        if not _legal_cached(cells, position.side):
            return Outcome("draw", None, said("stalemate: {side} has no move at all",
                                              side=_SIDES[position.side]))
        earlier = list(history)
        if earlier and earlier[-1] == position:
            earlier.pop()  # the history already ends with this position
        key = self.repetition_key(position)
        if sum(self.repetition_key(p) == key for p in earlier) >= 2:
            return Outcome("draw", None, said("the same position has occurred three times "
                                              "with the same side to move"))
        return ONGOING

    def repetition_key(self, position: Position) -> object:
        return (position.cells, position.side)

    def status_text(self, position: Position) -> str:
        m = _masks(position.cells)
        s = _sides(m, position.side)
        return said("check") if s is not None and _in_check(s) else ""


# --- helpers of the variant class ----------------------------------------------------------
def _read_placement(text: str, placement: str) -> tuple[str | None, ...]:
    """The cells of a FEN placement field, checked for a possible position."""
    rows = placement.split("/")
    if len(rows) != 8:
        raise PositionError(said("{position}: the placement needs {n} ranks separated by '/'",
                                 position=repr(text), n=8))
    cells: list[str | None] = [None] * 64
    for rank, row in zip(range(7, -1, -1), rows, strict=True):
        f = 0
        for ch in row:
            if ch in "12345678":
                f += int(ch)
            elif ch.upper() in PIECE_NAMES:
                if f < 8:
                    cells[8 * rank + f] = ch
                f += 1
            else:
                raise PositionError(said("{position}: {character} is not a piece letter "
                                         "(KQRBNP, kqrbnp) or a digit 1-8",
                                         position=repr(text), character=repr(ch)))
        if f != 8:
            raise PositionError(said("{position}: rank {rank} must describe {squares} squares, "
                                     "not {n}", position=repr(text), rank=rank + 1, squares=8,
                                     n=f))
    for side, king in enumerate("Kk"):
        if cells.count(king) > 1:
            raise PositionError(said("{position}: {side} has more than one King",
                                     position=repr(text), side=_SIDES[side]))
    if "K" not in cells and "k" not in cells:
        raise PositionError(said("{position}: at least one King must be on the board",
                                 position=repr(text)))
    if "P" in cells[56:] or "p" in cells[:8]:
        raise PositionError(said("{position}: a Pawn cannot stand on the rank where it "
                                 "promotes", position=repr(text)))
    return tuple(cells)


_CAPTURE_NAMES: dict[int, tuple[str, ...]] = {0: ()}
_new_tuple = tuple.__new__  # builds the NamedTuple values without their keyword handling


def _capture_names(kills: int) -> tuple[str, ...]:
    """The killed squares' names, in board order (kill masks recur, so they are kept)."""
    names = _CAPTURE_NAMES.get(kills)
    if names is None:
        names = _CAPTURE_NAMES[kills] = tuple(NAMES[x] for x in _bits(kills))
    return names


def _to_move(cells: Sequence[str | None], raw: Raw) -> Move:
    """The `Move` value of a raw move."""
    o, t, kills, promo = raw
    piece = cells[o]
    assert piece is not None
    if promo == CASTLE:
        side = _owner(piece)
        _k0, _k1, r0, r1, _between, _cross = CASTLINGS[(side, CASTLE_BY_TARGET[(side, t)])]
        return Move((Step(NAMES[o], NAMES[t], (), "K"), Step(NAMES[r0], NAMES[r1], (), "R")),
                    kind="castle")
    step = _new_tuple(Step, (NAMES[o], NAMES[t], _capture_names(kills), piece.upper(), "", "",
                             promo))
    return _new_tuple(Move, ((step,), ""))


@lru_cache(maxsize=256)
def _moves_cached(cells: tuple[str | None, ...], side: int) -> tuple[Move, ...]:
    """The legal `Move` values of a position, kept like `_legal_cached`."""
    return tuple(_to_move(cells, r) for r in _legal_cached(cells, side))


def _raw_from_move(move: Move) -> Raw:
    """The raw form of a `Move` value."""
    s = move.steps[0]
    if move.kind == "castle":
        return (INDEX[s.origin], INDEX[s.target], 0, CASTLE)
    kills = 0
    for c in s.captures:
        kills |= BIT[INDEX[c]]
    return (INDEX[s.origin], INDEX[s.target], kills, s.becomes)


def _castle_fits(pat: Pattern, raw: Raw) -> bool:
    """``Ke1-g1`` for castling: the King's two-square move."""
    return (len(pat.tokens) == 1 and pat.tokens[0][0] in ("", "-")
            and pat.tokens[0][1] == raw[1] and pat.promo is None and pat.letter in (None, "K"))


def _why_no_castling(cells: Sequence[str | None], side: int, name: str) -> str:
    """Why castling ``name`` is refused, in the words of rules §3."""
    k0, _k1, r0, _r1, between, cross = CASTLINGS[(side, name)]
    own = LETTERS[side]
    if cells[k0] != own[0] or cells[r0] != own[2]:
        return said("castling {castling} needs the headquarters (King) on {king} and the "
                    "heavy artillery (Rook) on {rook}", castling=name, king=NAMES[k0],
                    rook=NAMES[r0])
    if any(cells[x] is not None for x in _bits(between)):
        return said("the squares between the headquarters (King) and the heavy artillery "
                    "must be empty")
    s = _sides(_masks(cells), side)
    if s is not None and _in_check(s):
        return said("the headquarters (King) may not castle out of check: {attackers} "
                    "attacks {square}", attackers=_attackers(cells, side, k0),
                    square=NAMES[k0])
    if s is not None:
        crossed = (s.u_occ ^ BIT[k0]) | BIT[cross]
        if _attacked(cross, s.e_occ, s.e_pk, s.e_n, s.e_q, crossed, s.u_b, s.u_r):
            moved = list(cells)
            moved[cross], moved[k0] = moved[k0], None
            return said("the headquarters (King) may not cross {square}: {attackers} "
                        "attacks it", square=NAMES[cross],
                        attackers=_attackers(moved, side, cross))
    k1 = CASTLINGS[(side, name)][1]
    return said("the headquarters (King) would be attacked on {square} after castling{by}",
                square=NAMES[k1], by=_by(cells, side, name))


def _by(cells: Sequence[str | None], side: int, name: str) -> str:
    """", by Black's armour (Knight) on f3": who attacks the King's square after castling."""
    k0, k1, r0, r1 = CASTLINGS[(side, name)][:4]
    after = list(cells)
    after[k1], after[r1], after[k0], after[r0] = after[k0], after[r0], None, None
    who = _attackers(after, side, k1)
    return said(", by {attackers}", attackers=who) if who != "an enemy piece" else ""


def _attackers(cells: Sequence[str | None], side: int, square: int) -> str:
    """The enemy pieces that attack ``square`` (where ``side``'s King stands in ``cells``),
    named as the rules name them: each is the one whose removal leaves the square safe."""
    found = []
    for x, p in enumerate(cells):
        if p is None or _owner(p) == side:
            continue
        without = list(cells)
        without[x] = None
        s = _sides(_masks(without), side)
        if s is not None and not _in_check(s):
            found.append(said("{side}'s {piece} on {square}", side=_SIDES[1 - side],
                              piece=_piece(p), square=NAMES[x]))
    if not found:
        return said("an enemy piece")
    named = found[0]
    for more in found[1:]:  # "A and B and C"
        named = said("{items} and {last}", items=named, last=more)
    return named


def _why_illegal(cells: Sequence[str | None], side: int, pat: Pattern,
                 legal: Sequence[Raw]) -> str:
    """A reason, in the words of the rules, why no legal move fits ``pat``."""
    o = pat.origin
    piece = cells[o]
    assert piece is not None
    kind = piece.upper()
    name = _piece(kind)
    seps = [sep for sep, _ in pat.tokens]
    squares = [sq for _, sq in pat.tokens]
    # a play that the rules allow but that leaves the King in check, or changes nothing
    pseudo = set(_pseudo(cells, side, _masks(cells)))
    for level in (1, 2, 3):
        for play in _origin_plays(cells, o):
            if not _fits(pat, play, level, kind == "Q"):
                continue
            if play.final == o and not play.kills:
                return said("a turn must change the position")
            if _raw_of(o, play) in pseudo:
                if kind == "K":
                    return said("the headquarters (King) may not move into check on {square}",
                                square=NAMES[play.final])
                return said("it would leave the {side} headquarters (King) in check",
                            side=_SIDES[side])
    if ">" in seps and kind != "Q":
        return said("only aviation (the Queen) flies (>)")
    if ">" in seps[1:]:
        return said("aviation (the Queen) flies once, first: Qd1>e5 and then one action")
    if kind == "Q":
        reason = _why_queen(cells, side, pat)
        if reason:
            return reason
    for sep, sq in pat.tokens:
        p = cells[sq] if sq != o else None
        if sep == "*":
            if kind in "PNK":
                return said("{piece} never shoots; it kills by moving onto a piece",
                            piece=name)
            if p is None or _owner(p) == side:
                return said("there is no enemy piece on {square} to shoot", square=NAMES[sq])
            if p.upper() == "K":
                return said("no piece may shoot the headquarters (King): it dies only to a "
                            "piece moving onto it")
    if kind == "R" and "*" in seps and len(seps) > 1:
        return said("heavy artillery (a Rook) may move or shoot in one turn, not both")
    if kind == "B" and seps.count("*") > 1:
        return said("light artillery (a Bishop) shoots once a turn")
    if kind in "BR" and "x" in seps:
        example = "Bc1*e3" if kind == "B" else "Ra1*a4"
        return said("{piece} never kills by moving onto a piece; it shoots, as in {example}",
                    piece=name, example=example)
    if kind in "BRQ" and "*" in seps:
        shooter = squares[seps.index("*") - 1] if seps.index("*") > 0 else o
        target = squares[seps.index("*")]
        reach = ROOK_RANGE[shooter] if kind == "R" else BISHOP_RANGE[shooter]
        if not reach & BIT[target]:
            distance = said("exactly 3 or 4 squares away") if kind == "R" else \
                said("within 2 squares")
            where = said(" from {square}", square=NAMES[shooter]) if shooter != o else ""
            return said("{piece} shoots only {distance} along a line ({square} is out of "
                        "reach{where})", piece=name, distance=distance, square=NAMES[target],
                        where=where)
    if kind in "BRK" or (kind == "P" and len(squares) == 1):
        t = squares[-1]
        p = cells[t]
        if p is not None and _owner(p) == side:
            return said("{square} holds your own {piece}", square=NAMES[t], piece=_piece(p))
    if kind == "N":
        return _why_knight(cells, side, pat)
    if kind == "P":
        if pat.promo and squares[-1] // 8 != (7 if side == 0 else 0):
            return said("only infantry (a Pawn) reaching the last rank promotes")
        return said("infantry (a Pawn) steps one square in any direction to an empty square "
                    "or onto an enemy piece, or two squares straight forward from its own "
                    "second rank")
    if kind == "K":
        return said("headquarters (the King) moves one square in any direction (castling is "
                    "O-O or O-O-O)")
    if kind == "B":
        return said("light artillery (a Bishop) slides diagonally to an empty square along an "
                    "open line, and may shoot once (within 2) before or after")
    if kind == "R":
        return said("heavy artillery (a Rook) slides along a rank or file to an empty square "
                    "along an open line, or shoots a piece exactly 3 or 4 squares away")
    return said("the {piece} on {square} has no such move", piece=name, square=NAMES[o])


def _why_knight(cells: Sequence[str | None], side: int, pat: Pattern) -> str:
    """Why a Knight text fits no legal move."""
    o = pat.origin
    written = [sq for _, sq in pat.tokens]
    shaped = [path for path in PATHS[o] if path[2] == written[-1]
              and _subsequence(written, list(path))]
    if not shaped:
        return said("armour (a Knight) makes exactly three single orthogonal steps (it may "
                    "turn or step back), so it ends 1 or 3 steps from where it started")
    for sq in written:
        p = cells[sq]
        if p is not None and _owner(p) == side:
            return said("armour (the Knight) may not pass through or stop on its own {unit} "
                        "on {square}", unit=_UNITS[p.upper()], square=NAMES[sq])
    if all(any(cells[v] is not None and _owner(cells[v]) == side for v in path)  # type: ignore[arg-type]
           for path in shaped):
        return said("every path from {origin} to {square} passes through or stops on a "
                    "piece of its own side", origin=NAMES[o], square=NAMES[written[-1]])
    return said("the kills written (x) are not the ones that path makes: armour (a Knight) "
                "kills every enemy it passes or stops on, the headquarters (King) only by "
                "stopping on it")


def _subsequence(short: list[int], long: list[int]) -> bool:
    """Whether ``short`` is ``long`` with some squares left out, in order."""
    rest = iter(long)
    return all(any(sq == x for x in rest) for sq in short)


def _why_queen(cells: Sequence[str | None], side: int, pat: Pattern) -> str:
    """The Queen's range rule, when that is what refuses the text."""
    o = pat.origin
    for level in (1, 2, 3):
        for play in _origin_plays(cells, o, False):
            if not _fits(pat, play, level, True):
                continue
            foe = LETTERS[1 - side]
            artillery = [i for i, p in enumerate(cells) if p is not None and p in foe[2:4]]
            killed = 0
            for sep, sq in play.tokens:
                if sep == "*":
                    continue
                if sep == "x":
                    killed |= BIT[sq]
                shooter = _within_range(sq, artillery, killed, cells) if sq != o else None
                if shooter is not None:
                    p = cells[shooter]
                    assert p is not None
                    return said("aviation (the Queen) may not enter {square}: it is within "
                                "range of {side}'s {piece} on {shooter}", square=NAMES[sq],
                                side=_SIDES[1 - side], piece=_piece(p),
                                shooter=NAMES[shooter])
    first = pat.tokens[0]
    if first[0] == ">" and cells[first[1]] is not None:
        return said("aviation (the Queen) flies only to an empty square")
    return ""
