"""Clash of Command (Peter Stobbe, 2001), complete.

The rules for players: ``docs/rules/clash.md``, whose "Choices this project made"
lists every decision taken where the original rules are silent, each with its test.
Section marks (§) below refer to the numbered rules specification the engine was
built from; the players' document says the same in its own words.

Representation: one cell per node of the 41-node graph, ``None`` or a piece letter (upper
case White, lower case Black). A move is one `Step`: origin, target (the origin itself for
an in-place transformation), the captured nodes, the piece left behind (``drop``) or the
piece chosen by an in-place transformation (``becomes``); ``unit`` is the mover's letter.
The automatic transformations (Droid ↔ Hawk, promotion to Slicer) follow from the move and
are not part of its identity.

Generation works on raw tuples of node indices ``(origin, target, captures, drop,
becomes)`` so that perft and counting never build objects; `legal_moves` wraps them.

Decisions: the rule file's §6 decides that a move leaving both sides without Commanders
wins for the mover and one leaving only the mover without Commanders loses. Ours, where
the rule file is silent: a Brute's two-step capture may not come back onto its own origin
(that node is not "two steps away", and the Brute would capture itself).

Decisions of notation (rules §7 is silent on them):

* Text that names the captures exactly wins over text that only fits: ``a5-b4`` is the
  Hawk's plain step even when an approach to b4 exists; ``a5-b4xc3`` is the approach.
* ``b4xa3`` (a capture sign before the destination) claims a capture on the destination:
  ``c3xc5`` is refused when c5 is empty, and a Hawk never captures where it lands. The
  Slicer's seed form ``i1xa1xc1`` is the exception: its first node is the destination
  whether or not a piece stood there.
* A Slicer's captures may be listed in part or in any order; every listed one must be on
  its path.
* Input is read in ASCII: any white space separates, capital ``X`` is a capture sign, and
  look-alike letters (dotless ı, long ſ, the Kelvin sign) are refused.
* In a position string a run of empty nodes is a digit 1–9; ``0`` and non-ASCII digits
  (``²``) are refused, so every accepted string means one position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .boards import CLASH
from .errors import IllegalMoveError, MoveSyntaxError, PositionError
from .move import Move, Step
from .phrases import a_or_an, either, every, said, said_n
from .position import Piece, Position
from .topology import NO_NODE, OPPOSITE
from .variant import ONGOING, Outcome, Variant, register

TOPO = CLASH
NAMES = TOPO.nodes
INDEX = TOPO.index
N_NODES = len(NAMES)
_D = TOPO.direction_index
STEP = TOPO.step  # STEP[direction][node] -> node or NO_NODE
ALL_DIRS = tuple(range(len(TOPO.directions)))
OPP = tuple(_D[OPPOSITE[d]] for d in TOPO.directions)
FORWARD = (tuple(_D[d] for d in ("N", "NE", "NW")), tuple(_D[d] for d in ("S", "SE", "SW")))
SIDEWAYS = (_D["E"], _D["W"])
BACKWARD = (FORWARD[1], FORWARD[0])
NOT_FORWARD = (SIDEWAYS + BACKWARD[0], SIDEWAYS + BACKWARD[1])
# the opponent's back row, where a piece ending its move becomes a Slicer
PROMOTION_ROW = (frozenset(TOPO.nodes_tagged("back-row-black")),
                 frozenset(TOPO.nodes_tagged("back-row-white")))
# (direction, neighbour) lists per node, and the Brute's targets through each neighbour
NEIGHBOURS = tuple(tuple(STEP[d][i] for d in ALL_DIRS if STEP[d][i] != NO_NODE)
                   for i in range(N_NODES))

# the pieces' names, as phrases (`engine.phrases`: a service words them in its language)
PIECE_NAMES = {"C": said("Commander"), "F": said("Factor"), "D": said("Droid"),
               "H": said("Hawk"), "B": said("Brute"), "S": said("Slicer")}
LEAVES = {"C": ("B", "F"), "F": ("D", "H")}  # what a Commander / Factor may leave or become
AFTER_MOVE = {"D": "H", "H": "D"}  # automatic transformation after moving
START = "bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCB w 1"

RawMove = tuple[int, int, tuple[int, ...], str, str]

RULES = """\
**Clash of Command** — web of 41 points; you may capture your own pieces.
Win: after your move the opponent has no Commander left. No draws by rule.
Forward = straight or diagonally forward along a line.
• **C Commander**: 1 forward to an empty point, leaving a Factor or Brute behind (`g1-f2/B`); \
or turn into a Factor or Brute in place (`a1=F`). Never captures; not royal.
• **F Factor**: 1 forward to an empty point leaving a Droid or Hawk (`b2-c3/D`); \
or turn into a Droid or Hawk in place (`b2=H`).
• **D Droid**: 1 forward to an empty point, or captures 1 sideways/backwards (`b4xa3`); \
then becomes a Hawk.
• **H Hawk**: 1 forward to an empty point, or captures in any direction by jump \
(`a5-a1xa3`), approach (`a5-b4xc3`) or withdrawal (`b2-a1xc3`); then becomes a Droid.
• **B Brute**: only captures: onto an occupied point 1 step away, or 2 steps away through \
an empty point (the path may bend).
• **S Slicer**: slides in a line capturing everything it passes and lands on (`i1-a1`); \
must capture at least one piece.
A piece ending its move on the opponent's back row becomes a Slicer."""


