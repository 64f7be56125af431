"""What a picture says besides the board: the game, its players, clocks, losses and last
moves.

The renderer draws only what it is given: the caller (who knows the stored game) fills a
`GameInfo`, its losses included (`losses` counts them from the moves played); only whose
turn it is is read from the position here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import Move, Position, Variant


@dataclass(frozen=True)
class Material:
    """What each side has lost in its game, counted from the moves played.

    * ``letters``: by side, the letters of the pieces taken off the board (in letter
      order; a side's own pieces captured by itself included, as Clash of Command allows).
    * ``points``: by side, the points of the enemy pieces it has destroyed, where the rules
      score them (Commander Chess); None elsewhere. The picture shows the points when
      there are any, else the letters.
    """

    letters: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    points: tuple[int, int] | None = None


@dataclass(frozen=True)
class GameInfo:
    """The game around a position, as text the picture shows in full.

    * ``number``: the game's number (shown as ``#12``).
    * ``players``: the players' names by side (side names are shown when missing).
    * ``deadline``: when the player to move must have moved ("until Tue 3 Dec 14:00").
    * ``clocks``: the time left on each side's clock, by side ("2d 4h left", "3d per move").
    * ``moves``: the last moves in the variant's notation, numbered, oldest first
      ("12. b2-a3/D").
    * ``losses``: what each side has lost up to the position shown, counted from the game's
      moves (`losses`); None when the caller does not know the moves, and then the panel
      has no losses line at all: losses are never guessed by comparing the board with a
      start position.
    """

    number: int | None = None
    players: tuple[str, str] | None = None
    deadline: str = ""
    clocks: tuple[str, str] = ("", "")
    moves: tuple[str, ...] = ()
    losses: Material | None = None


def losses(variant: Variant, played: Iterable[tuple[Position, Move]]) -> Material:
    """Each side's losses in a game: the pieces its moves took off the board
    (`Variant.removed_pieces`), each move given with the position it was played in, from
    the game's own start (a set-up position included) to the position shown. A piece that
    transformed, was promoted or was built is no loss. Where the rules score pieces
    (`Variant.piece_points`), each side is also credited the points of the enemy pieces
    lost."""
    taken: tuple[list[str], list[str]] = ([], [])
    destroyed = [0, 0]
    for position, move in played:
        for piece in variant.removed_pieces(position, move):
            taken[piece.side].append(piece.letter)
            destroyed[1 - piece.side] += variant.piece_points.get(piece.letter, 0)
    letters = (tuple(sorted(taken[0])), tuple(sorted(taken[1])))
    points = (destroyed[0], destroyed[1]) if variant.piece_points else None
    return Material(letters=letters, points=points)
