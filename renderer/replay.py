"""An animated replay of a game: one frame per position, as GIF or animated PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence

from engine import Move, Position, Variant, get_variant

from .picture import compose, render_image
from .theme import Theme, get_theme
from .words import ENGLISH, Words

FORMATS = ("gif", "png")


def render_replay(positions: Sequence[Position], moves: Sequence[Move | None] = (), *,
                  variant: Variant | None = None, perspective: int = 0, size: int = 400,
                  theme: str | Theme = "classic", fmt: str = "gif", frame_ms: int = 900,
                  last_frame_ms: int = 3000, result: str = "",
                  words: Words = ENGLISH) -> bytes:
    """The replay of a game as animated GIF (``fmt="gif"``) or PNG (``"png"``) bytes.

    ``positions`` are the game's positions from the start; ``moves[k]``, when given, is
    the move that led to ``positions[k]`` (``None`` for the start) and is marked on that
    frame. ``result`` is shown on the last frame; ``words`` are the frames' own words in
    the reader's language (`Words`; English by default).

    Every frame is whole and all have one size: the header of each frame has room for as
    many lines as the longest one takes (a turn in progress or a deploy says more than a
    plain move), so the board stays in place from frame to frame, and a frame shorter than
    the tallest is filled below in the frame's background colour.
    """
    if fmt not in FORMATS:
        raise ValueError(f"{fmt!r}: a replay is 'gif' or 'png'")
    if not positions:
        raise ValueError("a replay needs at least one position")
    if moves and len(moves) != len(positions):
        raise ValueError(f"{len(moves)} moves for {len(positions)} positions: give one per "
                         f"position (None for the start)")
    theme = get_theme(theme)
    perspective = 1 if perspective else 0
    last = len(positions) - 1
    frames = [(p, variant or get_variant(p.variant), result if k == last else "")
              for k, p in enumerate(positions)]
    lines = max(compose(p, v, theme, size, perspective, result=r, words=words).header_lines
                for p, v, r in frames)
    height = max(compose(p, v, theme, size, perspective, result=r, header_lines=lines,
                         words=words).height for p, v, r in frames)
    images = [
        render_image(p, variant=v, perspective=perspective,
                     last_move=moves[k] if moves else None, size=size, theme=theme,
                     result=r, header_lines=lines, min_height=height, words=words)
        for k, (p, v, r) in enumerate(frames)
    ]
    durations = [frame_ms] * (len(images) - 1) + [last_frame_ms]
    out = io.BytesIO()
    options = {"loop": 0} if fmt == "gif" else {"loop": 0, "default_image": False}
    images[0].save(out, "GIF" if fmt == "gif" else "PNG", save_all=True,
                   append_images=images[1:], duration=durations, **options)
    return out.getvalue()