def _owner(letter: str) -> int:
    return 0 if letter.isupper() else 1


def generate(cells: Sequence[str | None], side: int) -> list[RawMove]:
    """Every legal move of ``side`` as raw tuples (none when the game is over)."""
    if "C" not in cells or "c" not in cells:
        return []
    out: list[RawMove] = []
    add = out.append
    forward = FORWARD[side]
    not_forward = NOT_FORWARD[side]
    upper = side == 0
    for i in range(N_NODES):
        p = cells[i]
        if p is None or p.isupper() != upper:
            continue
        kind = p.upper()
        if kind == "C" or kind == "F":
            a, b = LEAVES[kind]
            for d in forward:
                t = STEP[d][i]
                if t != NO_NODE and cells[t] is None:
                    add((i, t, (), a, ""))
                    add((i, t, (), b, ""))
            add((i, i, (), "", a))
            add((i, i, (), "", b))
        elif kind == "D":
            for d in forward:
                t = STEP[d][i]
                if t != NO_NODE and cells[t] is None:
                    add((i, t, (), "", ""))
            for d in not_forward:
                t = STEP[d][i]
                if t != NO_NODE and cells[t] is not None:
                    add((i, t, (t,), "", ""))
        elif kind == "H":
            _hawk(cells, i, forward, add)
        elif kind == "B":
            targets = {t for t in NEIGHBOURS[i] if cells[t] is not None}
            for m in NEIGHBOURS[i]:
                if cells[m] is None:
                    targets.update(t for t in NEIGHBOURS[m] if t != i and cells[t] is not None)
            for t in targets:
                add((i, t, (t,), "", ""))
        else:  # Slicer
            for d in ALL_DIRS:
                table = STEP[d]
                taken: tuple[int, ...] = ()
                t = table[i]
                while t != NO_NODE:
                    if cells[t] is not None:
                        taken += (t,)
                    if taken:
                        add((i, t, taken, "", ""))
                    t = table[t]
    return out


def _hawk(cells: Sequence[str | None], i: int, forward: tuple[int, ...], add) -> None:
    for d in forward:
        t = STEP[d][i]
        if t != NO_NODE and cells[t] is None:
            add((i, t, (), "", ""))
    for d in ALL_DIRS:
        a = STEP[d][i]
        if a == NO_NODE:
            continue
        b = STEP[d][a]
        if cells[a] is not None:
            if b != NO_NODE and cells[b] is None:
                add((i, b, (a,), "", ""))  # jump
            continue
        if b != NO_NODE and cells[b] is not None:
            add((i, a, (b,), "", ""))  # approach
        back = STEP[OPP[d]][i]
        if back != NO_NODE and cells[back] is not None:
            add((i, a, (back,), "", ""))  # withdraw


