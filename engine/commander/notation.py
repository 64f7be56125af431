"""Commander Chess notation: FEN (§9.1), SAN and LAN writers (§9.2, §9.3) and the reading
of move texts into patterns that legal turns are matched against (§9.4).

Writers work on raw turns (`rules`); the variant turns them into `Move` values.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import MoveSyntaxError, PositionError
from ..phrases import said
from .board import (
    FILES,
    LAND_CAPABLE,
    N_FILES,
    N_RANKS,
    NAMES,
    NAVIGABLE,
    file_of,
    rank_of,
)
from .pieces import FULL_SET, PIECES, STACKS, canonical, split_stack
from .rules import KIND_SYMBOL, STAY, RawTurn

# --- FEN (§9.1) -----------------------------------------------------------------------------
_FEN_ITEM = re.compile(r"1[01]|[1-9]|\((?:\+?[A-Za-z]){1,}\)|\+?[A-Za-z]|.")
_PIECE_LETTERS = set("CITMEAGSFNHcitmeagsfnh")


class Fen(NamedTuple):
    """The fields of a FEN string."""

    cells: tuple[str | None, ...]
    side: int
    halfmove: int
    fullmove: int
    deploy: str  # the seventh field (deploy in progress), "" if none


def parse_fen(text: str, relaxed: bool = False) -> Fen:
    """Read a FEN string; ``relaxed`` skips the piece-count rule (§9.1.3 item 3)."""
    fields = text.split()
    if len(fields) not in (6, 7):
        raise PositionError(said("{position}: a position has six fields (placement, side, -, "
                                 "-, half-move clock, move number), and a seventh while a "
                                 "deploy is being entered", position=repr(text)))
    placement, side, third, fourth, half, full = fields[:6]
    rows = placement.split("/")
    if len(rows) != N_RANKS:
        raise PositionError(said("{position}: the placement needs {n} ranks separated by '/'",
                                 position=repr(text), n=N_RANKS))
    cells: list[str | None] = [None] * (N_FILES * N_RANKS)
    for row_number, row in enumerate(rows):
        rank = N_RANKS - 1 - row_number
        f = 0
        for item in _FEN_ITEM.findall(row):
            if item[0].isdigit():
                f += int(item)
                continue
            pieces = split_stack(item.strip("()")) if item.startswith("(") else (item,)
            if not all(p.lstrip("+") in _PIECE_LETTERS for p in pieces) or (
                    item.startswith("(") and not 2 <= len(pieces) <= 3):
                raise PositionError(said("{position}: {item} on rank {rank} is not a piece or "
                                         "a stack of 2 or 3 pieces", position=repr(text),
                                         item=repr(item), rank=rank + 1))
            if f < N_FILES:
                cells[rank * N_FILES + f] = _stack_from_fen(text, pieces, rank * N_FILES + f)
            f += 1
        if f != N_FILES:
            raise PositionError(said("{position}: rank {rank} describes {n} squares, not 11",
                                     position=repr(text), rank=rank + 1, n=f))
    if side not in ("r", "b"):
        raise PositionError(said("{position}: the side to move is r (Red) or b (Blue)",
                                 position=repr(text)))
    if third != "-" or fourth != "-":
        raise PositionError(said("{position}: the third and fourth fields are always '-'",
                                 position=repr(text)))
    if not half.isdigit():
        raise PositionError(said("{position}: the half-move clock must be a whole number "
                                 "from 0", position=repr(text)))
    if not full.isdigit() or int(full) < 1:
        raise PositionError(said("{position}: the move number must be a whole number from 1",
                                 position=repr(text)))
    if not relaxed:
        _check_counts(text, cells, 0 if side == "r" else 1)
    return Fen(tuple(cells), 0 if side == "r" else 1, int(half), int(full),
               fields[6] if len(fields) == 7 else "")


def _stack_from_fen(text: str, pieces: Sequence[str], sq: int) -> str:
    if len({p.lstrip("+").isupper() for p in pieces}) != 1:
        raise PositionError(said("{position}: the stack on {square} mixes Red and Blue pieces",
                                 position=repr(text), square=NAMES[sq]))
    stack = canonical(list(pieces))
    info = STACKS[stack]
    if not info.valid:
        raise PositionError(said("{position}: {stack} on {square} is not a valid stack (carry "
                                 "table, rules §5.1)", position=repr(text), stack=info.notation,
                                 square=NAMES[sq]))
    if not stands_on(stack, sq):
        where = said("water") if info.letter == "N" else \
            said("files c to k (land-capable squares)")
        raise PositionError(said("{position}: {stack} on {square} must stand on {where}",
                                 position=repr(text), stack=info.notation, square=NAMES[sq],
                                 where=where))
    return stack


def stands_on(stack: str, sq: int) -> bool:
    """Whether a stack may stand on a square: where its carrier may (§5.6)."""
    info = STACKS[stack]
    return NAVIGABLE[sq] if info.letter == "N" else LAND_CAPABLE[sq]


def _check_counts(text: str, cells: Sequence[str | None], to_move: int) -> None:
    """§9.1.3 item 3, except that the side to move may lack its commander when the other
    side has one: the final position of a game won by capturing it (it has no moves)."""
    counts: list[dict[str, int]] = [defaultdict(int), defaultdict(int)]
    for s in cells:
        if s is not None:
            for p in STACKS[s].pieces:
                info = PIECES[p]
                counts[info.side][info.letter] += 1
    for side, name in ((0, said("Red")), (1, said("Blue"))):
        if counts[side]["C"] == 0 and side == to_move and counts[1 - side]["C"] == 1:
            continue  # the final position of a game won by capturing this commander
        if counts[side]["C"] != 1:
            raise PositionError(said("{position}: {side} must have exactly one commander, not "
                                     "{n}", position=repr(text), side=name,
                                     n=counts[side]["C"]))
        for letter, most in FULL_SET.items():
            if counts[side][letter] > most:
                raise PositionError(said("{position}: {side} has {n} pieces {letter}; the full "
                                         "set has {most}", position=repr(text), side=name,
                                         n=counts[side][letter], letter=letter, most=most))


def format_placement(cells: Sequence[str | None]) -> str:
    """The placement field: rank 12 first, empty squares merged (§9.1.2)."""
    rows = []
    for rank in range(N_RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(N_FILES):
            s = cells[rank * N_FILES + f]
            if s is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += STACKS[s].fen
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def format_fen(cells: Sequence[str | None], side: int, halfmove: int, fullmove: int) -> str:
    return f"{format_placement(cells)} {'rb'[side]} - - {halfmove} {fullmove}"


# --- SAN and LAN writers (§9.2, §9.3) -------------------------------------------------------
def notation_of(pieces: Sequence[str]) -> str:
    """A unit in move notation: upper-case letters, canonical order, ``+`` for heroic."""
    return STACKS[canonical(list(pieces))].notation if pieces else ""


def stay_part(cells: Sequence[str | None], turn: RawTurn) -> str:
    """The pieces left on a deploy's origin after the turn, in move notation."""
    origin, steps, _ = turn
    pieces = list(STACKS[cells[origin]].pieces)  # type: ignore[index]
    for piece, _, kind in steps:
        if kind != STAY:
            pieces.remove(piece)
    return notation_of(pieces)


