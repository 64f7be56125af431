"""A second, deliberately plain Commander Chess move generator, and the tests that hold the
engine to it.

The generator shares no code with ``engine/``: it reads the rules
(``docs/rules/commander.md``; § numbers are those of the specification the engine was
built from) section by section — terrain §1, pieces §2, capture kinds §3, air defence §4,
stacks and the reference algorithm §5.8, promotion §6, legality §7.4 — with a board held
as ``{square name: [pieces, carrier first]}`` and every turn checked in full (no
shortcuts). Clarity over speed: it exists so that the engine's move sets and perft counts
are confirmed by code written from the rules, not from the engine. Turns are compared as
their long form (§9.3), which names every step.

Run as a script to print perft counts with this generator::

    .venv/bin/python tests/engine/test_commander_reference.py "FEN" DEPTH
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator

FILES = "abcdefghijk"
DIRECTIONS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
Piece = tuple[str, int, bool]  # letter (upper case), side (0 Red, 1 Blue), heroic
Board = dict[str, list[Piece]]


# --- §1 the board -------------------------------------------------------------------
def name(f: int, r: int) -> str:
    return f"{FILES[f]}{r + 1}"


def coords(square: str) -> tuple[int, int]:
    return FILES.index(square[0]), int(square[1:]) - 1


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 11 and 0 <= r < 12


def terrain(square: str) -> str:
    f, _ = coords(square)
    if f <= 1:
        return "sea"
    if f == 2:
        return "coast"
    if square in ("d6", "e6", "d7", "e7"):
        return "mouth"
    return "land"


def navigable(square: str) -> bool:
    return terrain(square) != "land"


def land_capable(square: str) -> bool:
    return terrain(square) != "sea"


def crosses_river(a: str, b: str) -> bool:
    return (coords(a)[1] <= 5) != (coords(b)[1] <= 5)


def reef_crossing(a: str, b: str) -> bool:
    return crosses_river(a, b) and a[0] == b[0] and a[0] in "fh"


FORBIDDEN_NAVY_STEPS = {("c5", "d6"), ("d6", "c5"), ("c8", "d7"), ("d7", "c8")}


def navigable_path(origin: str, path: list[str]) -> bool:
    """§1.5: every square navigable and no step across a land corner."""
    steps = zip([origin] + path[:-1], path, strict=True)
    return all(navigable(q) for q in path) and not any(s in FORBIDDEN_NAVY_STEPS for s in steps)


# --- §2 pieces ------------------------------------------------------------------------
def move_range(letter: str, heroic: bool, diagonal: bool) -> int:
    """§2.1 and §6.4: how far the piece moves in that kind of direction (0: not at all)."""
    if letter == "C":
        return 0 if diagonal and not heroic else 99
    if letter == "H":
        return 2 if heroic else 0
    if letter == "S":
        if heroic:
            return 2 if diagonal else 3
        return 1 if diagonal else 2
    base = {"I": 1, "E": 1, "G": 1, "M": 1, "T": 2, "A": 3, "F": 4, "N": 4}[letter]
    if diagonal and not heroic and letter in "IEGT":
        return 0
    return base + (1 if heroic else 0)


def capture_range(letter: str, heroic: bool, diagonal: bool, target_letter: str) -> int:
    """§2.1: how far the piece captures a stack whose carrier is ``target_letter``."""
    if letter == "C":
        if heroic:
            return 2
        return 0 if diagonal else 1
    if letter == "N":
        if target_letter == "F":
            return 0
        return (4 if target_letter == "N" else 3) + (1 if heroic else 0)
    if letter == "S" and target_letter == "N":
        return 0
    return move_range(letter, heroic, diagonal)


def captures_over_pieces(letter: str) -> bool:
    return letter in "ASFN"


def terrain_class(letter: str) -> str:
    return {"N": "navy", "F": "air", "A": "heavy", "G": "heavy", "S": "heavy"}.get(letter,
                                                                                  "land")


# --- §5.1, §5.2 stacks ------------------------------------------------------------------
CARRY = {"N": ("FTCIM", 2), "F": ("TCIM", 2), "T": ("CIM", 2), "E": ("AGS", 1), "H": ("C", 1)}


def carrier_letter(letters: list[str]) -> str | None:
    for c in "NFTEH":
        if c in letters:
            return c
    return None


def valid_stack(pieces: list[Piece]) -> bool:
    if len(pieces) == 1:
        return True
    if len(pieces) > 3:
        return False
    letters = [p[0] for p in pieces]
    carrier = carrier_letter(letters)
    if carrier is None:
        return False
    rest = list(letters)
    rest.remove(carrier)
    allowed, most = CARRY[carrier]
    if len(rest) > most or any(x not in allowed for x in rest):
        return False
    return not (carrier == "F" and rest.count("T") > 1)


def ordered(pieces: list[Piece]) -> list[Piece]:
    """Carrier first, then F, T, C, I, M, A, G, S, heroic first among equals (§5.2)."""
    rank = {x: i for i, x in enumerate("FTCIMAGSNEH")}
    rest = sorted(pieces, key=lambda p: (rank[p[0]], not p[2]))
    carrier = carrier_letter([p[0] for p in rest])
    if carrier is None:
        return rest
    first = next(p for p in rest if p[0] == carrier)
    rest.remove(first)
    return [first] + rest


def written(pieces: list[Piece]) -> str:
    text = "".join(("+" if p[2] else "") + p[0] for p in ordered(pieces))
    return f"({text})" if len(pieces) > 1 else text


# --- reading a FEN (§9.1) --------------------------------------------------------------
def read_fen(fen: str) -> tuple[Board, int]:
    fields = fen.split()
    board: Board = {}
    for i, row in enumerate(fields[0].split("/")):
        r, f = 11 - i, 0
        for token in re.findall(r"1[01]|\d|\([^)]*\)|\+?[A-Za-z]", row):
            if token[0].isdigit():
                f += int(token)
                continue
            pieces = [(m.group(2).upper(), 0 if m.group(2).isupper() else 1, bool(m.group(1)))
                      for m in re.finditer(r"(\+?)([A-Za-z])", token)]
            board[name(f, r)] = ordered(pieces)
            f += 1
    return board, 0 if fields[1] == "r" else 1


# --- §4 air defence ---------------------------------------------------------------------
def zones(board: Board, side: int) -> dict[str, set[str]]:
    """For every square, the providers of ``side`` (by their square) covering it."""
    cover: dict[str, set[str]] = {}
    for square, stack in board.items():
        letter, owner, heroic = stack[0]
        if owner != side or letter not in "GNS":
            continue
        level = {"G": 1, "N": 1, "S": 2}[letter] + (1 if heroic else 0)
        f0, r0 = coords(square)
        for f in range(11):
            for r in range(12):
                if (f - f0) ** 2 + (r - r0) ** 2 <= level ** 2:
                    cover.setdefault(name(f, r), set()).add(square)
    return cover


def flight(board: Board, side: int, heroic: bool, path: list[str]) -> str:
    """§4.4, for an air force of ``side`` flying over ``path`` (Q1 .. Qk)."""
    if heroic:
        return "SAFE"
    cover = zones(board, 1 - side)
    z = [cover.get(q, set()) for q in path]
    if all(not s for s in z):
        return "SAFE"
    if z[-1] and all(s <= z[-1] for s in z[:-1]):
        return "KAMIKAZE"
    return "SHOT DOWN"


# --- commanders (§7) -------------------------------------------------------------------
def commander_at(board: Board, side: int) -> str | None:
    for square, stack in board.items():
        if any(p[0] == "C" and p[1] == side for p in stack):
            return square
    return None


def line_of_sight(board: Board, side: int) -> set[str]:
    """Empty squares seen orthogonally by ``side``'s commander (§7.2)."""
    where = commander_at(board, side)
    seen: set[str] = set()
    if where is None:
        return seen
    f0, r0 = coords(where)
    for dx, dy in DIRECTIONS[::2]:
        f, r = f0 + dx, r0 + dy
        while on_board(f, r) and name(f, r) not in board:
            seen.add(name(f, r))
            f, r = f + dx, r + dy
    return seen