def make_raw(cells: Sequence[str | None], side: int, raw: RawMove) -> list[str | None]:
    """The cells after a raw move (automatic transformations included)."""
    i, t, caps, drop, becomes = raw
    new = list(cells)
    piece = new[i]
    assert piece is not None
    if becomes:
        new[i] = becomes if side == 0 else becomes.lower()
        return new
    for c in caps:
        new[c] = None
    new[i] = None
    if drop:
        new[i] = drop if side == 0 else drop.lower()
    if t in PROMOTION_ROW[side]:
        piece = "S" if side == 0 else "s"
    else:
        after = AFTER_MOVE.get(piece.upper())
        if after:
            piece = after if side == 0 else after.lower()
    new[t] = piece
    return new


def _perft(cells: tuple[str | None, ...], side: int, depth: int) -> int:
    moves = generate(cells, side)
    if depth == 1:
        return len(moves)
    other = 1 - side
    return sum(_perft(tuple(make_raw(cells, side, m)), other, depth - 1) for m in moves)


# --- notation ----------------------------------------------------------------------------
_TOKEN = re.compile(
    r"\s*(?:(?P<pnode>[cfdhbs])(?P<pn>[a-i][1-9])(?![0-9])"
    r"|(?P<node>[a-z][0-9]+)"
    r"|(?P<sym>[-x=/,:])"
    r"|(?P<glued>[a-z]{2,}[0-9]+)"
    r"|(?P<word>[a-z]+)"
    r"|(?P<bad>\S))",
    re.IGNORECASE | re.ASCII,  # ASCII: no ı, ſ or Kelvin sign standing in for i, s, k
)
_PIECE_LETTERS = frozenset("".join(PIECE_NAMES) + "".join(PIECE_NAMES).lower())
_NAME_TO_LETTER = {name.lower(): letter for letter, name in PIECE_NAMES.items()}


def _piece_letter(word: str) -> str | None:
    w = word.lower()
    if len(w) == 1 and w.upper() in PIECE_NAMES:
        return w.upper()
    return _NAME_TO_LETTER.get(w)


class _Pattern:
    """What a move text says: origin, destination, captures, piece letter, choice."""

    def __init__(self) -> None:
        self.letter: str | None = None
        self.origin: int = NO_NODE
        self.dest: int = NO_NODE
        self.dest_is_capture = False
        self.captures: list[int] = []
        self.choice: str | None = None
        self.transform = False


def _point(text: str, name: str) -> str:
    """``name`` as a node of the board, or the syntax error that says it is none."""
    name = name.lower()
    if name not in INDEX:
        raise MoveSyntaxError(text, said("{point} is not a point of the board (points are a1, "
                                         "c1, ... i9 where the file number plus the rank is "
                                         "even)", point=name))
    return name


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    pos = 0
    # any white space (a pasted no-break space too) separates; the pattern itself is ASCII
    stripped = "".join(" " if ch.isspace() else ch for ch in text).rstrip()
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if m is None:  # only trailing white space can fail to match
            break
        pos = m.end()
        kind = m.lastgroup
        if kind == "pn":
            out.append(("piece", m.group("pnode")))
            out.append(("node", _point(text, m.group("pn"))))
        elif kind == "node":
            out.append(("node", _point(text, m.group("node"))))
        elif kind == "glued":
            raise MoveSyntaxError(text, said("{text} is neither a point (such as c3) nor a "
                                             "piece letter and a point (such as Dc3)",
                                             text=repr(m.group("glued"))))
        elif kind == "bad":
            raise MoveSyntaxError(text, said("unexpected character {character}",
                                             character=repr(m.group("bad"))))
        else:
            out.append((kind, m.group(kind).lower()))
    return out


