"""An animated replay of a game: one frame per position, as GIF or animated PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence

from engine import Move, Position, Variant

from .picture import render_image
from .theme import Theme

FORMATS = ("gif", "png")


def render_replay(positions: Sequence[Position], moves: Sequence[Move | None] = (), *,
                  variant: Variant | None = None, perspective: int = 0, size: int = 400,
                  theme: str | Theme = "classic", fmt: str = "gif", frame_ms: int = 900,
                  last_frame_ms: int = 3000, result: str = "") -> bytes:
    """The replay of a game as animated GIF (``fmt="gif"``) or PNG (``"png"``) bytes.

    ``positions`` are the game's positions from the start; ``moves[k]``, when given, is
    the move that led to ``positions[k]`` (``None`` for the start) and is marked on that
    frame. ``result`` is shown on the last frame.
    """
    if fmt not in FORMATS:
        raise ValueError(f"{fmt!r}: a replay is 'gif' or 'png'")
    if not positions:
        raise ValueError("a replay needs at least one position")
    if moves and len(moves) != len(positions):
        raise ValueError(f"{len(moves)} moves for {len(positions)} positions: give one per "
                         f"position (None for the start)")
    frames = [
        render_image(p, variant=variant, perspective=perspective,
                     last_move=moves[k] if moves else None, size=size, theme=theme,
                     result=result if k == len(positions) - 1 else "")
        for k, p in enumerate(positions)
    ]
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    out = io.BytesIO()
    options = {"loop": 0} if fmt == "gif" else {"loop": 0, "default_image": False}
    frames[0].save(out, "GIF" if fmt == "gif" else "PNG", save_all=True,
                   append_images=frames[1:], duration=durations, **options)
    return out.getvalue()
