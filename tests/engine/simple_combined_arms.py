"""A second, deliberately simple Combined Arms Brigade Chess move generator, for the tests.

It shares no code with ``engine/``: a position is a plain dict square -> letter, and every
way a piece may play is simulated step by step from the rule file
(``docs/rules/combined-arms.md``; the specification's §2-§5) on a copy of the board,
producing its text and its effect ``(origin, final, kills, promotion)`` (castling:
``(king from, king to, frozenset(), "O-O")``). Clarity over speed: it exists so that the
engine's perft counts and canonical texts are confirmed by code written from the rules,
not from the engine.

Run as a script to recompute every count of a perft data file and print it again::

    .venv/bin/python tests/engine/simple_combined_arms.py tests/data/combined_arms.perft
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product

FILES = "abcdefgh"
SQUARES = [f"{f}{r}" for r in range(1, 9) for f in FILES]
LINES = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
ORTHOGONAL = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAGONAL = [(1, 1), (1, -1), (-1, -1), (-1, 1)]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# three orthogonal steps in every order, grouped by where they lead (file, rank change)
ARMOUR_STEPS: dict[tuple[int, int], list[tuple[tuple[int, int], ...]]] = {}
for _steps in product(ORTHOGONAL, repeat=3):
    _sum = (sum(s[0] for s in _steps), sum(s[1] for s in _steps))
    ARMOUR_STEPS.setdefault(_sum, []).append(_steps)

Effect = tuple[str, str, frozenset[str], str]


@dataclass
class Position:
    board: dict[str, str] = field(default_factory=dict)
    white: bool = True  # White to move
    halfmove: int = 0
    fullmove: int = 1


# --- reading and writing positions (rules §5) ------------------------------------------
def read_position(text: str) -> Position:
    fields = text.split()
    board = {}
    for row_index, row in enumerate(fields[0].split("/")):
        rank = 8 - row_index
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[f"{FILES[file]}{rank}"] = ch
                file += 1
    halfmove, fullmove = (int(fields[4]), int(fields[5])) if len(fields) == 6 else (0, 1)
    return Position(board, fields[1] == "w", halfmove, fullmove)


def write_position(position: Position) -> str:
    rows = []
    for rank in range(8, 0, -1):
        row, gap = "", 0
        for f in FILES:
            piece = position.board.get(f"{f}{rank}")
            if piece is None:
                gap += 1
            else:
                row += (str(gap) if gap else "") + piece
                gap = 0
        rows.append(row + (str(gap) if gap else ""))
    b = position.board
    castling = ""
    for flag, king_square, rook_square, king, rook in [("K", "e1", "h1", "K", "R"),
                                                       ("Q", "e1", "a1", "K", "R"),
                                                       ("k", "e8", "h8", "k", "r"),
                                                       ("q", "e8", "a8", "k", "r")]:
        if b.get(king_square) == king and b.get(rook_square) == rook:
            castling += flag
    return (f"{'/'.join(rows)} {'w' if position.white else 'b'} {castling or '-'} - "
            f"{position.halfmove} {position.fullmove}")


# --- geometry ---------------------------------------------------------------------------
COORDS = {square: (FILES.index(square[0]), int(square[1]) - 1) for square in SQUARES}


def coords(square: str) -> tuple[int, int]:
    return COORDS[square]


def shift(square: str, df: int, dr: int) -> str | None:
    f, r = coords(square)
    f, r = f + df, r + dr
    return f"{FILES[f]}{r + 1}" if 0 <= f < 8 and 0 <= r < 8 else None


def line_distance(a: str, b: str) -> int | None:
    """Squares from a to b along one of the 8 lines, or None if not on a line."""
    (f, r), (g, s) = coords(a), coords(b)
    if f == g or r == s or abs(f - g) == abs(r - s):
        return max(abs(f - g), abs(r - s))
    return None


def colour(letter: str) -> str:
    return "w" if letter.isupper() else "b"


def is_enemy(board: dict[str, str], square: str, mine: str) -> bool:
    return square in board and colour(board[square]) != mine


def is_friend(board: dict[str, str], square: str, mine: str) -> bool:
    return square in board and colour(board[square]) == mine


def artillery(board: dict[str, str], shooters: str) -> list[tuple[str, str]]:
    """The Bishops and Rooks of colour ``shooters``: (square, B or R)."""
    return [(sq, p.upper()) for sq, p in board.items()
            if colour(p) == shooters and p.upper() in "BR"]


def covered(square: str, guns: list[tuple[str, str]], killed: set[str] = frozenset()
            ) -> bool:
    """Whether one of ``guns`` not yet killed has ``square`` in range: a Bishop within 2,
    a Rook exactly 3 or 4 away, along a line."""
    for where, kind in guns:
        if where in killed:
            continue
        d = line_distance(where, square)
        if d is None or d == 0:
            continue
        if (kind == "B" and d <= 2) or (kind == "R" and 3 <= d <= 4):
            return True
    return False


# --- plays: every way a piece may act, with its text ---------------------------------------
@dataclass
class PlayResult:
    text: str
    effect: Effect


def plays(position: Position, square: str) -> list[PlayResult]:
    """Every way the piece on ``square`` can act (castling apart), ignoring check."""
    board = position.board
    piece = board[square]
    kind = piece.upper()
    if kind == "P":
        return pawn_plays(board, square)
    if kind == "N":
        return list(armour_plays(board, square, f"N{square}", None, square))
    if kind == "B":
        return bishop_plays(board, square)
    if kind == "R":
        return rook_plays(board, square)
    if kind == "Q":
        return queen_plays(board, square)
    return king_plays(board, square)


def effect_of(origin: str, final: str, kills: set[str], promo: str = "") -> Effect:
    return (origin, final, frozenset(kills), promo)


def pawn_plays(board: dict[str, str], square: str) -> list[PlayResult]:
    mine = colour(board[square])
    out = []
    last_rank = 8 if mine == "w" else 1
    for df, dr in LINES:
        t = shift(square, df, dr)
        if t is None or is_friend(board, t, mine):
            continue
        sep, kills = ("x", {t}) if t in board else ("-", set())
        if int(t[1]) == last_rank:
            for promo in "NBRQ":
                out.append(PlayResult(f"P{square}{sep}{t}={promo}",
                                      effect_of(square, t, kills, promo)))
        else:
            out.append(PlayResult(f"P{square}{sep}{t}", effect_of(square, t, kills)))
    forward = 1 if mine == "w" else -1
    if int(square[1]) == (2 if mine == "w" else 7):
        one, two = shift(square, 0, forward), shift(square, 0, 2 * forward)
        if one not in board and two not in board:
            out.append(PlayResult(f"P{square}-{two}", effect_of(square, two, set())))
    return out


def armour_plays(board: dict[str, str], at: str, prefix: str,
                 guns: list[tuple[str, str]] | None, exempt: str,
                 towards: str | None = None) -> Iterator[PlayResult]:
    """Three orthogonal steps by the piece on ``at`` (only those ending on ``towards``, if
    given); with ``guns`` (the enemy artillery, for a Queen) every square entered but
    ``exempt`` must be out of their range as the pieces stand at that moment. Effects
    start on ``exempt``, the square where the turn began."""
    mine = colour(board[at])
    if towards is None:
        sequences = list(product(ORTHOGONAL, repeat=3))
    else:
        (f, r), (g, q) = coords(at), coords(towards)
        sequences = ARMOUR_STEPS.get((g - f, q - r), [])
    for steps in sequences:
        square, text, kills, ok = at, prefix, set(), True
        for i, (df, dr) in enumerate(steps):
            square = shift(square, df, dr)
            if square is None:
                ok = False
                break
            piece = board.get(square) if square != at and square not in kills else None
            if piece is not None and colour(piece) == mine:
                ok = False
                break
            mark = "-"
            if piece is not None and (piece.upper() != "K" or i == 2):
                kills.add(square)  # a King only by stopping on it
                mark = "x"
            if guns is not None and square != exempt and covered(square, guns, kills):
                ok = False
                break
            text += mark + square
        if ok:
            yield PlayResult(text, effect_of(exempt, square, kills))


def bishop_slides(board: dict[str, str], square: str) -> list[str]:
    out = []
    for df, dr in DIAGONAL:
        t = shift(square, df, dr)
        while t is not None and t not in board:
            out.append(t)
            t = shift(t, df, dr)
    return out


def shot_targets(board: dict[str, str], square: str, mine: str, near: int, far: int
                 ) -> list[str]:
    out = []
    for df, dr in LINES:
        for d in range(near, far + 1):
            t = shift(square, d * df, d * dr)
            if t is not None and is_enemy(board, t, mine) and board[t].upper() != "K":
                out.append(t)
    return out


def bishop_plays(board: dict[str, str], square: str) -> list[PlayResult]:
    mine = colour(board[square])
    out = []
    for t in bishop_slides(board, square):
        out.append(PlayResult(f"B{square}-{t}", effect_of(square, t, set())))
        moved = dict(board)
        moved[t] = moved.pop(square)
        for x in shot_targets(moved, t, mine, 1, 2):
            out.append(PlayResult(f"B{square}-{t}*{x}", effect_of(square, t, {x})))
    for x in shot_targets(board, square, mine, 1, 2):
        out.append(PlayResult(f"B{square}*{x}", effect_of(square, square, {x})))
        shot = dict(board)
        del shot[x]
        for t in bishop_slides(shot, square):
            out.append(PlayResult(f"B{square}*{x}-{t}", effect_of(square, t, {x})))
    return out


def rook_plays(board: dict[str, str], square: str) -> list[PlayResult]:
    mine = colour(board[square])
    out = []
    for df, dr in ORTHOGONAL:
        t = shift(square, df, dr)
        while t is not None and t not in board:
            out.append(PlayResult(f"R{square}-{t}", effect_of(square, t, set())))
            t = shift(t, df, dr)
    for x in shot_targets(board, square, mine, 3, 4):
        out.append(PlayResult(f"R{square}*{x}", effect_of(square, square, {x})))
    return out


def king_plays(board: dict[str, str], square: str) -> list[PlayResult]:
    mine = colour(board[square])
    out = []
    for df, dr in LINES:
        t = shift(square, df, dr)
        if t is None or is_friend(board, t, mine):
            continue
        if t in board:
            out.append(PlayResult(f"K{square}x{t}", effect_of(square, t, {t})))
        else:
            out.append(PlayResult(f"K{square}-{t}", effect_of(square, t, set())))
    return out


def queen_plays(board: dict[str, str], square: str,
                towards: str | None = None) -> list[PlayResult]:
    """Flight (optional) then one action (optional), at least one of them; every square
    entered out of enemy artillery range, the start square excepted. With ``towards``
    only the plays ending on that square are made (for the check test)."""
    mine = colour(board[square])
    enemy = "b" if mine == "w" else "w"
    guns = artillery(board, enemy)
    out = []
    launches = [(square, f"Q{square}")]
    for t in SQUARES:
        if towards and max(abs(a - b) for a, b in
                           zip(coords(t), coords(towards), strict=True)) > 3:
            continue  # one square of infantry or three of armour cannot reach it
        if t in board or covered(t, guns):
            continue
        launches.append((t, f"Q{square}>{t}"))
        out.append(PlayResult(f"Q{square}>{t}", effect_of(square, t, set())))
    for at, prefix in launches:
        flown = dict(board)
        flown[at] = flown.pop(square)
        # (a) as infantry: one square in any direction, to an empty square or a kill
        for df, dr in LINES:
            t = shift(at, df, dr)
            if t is None or is_friend(flown, t, mine):
                continue
            killed = {t} if t in flown else set()
            if t != square and covered(t, guns, killed):
                continue
            mark = "x" if killed else "-"
            out.append(PlayResult(f"{prefix}{mark}{t}", effect_of(square, t, killed)))
        # (b) as armour
        out.extend(armour_plays(flown, at, prefix, guns, square, towards))
        if towards:
            continue  # light artillery never ends on an occupied square
        # (c) as light artillery: a slide, or a shot
        for df, dr in DIAGONAL:
            t = shift(at, df, dr)
            while t is not None and t not in flown:
                if t != square and covered(t, guns):
                    break
                out.append(PlayResult(f"{prefix}-{t}", effect_of(square, t, set())))
                t = shift(t, df, dr)
        for x in shot_targets(flown, at, mine, 1, 2):
            out.append(PlayResult(f"{prefix}*{x}", effect_of(square, at, {x})))
    # a turn must change the position
    out = [r for r in out if not (r.effect[1] == square and not r.effect[2])]
    return [r for r in out if r.effect[1] == towards] if towards else out


# --- check, castling, legal moves (rules §3, §4) ----------------------------------------------
def king_square(board: dict[str, str], mine: str) -> str | None:
    king = "K" if mine == "w" else "k"
    return next((sq for sq, p in board.items() if p == king), None)


def can_end_on(board: dict[str, str], target: str, by: str) -> bool:
    """Whether colour ``by`` has a legal-looking move ending on ``target`` (rules §4).
    Bishops and Rooks never end a move on an occupied square (they slide to empty squares
    only, and a shot never targets a King), so only the other pieces are asked."""
    for square, piece in board.items():
        if colour(piece) != by:
            continue
        kind = piece.upper()
        if kind in "PK":
            if line_distance(square, target) == 1:
                return True
        elif kind == "N":
            if any(armour_plays(board, square, "", None, square, target)):
                return True
        elif kind == "Q":
            if queen_plays(board, square, target):
                return True
    return False


def in_check(board: dict[str, str], mine: str) -> bool:
    king = king_square(board, mine)
    return king is not None and can_end_on(board, king, "b" if mine == "w" else "w")


CASTLING = {  # colour, name -> king from, king to, rook from, rook to, between, crossed
    ("w", "O-O"): ("e1", "g1", "h1", "f1", ["f1", "g1"], "f1"),
    ("w", "O-O-O"): ("e1", "c1", "a1", "d1", ["b1", "c1", "d1"], "d1"),
    ("b", "O-O"): ("e8", "g8", "h8", "f8", ["f8", "g8"], "f8"),
    ("b", "O-O-O"): ("e8", "c8", "a8", "d8", ["b8", "c8", "d8"], "d8"),
}


def castlings(board: dict[str, str], mine: str, ignore_check: bool) -> list[PlayResult]:
    out = []
    king, rook = ("K", "R") if mine == "w" else ("k", "r")
    for (who, name), (k0, k1, r0, _r1, between, crossed) in CASTLING.items():
        if who != mine or board.get(k0) != king or board.get(r0) != rook:
            continue
        if any(sq in board for sq in between):
            continue
        if not ignore_check:
            if in_check(board, mine):
                continue
            crossing = dict(board)
            crossing[crossed] = crossing.pop(k0)
            if in_check(crossing, mine):
                continue
        out.append(PlayResult(name, (k0, k1, frozenset(), name)))
    return out


def apply(board: dict[str, str], effect: Effect) -> dict[str, str]:
    origin, final, kills, promo = effect
    after = dict(board)
    if promo in ("O-O", "O-O-O"):
        mine = colour(board[origin])
        _k0, _k1, r0, r1, _between, _crossed = CASTLING[(mine, promo)]
        after[r1] = after.pop(r0)
    for x in kills:
        del after[x]
    piece = after.pop(origin)
    if promo in ("N", "B", "R", "Q"):
        piece = promo if piece.isupper() else promo.lower()
    after[final] = piece
    return after


def all_plays(position: Position, ignore_check: bool) -> list[PlayResult]:
    board = position.board
    mine = "w" if position.white else "b"
    out = []
    for square in sorted(board):
        if colour(board[square]) == mine:
            out.extend(plays(position, square))
    return out + castlings(board, mine, ignore_check)


def legal_texts(position: Position) -> dict[Effect, str]:
    """Every legal move's effect with its canonical text (shortest, then ASCII first)."""
    board = position.board
    mine = "w" if position.white else "b"
    enemy = "b" if mine == "w" else "w"
    if king_square(board, "w") is None or king_square(board, "b") is None:
        return {}

    def best(results: list[PlayResult]) -> dict[Effect, str]:
        texts: dict[Effect, str] = {}
        for r in results:
            old = texts.get(r.effect)
            if old is None or (len(r.text), r.text) < (len(old), old):
                texts[r.effect] = r.text
        return texts

    candidates = best(all_plays(position, ignore_check=False))
    enemy_king = king_square(board, enemy)
    legal = {}
    for effect, text in candidates.items():
        after = apply(board, effect)
        if enemy_king in effect[2] or not in_check(after, mine):
            legal[effect] = text
    if legal:
        return legal
    return best(all_plays(position, ignore_check=True))  # rules §4: check ignored