# --- §2.2 and §3: what one unit may do ----------------------------------------------------
def ray(origin: str, d: tuple[int, int]) -> Iterator[tuple[int, list[str]]]:
    f, r = coords(origin)
    path: list[str] = []
    for k in range(1, 12):
        if not on_board(f + k * d[0], r + k * d[1]):
            return
        path.append(name(f + k * d[0], r + k * d[1]))
        yield k, list(path)


def path_terrain_ok(letter: str, origin: str, path: list[str]) -> bool:
    """Q3 for a quiet move of a unit led by ``letter`` over ``path``."""
    kind = terrain_class(letter)
    if kind == "navy":
        return navigable_path(origin, path)
    if kind == "air":
        return land_capable(path[-1])
    if not all(land_capable(q) for q in path):
        return False
    if kind == "heavy":
        steps = zip([origin] + path[:-1], path, strict=True)
        return all(reef_crossing(a, b) for a, b in steps if crosses_river(a, b))
    return True


def join_terrain_ok(letter: str, origin: str, path: list[str], merged: list[Piece]) -> bool:
    """J2."""
    kind = terrain_class(letter)
    if kind == "navy":
        return navigable_path(origin, path)
    if kind == "heavy":
        steps = zip([origin] + path[:-1], path, strict=True)
        if not all(reef_crossing(a, b) for a, b in steps if crosses_river(a, b)):
            return False
    if kind != "air" and not all(land_capable(q) for q in path[:-1]):
        return False
    carrier = ordered(merged)[0][0]
    return navigable(path[-1]) if carrier == "N" else land_capable(path[-1])