def parse_pattern(text: str) -> _Pattern:
    """Read any accepted form of a Clash move text (rules §7) into a pattern."""
    toks = _tokens(text)
    if not toks:
        raise MoveSyntaxError(text, said("there is no move in it"))
    pat = _Pattern()
    k = 0
    if toks[0][0] in ("piece", "word") and len(toks) > 1 and toks[1][0] == "node":
        pat.letter = _piece_letter(toks[0][1])
        if pat.letter is None:
            raise MoveSyntaxError(text, said("{word} is not a piece letter or name",
                                             word=repr(toks[0][1])))
        k = 1
    if k >= len(toks) or toks[k][0] != "node":
        raise MoveSyntaxError(text, said("a move starts with the point of the piece that "
                                         "moves, as in c3-d4"))
    pat.origin = INDEX[toks[k][1]]
    k += 1
    sep = None
    while k < len(toks):
        kind, val = toks[k]
        if kind == "node":
            node = INDEX[val]
            if sep == "x":
                pat.captures.append(node)
            elif pat.dest != NO_NODE:
                raise MoveSyntaxError(text, said("it names two destinations"))
            else:
                pat.dest = node
            sep = None
            k += 1
        elif kind == "sym" and val in "-x":
            sep = val
            k += 1
        elif kind == "word" and val == "x":
            sep = "x"
            k += 1
        else:
            _parse_choice(text, toks[k:], pat)
            break
    if sep is not None:
        raise MoveSyntaxError(text, said("it ends with {symbol}; a point should follow",
                                         symbol=repr(sep)))
    if pat.dest == NO_NODE and pat.captures:
        pat.dest = pat.captures[0]  # b4xa3, i1xa1xc1: the first x-node is the destination
        pat.dest_is_capture = True
    if pat.dest == NO_NODE:
        if pat.choice is None:
            raise MoveSyntaxError(text, said("it names no destination and no "
                                             "transformation"))
        pat.transform = True
    return pat


def _parse_choice(text: str, toks: list[tuple[str, str]], pat: _Pattern) -> None:
    """`/B`, `=D`, ` B`, `=Droid`, `, Brute on g1`: the piece left behind or chosen."""
    rest = list(toks)
    if rest and rest[0][0] == "sym" and rest[0][1] in "/=,:":
        rest.pop(0)
    if not rest or rest[0][0] not in ("word", "piece"):
        raise MoveSyntaxError(text, said("expected a piece letter or name (such as B or "
                                         "Brute) after the move"))
    letter = _piece_letter(rest[0][1])
    if letter is None:
        raise MoveSyntaxError(text, said("{word} is not a piece letter or name",
                                         word=repr(rest[0][1])))
    pat.choice = letter
    rest.pop(0)
    if rest and rest[0] == ("word", "on"):
        rest.pop(0)
        if not rest or rest[0][0] != "node":
            raise MoveSyntaxError(text, said("expected a point after 'on'"))
        if INDEX[rest[0][1]] != pat.origin:
            raise MoveSyntaxError(text, said("a piece can only be left on the point the "
                                             "mover leaves ({point})",
                                             point=NAMES[pat.origin]))
        rest.pop(0)
    if rest:
        raise MoveSyntaxError(text, said("unexpected text after the piece choice"))


