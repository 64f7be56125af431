"""The variant interface and the one registry of variants.

A variant is a small class with class-level settings (id, aliases, display name, board,
start position, piece names, rules text) and a few methods: read and write positions,
list legal moves, read and write moves, make a move, and say whether the game is over.
`get_variant` finds one by any of its names, case-insensitively.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, NamedTuple

from .errors import AmbiguousMoveError, EngineError, IllegalMoveError, UnknownVariantError
from .move import Move
from .phrases import said
from .position import Piece, Position
from .topology import Topology


class Outcome(NamedTuple):
    """Whether the game goes on, and if not who won (or a draw) and why."""

    status: str  # "ongoing" | "win" | "draw"
    winner: int | None = None
    reason: str = ""

    @property
    def is_over(self) -> bool:
        return self.status != "ongoing"

    @property
    def score(self) -> str:
        """The result as in game records: 1-0, 0-1, 1/2-1/2 or *."""
        if self.status == "win":
            return "1-0" if self.winner == 0 else "0-1"
        return "1/2-1/2" if self.status == "draw" else "*"


ONGOING = Outcome("ongoing")


class Variant:
    """Base class of every variant. Subclasses set the class attributes and the hooks."""

    name: ClassVar[str]
    order: ClassVar[int] = 100  # place in lists of variants (menus, registry order)
    aliases: ClassVar[tuple[str, ...]] = ()
    display_name: ClassVar[str]
    topology: ClassVar[Topology]
    side_names: ClassVar[tuple[str, str]] = (said("White"), said("Black"))
    start_fen: ClassVar[str]
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    draw_by_agreement: ClassVar[bool] = True
    piece_names: ClassVar[dict[str, str]] = {}
    #: what each piece letter is worth when the rules score the pieces destroyed (Commander
    #: Chess, §8.4); empty when losses are counted as pieces
    piece_points: ClassVar[dict[str, int]] = {}
    rules_text: ClassVar[str] = ""

    # --- positions -------------------------------------------------------------------
    def start_position(self, mode: str = "standard") -> Position:
        return self.parse_position(self.start_fen)

    def parse_position(self, text: str) -> Position:
        raise NotImplementedError

    def format_position(self, position: Position) -> str:
        raise NotImplementedError

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        """The pieces on ``node``, carrier first (empty tuple for an empty node)."""
        raise NotImplementedError

    def repetition_key(self, position: Position) -> object:
        """What must be equal for two positions to count as a repetition."""
        return (position.cells, position.side, position.pending, position.extra)

    # --- moves ---------------------------------------------------------------------
    def legal_moves(self, position: Position) -> list[Move]:
        raise NotImplementedError

    def make_move(self, position: Position, move: Move) -> Position:
        """The position after ``move``, which must be one of `legal_moves` (unchecked)."""
        raise NotImplementedError

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``; raises `IllegalMoveError` if it is not legal."""
        if move not in self.legal_moves(position):
            raise IllegalMoveError(self._describe(position, move),
                                   said("that is not a legal move in this position"))
        return self.make_move(position, move)

    def _describe(self, position: Position, move: Move) -> str:
        try:
            return self.format_move(position, move)
        except Exception:  # a move value that this variant cannot even write
            return repr(move)

    def format_move(self, position: Position, move: Move) -> str:
        """The canonical text of a legal ``move`` in ``position``."""
        raise NotImplementedError

    def record_text(self, position: Position, move: Move, text: str) -> str:
        """The game record's text of ``move``, which the player typed as ``text``. By
        default its canonical text; a variant whose record keeps the order the player gave
        to a turn of several moves writes them in that order."""
        return self.format_move(position, move)

    def parse_move(self, position: Position, text: str) -> Move:
        """The legal move that ``text`` names; raises a `MoveError` subclass otherwise."""
        raise NotImplementedError

    def removed_pieces(self, position: Position, move: Move) -> tuple[Piece, ...]:
        """The pieces that ``move``, played in ``position``, takes off the board, in the
        order its steps take them: whatever stands on each point a step captures (a
        capture, a stay capture, a shot, every piece a slider or armour passes, a whole
        stack), of either side. A piece that transforms, is promoted or is built is no
        loss, nor is a turn that captures nothing (``end``).

        By default a captured point loses what stood on it before the move: right while
        no step of a turn moves a piece onto a point that a later step of the same turn
        captures, and while the mover itself survives. A variant where either can happen
        says so by overriding this."""
        nodes = dict.fromkeys(node for step in move.steps for node in step.captures)
        return tuple(piece for node in nodes for piece in self.pieces_at(position, node))

    def turn_record(self, position: Position, texts: Sequence[str]) -> str | None:
        """One record entry for a whole turn that was entered step by step from
        ``position`` (the steps' texts, ``end`` included), or None to keep the steps as
        entered. By default: the canonical text of the legal compound move (a move with a
        kind, such as a deploy) made of exactly those steps."""
        steps: list = []
        current = position
        try:
            for text in texts:
                if text.strip().lower() == "end":
                    continue
                move = self.parse_move(current, text)
                steps.extend(move.steps)
                current = self.make_move(current, move)
        except EngineError:
            return None
        whole = tuple(steps)
        found = next((m for m in self.legal_moves(position)
                      if m.kind and m.steps == whole), None)
        return None if found is None else self.format_move(position, found)

    def next_steps(self, position: Position) -> list[Move]:
        """The single steps that may come next, for offering moves one at a time. By
        default `legal_moves`; a variant whose turns are entered step by step lists the
        first steps of its compound turns (and, in a turn in progress, the steps that may
        follow)."""
        return self.legal_moves(position)

    def as_if_to_move(self, position: Position, side: int) -> Position:
        """``position`` with ``side`` to move and no turn in progress: what that side's
        pieces could do were it its turn (a player planning while the opponent thinks).
        Not a position of the game, and never played on. By default the pieces stay as
        they stand, the side changes and a turn in progress is dropped (with its
        ``extra``, which only such a turn uses in this package's variants)."""
        if side == position.side and not position.in_progress:
            return position
        return position.with_(side=side, pending=(), extra=())

    def steps_left(self, position: Position) -> int | None:
        """How many more steps the turn in progress allows (None: the variant sets no
        count, as a deploy, which goes on while pieces remain to act)."""
        return None

    def end_turn(self, position: Position) -> Position:
        """Finish a turn of several steps early (``end``); only multi-step variants."""
        raise IllegalMoveError("end", said("there is no turn in progress to end"))

    # --- the end of the game -------------------------------------------------------
    def outcome(self, position: Position, history: Sequence[Position] = (),
                mode: str = "standard") -> Outcome:
        """Ongoing, win or draw after the last move. ``history`` holds the game's earlier
        positions in order (the start first), for repetition rules."""
        raise NotImplementedError

    def status_text(self, position: Position) -> str:
        """Extra status for a caption (check, points); empty when there is none."""
        return ""

    # --- helpers for subclasses ----------------------------------------------------
    def choose(self, position: Position, text: str, candidates: Iterable[Move],
               why_none: Callable[[], str]) -> Move:
        """The one candidate, or the right error: ambiguous (listing them) or illegal."""
        found = list(dict.fromkeys(candidates))
        if len(found) == 1:
            return found[0]
        if not found:
            raise IllegalMoveError(text, why_none())
        names = sorted(self.format_move(position, m) for m in found)
        raise AmbiguousMoveError(text, names)

    # --- move-generation counts ------------------------------------------------------
    def count_moves(self, position: Position) -> int:
        """The number of legal moves (a variant may count without building them)."""
        return len(self.legal_moves(position))

    def perft(self, position: Position, depth: int) -> int:
        """Leaf count of the legal-move tree, bulk-counted at the last ply."""
        if depth == 0:
            return 1
        if depth == 1:
            return self.count_moves(position)
        return sum(self.perft(self.make_move(position, m), depth - 1)
                   for m in self.legal_moves(position))

    def divide(self, position: Position, depth: int) -> dict[str, int]:
        """perft split by first move, keyed by canonical move text."""
        return {self.format_move(position, m): self.perft(self.make_move(position, m), depth - 1)
                for m in self.legal_moves(position)}


# --- the registry -----------------------------------------------------------------------
_REGISTRY: dict[str, Variant] = {}
_ORDER: list[Variant] = []


def register(cls: type[Variant]) -> type[Variant]:
    """Class decorator: make a variant findable by its id and aliases."""
    keys = [key.strip().lower() for key in (cls.name, *cls.aliases)]
    # check every name before adding any, so a refused variant leaves no trace
    for key in keys:
        if key in _REGISTRY or keys.count(key) > 1:
            raise ValueError(f"variant name {key!r} is registered twice")
    variant = cls()
    for key in keys:
        _REGISTRY[key] = variant
    _ORDER.append(variant)
    _ORDER.sort(key=lambda v: v.order)
    return cls


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (its id or an alias, any case)."""
    try:
        return _REGISTRY[name.strip().lower()]
    except KeyError:
        known = ", ".join(v.name for v in _ORDER)
        raise UnknownVariantError(said("{name}: no such variant (known: {known})",
                                       name=repr(name), known=known)) from None


def all_variants() -> list[Variant]:
    """Every registered variant, in their display order."""
    return list(_ORDER)