def step_text(piece: str, target: int, kind: int, disambiguation: str = "") -> str:
    return f"{PIECES[piece].notation}{disambiguation}>{KIND_SYMBOL[kind]}{NAMES[target]}"


def lan(cells: Sequence[str | None], turn: RawTurn) -> str:
    """The long form of a turn (§9.3)."""
    origin, steps, deploy = turn
    if deploy:
        return (f"{NAMES[origin]}:{stay_part(cells, turn)}:"
                + ",".join(step_text(*s) for s in steps))
    unit, target, kind = steps[0]
    return f"{STACKS[unit].notation}{NAMES[origin]}{KIND_SYMBOL[kind]}{NAMES[target]}"


def disambiguation(origin: int, others: Sequence[int]) -> str:
    """File, rank or square of ``origin`` against the other origins (§9.2.2)."""
    others = [o for o in others if o != origin]
    if not others:
        return ""
    same_file = any(file_of(o) == file_of(origin) for o in others)
    same_rank = any(rank_of(o) == rank_of(origin) for o in others)
    if same_file and same_rank:
        return NAMES[origin]
    if same_file:
        return str(rank_of(origin) + 1)
    return FILES[file_of(origin)]


def san_texts(cells: Sequence[str | None], turns: Sequence[RawTurn]) -> list[str]:
    """The SAN of every legal turn, disambiguated against the others (§9.2)."""
    origins: dict[tuple[str, int], set[int]] = defaultdict(set)
    for origin, steps, deploy in turns:
        if not deploy:
            unit, target, _ = steps[0]
            origins[(STACKS[unit].letter, target)].add(origin)
    texts = []
    for turn in turns:
        origin, steps, deploy = turn
        if deploy:
            stay = stay_part(cells, turn)
            texts.append((stay + "<" if stay else "") + ",".join(step_text(*s) for s in steps))
            continue
        unit, target, kind = steps[0]
        extra = disambiguation(origin, tuple(origins[(STACKS[unit].letter, target)]))
        texts.append(f"{STACKS[unit].notation}{extra}{KIND_SYMBOL[kind]}{NAMES[target]}")
    seen: dict[str, int] = defaultdict(int)
    for turn, text in zip(turns, texts, strict=True):
        if turn[2]:
            seen[text] += 1
    return [lan(cells, turn) if turn[2] and seen[text] > 1 else text
            for turn, text in zip(turns, texts, strict=True)]


