"""A second, deliberately simple Clash of Command move generator, for the tests only.

It shares no code with ``engine/``: the board is read from the adjacency listing of the
rules (``docs/rules/clash.md``, "The board"; the specification's §1, transcribed below), a position
is a plain dict node -> letter, and each piece's moves are written out from the rule text
(§4, §5) as a set of effects ``(origin, target, captures, left_behind, transform)``.
Clarity over speed: it exists so that the engine's perft counts are confirmed by a
generator written separately from the rules, not from the engine.

Run as a script to recompute every count of a perft data file (``tests/data/clash.perft``)
with this generator and print the file again::

    .venv/bin/python tests/engine/simple_clash.py tests/data/clash.perft
"""

from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass, field

# Rules §1, "Adjacency, for checking an implementation" (directions N NE E SE S SW W NW).
ADJACENCY = """
a9: E c9, SE b8, S a7          c9: E e9, SE d8, SW b8, W a9
e9: E g9, SE f8, SW d8, W c9   g9: E i9, SE h8, SW f8, W e9
i9: S i7, SW h8, W g9
b8: NE c9, E d8, SE c7, S b6, SW a7, NW a9
d8: NE e9, E f8, SE e7, SW c7, W b8, NW c9
f8: NE g9, E h8, SE g7, SW e7, W d8, NW e9
h8: NE i9, SE i7, S h6, SW g7, W f8, NW g9
a7: N a9, NE b8, SE b6, S a5
c7: NE d8, E e7, SE d6, S c5, SW b6, NW b8
e7: NE f8, E g7, SE f6, SW d6, W c7, NW d8
g7: NE h8, SE h6, S g5, SW f6, W e7, NW f8
i7: N i9, S i5, SW h6, NW h8
b6: N b8, NE c7, SE c5, S b4, SW a5, NW a7
d6: NE e7, E f6, SE e5, S d4, SW c5, NW c7
f6: NE g7, SE g5, S f4, SW e5, W d6, NW e7
h6: N h8, NE i7, SE i5, S h4, SW g5, NW g7
a5: N a7, NE b6, SE b4, S a3
c5: N c7, NE d6, SE d4, S c3, SW b4, NW b6
e5: NE f6, SE f4, SW d4, NW d6
g5: N g7, NE h6, SE h4, S g3, SW f4, NW f6
i5: N i7, S i3, SW h4, NW h6
b4: N b6, NE c5, SE c3, S b2, SW a3, NW a5
d4: N d6, NE e5, E f4, SE e3, SW c3, NW c5
f4: N f6, NE g5, SE g3, SW e3, W d4, NW e5
h4: N h6, NE i5, SE i3, S h2, SW g3, NW g5
a3: N a5, NE b4, SE b2, S a1
c3: N c5, NE d4, E e3, SE d2, SW b2, NW b4
e3: NE f4, E g3, SE f2, SW d2, W c3, NW d4
g3: N g5, NE h4, SE h2, SW f2, W e3, NW f4
i3: N i5, S i1, SW h2, NW h4
b2: N b4, NE c3, E d2, SE c1, SW a1, NW a3
d2: NE e3, E f2, SE e1, SW c1, W b2, NW c3
f2: NE g3, E h2, SE g1, SW e1, W d2, NW e3
h2: N h4, NE i3, SE i1, SW g1, W f2, NW g3
a1: N a3, NE b2, E c1          c1: NE d2, E e1, W a1, NW b2
e1: NE f2, E g1, W c1, NW d2   g1: NE h2, E i1, W e1, NW f2
i1: N i3, W g1, NW h2
"""

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E",
            "NW": "SE"}
FORWARD = {"w": ("N", "NE", "NW"), "b": ("S", "SE", "SW")}
SIDEWAYS = ("E", "W")
BACKWARDS = {"w": ("S", "SE", "SW"), "b": ("N", "NE", "NW")}
OPPONENT_BACK_ROW = {"w": "9", "b": "1"}  # the rank where a piece ending its move promotes
START = "bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1"

#: (origin, target, captured nodes, piece left behind, piece transformed into); the
#: letters are upper case whatever the side; target == origin for a transformation.
Effect = tuple[str, str, frozenset[str], str, str]


def read_adjacency(text: str) -> dict[str, dict[str, str]]:
    """node -> {direction: neighbour} from the rule file's listing."""
    board: dict[str, dict[str, str]] = {}
    for node, entries in re.findall(r"([a-i][1-9]):\s*((?:[NSEW]{1,2} [a-i][1-9],?\s*)+)",
                                    text):
        board[node] = {}
        for entry in entries.split(","):
            direction, neighbour = entry.split()
            board[node][direction] = neighbour
    return board