def options(board: Board, origin: str, unit: list[Piece]) -> list[tuple[str, str]]:
    """Every (kind, square) the unit standing on ``origin`` may do; kinds '', x, _, @, &."""
    letter, side, heroic = unit[0]
    out = []
    lifted = {q: s for q, s in board.items()}
    rest = list(board[origin])
    for p in unit:
        rest.remove(p)
    if rest:
        lifted[origin] = rest
    else:
        del lifted[origin]
    walking = (len(unit) == 1 and letter == "C") or (letter == "H" and len(unit) == 2)
    sight = line_of_sight(lifted, 1 - side) if walking else set()
    for d in DIRECTIONS:
        diagonal = d[0] != 0 and d[1] != 0
        for k, path in ray(origin, d):
            target = path[-1]
            between = path[:-1]
            occupied_between = [q for q in between if q in board]
            stack = board.get(target)
            if stack is None or stack[0][1] == side:
                if k > move_range(letter, heroic, diagonal):
                    continue
                if letter == "N":
                    if any(board[q][0][1] != side for q in occupied_between):
                        continue
                elif letter != "F" and occupied_between:
                    continue
                if letter == "F" and flight(board, side, heroic, path) != "SAFE":
                    continue
                if walking and any(q in sight for q in between):
                    continue
                if stack is None:
                    if path_terrain_ok(letter, origin, path):
                        out.append(("", target))
                else:
                    merged = stack + unit
                    if valid_stack(merged) and join_terrain_ok(letter, origin, path, merged):
                        out.append(("&", target))
                continue
            # a capture
            target_letter = stack[0][0]
            reach = capture_range(letter, heroic, diagonal, target_letter)
            far = (letter == "C" and not diagonal and not occupied_between
                   and any(p[0] == "C" for p in stack))
            if k > reach and not far:
                continue
            if occupied_between and not captures_over_pieces(letter):
                continue
            if letter == "S" and target_letter == "N":
                continue
            if letter == "F":
                status = flight(board, side, heroic, path)
                if status == "SHOT DOWN":
                    continue
                if status == "KAMIKAZE":
                    out.append(("@", target))
                    continue
            can_land = navigable_path(origin, path) if letter == "N" else land_capable(target)
            if not can_land:
                out.append(("_", target))
                continue
            out.append(("x", target))
            if (letter == "F" and target_letter not in "FN"
                    and not any(p[0] == "C" for p in stack)):
                after = {q: list(s) for q, s in board.items()}
                if rest:
                    after[origin] = rest
                else:
                    del after[origin]
                after[target] = list(unit)
                end_of_turn(after, side)
                if attacked(after, target, 1 - side):
                    out.append(("_", target))
    return out