# --- reading move texts (§9.4) --------------------------------------------------------------
SQUARE = r"[a-k](?:1[0-2]|[1-9])"
PIECE = r"\+?[CITMEAGSFNH]"
UNIT = rf"(?:{PIECE}|\((?:{PIECE}){{1,3}}\))"
KIND = r"[x_@&]"
_ANNOTATION = re.compile(r"[\^#+]?[!?]*$")
_SIMPLE = re.compile(rf"(?P<unit>{UNIT})(?P<file>[a-k])?(?P<rank>1[0-2]|[1-9])?(?P<dash>-)?"
                     rf"(?P<kind>{KIND})?(?P<square>{SQUARE})")
_STEP = re.compile(rf"(?P<unit>{UNIT})(?P<file>[a-k])?(?P<rank>1[0-2]|[1-9])?>"
                   rf"(?P<kind>{KIND})?(?P<square>{SQUARE})")
_LAN_DEPLOY = re.compile(rf"(?P<origin>{SQUARE}):(?P<stay>{UNIT})?:(?P<steps>.+)")
_SAN_DEPLOY = re.compile(rf"(?:(?P<stay>{UNIT})<)?(?P<steps>[^<]+)")
_LETTER = re.compile(r"(\+?)([A-Z])")


class UnitPattern(NamedTuple):
    """A written unit: its letters and which of them carry a written ``+``."""

    letters: tuple[tuple[str, bool], ...]  # sorted (letter, heroic written)

    @classmethod
    def read(cls, text: str) -> UnitPattern:
        return cls(tuple(sorted((m.group(2), bool(m.group(1)))
                                for m in _LETTER.finditer(text))))

    def fits(self, pieces: Sequence[str], exact: bool) -> bool:
        """Same letters; a written ``+`` must be right; ``exact``: unwritten ones too."""
        actual = sorted((PIECES[p].letter, PIECES[p].heroic) for p in pieces)
        if [a[0] for a in actual] != [w[0] for w in self.letters]:
            return False
        if exact:
            return actual == list(self.letters)
        for letter in {w[0] for w in self.letters}:
            written = sum(1 for w in self.letters if w[0] == letter and w[1])
            heroic = sum(1 for a in actual if a[0] == letter and a[1])
            if written > heroic:
                return False
        return True

    @property
    def size(self) -> int:
        return len(self.letters)


class StepPattern(NamedTuple):
    unit: UnitPattern
    kind: int | None  # None when no kind symbol was written
    target: int