@register
class ClashOfCommand(Variant):
    name = "clash"
    order = 10
    aliases = ("clash-of-command",)
    display_name = said("Clash of Command")
    topology = TOPO
    start_fen = START
    draw_by_agreement = False
    piece_names = PIECE_NAMES
    rules_text = RULES

    # --- positions -------------------------------------------------------------------
    def parse_position(self, text: str) -> Position:
        fields = text.split()
        if len(fields) != 3:
            raise PositionError(said("{position}: a position has three fields: placement, "
                                     "side to move (w or b) and move number",
                                     position=repr(text)))
        placement, side, number = fields
        rows = placement.split("/")
        if len(rows) != 9:
            raise PositionError(said("{position}: the placement needs {n} ranks separated by "
                                     "'/'", position=repr(text), n=9))
        cells: list[str | None] = [None] * N_NODES
        for rank_number, row in zip(range(9, 0, -1), rows, strict=True):
            nodes = [i for i in range(N_NODES) if TOPO.coords[i][1] == rank_number - 1]
            k = 0
            for ch in row:
                # ASCII only: str.isdigit and str.upper also accept '²' and 'ſ'
                if ch in "123456789":
                    k += int(ch)
                elif ch in _PIECE_LETTERS:
                    if k < len(nodes):
                        cells[nodes[k]] = ch
                    k += 1
                else:
                    raise PositionError(said("{position}: {character} is not a piece letter "
                                             "nor a number of empty points (1 to 5)",
                                             position=repr(text), character=repr(ch)))
            if k != len(nodes):
                raise PositionError(said("{position}: rank {rank} must describe {points} "
                                         "points, not {n}", position=repr(text),
                                         rank=rank_number, points=len(nodes), n=k))
        if side not in ("w", "b"):
            raise PositionError(said("{position}: the side to move must be w or b",
                                     position=repr(text)))
        if not (number.isascii() and number.isdigit()) or int(number) < 1:
            raise PositionError(said("{position}: the move number must be a whole number "
                                     "from 1", position=repr(text)))
        return Position(self.name, tuple(cells), 0 if side == "w" else 1, int(number))

    def format_position(self, position: Position) -> str:
        rows = []
        for rank in range(8, -1, -1):
            row, empty = "", 0
            for i in range(N_NODES):
                if TOPO.coords[i][1] != rank:
                    continue
                p = position.cells[i]
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
            rows.append(row + (str(empty) if empty else ""))
        return f"{'/'.join(rows)} {'wb'[position.side]} {position.fullmove}"

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        p = position.cells[INDEX[node]]
        return () if p is None else (Piece(p.upper(), _owner(p)),)

    # --- moves ---------------------------------------------------------------------
    def legal_moves(self, position: Position) -> list[Move]:
        cells = position.cells
        return [
            Move((Step(NAMES[i], NAMES[t], tuple(NAMES[c] for c in caps),
                       cells[i].upper(), "", drop, becomes),))  # type: ignore[union-attr]
            for i, t, caps, drop, becomes in generate(cells, position.side)
        ]

    def count_moves(self, position: Position) -> int:
        return len(generate(position.cells, position.side))

    def perft(self, position: Position, depth: int) -> int:
        if depth == 0:
            return 1
        return _perft(position.cells, position.side, depth)

    def make_move(self, position: Position, move: Move) -> Position:
        s = move.steps[0]
        raw = (INDEX[s.origin], INDEX[s.target], tuple(INDEX[c] for c in s.captures),
               s.drop, s.becomes)
        cells = make_raw(position.cells, position.side, raw)
        return Position(self.name, tuple(cells), 1 - position.side,
                        position.fullmove + position.side)

    def format_move(self, position: Position, move: Move) -> str:
        s = move.steps[0]
        if s.becomes:
            return f"{s.origin}={s.becomes}"
        if s.drop:
            return f"{s.origin}-{s.target}/{s.drop}"
        if not s.captures or s.unit == "S":
            return f"{s.origin}-{s.target}"
        if s.captures == (s.target,):
            return f"{s.origin}x{s.target}"
        return f"{s.origin}-{s.target}x{s.captures[0]}"

    def parse_move(self, position: Position, text: str) -> Move:
        pat = parse_pattern(text)
        origin = NAMES[pat.origin]
        piece = position.cells[pat.origin]
        if self.outcome(position).is_over:
            raise IllegalMoveError(text, said("the game is over"))
        if piece is None:
            raise IllegalMoveError(text, said("there is no piece on {point}", point=origin))
        if _owner(piece) != position.side:
            raise IllegalMoveError(text, said("the {piece} on {point} is {owner}'s, and it "
                                              "is {side}'s turn", piece=_piece(piece),
                                              point=origin,
                                              owner=_SIDE_WORDS[1 - position.side],
                                              side=_SIDE_WORDS[position.side]))
        if pat.letter and pat.letter != piece.upper():
            raise IllegalMoveError(text, said("the piece on {point} is {piece}, not {named}",
                                              point=origin, piece=a_or_an(_piece(piece)),
                                              named=a_or_an(_piece(pat.letter))))
        mine = [m for m in self.legal_moves(position) if m.steps[0].origin == origin]
        fits = [m for m in mine if _fits(m.steps[0], pat)]
        exact = [m for m in fits if _exact(m.steps[0], pat)]
        return self.choose(position, text, exact or fits,
                           lambda: _why_illegal(position, pat, piece))

    # --- the end of the game -------------------------------------------------------
    def outcome(self, position: Position, history: Sequence[Position] = (),
                mode: str = "standard") -> Outcome:
        cells = position.cells
        white, black = "C" in cells, "c" in cells
        if white and black:
            return ONGOING
        mover = 1 - position.side
        if not white and not black:
            return Outcome("win", mover, said("no Commander is left on either side; the "
                                              "side that made the last move wins"))
        loser = 0 if not white else 1
        return Outcome("win", 1 - loser, said("{side} has no Commander left",
                                              side=_SIDE_WORDS[loser]))