def legal_moves(position: Position) -> set[Effect]:
    return set(legal_texts(position))


def play(position: Position, effect: Effect) -> Position:
    board = position.board
    reset = bool(effect[2]) or board[effect[0]].upper() == "P"
    return Position(apply(board, effect), not position.white,
                    0 if reset else position.halfmove + 1,
                    position.fullmove + (0 if position.white else 1))


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(position)
    if depth == 1:
        return len(moves)
    return sum(perft(play(position, m), depth - 1) for m in moves)


def divide(position: Position, depth: int) -> dict[str, int]:
    return {text: perft(play(position, effect), depth - 1)
            for effect, text in legal_texts(position).items()}


def move_text(position: Position, effect: Effect) -> str:
    """The canonical text of a legal move, or a plain description of another."""
    text = legal_texts(position).get(effect)
    if text is not None:
        return text
    origin, final, kills, promo = effect
    return f"{origin}-{final} kills {sorted(kills)} {promo}".strip()


def random_game(seed: int, plies: int, start: str = START,
                fierce: bool = False) -> list[Position]:
    """A seeded random game: its positions, the start first (it stops when over). A
    ``fierce`` game picks a killing move (a King first) or a Pawn move three times in
    four, so Kings come under fire, games end and Pawns promote."""
    rng = random.Random(seed)
    game = [read_position(start)]
    for _ in range(plies):
        moves = sorted(legal_moves(game[-1]), key=lambda e: (e[0], e[1], sorted(e[2]), e[3]))
        if not moves:
            break
        board = game[-1].board
        if fierce and rng.random() < 0.75:
            kings = [m for m in moves if any(board[x].upper() == "K" for x in m[2])]
            sharp = [m for m in moves if m[2] or board[m[0]].upper() == "P"]
            moves = kings or sharp or moves
        game.append(play(game[-1], rng.choice(moves)))
    return game


def recount(lines: list[str]) -> list[str]:
    """A perft data file with every count recomputed by this generator."""
    out, position = [], None
    for line in lines:
        if line.startswith("epd "):
            position = read_position(line[4:].strip())
        if line.startswith("perft ") and position is not None:
            depth = int(line.split()[1])
            line = f"perft {depth} {perft(position, depth)}"
        out.append(line)
    return out


if __name__ == "__main__":
    path = sys.argv[1]
    with open(path, encoding="utf-8") as handle:
        print("\n".join(recount(handle.read().splitlines())))