BOARD = read_adjacency(ADJACENCY)


def formula_edges() -> set[frozenset[str]]:
    """The board's edges from the formulas of rules §1 (to check the listing against)."""
    def exists(f: int, r: int) -> bool:
        return 1 <= f <= 9 and 1 <= r <= 9 and (f + r) % 2 == 0

    def name(f: int, r: int) -> str:
        return "abcdefghi"[f - 1] + str(r)

    edges = set()
    for f in range(1, 10):
        for r in range(1, 10):
            if not exists(f, r):
                continue
            for df in (-1, 1):  # every diagonal step between two nodes
                if exists(f + df, r + 1):
                    edges.add(frozenset((name(f, r), name(f + df, r + 1))))
            vertical = abs(f - 5) >= abs(r - 5) and abs(f - 5) >= abs(r - 3)
            if vertical and exists(f, r + 2):
                edges.add(frozenset((name(f, r), name(f, r + 2))))
            horizontal = abs(r - 5) >= abs(f - 5) and abs(r - 5) >= abs(f - 3)
            if horizontal and exists(f + 2, r):
                edges.add(frozenset((name(f, r), name(f + 2, r))))
    return edges


def listing_edges() -> set[frozenset[str]]:
    return {frozenset((a, b)) for a, around in BOARD.items() for b in around.values()}


def rank_nodes(rank: int) -> list[str]:
    """The nodes of one rank, from the a side."""
    files = "acegi" if rank % 2 else "bdfh"
    return [f + str(rank) for f in files]


# --- positions ---------------------------------------------------------------------------
@dataclass
class Position:
    board: dict[str, str] = field(default_factory=dict)  # only occupied nodes appear
    side: str = "w"  # "w" or "b"
    number: int = 1


def read_position(text: str) -> Position:
    placement, side, number = text.split()
    board = {}
    for rank, row in zip(range(9, 0, -1), placement.split("/"), strict=True):
        nodes = rank_nodes(rank)
        k = 0
        for ch in row:
            if ch.isdigit():
                k += int(ch)
            else:
                board[nodes[k]] = ch
                k += 1
        assert k == len(nodes), f"rank {rank} of {text!r} has {k} nodes"
    assert side in ("w", "b")
    return Position(board, side, int(number))


def write_position(position: Position) -> str:
    rows = []
    for rank in range(9, 0, -1):
        row, empty = "", 0
        for node in rank_nodes(rank):
            if node not in position.board:
                empty += 1
                continue
            if empty:
                row += str(empty)
            row += position.board[node]
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {position.side} {position.number}"


def owner(letter: str) -> str:
    return "w" if letter.isupper() else "b"


def step(node: str, direction: str) -> str | None:
    return BOARD[node].get(direction)


# --- moves, one function per piece (rules §4) ------------------------------------------
def commander_or_factor_moves(position: Position, node: str, choices: str) -> set[Effect]:
    """1 forward to an empty node leaving one of ``choices``, or transform in place."""
    moves = set()
    for d in FORWARD[position.side]:
        to = step(node, d)
        if to is not None and to not in position.board:
            for left in choices:
                moves.add((node, to, frozenset(), left, ""))
    for new in choices:
        moves.add((node, node, frozenset(), "", new))
    return moves


def droid_moves(position: Position, node: str) -> set[Effect]:
    """1 forward to an empty node, or capture 1 sideways or backwards."""
    moves = set()
    for d in FORWARD[position.side]:
        to = step(node, d)
        if to is not None and to not in position.board:
            moves.add((node, to, frozenset(), "", ""))
    for d in SIDEWAYS + BACKWARDS[position.side]:
        to = step(node, d)
        if to is not None and to in position.board:
            moves.add((node, to, frozenset([to]), "", ""))
    return moves


def hawk_moves(position: Position, node: str) -> set[Effect]:
    """1 forward to an empty node, or jump / approach / withdraw in any direction."""
    occupied = position.board
    moves = set()
    for d in FORWARD[position.side]:
        to = step(node, d)
        if to is not None and to not in occupied:
            moves.add((node, to, frozenset(), "", ""))
    for d in DIRECTIONS:
        near = step(node, d)
        if near is None:
            continue
        far = step(near, d)  # None when the straight line ends at ``near``
        behind = step(node, OPPOSITE[d])
        if near in occupied and far is not None and far not in occupied:
            moves.add((node, far, frozenset([near]), "", ""))  # jump
        if near not in occupied and far is not None and far in occupied:
            moves.add((node, near, frozenset([far]), "", ""))  # approach
        if near not in occupied and behind is not None and behind in occupied:
            moves.add((node, near, frozenset([behind]), "", ""))  # withdraw
    return moves


