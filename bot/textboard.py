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
            points: tuple[int, int] | None = None) -> str:
    """Who is to move (and the variant's status text, if any), and the points each side
    has destroyed where the rules score them (``points``, counted from the moves played:
    `bot.pictures.points_destroyed`)."""
    text = f"{variant.side_names[position.side]} to move, move {position.fullmove}"
    if position.in_progress:
        text += " (turn in progress)"
    status = [part for part in (variant.status_text(position),) if part]
    if points is not None:
        names = variant.side_names
        status.append(f"destroyed: {names[0]} {points[0]} · {names[1]} {points[1]} pts")
    return f"{text}. {'; '.join(status)}" if status else text + "."