def _fits(s: Step, pat: _Pattern) -> bool:
    if pat.transform:
        return s.becomes == pat.choice
    if s.becomes or s.target != NAMES[pat.dest]:
        return False
    if pat.choice is not None and s.drop != pat.choice:
        return False
    caps = set(s.captures)
    if pat.dest_is_capture and s.unit != "S" and s.target not in caps:
        return False  # `c3xc5` claims a capture on c5; only the Slicer's seed form may not
    listed = {NAMES[c] for c in pat.captures}
    if pat.dest_is_capture:
        listed.discard(s.target)
    return listed <= caps


def _exact(s: Step, pat: _Pattern) -> bool:
    """The text says exactly what the move captures (so `a5-b4` is the quiet move even
    when an approach to b4 also exists)."""
    listed = {NAMES[c] for c in pat.captures}
    caps = set(s.captures)
    if pat.dest_is_capture:
        listed.discard(s.target)
        caps.discard(s.target)
    return listed == caps


# --- why no legal move fits: the reasons shown to the player ------------------------------
def _listing(nodes: Sequence[int], word: str) -> str:
    names = sorted((NAMES[n] for n in nodes), key=lambda n: TOPO.sort_key(INDEX[n]))
    return either(names) if word == "or" else every(names)


_SIDE_WORDS = ClashOfCommand.side_names
DROID, BRUTE, SLICER, HAWK = (PIECE_NAMES[x] for x in "DBSH")


def _piece(letter: str) -> str:
    return PIECE_NAMES[letter.upper()]


def _direction(a: int, b: int) -> int | None:
    """The direction of the edge from ``a`` to ``b``, or None if they are not joined."""
    return next((d for d in ALL_DIRS if STEP[d][a] == b), None)


def _line_direction(a: int, b: int) -> int | None:
    """The direction in which ``b`` lies on a straight line from ``a``, or None."""
    return next((d for d in ALL_DIRS if b in TOPO.ray(a, TOPO.directions[d])), None)


def _claimed(pat: _Pattern) -> list[int]:
    """The captures the text names, the destination of `b4xa3` included."""
    return list(dict.fromkeys(pat.captures))


def _why_illegal(position: Position, pat: _Pattern, piece: str) -> str:
    """A reason why no legal move fits, in the words of the rules."""
    kind = piece.upper()
    name = _piece(kind)
    origin = NAMES[pat.origin]
    if pat.transform:
        if kind not in LEAVES:
            return said("only a Commander or a Factor transforms in place; the piece on "
                        "{point} is {piece}", point=origin, piece=a_or_an(name))
        a, b = LEAVES[kind]
        return said("{piece} can only turn into {one} or {other}", piece=a_or_an(name),
                    one=a_or_an(_piece(a)), other=a_or_an(_piece(b)))
    if pat.dest == pat.origin:
        return said("a move must leave its point ({point})", point=origin)
    if pat.choice is not None and kind not in LEAVES:
        return said("only a Commander or a Factor leaves a piece behind; the piece on "
                    "{point} is {piece}", point=origin, piece=a_or_an(name))
    side = _owner(piece)
    why = {"C": _why_not_builder, "F": _why_not_builder, "D": _why_not_droid,
           "H": _why_not_hawk, "B": _why_not_brute, "S": _why_not_slicer}[kind]
    return why(position.cells, pat, kind, side)


