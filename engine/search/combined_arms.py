"""The computer's Combined Arms Brigade Chess: the engine's raw moves and an evaluation.

Material (centipawns), from what each arm can do under these rules rather than in chess:

* **Infantry (P) 100**: moves and captures one square in any direction, so it is worth a
  little more than a chess pawn in practice, but it remains the unit of account.
* **Armour (N) 325**: exactly three orthogonal steps killing every enemy it passes, the
  only piece that can kill several pieces in one move.
* **Light artillery (B) 300**: a bishop's slide plus a shot at anything within two squares,
  before or after moving: it attacks without being exposed.
* **Heavy artillery (R) 450**: a rook's slide or a shot three or four squares away in any
  direction: the longest reach on the board, and it keeps the Queen away.
* **Aviation (Q) 850**: flies anywhere not covered by enemy artillery and then acts as
  infantry, armour or light artillery.
* **King**: no material value (losing it loses the game); its safety is a term below.

Position terms: centralisation of infantry, armour and aviation (+4 per step nearer the
centre: more squares in reach, the mobility term), infantry advancement (+6 per rank,
promotion on the last), **artillery ranges** (+18 per enemy piece other than the King that
a Bishop has within 2 squares or a Rook exactly 3–4 squares away: a shot it can fire next
move), and King safety (-20 per enemy piece within three orthogonal steps, which armour
and infantry cover; shots cannot kill a King).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..combined_arms import (
    ARMOUR,
    ARMOUR_THROUGH,
    BISHOP_RANGE,
    BIT,
    CASTLE,
    FULL,
    LETTERS,
    MAN2,
    MAN3,
    NEIGH8,
    PROMOTIONS,
    RANK,
    ROOK_RANGE,
    _after_is_safe,
    _armour_ok,
    _bishop_moves,
    _cover,
    _in_check,
    _legal,
    _make,
    _masks,
    _sides,
    _to_move,
)
from ..move import Move
from ..position import Position
from .board import OneMoveGame
from .zobrist import SIDE, board_key, number

VALUES = {"P": 100, "N": 325, "B": 300, "R": 450, "Q": 850, "K": 0}
KING_CAPTURE = 20_000  # ordering value of killing the King (the game's end)
CENTRE = 4
ADVANCE = 6
RANGE_THREAT = 18
KING_THREAT = 20
_VALUE = {**VALUES, **{k.lower(): v for k, v in VALUES.items()}}
_CENTRE = tuple(CENTRE * (3 - int(max(abs(i % 8 - 3.5), abs(i // 8 - 3.5)))) for i in range(64))
_MAN3 = tuple(sum(1 << t for t in range(64) if 0 < abs(t % 8 - i % 8) + abs(t // 8 - i // 8) <= 3)
              for i in range(64))


def _square_value(letter: str, side: int, i: int) -> int:
    """Material and placement of one piece on square ``i``, for side 0 (White)."""
    value = VALUES[letter]
    if letter == "P":
        return value + ADVANCE * (i // 8 if side == 0 else 7 - i // 8) + _CENTRE[i] // 2
    if letter == "N" or letter == "Q":
        return value + _CENTRE[i]
    return value


#: Per piece letter (either case) and square: its material and placement, signed for White.
_TABLE = {(letter if side == 0 else letter.lower()):
          tuple((1 - 2 * side) * _square_value(letter, side, i) for i in range(64))
          for letter in VALUES for side in (0, 1)}


def _kills(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _pawn_captures(pawns: int, side: int, empty: int, e_occ: int, add: Callable) -> None:
    """Infantry's kills (one step onto an enemy) and promotions (onto the last rank)."""
    last = RANK[7] if side == 0 else RANK[0]
    while pawns:
        low = pawns & -pawns
        pawns ^= low
        s = low.bit_length() - 1
        near = NEIGH8[s]
        for tb in _singles((near & e_occ) | (near & empty & last)):
            t = tb.bit_length() - 1
            kills = tb & e_occ
            if tb & last:
                for p in PROMOTIONS:
                    add((s, t, kills, p))
            else:
                add((s, t, kills, ""))