# --- §3.4 attacks -------------------------------------------------------------------------
def attacks(board: Board, square: str, piece: Piece, target: str) -> bool:
    """Does ``piece`` on ``square``, acting alone, satisfy K1-K4 against ``target``?"""
    letter, side, heroic = piece
    f0, r0 = coords(square)
    f1, r1 = coords(target)
    dx, dy = f1 - f0, r1 - r0
    if (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return False
    k = max(abs(dx), abs(dy))
    d = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    diagonal = d[0] != 0 and d[1] != 0
    path = [name(f0 + i * d[0], r0 + i * d[1]) for i in range(1, k + 1)]
    occupied_between = [q for q in path[:-1] if q in board]
    stack = board[target]
    target_letter = stack[0][0]
    if (letter == "C" and not diagonal and not occupied_between
            and any(p[0] == "C" for p in stack)):
        return True
    if k > capture_range(letter, heroic, diagonal, target_letter):
        return False
    if occupied_between and not captures_over_pieces(letter):
        return False
    if letter == "S" and target_letter == "N":
        return False
    return not (letter == "F" and flight(board, side, heroic, path) == "SHOT DOWN")


def attacked(board: Board, target: str, by: int) -> bool:
    return any(attacks(board, q, p, target) for q, s in board.items() for p in s
               if p[1] == by)


# --- §6 end of turn -------------------------------------------------------------------------
def end_of_turn(board: Board, mover: int) -> None:
    enemy = commander_at(board, 1 - mover)
    if enemy is not None:
        promoted = [(q, i) for q, s in board.items() for i, p in enumerate(s)
                    if p[1] == mover and not p[2] and attacks(board, q, p, enemy)]
        for q, i in promoted:
            board[q][i] = (board[q][i][0], board[q][i][1], True)
        for q, _ in promoted:
            board[q] = ordered(board[q])
    for side in (0, 1):
        guards = [(q, i) for q, s in board.items() for i, p in enumerate(s)
                  if p[1] == side and p[0] != "C"]
        if len(guards) == 1:
            q, i = guards[0]
            board[q][i] = (board[q][i][0], side, True)
            board[q] = ordered(board[q])


# --- §5.8 every legal turn -----------------------------------------------------------------
class Turn:
    def __init__(self, origin: str, steps: list[tuple[Piece | list[Piece], str, str]],
                 deploy: bool) -> None:
        self.origin, self.steps, self.deploy = origin, steps, deploy


def apply_step(board: Board, origin: str, unit: list[Piece], kind: str, target: str) -> Board:
    after = {q: list(s) for q, s in board.items()}
    if kind in ("x", "_", "@"):
        del after[target]
    if kind == "_":
        return after
    rest = list(after[origin])
    for p in unit:
        rest.remove(p)
    if rest:
        after[origin] = ordered(rest)
    else:
        del after[origin]
    if kind == "&":
        after[target] = ordered(board[target] + unit)
    elif kind != "@":
        after[target] = ordered(list(unit))
    return after


def play(board: Board, turn: Turn) -> tuple[Board, bool]:
    """The board after the turn's steps (no end-of-turn processing); and a commander taken."""
    took = False
    for unit, target, kind in turn.steps:
        pieces = unit if isinstance(unit, list) else [unit]
        if kind in ("x", "_", "@") and any(p[0] == "C" for p in board[target]):
            took = True
        board = apply_step(board, turn.origin, pieces, kind, target)
    return board, took


def finish(board: Board, side: int, turn: Turn) -> Board | None:
    """§6.5: the board after the turn, or None if the turn is illegal (§7.4)."""
    after, took = play(board, turn)
    if commander_at(after, side) is None:
        return None
    if took:
        return after
    end_of_turn(after, side)
    return None if attacked(after, commander_at(after, side), 1 - side) else after


def legal_turns(board: Board, side: int) -> list[tuple[Turn, Board]]:
    if commander_at(board, side) is None or commander_at(board, 1 - side) is None:
        return []
    turns: list[Turn] = []
    for origin, stack in list(board.items()):
        if stack[0][1] != side:
            continue
        for kind, target in options(board, origin, stack):
            turns.append(Turn(origin, [(list(stack), target, kind)], False))
        if len(stack) >= 2:
            extend(board, origin, list(stack), [], [], turns)
    out = []
    for t in turns:
        after = finish(board, side, t)
        if after is not None:
            out.append((t, after))
    return out


def extend(board: Board, origin: str, remaining: list[Piece], fired: list[Piece],
           steps: list, out: list[Turn]) -> None:
    for piece in dict.fromkeys(remaining):
        for kind, target in options(board, origin, [piece]):
            board2 = apply_step(board, origin, [piece], kind, target)
            rest = list(remaining)
            rest.remove(piece)
            fired2 = fired + [piece] if kind == "_" else fired
            steps2 = steps + [(piece, target, kind)]
            on_origin = rest + fired2
            some_left = any(k != "_" for _, _, k in steps2)
            stays_ok = not on_origin or (valid_stack(on_origin) and (
                navigable(origin) if ordered(on_origin)[0][0] == "N" else land_capable(origin)))
            if some_left and stays_ok:
                out.append(Turn(origin, steps2, True))
            took_commander = kind in ("x", "_", "@") and any(p[0] == "C" for p in board[target])
            if rest and not took_commander:
                extend(board2, origin, rest, fired2, steps2, out)


def long_form(board: Board, turn: Turn) -> str:
    """§9.3."""
    if not turn.deploy:
        unit, target, kind = turn.steps[0]
        return f"{written(unit)}{turn.origin}{kind}{target}"  # type: ignore[arg-type]
    stay = list(board[turn.origin])
    for piece, _, kind in turn.steps:
        if kind != "_":
            stay.remove(piece)  # type: ignore[arg-type]
    steps = ",".join(f"{written([p])}>{k}{t}" for p, t, k in turn.steps)  # type: ignore[list-item]
    return f"{turn.origin}:{written(stay) if stay else ''}:{steps}"


def perft(board: Board, side: int, depth: int) -> int:
    if depth == 0:
        return 1
    turns = legal_turns(board, side)
    if depth == 1:
        return len(turns)
    return sum(perft(after, 1 - side, depth - 1) for _, after in turns)


def fen_placement(board: Board) -> str:
    rows = []
    for r in range(11, -1, -1):
        row, empty = "", 0
        for f in range(11):
            stack = board.get(name(f, r))
            if stack is None:
                empty += 1
                continue
            text = "".join(("+" if p[2] else "") + (p[0] if p[1] == 0 else p[0].lower())
                           for p in ordered(stack))
            row += (str(empty) if empty else "") + (f"({text})" if len(stack) > 1 else text)
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


if __name__ == "__main__":
    start_board, to_move = read_fen(sys.argv[1])
    print(perft(start_board, to_move, int(sys.argv[2])))


# --- the tests -------------------------------------------------------------------------
import pytest  # noqa: E402

from engine import Position, get_variant  # noqa: E402
from engine.commander import rules as engine_rules  # noqa: E402

VARIANT = get_variant("commander")

POSITIONS = {
    "start": "6c4/1n2fh1hf2/3a2s2a1/2n1gt1tg2/2ie2m2ei/11/11/2IE2M2EI/2N1GT1TG2/3A2S2A1/"
             "1N2FH1HF2/6C4 r - - 0 1",
    "three-piece stack": "7c1ee/11/11/11/11/11/11/2(NTI)8/11/11/11/6C2EE r - - 0 1",
    "carried air force in a zone": "7c1ee/11/11/11/11/11/1(NF)g8/11/11/11/11/6C2EE r - - 0 1",
    "three captures": "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1",
    "commander on a tank": "4c4ee/11/11/11/11/11/11/11/11/11/11/3(TC)5EE r - - 0 1",
    "deploy to the commander": "9ee/11/11/11/11/11/4c6/3gig5/4(FT)6/11/11/6C2EE r - - 0 1",
    "commander behind an air force": "4c4ee/11/11/11/4it5/11/11/11/4(FC)6/11/11/9EE r - - 0 1",
    "heroic headquarters": "3c5ee/11/11/11/11/11/11/11/11/7t3/7+H3/6C4 r - - 0 2",
}


def engine_long_forms(position: Position) -> set[str]:
    return {VARIANT.format_lan(position, m) for m in VARIANT.legal_moves(position)}


def reference_long_forms(fen: str) -> set[str]:
    board, side = read_fen(fen)
    return {long_form(board, t) for t, _ in legal_turns(board, side)}


def difference(engine: set[str], reference: set[str]) -> str:
    return (f"only the engine: {sorted(engine - reference)}\n"
            f"only the reference: {sorted(reference - engine)}")


@pytest.mark.parametrize("fen", POSITIONS.values(), ids=POSITIONS.keys())
def test_engine_and_reference_agree_on_every_turn(fen: str) -> None:
    engine = engine_long_forms(VARIANT.parse_position(fen, relaxed=True))
    reference = reference_long_forms(fen)
    assert engine == reference, difference(engine, reference)


@pytest.mark.parametrize("fen", [POSITIONS["commander on a tank"],
                                 POSITIONS["heroic headquarters"]],
                         ids=["commander on a tank", "heroic headquarters"])
def test_engine_and_reference_agree_on_perft_2(fen: str) -> None:
    board, side = read_fen(fen)
    assert VARIANT.perft(VARIANT.parse_position(fen, relaxed=True), 2) == perft(board, side, 2)


def random_walk(seed: int, plies: int) -> list[Position]:
    """A random game of the engine, preferring captures, joins and deploys so that stacks,
    heroes and air defence come up; stops early when the game ends."""
    rng = random.Random(seed)
    position = VARIANT.start_position()
    seen = [position]
    for _ in range(plies):
        moves = VARIANT.legal_moves(position)
        if not moves:
            break
        lively = [m for m in moves if m.captures or m.kind == "deploy"
                  or any(s.kind == "&" for s in m.steps)]
        pool = lively if lively and rng.random() < 0.6 else moves
        position = VARIANT.make_move(position, rng.choice(pool))
        seen.append(position)
        if VARIANT.outcome(position).is_over:
            break
    return seen


@pytest.mark.parametrize("seed", range(3))
def test_engine_and_reference_agree_along_random_games(seed: int) -> None:
    """Every position of a random game: the same turns, and the same position after each
    turn played (FEN placement) — promotions and captures included."""
    for position in random_walk(seed, 60)[::5]:
        fen = VARIANT.format_position(position)
        engine = engine_long_forms(position)
        board, side = read_fen(fen)
        reference = {long_form(board, t): fen_placement(after)
                     for t, after in legal_turns(board, side)}
        assert engine == set(reference), f"{fen}\n" + difference(engine, set(reference))
        for move in VARIANT.legal_moves(position)[::7]:
            placed = VARIANT.format_position(VARIANT.make_move(position, move)).split()[0]
            assert placed == reference[VARIANT.format_lan(position, move)], (fen, move)


SHAPES = ["T", "I", "M", "E", "A", "G", "S", "F", "N", "H", "NF", "NT", "NI", "NFT", "NTI",
          "NII", "FT", "FI", "FTM", "TI", "TIM", "EA", "EG", "ES"]
COMMANDER_SHAPES = ["C", "C", "TC", "FC", "NC", "HC", "TCI", "FCT"]


def random_position(rng: random.Random) -> str:
    """A FEN no game need reach: both commanders (maybe carried or sheltered) and a few
    random stacks per side, any piece heroic with probability 1/4, on legal terrain."""
    board: Board = {}

    def place(letters: str, side: int) -> None:
        for _ in range(200):
            square = name(rng.randrange(11), rng.randrange(12))
            stack = ordered([(x, side, rng.random() < 0.25) for x in letters])
            standing = navigable(square) if stack[0][0] == "N" else land_capable(square)
            if square not in board and valid_stack(stack) and standing:
                board[square] = stack
                return

    for side in (0, 1):
        place(rng.choice(COMMANDER_SHAPES), side)
    for side in (0, 1):
        for _ in range(rng.randrange(1, 7)):
            place(rng.choice(SHAPES), side)
    return f"{fen_placement(board)} {'rb'[rng.randrange(2)]} - - 0 1"


@pytest.mark.parametrize("seed", [5, 8, 9, 14, 15, 22, 27, 31, 33, 36])
def test_engine_and_reference_agree_on_random_positions(seed: int) -> None:
    """Positions with heroic commanders and headquarters, carried commanders and crowded
    air defence, which games from the start rarely reach: the same turns, and the same
    placement after each."""
    fen = random_position(random.Random(seed))
    position = VARIANT.parse_position(fen, relaxed=True)
    board, side = read_fen(fen)
    reference = {long_form(board, t): fen_placement(after)
                 for t, after in legal_turns(board, side)}
    engine = {VARIANT.format_lan(position, m):
              VARIANT.format_position(VARIANT.make_move(position, m)).split()[0]
              for m in VARIANT.legal_moves(position)}
    assert engine == reference, f"{fen}\n" + difference(set(engine), set(reference))


def test_the_safety_shortcut_changes_no_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine skips the full commander-safety test for turns that cannot change the
    attacks on the commander; with the test forced for every turn, every position of
    several random games has the same legal turns."""
    positions = [p for seed in range(100, 103) for p in random_walk(seed, 120)[::4]]
    fast = [engine_rules.legal_turns(p.cells, p.side) for p in positions]
    original = engine_rules.Safety.__init__

    def always_full(self, board, side, commander, enemy_commander) -> None:  # type: ignore
        original(self, board, side, commander, enemy_commander)
        self.always = True

    monkeypatch.setattr(engine_rules.Safety, "__init__", always_full)
    for position, turns in zip(positions, fast, strict=True):
        assert engine_rules.legal_turns(position.cells, position.side) == turns, \
            VARIANT.format_position(position)
