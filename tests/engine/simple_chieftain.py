"""A second, deliberately simple mini-/micro-Chieftain move generator, for the tests only.

It shares no code with ``engine/``: a position is a plain dict square -> letter, each
piece's moves are written out from the rules (``docs/rules/chieftain.md``, "The pieces"; §
numbers are those of the specification the engine was built from), and a turn (§3) is
found by brute force: every sequence of moves of different pieces is tried, and a sequence
is legal when some assignment of distinct Chieftains (every one is kept as the sequence
grows) puts each move's Chieftain within 3 squares of the piece when it starts. A turn is
the set of its moves. Clarity over speed: it exists so that the engine's perft counts are
confirmed by a generator written from the rules, not from the engine.

Run as a script to recompute every count of a perft data file with this generator and
print the file again::

    .venv/bin/python tests/engine/simple_chieftain.py tests/data/chieftain.perft
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

FILES = "abcdefgh"
KING_STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]

#: a move: (piece letter in upper case, from square, to square)
Move = tuple[str, str, str]


SQUARES = {(f, r): f"{FILES[f]}{r + 1}" for f in range(8) for r in range(8)}
COORDS = {name: fr for fr, name in SQUARES.items()}


def square(f: int, r: int) -> str | None:
    """The name of the square at file f, rank r (0-based), or None off the board."""
    return SQUARES.get((f, r))


def coords(name: str) -> tuple[int, int]:
    return COORDS[name]


def king_distance(a: str, b: str) -> int:
    """The number of king steps between two squares."""
    (fa, ra), (fb, rb) = coords(a), coords(b)
    return max(abs(fa - fb), abs(ra - rb))


DISTANCE = {(a, b): king_distance(a, b) for a in COORDS for b in COORDS}


def sort_key(name: str) -> tuple[int, int]:
    """a1, b1, ..., h1, a2, ...: rank by rank."""
    f, r = coords(name)
    return (r, f)


def side_of(letter: str) -> str:
    return "w" if letter.isupper() else "b"


def _shift(name: str, df: int, dr: int) -> str | None:
    f, r = coords(name)
    return square(f + df, r + dr)


SHIFTED = {(name, df, dr): _shift(name, df, dr)
           for name in COORDS for df in range(-3, 4) for dr in range(-3, 4)}


def shifted(name: str, df: int, dr: int) -> str | None:
    """The square ``df`` files and ``dr`` ranks away, or None off the board."""
    return SHIFTED[name, df, dr]


# --- positions ------------------------------------------------------------------------------
@dataclass
class Position:
    board: dict[str, str] = field(default_factory=dict)  # only occupied squares appear
    side: str = "w"
    made: list[tuple[Move, bool]] = field(default_factory=list)  # turn in progress: (move, took)
    number: int = 1


def read_position(text: str) -> Position:
    placement, side, made, number = text.split()
    board = {}
    for rank, row in zip(range(8, 0, -1), placement.split("/"), strict=True):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[f"{FILES[f]}{rank}"] = ch
                f += 1
        assert f == 8, f"rank {rank} of {text!r}"
    moves = []
    if made != "-":
        for item in made.split(","):
            moves.append(((item[0], item[1:3], item[4:6]), item[3] == "x"))
    return Position(board, side, moves, int(number))


def write_position(position: Position) -> str:
    rows = []
    for rank in range(8, 0, -1):
        row, empty = "", 0
        for file in FILES:
            letter = position.board.get(f"{file}{rank}")
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    made = ",".join(move_text(m, took) for m, took in position.made) or "-"
    return f"{'/'.join(rows)} {position.side} {made} {position.number}"


def move_text(move: Move, took: bool) -> str:
    letter, start, end = move
    return f"{letter}{start}{'x' if took else '-'}{end}"


def board_at_turn_start(position: Position) -> dict[str, str]:
    """Take back the moves of the turn in progress; a captured piece becomes an enemy Man
    (which enemy piece it was never matters to the mover's moves)."""
    board = dict(position.board)
    enemy_man = "m" if position.side == "w" else "M"
    for (_, start, end), took in reversed(position.made):
        board[start] = board.pop(end)
        if took:
            board[end] = enemy_man
    return board


# --- one piece's moves (rules §2) -----------------------------------------------------------
def free_for(board: dict[str, str], name: str | None, side: str) -> bool:
    """The square exists and is empty or holds an enemy piece."""
    return name is not None and (name not in board or side_of(board[name]) != side)


def chieftain_targets(board: dict[str, str], start: str, side: str) -> set[str]:
    """1 or 2 king steps, the middle square empty, never back to the start."""
    targets = set()
    for df, dr in KING_STEPS:
        middle = shifted(start, df, dr)
        if not free_for(board, middle, side):
            continue
        targets.add(middle)
        if middle in board:
            continue  # the first step captured: the move ends there
        for df2, dr2 in KING_STEPS:
            end = shifted(middle, df2, dr2)
            if end != start and free_for(board, end, side):
                targets.add(end)
    return targets


def line_targets(board: dict[str, str], start: str, side: str,
                 directions: list[tuple[int, int]]) -> set[str]:
    """The Hero's move (orthogonal lines) or the Shaman's (diagonal lines)."""
    targets = set()
    for df, dr in directions:
        one, two, three = (shifted(start, k * df, k * dr) for k in (1, 2, 3))
        if free_for(board, one, side):
            targets.add(one)  # a step
        if free_for(board, two, side):
            targets.add(two)  # a leap over whatever is on square one
        step_then_leap = one is not None and one not in board
        leap_then_step = two is not None and two not in board
        if (step_then_leap or leap_then_step) and free_for(board, three, side):
            targets.add(three)
    return targets


def piece_targets(board: dict[str, str], start: str) -> set[str]:
    letter = board[start]
    side = side_of(letter)
    forward = 1 if side == "w" else -1
    kind = letter.upper()
    if kind == "C":
        return chieftain_targets(board, start, side)
    if kind == "H":
        return line_targets(board, start, side, ORTHOGONAL)
    if kind == "S":
        return line_targets(board, start, side, DIAGONAL)
    if kind == "N":
        vectors = KNIGHT_JUMPS
    elif kind == "M":
        vectors = KING_STEPS
    elif kind == "G":
        vectors = ORTHOGONAL + [(1, forward), (-1, forward)]
    elif kind == "V":
        vectors = DIAGONAL + [(0, forward)]
    else:
        raise ValueError(f"unknown piece {letter!r}")
    targets = {shifted(start, df, dr) for df, dr in vectors}
    return {t for t in targets if free_for(board, t, side)}  # type: ignore[arg-type]


def piece_moves(board: dict[str, str], side: str, moved: set[str]) -> set[Move]:
    """Every move of every piece of ``side`` not on ``moved``, ignoring activation."""
    return {(letter.upper(), start, end) for start, letter in board.items()
            if side_of(letter) == side and start not in moved
            for end in piece_targets(board, start)}


# --- the turn (rules §3) ----------------------------------------------------------------------
#: one way of activating the moves so far: the Chieftains used (numbered by their squares at
#: the start of the turn) and where each Chieftain stands now
Assignment = tuple[frozenset[int], tuple[str, ...]]


def activations(options: list[Assignment], move: Move) -> list[Assignment]:
    """Every way to extend the assignments ``options`` to ``move``: a Chieftain not used yet,
    within 3 squares of the piece when it starts (Chieftains keep their identity as they
    move, so the one moved may still activate later)."""
    _, start, end = move
    extended = []
    for used, where in options:
        for c, chief in enumerate(where):
            if c not in used and DISTANCE[chief, start] <= 3:
                extended.append((used | {c}, tuple(end if w == start else w for w in where)))
    return extended


def play_moves(board: dict[str, str], sequence: list[Move]) -> dict[str, str]:
    board = dict(board)
    for _, start, end in sequence:
        board[end] = board.pop(start)
    return board


def has_chieftain(board: dict[str, str], side: str) -> bool:
    return ("C" if side == "w" else "c") in board.values()


def legal_sequences(position: Position) -> list[list[Move]]:
    """Every legal sequence of further moves this turn (at least one), in any order."""
    start = board_at_turn_start(position)
    side = position.side
    other = "b" if side == "w" else "w"
    made = [m for m, _ in position.made]
    chiefs = tuple(sorted(name for name, letter in start.items()
                          if letter == ("C" if side == "w" else "c")))
    found: list[list[Move]] = []

    def extend(sequence: list[Move], options: list[Assignment]) -> None:
        board = play_moves(start, sequence)
        if not has_chieftain(board, other):
            return  # the game is won: the turn ends at once
        moved = {end for _, _, end in sequence}
        for move in piece_moves(board, side, moved):
            longer_options = activations(options, move)
            if longer_options:
                longer = sequence + [move]
                found.append(longer[len(made):])
                if len(longer) < len(chiefs):  # one move per Chieftain at most
                    extend(longer, longer_options)

    options: list[Assignment] = [(frozenset(), chiefs)]
    for move in made:
        options = activations(options, move)
    if has_chieftain(start, side) and has_chieftain(start, other):
        extend(made, options)
    return found


def canonical(sequences: list[list[Move]]) -> dict[frozenset[Move], list[Move]]:
    """Each set of moves with its legal order that sorts first (rules §3)."""
    best: dict[frozenset[Move], list[Move]] = {}
    def order(sequence: list[Move]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        return [(sort_key(m[1]), sort_key(m[2])) for m in sequence]

    for sequence in sequences:
        key = frozenset(sequence)
        if key not in best or order(sequence) < order(best[key]):
            best[key] = sequence
    return best


def turns(position: Position) -> dict[frozenset[Move], list[Move]]:
    """The whole turns (further moves, as sets) with their canonical orders."""
    return canonical(legal_sequences(position))


def end_of_turn(position: Position, sequence: list[Move]) -> Position:
    board = play_moves(position.board, sequence)
    return Position(board, "b" if position.side == "w" else "w", [],
                    position.number + (1 if position.side == "b" else 0))


def perft(position: Position, depth: int) -> int:
    """Leaves of the tree of whole turns; a turn in progress may also stop at once."""
    if depth == 0:
        return 1
    found = {frozenset(seq): seq for seq in legal_sequences(position)}  # any order will do
    if depth == 1:
        return len(found) + (1 if position.made else 0)
    total = sum(perft(end_of_turn(position, seq), depth - 1) for seq in found.values())
    if position.made:
        total += perft(end_of_turn(position, []), depth - 1)
    return total


def turn_texts(position: Position) -> dict[str, list[Move]]:
    """Every whole turn by its canonical text: moves joined by ", "; a lone move that stops
    the turn although a further move was possible ends with ", end"."""
    sequences = legal_sequences(position)
    took = {end for end, letter in position.board.items() if side_of(letter) != position.side}
    goes_on = {s[0] for s in sequences if len(s) > 1}
    texts = {}
    for sequence in canonical(sequences).values():
        text = ", ".join(move_text(m, m[2] in took) for m in sequence)
        if len(sequence) == 1 and sequence[0] in goes_on:
            text += ", end"
        texts[text] = sequence
    return texts


def divide(position: Position, depth: int) -> dict[str, int]:
    """perft split by whole turn, keyed by the turn's canonical text (a turn in progress
    stopped at once is "end")."""
    out = {text: perft(end_of_turn(position, seq), depth - 1)
           for text, seq in turn_texts(position).items()}
    if position.made:
        out["end"] = perft(end_of_turn(position, []), depth - 1)
    return out


def sorted_turns(position: Position) -> list[list[Move]]:
    """The whole turns in a fixed order (their canonical texts), so seeded play repeats."""
    texts = turn_texts(position)
    return [texts[text] for text in sorted(texts)]


def random_game(seed: int, turns_played: int, start: str) -> list[Position]:
    """The positions at the start of each turn of a game of random whole turns (it stops
    when the game is over: a side without Chieftains, or no legal turn)."""
    rng = random.Random(seed)
    positions = [read_position(start)]
    for _ in range(turns_played):
        choices = sorted_turns(positions[-1])
        if not choices:
            break
        positions.append(end_of_turn(positions[-1], rng.choice(choices)))
    return positions


# --- perft data files ------------------------------------------------------------------------
def recount(lines: list[str]) -> list[str]:
    """The lines of a perft file with every ``perft`` count recomputed here."""
    out, position = [], None
    for line in lines:
        words = line.split(maxsplit=1)
        if words and words[0] == "epd":
            position = read_position(words[1])
        elif words and words[0] == "perft":
            assert position is not None, "a perft line must follow an epd line"
            depth = int(words[1].split()[0])
            line = f"perft {depth} {perft(position, depth)}"
        out.append(line)
    return out


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        print("\n".join(recount(f.read().splitlines())))
