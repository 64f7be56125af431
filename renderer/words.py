"""The words a picture draws of its own, in English unless the caller gives others.

The renderer holds no catalogue: the caller, who knows its reader, gives a `Words` worded
in the reader's language (`bot.pictures.picture_words`); without one a picture speaks
English. Names, clocks, moves and the result are the caller's already (`GameInfo`, the
``result`` argument). A template holds its values as ``{name}`` placeholders, filled here
(`fill`); notation (moves, points) is never part of a template's words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import Position, Variant

# the terrain kinds of a grid board, each with its colour's key in the theme and its name
LEGEND = (("sea", "sea"), ("mouth", "river mouth"), ("coast", "coast"), ("river", "river"),
          ("bridge", "bridge"), ("headquarters", "headquarters"))


@dataclass(frozen=True)
class Words:
    """Every word a picture draws besides the texts it is given.

    * ``variant``: the variant's name in the header ("": the variant's own, in English).
    * ``sides``: the sides' names by side ("": the variant's own).
    * ``versus``, ``to_move`` (``{mover}``), ``move_number`` (``{number}``): the header.
    * ``last_moves`` (the panel's heading beside the board), ``last_moves_row`` (the
      heading of the row below a narrow board), ``destroyed`` (``{points}``), ``lost``,
      ``lost_nothing``: the panel.
    * ``terrain``: the legend of a board with terrain, (theme key, name) for each kind.
    * ``pieces``: a key to the pieces' letters, (letter, name) for each piece, drawn with
      the piece after the terrain legend (none by default: the letters are the initials
      of the English names).
    * ``status``: the variant's status of a position (check, a turn in progress) in the
      reader's words; None: the variant's own (`Variant.status_text`).
    """

    variant: str = ""
    sides: tuple[str, str] = ("", "")
    versus: str = "vs"
    to_move: str = "{mover} to move"
    move_number: str = "· move {number}"
    last_moves: str = "Last moves"
    last_moves_row: str = "Last moves:"
    destroyed: str = "destroyed {points} pts"
    lost: str = "lost:"
    lost_nothing: str = "lost: nothing"
    terrain: tuple[tuple[str, str], ...] = LEGEND
    pieces: tuple[tuple[str, str], ...] = ()
    status: Callable[[Position], str] | None = None

    def variant_name(self, variant: Variant) -> str:
        return self.variant or variant.display_name

    def side(self, variant: Variant, side: int) -> str:
        return self.sides[side] or variant.side_names[side]

    def status_of(self, variant: Variant, position: Position) -> str:
        return self.status(position) if self.status else variant.status_text(position)


ENGLISH = Words()


def fill(template: str, **values: object) -> str:
    """``template`` with each ``{name}`` replaced by its value (other braces stay)."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template