def _singles(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _queen_kills(s: int, u_occ: int, e_occ: int, e_k: int, e_b: int, e_r: int, empty: int,
                 add: Callable) -> None:
    """One Aviation move per set of pieces it can kill (`engine.combined_arms._queen_moves`
    lists every final square of each): a shot or an infantry capture of each piece it
    can reach, then the armour paths, skipping the flight squares from which no path can
    kill anything not already listed (fewer than two enemies within three steps)."""
    cov = _cover(e_b, e_r)
    qb = 1 << s
    launch = (empty & ~cov) | qb
    blockers = u_occ & ~qb
    enemies = e_occ & ~e_k
    artillery = e_b | e_r
    found: set[int] = set()
    for xb in _singles(enemies):  # a shot from any square within 2 of the piece
        fs = BISHOP_RANGE[xb.bit_length() - 1] & launch
        if fs:
            found.add(xb)
            add((s, (fs & -fs).bit_length() - 1, xb, ""))
    for tb in _singles(e_occ):  # infantry moving onto it, judged after the kill
        t = tb.bit_length() - 1
        if (tb not in found and NEIGH8[t] & launch
                and not ((BISHOP_RANGE[t] & e_b & ~tb) or (ROOK_RANGE[t] & e_r & ~tb))):
            found.add(tb)
            add((s, t, tb, ""))
    for f in _kills(launch):  # armour actions that kill: the paths through an enemy
        near = MAN3[f] & e_occ
        if not near & (near - 1) and near in found:
            continue  # one piece within reach, and its kill is listed
        through = ARMOUR_THROUGH[f]
        for xb in _singles(near):
            for final, passed, final_bit, touched, paths in through[xb.bit_length() - 1]:
                if touched & blockers:
                    continue
                kills = (passed & enemies) | (final_bit & e_occ)
                if not kills or kills in found:
                    continue  # it only passed over the King, or that kill is listed
                if touched & ~qb & cov and (not kills & artillery
                                             or not _armour_ok(paths, s, e_b, e_r)):
                    continue
                found.add(kills)
                add((s, final, kills, ""))


def pseudo_captures(cells: Sequence[str | None], side: int, m: dict[str, int]) -> list[tuple]:
    """The moves of `engine.combined_arms._pseudo` that kill or promote, generated
    without the quiet ones (castling never kills): quiescence's move list."""
    own, foe = LETTERS[side], LETTERS[1 - side]
    u_occ = m[own[0]] | m[own[1]] | m[own[2]] | m[own[3]] | m[own[4]] | m[own[5]]
    e_k = m[foe[0]]
    e_occ = e_k | m[foe[1]] | m[foe[2]] | m[foe[3]] | m[foe[4]] | m[foe[5]]
    enemies = e_occ & ~e_k
    empty = FULL ^ (u_occ | e_occ)
    out: list[tuple] = []
    add = out.append
    _pawn_captures(m[own[5]], side, empty, e_occ, add)
    for s in _kills(m[own[4]]):  # armour: the paths that pass or stop on an enemy
        effects = set()
        for final, passed, final_bit, touched, _paths in ARMOUR[s]:
            kills = (passed & enemies) | (final_bit & e_occ)
            if kills and not touched & u_occ:
                effects.add((s, final, kills, ""))
        out.extend(effects)
    for s in _kills(m[own[3]]):  # light artillery: its shots, before or after sliding
        moves: list[tuple] = []
        _bishop_moves(s, empty, enemies, moves.append)
        out.extend(r for r in moves if r[2])
    for s in _kills(m[own[2]]):
        for x in _singles(ROOK_RANGE[s] & enemies):
            add((s, s, x, ""))
    for s in _kills(m[own[1]]):
        _queen_kills(s, u_occ, e_occ, e_k, m[foe[3]], m[foe[2]], empty, add)
    for s in _kills(m[own[0]]):
        for tb in _singles(NEIGH8[s] & e_occ):
            add((s, tb.bit_length() - 1, tb, ""))
    return out


#: A state: cells, side to move, Zobrist key, White's material and placement score, and
#: one bitboard per piece letter (`_BOARD` order), updated move by move.
ArmsState = tuple[tuple, int, int, int, tuple[int, ...]]
_BOARD = {letter: i for i, letter in enumerate("KQRBNPkqrbnp")}


def _board_terms(cells: Sequence[str | None], side: int) -> tuple[int, int, tuple[int, ...]]:
    """The key, score and bitboards of a board, computed from scratch."""
    score, bits = 0, [0] * 12
    for i, p in enumerate(cells):
        if p is not None:
            score += _TABLE[p][i]
            bits[_BOARD[p]] |= 1 << i
    return board_key(cells, side), score, tuple(bits)


#: Move lists kept (whole lists, about 60 moves each, and capture lists): a few MB.
MOVES_KEPT, CAPTURES_KEPT = 4_000, 20_000


def _remember(cache: dict, state: ArmsState, listed: list, limit: int) -> None:
    """Keep a move list of ``state`` (lists are never changed once made)."""
    if len(cache) >= limit:
        cache.clear()
    cache[state[2]] = (state[0], listed)


class CombinedArmsGame(OneMoveGame):
    """`Game` for Combined Arms: a state is (cells, side, key); a move is a raw move."""

    royal = "K"
    pruning = True
    quiescence_depth = 3  # aviation can capture from almost anywhere: a short horizon

    def __init__(self) -> None:
        # Move lists by Zobrist key, checked against the board: iterative deepening and
        # transpositions reach the same positions again and again, and the Aviation's
        # moves cost most of a node. Cleared when full.
        self._moves: dict[int, tuple[tuple, list]] = {}
        self._captures: dict[int, tuple[tuple, list]] = {}

    def moves(self, state: ArmsState) -> list:
        found = self._moves.get(state[2])
        if found is not None and found[0] == state[0]:
            return found[1]
        moves = _legal(state[0], state[1])
        _remember(self._moves, state, moves, MOVES_KEPT)
        return moves

    def root(self, position: Position) -> ArmsState:
        cells, side = position.cells, position.side
        return (cells, side, *_board_terms(cells, side))

    def play(self, state: ArmsState, raw: tuple) -> ArmsState:
        cells, side, key, score, boards = state
        after = tuple(_make(cells, raw))
        if raw[3] == CASTLE:
            return (after, 1 - side, *_board_terms(after, 1 - side))
        bits = list(boards)
        for i in {raw[0], raw[1], *_kills(raw[2])}:
            was, now = cells[i], after[i]
            if was == now:
                continue
            if was is not None:
                key ^= number(i, was)
                score -= _TABLE[was][i]
                bits[_BOARD[was]] ^= 1 << i
            if now is not None:
                key ^= number(i, now)
                score += _TABLE[now][i]
                bits[_BOARD[now]] |= 1 << i
        return after, 1 - side, key ^ SIDE, score, tuple(bits)

    def gain(self, state: ArmsState, raw: tuple) -> int:
        kills, promo = raw[2], raw[3]
        total = 0
        cells = state[0]
        while kills:
            low = kills & -kills
            p = cells[low.bit_length() - 1]
            total += KING_CAPTURE if p in ("K", "k") else _VALUE[p]  # type: ignore[index]
            kills ^= low
        if promo and promo != CASTLE:
            total += VALUES[promo] - VALUES["P"]
        return total

    def in_danger(self, state: ArmsState) -> bool:
        """Whether the King of the side to move is attacked (futility pruning's guard)."""
        sides = _sides(_masks(state[0]), state[1])
        return sides is not None and _in_check(sides)

    def captures(self, state: ArmsState) -> list[tuple[int, tuple]]:
        """The legal moves that kill or promote (`capture_list`), remembered by key."""
        found = self._captures.get(state[2])
        if found is not None and found[0] == state[0]:
            return found[1]
        listed = self.capture_list(state)
        _remember(self._captures, state, listed, CAPTURES_KEPT)
        return listed

    def capture_list(self, state: ArmsState) -> list[tuple[int, tuple]]:
        """The legal moves that kill or promote, with their gain (`core.noisy_moves`):
        one per effect on material (piece, kills, promotion), whatever square it ends on
        — an Aviation or light artillery may make the same kill from dozens of squares,
        and quiescence only asks what can be won (the Aviation's is the first square
        found, so should that one leave the King attacked where another would not, the
        kill is missing here). In the rare position where no move is legal and the rules
        allow any move (§4) this lists only the legal-looking ones. Either way quiescence
        may miss a capture, never play an illegal one (the moves played come from
        `moves`)."""
        cells, side = state[0], state[1]
        m = _masks(cells)
        s = _sides(m, side)
        if s is None:
            return []
        k, e_k = s.k, s.e_k
        # as in the engine's `_legal`: unless in check, a move away from the King that
        # kills nothing within three steps of it cannot expose it when no enemy Queen can
        # reach it (none left, or our artillery keeps the King's square in range)
        quiet_safe = not _in_check(s)
        region = MAN3[k]
        guards = ((BISHOP_RANGE[k] & s.u_b) | (ROOK_RANGE[k] & s.u_r)) & ~MAN2[k]
        no_queen = not s.e_q
        gain = self.gain
        out = []
        effects = set()
        for raw in pseudo_captures(cells, side, m):
            o, kills = raw[0], raw[2]
            effect = (o, kills, raw[3])
            if effect in effects:
                continue
            if (kills & e_k or (quiet_safe and o != k and not kills & region
                                and (no_queen or guards & ~BIT[o]))
                    or _after_is_safe(cells, s, raw)):
                effects.add(effect)
                out.append((gain(state, raw), raw))
        return out

    def evaluate(self, state: ArmsState) -> int:
        """Material and placement (carried in the state), artillery ranges and King
        safety from the piece bitboards."""
        total, b = state[3], state[4]
        occupied = (b[1] | b[2] | b[3] | b[4] | b[5], b[7] | b[8] | b[9] | b[10] | b[11])
        for s, sign in ((0, RANGE_THREAT), (1, -RANGE_THREAT)):
            base, enemy = 6 * s, occupied[1 - s]
            for i in _kills(b[base + 3]):
                total += sign * (BISHOP_RANGE[i] & enemy).bit_count()
            for i in _kills(b[base + 2]):
                total += sign * (ROOK_RANGE[i] & enemy).bit_count()
            king = b[base]
            if king:
                total -= (sign // RANGE_THREAT) * KING_THREAT * (
                    _MAN3[king.bit_length() - 1] & enemy).bit_count()
        return total if state[1] == 0 else -total

    def to_move(self, position: Position, raw: tuple) -> Move:
        return _to_move(position.cells, raw)
