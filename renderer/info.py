"""What a picture says besides the board: the game, its players, clocks and last moves.

The renderer draws only what it is given: the caller (who knows the stored game) fills a
`GameInfo`; what follows from the position alone (whose turn, material lost) is read
through the variant here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine import Position, Variant


@dataclass(frozen=True)
class GameInfo:
    """The game around a position, as text the picture shows in full.

    * ``number``: the game's number (shown as ``#12``).
    * ``players``: the players' names by side (side names are shown when missing).
    * ``deadline``: when the player to move must have moved ("until Tue 3 Dec 14:00").
    * ``clocks``: the time left on each side's clock, by side ("2d 4h left", "3d per move").
    * ``moves``: the last moves in the variant's notation, numbered, oldest first
      ("12. b2-a3/D").
    """

    number: int | None = None
    players: tuple[str, str] | None = None
    deadline: str = ""
    clocks: tuple[str, str] = ("", "")
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class Material:
    """What each side has lost: piece letters (most first), or points destroyed."""

    letters: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    points: tuple[int, int] | None = None  # points each side has destroyed (Commander Chess)


def material(variant: Variant, position: Position) -> Material:
    """Each side's losses since the variant's start: Commander Chess counts the points each
    side has destroyed (its rules' measure); the others count the pieces missing against
    the start position (a piece built or promoted during the game makes up for one lost,
    as on chess sites, where the material difference is what counts)."""
    destroyed = getattr(variant, "destroyed_points", None)
    if callable(destroyed):
        return Material(points=tuple(destroyed(position)))  # type: ignore[arg-type]
    start = _count(variant, variant.start_position())
    now = _count(variant, position)
    lost = tuple(tuple(sorted((start[side] - now[side]).elements())) for side in (0, 1))
    return Material(letters=lost)  # type: ignore[arg-type]


def _count(variant: Variant, position: Position) -> tuple[Counter[str], Counter[str]]:
    sides: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    for node in variant.topology.nodes:
        for piece in variant.pieces_at(position, node):
            sides[piece.side][piece.letter] += 1
    return sides