def _why_not_builder(cells: Sequence[str | None], pat: _Pattern, kind: str, side: int) -> str:
    name, origin, dest = _piece(kind), NAMES[pat.origin], NAMES[pat.dest]
    a, b = LEAVES[kind]
    if pat.choice is not None and pat.choice not in LEAVES[kind]:
        return said("{piece} leaves {one} or {other} behind, not {named}",
                    piece=a_or_an(name), one=a_or_an(_piece(a)), other=a_or_an(_piece(b)),
                    named=a_or_an(_piece(pat.choice)))
    if pat.captures:
        return said("{piece} never captures", piece=a_or_an(name))
    if _direction(pat.origin, pat.dest) not in FORWARD[side]:
        return said("the {piece} on {point} can only move one point forward", piece=name,
                    point=origin)
    if cells[pat.dest] is not None:
        return said("{dest} is occupied: the {piece} on {point} moves only to an empty "
                    "point", dest=dest, piece=name, point=origin)
    return said("no legal move fits")  # pragma: no cover - a forward step to an empty node fits


def _why_not_droid(cells: Sequence[str | None], pat: _Pattern, kind: str, side: int) -> str:
    origin, dest = NAMES[pat.origin], NAMES[pat.dest]
    direction = _direction(pat.origin, pat.dest)
    if direction is None:
        return said("the {piece} on {point} moves only one point along a line, and {dest} "
                    "is not next to it", piece=DROID, point=origin, dest=dest)
    others = [c for c in _claimed(pat) if c != pat.dest]
    if others:
        return said("{piece} captures only on the point it moves to, not on {points}",
                    piece=a_or_an(DROID), points=_listing(others, "or"))
    occupied = cells[pat.dest] is not None
    if direction in FORWARD[side]:
        if occupied:
            return said("the {piece} on {point} cannot capture forward", piece=DROID,
                        point=origin)
        return said("{dest} is empty: the {piece} on {point} captures only sideways or "
                    "backwards", dest=dest, piece=DROID, point=origin)
    return said("the {piece} on {point} cannot move sideways or backwards without capturing",
                piece=DROID, point=origin)


def _why_not_brute(cells: Sequence[str | None], pat: _Pattern, kind: str, side: int) -> str:
    origin, dest = NAMES[pat.origin], NAMES[pat.dest]
    others = [c for c in _claimed(pat) if c != pat.dest]
    if others:
        return said("{piece} captures only on the point it moves to, not on {points}",
                    piece=a_or_an(BRUTE), points=_listing(others, "or"))
    if cells[pat.dest] is None:
        return said("the {piece} on {point} never moves without capturing, and {dest} is "
                    "empty", piece=BRUTE, point=origin, dest=dest)
    middles = [m for m in NEIGHBOURS[pat.origin] if pat.dest in NEIGHBOURS[m]]
    if middles:
        return said_n("the {piece} on {point} can reach {dest} in two steps only through "
                      "{points}, and it is occupied: the step between must land on an empty "
                      "point", "the {piece} on {point} can reach {dest} in two steps only "
                      "through {points}, and all are occupied: the step between must land on "
                      "an empty point", len(middles), piece=BRUTE, point=origin, dest=dest,
                      points=_listing(middles, "or"))
    return said("the {piece} on {point} captures only a piece one step away, or two steps "
                "away through an empty point; {dest} is farther", piece=BRUTE, point=origin,
                dest=dest)