class Pattern(NamedTuple):
    """What a move text says. ``steps`` is empty for a simple (single-unit) move."""

    text: str
    deploy: bool
    unit: UnitPattern | None  # simple moves
    kind: int | None
    target: int
    origin_file: int | None
    origin_rank: int | None
    stay: UnitPattern | None  # deploys; None when no stay part was written
    steps: tuple[StepPattern, ...]


def _kind(symbol: str | None) -> int | None:
    return None if not symbol else KIND_SYMBOL.index(symbol)


def _square(name: str) -> int:
    return NAMES.index(name)


def read_move(text: str) -> Pattern:
    """Read any accepted form of a move text (§9.2–§9.4) into a pattern."""
    body = _ANNOTATION.sub("", text.strip())
    if not body:
        raise MoveSyntaxError(text, said("there is no move in it"))
    m = _LAN_DEPLOY.fullmatch(body)
    if m:
        origin = _square(m.group("origin"))
        steps = _read_steps(text, m.group("steps"), first_may_name_origin=False)[0]
        return Pattern(text, True, None, None, -1, file_of(origin), rank_of(origin),
                       UnitPattern.read(m.group("stay") or ""), steps)
    if ">" in body:
        m = _SAN_DEPLOY.fullmatch(body)
        if not m:
            raise MoveSyntaxError(text, _syntax_hint(body))
        steps, of, orank = _read_steps(text, m.group("steps"), first_may_name_origin=True)
        stay = UnitPattern.read(m.group("stay")) if m.group("stay") else None
        return Pattern(text, True, None, None, -1, of, orank, stay, steps)
    m = _SIMPLE.fullmatch(body)
    if not m:
        raise MoveSyntaxError(text, _syntax_hint(body))
    if m.group("dash") and m.group("kind"):
        raise MoveSyntaxError(text, said("write either '-' or a capture or join symbol, "
                                         "not both"))
    return Pattern(text, False, UnitPattern.read(m.group("unit")), _kind(m.group("kind")),
                   _square(m.group("square")),
                   FILES.index(m.group("file")) if m.group("file") else None,
                   int(m.group("rank")) - 1 if m.group("rank") else None, None, ())


def _read_steps(text: str, body: str, first_may_name_origin: bool
                ) -> tuple[tuple[StepPattern, ...], int | None, int | None]:
    steps = []
    origin_file = origin_rank = None
    for n, part in enumerate(body.split(",")):
        m = _STEP.fullmatch(part.strip())
        if not m:
            raise MoveSyntaxError(text, said("{step} is not a deploy step such as T>e6, "
                                             "T>xe6 or I>&d5", step=repr(part.strip())))
        if m.group("file") or m.group("rank"):
            if n or not first_may_name_origin:
                raise MoveSyntaxError(text, said("only the first step of a deploy may name "
                                                 "its origin, as in Ic2>c3"))
            origin_file = FILES.index(m.group("file")) if m.group("file") else None
            origin_rank = int(m.group("rank")) - 1 if m.group("rank") else None
        steps.append(StepPattern(UnitPattern.read(m.group("unit")), _kind(m.group("kind")),
                                 _square(m.group("square"))))
    return tuple(steps), origin_file, origin_rank


def _syntax_hint(body: str) -> str:
    if re.match(r"\+?[citmeagsfnh](?:[a-k]|\d|[>x_@&-])", body) or re.search(r"\([a-z]", body):
        return said("piece letters are written in upper case (C I T M E A G S F N H), files "
                    "in lower case (a to k)")
    if re.search(r"[A-K](?:1[0-2]|[1-9])\b", body):
        return said("files are written in lower case (a to k)")
    if re.search(r"[a-k](?:1[3-9]|[2-9]\d)|[l-z]\d", body):
        return said("squares are a1 to k12")
    return said("expected a move such as Te5, Ixc6, A_b2, F@e5, (NF)b6, I<T>e6 or "
                "T>e6,I>e5")


def split_pair(pieces: Sequence[str]) -> tuple[str, str] | None:
    """The carrier and the passenger of a two-piece set, for ``(XY)>sq`` (§9.4 item 8)."""
    if len(pieces) != 2:
        return None
    ordered = split_stack(canonical(list(pieces)))
    return ordered[0], ordered[1]

