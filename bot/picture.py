"""Board pictures as PNG files, through the renderer when it is installed.

The renderer is imported only when a picture is wanted, so the service runs (and a console
game is played) without it: `write_png` then writes nothing and says why. Rendering never
runs inside a database transaction: a transport draws after the move is stored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from engine import Move, Position

log = logging.getLogger(__name__)


def _renderer() -> Callable[..., bytes] | None:
    """The renderer's ``render`` function, or None while there is none."""
    try:
        from renderer import render
    except ImportError:
        return None
    return render if callable(render) else None


def write_png(position: Position, path: Path, last_move: Move | Sequence[Move] | None = None,
              caption: str = "", result: str = "", **options: object,
              ) -> tuple[Path | None, str]:
    """Draw ``position`` into ``path`` (``last_move``: one move or every step of the last
    turn; ``options``: the renderer's, such as ``perspective`` and ``highlights``); the
    path written (None if none) and a note."""
    render = _renderer()
    if render is None:
        return None, "no picture: the renderer is not available"
    try:
        png = render(position, last_move=last_move, caption=caption, result=result, **options)
    except Exception as err:  # a picture must never break a game
        log.debug("rendering failed", exc_info=True)
        return None, f"no picture: rendering failed ({err})"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return path, str(path)
