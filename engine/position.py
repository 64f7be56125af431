"""Positions: the complete, immutable state of a game at one moment.

A `Position` holds one cell per node of the variant's topology (``None`` when the node is
empty, otherwise a variant-defined immutable value: a piece letter, or a stack), the side
to move (0 moves first: White or Red; 1 is Black or Blue), the move counters, the steps
already made in a turn that is still in progress, and a tuple of variant-defined extras.
Positions are values: equal positions compare and hash equal, and every change makes a new
one. Each variant writes a position as a canonical string and reads it back exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from .move import Step


class Piece(NamedTuple):
    """One physical piece as a picture or a rules text sees it."""

    letter: str  # upper-case letter of its type
    side: int  # 0 = first player, 1 = second player
    heroic: bool = False

    @property
    def symbol(self) -> str:
        """Its letter in position strings: upper case for side 0, lower case for side 1."""
        letter = self.letter if self.side == 0 else self.letter.lower()
        return "+" + letter if self.heroic else letter


@dataclass(frozen=True, slots=True)
class Position:
    variant: str
    cells: tuple[Any, ...]
    side: int = 0
    fullmove: int = 1
    halfmove: int = 0
    pending: tuple[Step, ...] = ()
    extra: tuple[Any, ...] = ()

    def with_(self, **changes: Any) -> Position:
        return replace(self, **changes)

    @property
    def in_progress(self) -> bool:
        """True while a turn of several steps has been started but not finished."""
        return bool(self.pending)