def brute_moves(position: Position, node: str) -> set[Effect]:
    """Capture a piece one step away, or two steps away through an empty node.

    The Brute's own node is not "two steps away", so going out and back is no move.
    """
    occupied = position.board
    targets = set()
    for first in BOARD[node].values():
        if first in occupied:
            targets.add(first)
            continue
        for second in BOARD[first].values():
            if second != node and second in occupied:
                targets.add(second)
    return {(node, t, frozenset([t]), "", "") for t in targets}


def slicer_moves(position: Position, node: str) -> set[Effect]:
    """Slide along a straight line capturing every piece passed and landed on (≥ 1)."""
    moves = set()
    for d in DIRECTIONS:
        taken: set[str] = set()
        to = step(node, d)
        while to is not None:
            if to in position.board:
                taken.add(to)
            if taken:
                moves.add((node, to, frozenset(taken), "", ""))
            to = step(to, d)
    return moves


def legal_moves(position: Position) -> set[Effect]:
    """Every legal move of the side to move; none once either side has no Commander."""
    letters = set(position.board.values())
    if "C" not in letters or "c" not in letters:
        return set()
    moves: set[Effect] = set()
    for node, letter in position.board.items():
        if owner(letter) != position.side:
            continue
        kind = letter.upper()
        if kind == "C":
            moves |= commander_or_factor_moves(position, node, "FB")
        elif kind == "F":
            moves |= commander_or_factor_moves(position, node, "DH")
        elif kind == "D":
            moves |= droid_moves(position, node)
        elif kind == "H":
            moves |= hawk_moves(position, node)
        elif kind == "B":
            moves |= brute_moves(position, node)
        elif kind == "S":
            moves |= slicer_moves(position, node)
    return moves


def play(position: Position, move: Effect) -> Position:
    """The position after ``move`` (rules §4 transformations and §5 promotion)."""
    origin, target, captures, left, transform = move
    side = position.side
    mine = str.upper if side == "w" else str.lower
    board = dict(position.board)
    piece = board[origin]
    if transform:  # in place: no promotion
        board[origin] = mine(transform)
    else:
        for node in captures:
            del board[node]
        del board[origin]
        if left:  # the piece left behind does not promote
            board[origin] = mine(left)
        if target[1] == OPPONENT_BACK_ROW[side]:
            piece = mine("S")
        elif piece.upper() == "D":
            piece = mine("H")
        elif piece.upper() == "H":
            piece = mine("D")
        board[target] = piece
    return Position(board, "b" if side == "w" else "w",
                    position.number + (1 if side == "b" else 0))


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(position)
    if depth == 1:
        return len(moves)
    return sum(perft(play(position, m), depth - 1) for m in moves)


def move_text(position: Position, move: Effect) -> str:
    """The move in the canonical notation of rules §7."""
    origin, target, captures, left, transform = move
    if transform:
        return f"{origin}={transform}"
    if left:
        return f"{origin}-{target}/{left}"
    if not captures or position.board[origin].upper() == "S":
        return f"{origin}-{target}"
    if captures == {target}:
        return f"{origin}x{target}"
    (captured,) = captures
    return f"{origin}-{target}x{captured}"


def divide(position: Position, depth: int) -> dict[str, int]:
    """perft split by first move, keyed by the move's canonical text."""
    return {move_text(position, m): perft(play(position, m), depth - 1)
            for m in legal_moves(position)}


def sorted_moves(moves: set[Effect]) -> list[Effect]:
    """A fixed order for a set of moves, so that seeded random play repeats exactly."""
    return sorted(moves, key=lambda m: (m[0], m[1], sorted(m[2]), m[3], m[4]))


def random_game(seed: int, plies: int, start: str = START,
                keep_commanders: bool = False) -> list[Position]:
    """The positions of a game of random legal moves (it stops at the end of the game).

    With ``keep_commanders`` a player avoids moves that cost it a Commander whenever it
    has another move, so that games last long enough to reach Slicers and crowded boards.
    """
    rng = random.Random(seed)
    positions = [read_position(start)]
    for _ in range(plies):
        position = positions[-1]
        moves = sorted_moves(legal_moves(position))
        if not moves:
            break
        if keep_commanders:
            mine = "C" if position.side == "w" else "c"
            count = list(position.board.values()).count(mine)
            safe = [m for m in moves
                    if list(play(position, m).board.values()).count(mine) == count]
            moves = safe or moves
        positions.append(play(position, rng.choice(moves)))
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
