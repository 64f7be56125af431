"""A text picture of a position for terminals, drawn from the board's topology coordinates.

Each node is printed at its (file, rank) grid point: its pieces' symbols (upper case for
the first side, lower case for the second, ``+`` for a heroic piece, a stack's pieces
side by side), ``.`` for an empty node, blank where the grid has no node. Nodes touched by
the last move are marked with ``*``. Ranks run top to bottom from the highest, as the
first side sees the board.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Position, Variant

from .i18n import Text, _, joined
from .service.words import side_name


def cell_text(variant: Variant, position: Position, node: str) -> str:
    """The symbols of the pieces on ``node`` (``.`` when it is empty)."""
    return "".join(p.symbol for p in variant.pieces_at(position, node)) or "."


def text_board(variant: Variant, position: Position, marked: Iterable[str] = ()) -> str:
    """The board as lines of text, with file letters and rank numbers around it."""
    topology = variant.topology
    marked = set(marked)
    by_point = {topology.coords[i]: name for i, name in enumerate(topology.nodes)}
    cells = {name: cell_text(variant, position, name) for name in topology.nodes}
    width = max(max(len(t) for t in cells.values()) + 1, *(len(f) for f in topology.files))
    label = max(len(r) for r in topology.ranks)
    n_files = len(topology.files)
    lines = []
    for rank in range(len(topology.ranks) - 1, -1, -1):
        row = []
        for file in range(n_files):
            name = by_point.get((file, rank))
            if name is None:
                row.append(" " * width)
            else:
                mark = "*" if name in marked else ""
                row.append((cells[name] + mark).ljust(width))
        lines.append(f"{topology.ranks[rank]:>{label}}  " + " ".join(row).rstrip())
    lines.append(" " * (label + 2) + " ".join(f.ljust(width) for f in topology.files).rstrip())
    return "\n".join(lines)


def caption(variant: Variant, position: Position,
            points: tuple[int, int] | None = None) -> Text:
    """Who is to move (and the variant's status text, if any), and the points each side
    has destroyed where the rules score them (``points``, counted from the moves played:
    `bot.pictures.points_destroyed`)."""
    side, number = side_name(variant, position.side), position.fullmove
    text = (_("{side} to move, move {number} (turn in progress)", side=side, number=number)
            if position.in_progress else
            _("{side} to move, move {number}", side=side, number=number))
    status: list[str] = [part for part in (variant.status_text(position),) if part]
    if points is not None:
        status.append(_("destroyed: {first} {first_points} · {second} {second_points} pts",
                        first=side_name(variant, 0), first_points=points[0],
                        second=side_name(variant, 1), second_points=points[1]))
    if status:
        return _("{caption}. {status}", caption=text, status=joined(status, "; "))
    return _("{caption}.", caption=text)