def _why_not_slicer(cells: Sequence[str | None], pat: _Pattern, kind: str, side: int) -> str:
    origin, dest = NAMES[pat.origin], NAMES[pat.dest]
    direction = _line_direction(pat.origin, pat.dest)
    if direction is None:
        return said("the {piece} on {point} slides along one straight line, and {dest} is "
                    "not on a line from {point}", piece=SLICER, point=origin, dest=dest)
    path: list[int] = []
    for node in TOPO.ray(pat.origin, TOPO.directions[direction]):
        path.append(node)
        if node == pat.dest:
            break
    taken = [n for n in path if cells[n] is not None]
    if not taken:
        return said("the {piece} on {point} must capture at least one piece, and there is "
                    "none on its way to {dest}", piece=SLICER, point=origin, dest=dest)
    # only a named capture off the path is left: the move itself exists
    wrong = [c for c in _claimed(pat) if c not in taken and c != pat.dest]
    return said("the {piece} going from {point} to {dest} captures {taken}, not {named}",
                piece=SLICER, point=origin, dest=dest, taken=_listing(taken, "and"),
                named=_listing(wrong, "or"))


def _why_not_hawk(cells: Sequence[str | None], pat: _Pattern, kind: str, side: int) -> str:
    origin, dest = NAMES[pat.origin], NAMES[pat.dest]
    claimed = _claimed(pat)
    if pat.dest_is_capture:
        return said("a Hawk never lands on the piece it captures: it jumps over it onto the "
                    "empty point beyond, or captures by approach or withdrawal")
    if len(claimed) > 1:
        return said("a Hawk captures exactly one piece in a move")
    direction = _direction(pat.origin, pat.dest)
    if direction is not None:
        return _why_not_hawk_step(cells, pat, direction, side, claimed)
    middle = next((STEP[d][pat.origin] for d in ALL_DIRS if STEP[d][pat.origin] != NO_NODE
                   and STEP[d][STEP[d][pat.origin]] == pat.dest), NO_NODE)
    if middle == NO_NODE:
        return said("{dest} is not one or two points from {point} along a straight line: "
                    "the Hawk steps one point forward, or captures by jump, approach or "
                    "withdrawal", dest=dest, point=origin)
    if cells[middle] is None:
        return said("the {piece} on {point} can jump to {dest} only over a piece on "
                    "{middle}, and {middle} is empty", piece=HAWK, point=origin, dest=dest,
                    middle=NAMES[middle])
    if cells[pat.dest] is not None:
        return said("{dest} is occupied: the {piece} on {point} jumps only onto an empty "
                    "point", dest=dest, piece=HAWK, point=origin)
    return said("jumping to {dest}, the {piece} on {point} captures {middle}, not {named}",
                dest=dest, piece=HAWK, point=origin, middle=NAMES[middle],
                named=_listing(claimed, "or"))


def _why_not_hawk_step(cells: Sequence[str | None], pat: _Pattern, direction: int, side: int,
                       claimed: list[int]) -> str:
    origin, dest = NAMES[pat.origin], NAMES[pat.dest]
    if cells[pat.dest] is not None:
        return said("{dest} is occupied: the {piece} on {point} captures by jumping over a "
                    "piece, never by moving onto it", dest=dest, piece=HAWK, point=origin)
    beyond, behind = STEP[direction][pat.dest], STEP[OPP[direction]][pat.origin]
    possible = [n for n in (beyond, behind) if n != NO_NODE and cells[n] is not None]
    if claimed:
        if not possible:
            return said("moving to {dest}, the {piece} on {point} captures nothing: no "
                        "piece is in line beyond {dest} or behind {point}", dest=dest,
                        piece=HAWK, point=origin)
        return said("moving to {dest}, the {piece} on {point} can capture only {points}",
                    dest=dest, piece=HAWK, point=origin, points=_listing(possible, "or"))
    return said("the {piece} on {point} moves without capturing only forward, and moving to "
                "{dest} captures nothing", piece=HAWK, point=origin, dest=dest)
