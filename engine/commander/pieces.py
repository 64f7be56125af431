"""Commander Chess pieces and stacks as data: letters, ranges, the carry table, stack order.

A **piece** is a short string: an optional ``+`` (heroic) and its letter, upper case for Red
and lower case for Blue (``"T"``, ``"+t"``). A **stack** is the concatenation of its
pieces in canonical order, carrier first (rules §5.2): ``"N+FT"`` is a Red navy carrying a
heroic air force and a tank. Every stack string is looked up in `STACKS`, which builds its
`StackInfo` on first use, so move generation reads a stack's side, leader and contents with
one dictionary look-up.

Sets of pieces that are not valid stacks (rules §5.1) also get a string and an info, with
``valid`` false: they exist only on a deploy's origin in the middle of a turn (§5.5,
constraint 5 checks only the end of the turn).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..phrases import said

RED, BLUE = 0, 1

#: Letter -> name, in the order of the rules' summary table (§2.1).
#: Each is a phrase (`engine.phrases`), which a service words in its reader's language.
PIECE_NAMES: dict[str, str] = {
    "C": said("Commander"), "I": said("Infantry"), "T": said("Tank"), "M": said("Militia"),
    "E": said("Engineer"), "A": said("Artillery"), "G": said("Anti-aircraft gun"),
    "S": said("Missile"), "F": said("Air force"), "N": said("Navy"),
    "H": said("Headquarters"),
}
#: Points of each piece (§8.4); the headquarters scores 0 (Decision of §2.1).
POINTS: dict[str, int] = {"C": 100, "N": 80, "F": 40, "A": 30, "T": 20, "S": 20, "I": 10,
                          "E": 10, "G": 10, "M": 10, "H": 0}
#: How many of each piece one side has at the start (§1.6); FEN validation uses it.
FULL_SET: dict[str, int] = {"C": 1, "H": 2, "F": 2, "N": 2, "A": 2, "S": 1, "G": 2, "T": 2,
                            "I": 2, "E": 2, "M": 1}

# --- the carry table (§5.1) ----------------------------------------------------------------
CARRIER_PRIORITY = "NFTEH"  # the carrier of a valid stack is the first of these it holds
PASSENGER_ORDER = "FTCIMAGSNEH"  # passengers' order after the carrier (§5.2)
CARRIES: dict[str, str] = {"N": "FTCIM", "F": "TCIM", "T": "CIM", "E": "AGS", "H": "C"}
CAPACITY: dict[str, int] = {"N": 2, "F": 2, "T": 2, "E": 1, "H": 1}

# --- terrain classes (§1.4) and air defence (§4.1) -----------------------------------------
NAVY, AIR, HEAVY, LAND = "navy", "air", "heavy", "land"
TERRAIN_CLASS: dict[str, str] = {"N": NAVY, "F": AIR, "A": HEAVY, "G": HEAVY, "S": HEAVY,
                                 "C": LAND, "I": LAND, "T": LAND, "M": LAND, "E": LAND,
                                 "H": LAND}
ZONE_LEVEL: dict[str, int] = {"G": 1, "N": 1, "S": 2}  # +1 when heroic

# --- ranges (§2.1, §6.4) --------------------------------------------------------------------
# Per letter and heroic flag: (orthogonal, diagonal) move range and, per target class
# (ground, air force, navy), (orthogonal, diagonal) capture range. 0 = not at all.
UNLIMITED = 11
GROUND, AIRBORNE, NAVAL = 0, 1, 2


def _ranges(letter: str, heroic: bool) -> tuple[tuple[int, int], tuple[tuple[int, int], ...]]:
    """(move (orth, diag), capture per target class (orth, diag)) of one kind of piece."""
    def same(orth: int, diag: int) -> tuple[tuple[int, int], ...]:
        return ((orth, diag),) * 3

    if letter == "C":
        move = (UNLIMITED, UNLIMITED if heroic else 0)
        return move, same(2, 2) if heroic else same(1, 0)
    if letter in "IEG":
        return ((2, 2), same(2, 2)) if heroic else ((1, 0), same(1, 0))
    if letter == "M":
        return ((2, 2), same(2, 2)) if heroic else ((1, 1), same(1, 1))
    if letter == "T":
        return ((3, 3), same(3, 3)) if heroic else ((2, 0), same(2, 0))
    if letter == "A":
        return ((4, 4), same(4, 4)) if heroic else ((3, 3), same(3, 3))
    if letter == "S":
        r = (3, 2) if heroic else (2, 1)
        return r, (r, r, (0, 0))  # never a navy (§2.3.6)
    if letter == "F":
        r = (5, 5) if heroic else (4, 4)
        return r, same(*r)
    if letter == "N":
        move = (5, 5) if heroic else (4, 4)
        ground = (4, 4) if heroic else (3, 3)
        return move, (ground, (0, 0), move)  # never an air force (§2.3.8)
    if letter == "H":
        return ((2, 2), same(2, 2)) if heroic else ((0, 0), same(0, 0))
    raise ValueError(f"unknown piece letter {letter!r}")


#: Letters whose captures are stopped by a piece on an intermediate square (§2.2, K2).
CAPTURE_BLOCKED = frozenset("CITMEGH")


# --- pieces ---------------------------------------------------------------------------------
class PieceInfo(NamedTuple):
    """What move generation needs to know about one piece string."""

    side: int
    letter: str  # upper case
    heroic: bool
    move: tuple[int, ...]  # move range per direction N, NE, E, SE, S, SW, W, NW
    capture: tuple[tuple[int, int, int], ...]  # per direction: (ground, air, navy) range
    zone: int  # air-defence level when it is a carrier, 0 if none
    notation: str  # upper-case form for SAN: "T", "+T"
    reach: tuple[int, ...]  # per direction: the farthest square a move or capture looks at


def _piece_info(piece: str) -> PieceInfo:
    heroic = piece.startswith("+")
    raw = piece[1:] if heroic else piece
    letter = raw.upper()
    move, capture = _ranges(letter, heroic)
    per_dir_move = tuple(move[d % 2] for d in range(8))
    per_dir_capture = tuple(tuple(capture[c][d % 2] for c in range(3)) for d in range(8))
    zone = ZONE_LEVEL.get(letter, 0)
    reach = tuple(
        UNLIMITED if letter == "C" and d % 2 == 0 else max(per_dir_move[d], *per_dir_capture[d])
        for d in range(8))
    return PieceInfo(RED if raw.isupper() else BLUE, letter, heroic, per_dir_move,
                     per_dir_capture,  # type: ignore[arg-type]
                     zone + heroic if zone else 0, ("+" if heroic else "") + letter, reach)


PIECES: dict[str, PieceInfo] = {
    prefix + (letter if side == RED else letter.lower()): _piece_info(
        prefix + (letter if side == RED else letter.lower()))
    for letter in PIECE_NAMES for side in (RED, BLUE) for prefix in ("", "+")
}


def piece_of(letter: str, side: int, heroic: bool = False) -> str:
    """The piece string of a letter (any case) for ``side``."""
    letter = letter.upper() if side == RED else letter.lower()
    return "+" + letter if heroic else letter


def heroic_of(piece: str) -> str:
    """The same piece, heroic."""
    return piece if piece.startswith("+") else "+" + piece


# --- stacks ---------------------------------------------------------------------------------
_PIECE_RE = re.compile(r"\+?[A-Za-z]")


def split_stack(stack: str) -> tuple[str, ...]:
    """The piece strings of a stack string, in their order."""
    return tuple(_PIECE_RE.findall(stack))


def _order_key(piece: str) -> tuple[int, int]:
    info = PIECES[piece]
    return PASSENGER_ORDER.index(info.letter), 0 if info.heroic else 1


def canonical(pieces: tuple[str, ...] | list[str]) -> str:
    """The stack string of a set of pieces: carrier first, then passengers in order (§5.2).

    Works for any set; for an invalid one the 'carrier' is only the first piece listed.
    """
    ordered = sorted(pieces, key=_order_key)
    for letter in CARRIER_PRIORITY:
        for i, piece in enumerate(ordered):
            if PIECES[piece].letter == letter:
                return piece + "".join(ordered[:i] + ordered[i + 1:])
    return "".join(ordered)


def is_valid_stack(pieces: tuple[str, ...]) -> bool:
    """Whether these pieces (one colour) form a valid stack by the carry table (§5.1)."""
    if len(pieces) == 1:
        return True
    if not 2 <= len(pieces) <= 3:
        return False
    if len({PIECES[p].side for p in pieces}) != 1:
        return False
    letters = [PIECES[p].letter for p in pieces]
    carrier = next((c for c in CARRIER_PRIORITY if c in letters), None)
    if carrier is None:
        return False
    rest = list(letters)
    rest.remove(carrier)
    if len(rest) > CAPACITY[carrier] or any(r not in CARRIES[carrier] for r in rest):
        return False
    return not (carrier == "F" and rest.count("T") > 1)


class StackInfo(NamedTuple):
    """What move generation needs to know about one stack string."""

    side: int
    pieces: tuple[str, ...]  # carrier first
    leader: str  # the carrier's piece string
    letter: str  # the carrier's letter, upper case
    valid: bool
    size: int
    has_commander: bool
    zone: int  # air-defence level the stack projects (its carrier's), 0 if none
    target: int  # GROUND, AIRBORNE or NAVAL: the class of its carrier as a target
    plain_air: bool  # holds a non-heroic air force (whose flights air defence checks)
    guards: int  # pieces other than the commander (for the last-guard rule)
    fen: str  # as in FEN: "T", "(NFT)"
    notation: str  # as in SAN: "T", "(N+FT)"


class _StackTable(dict):
    """stack string -> StackInfo, built on first use."""

    def __missing__(self, stack: str) -> StackInfo:
        pieces = split_stack(stack)
        infos = [PIECES[p] for p in pieces]
        lead = infos[0]
        target = {"F": AIRBORNE, "N": NAVAL}.get(lead.letter, GROUND)
        notation = "".join(i.notation for i in infos)
        info = StackInfo(
            side=lead.side, pieces=pieces, leader=pieces[0], letter=lead.letter,
            valid=is_valid_stack(pieces), size=len(pieces),
            has_commander=any(i.letter == "C" for i in infos),
            zone=lead.zone if is_valid_stack(pieces) else 0, target=target,
            plain_air=any(i.letter == "F" and not i.heroic for i in infos),
            guards=sum(1 for i in infos if i.letter != "C"),
            fen=stack if len(pieces) == 1 else f"({stack})",
            notation=notation if len(pieces) == 1 else f"({notation})",
        )
        self[stack] = info
        return info


STACKS: _StackTable = _StackTable()


class _MergeTable(dict):
    """(stack, stack) -> the merged stack string, or None when the carry table forbids it."""

    def __missing__(self, key: tuple[str, str]) -> str | None:
        a, b = key
        pieces = STACKS[a].pieces + STACKS[b].pieces
        merged = canonical(pieces) if is_valid_stack(pieces) else None
        self[key] = merged
        return merged


MERGE: _MergeTable = _MergeTable()


class _RemoveTable(dict):
    """(stack, piece) -> what stays when the piece leaves (None when nothing stays)."""

    def __missing__(self, key: tuple[str, str]) -> str | None:
        stack, piece = key
        rest = list(STACKS[stack].pieces)
        rest.remove(piece)
        left = canonical(rest) if rest else None
        self[key] = left
        return left


REMOVE: _RemoveTable = _RemoveTable()


def promote(stack: str, indices: tuple[int, ...] | list[int]) -> str:
    """The stack with the pieces at these positions made heroic (order kept canonical)."""
    pieces = list(STACKS[stack].pieces)
    for i in indices:
        pieces[i] = heroic_of(pieces[i])
    return canonical(pieces)
