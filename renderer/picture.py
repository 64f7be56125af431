"""One picture of a position: board, marks, pieces and caption, as PNG bytes.

`render` is pure: the same arguments give the same bytes. It reads the position through
its variant (`pieces_at`, `status_text`, `side_names`, `topology`) and never generates
moves; legal destinations to highlight are passed in by the caller.

Speed: the empty board, the sprites and a palette are cached per (board, size,
perspective, theme), so a picture is a copy of the board, a few dozen pastes, one line of
text, a mapping onto the cached 256-colour palette and a PNG encoding of one byte per
pixel.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Move, Piece, Position, Topology, Variant, get_variant

from . import marks
from .board import empty_board
from .fonts import font
from .layout import Layout
from .pieces import GLYPHS, family_of, side_token, stack_sprite
from .theme import SideColours, Theme, get_theme

PNG_COMPRESS_LEVEL = 3


@lru_cache(maxsize=64)
def _layout(topology: Topology, size: int, perspective: int) -> Layout:
    return Layout(topology, size, perspective)


def _paste(image: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    x, y = centre
    image.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _side_colours(theme: Theme, variant: Variant, side: int) -> SideColours:
    return theme.side_colours(variant.side_names[side], side)


def _node(topology: Topology, name: str) -> int:
    try:
        return topology.node(name)
    except KeyError:
        raise ValueError(f"{name!r} is not a point of the {topology.name} board") from None


LastMove = Move | Sequence[Move] | None
"""What ``last_move`` takes: one move, or every step of a turn played in several steps."""


def _moves(last_move: LastMove) -> tuple[Move, ...]:
    if last_move is None:
        return ()
    return (last_move,) if isinstance(last_move, Move) else tuple(last_move)


def _marks(topology: Topology, last_move: LastMove, highlights: Iterable[str],
           selected: str | None, occupied: set[int]) -> list[tuple[int, str]]:
    """(node, mark kind) in drawing order: last move first, highlights on top."""
    out: list[tuple[int, str]] = []
    for move in _moves(last_move):
        for step in move.steps:
            origin, target = _node(topology, step.origin), _node(topology, step.target)
            if origin != target:
                out.append((origin, marks.FROM))
            out.append((target, marks.TO))
        out += [(_node(topology, c), marks.CAPTURE) for c in move.captures]
    if selected:
        out.append((_node(topology, selected), marks.SELECTED))
    for name in highlights:
        node = _node(topology, name)
        out.append((node, marks.TARGET_PIECE if node in occupied else marks.TARGET_EMPTY))
    return out


def render_image(position: Position, *, variant: Variant | None = None, perspective: int = 0,
                 last_move: LastMove = None, highlights: Iterable[str] = (),
                 selected: str | None = None, size: int = 800,
                 theme: str | Theme = "classic", caption: str = "",
                 result: str = "") -> Image.Image:
    """The picture as a palette image (see `render` for the arguments)."""
    variant = variant or get_variant(position.variant)
    theme = get_theme(theme)
    topology = variant.topology
    perspective = 1 if perspective else 0
    layout = _layout(topology, size, perspective)
    family = family_of(variant.name, topology.name)
    image = empty_board(topology, size, perspective, theme).copy()
    stacks = [variant.pieces_at(position, name) for name in topology.nodes]
    occupied = {i for i, stack in enumerate(stacks) if stack}
    kind = layout.style.kind
    for node, mark in _marks(topology, last_move, highlights, selected, occupied):
        sprite = marks.mark_sprite(mark, kind, layout.spacing, layout.piece_diameter, theme)
        _paste(image, sprite, layout.centres[node])
    for node in sorted(occupied):
        stack = stacks[node]
        colours = tuple(_side_colours(theme, variant, p.side) for p in stack)
        sprite = stack_sprite(family, tuple(stack), colours, layout.piece_diameter, theme)
        _paste(image, sprite, layout.centres[node])
    _draw_caption(image, layout, theme, variant, position, caption, result)
    palette = _palette(variant, layout, theme)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def render(position: Position, *, variant: Variant | None = None, perspective: int = 0,
           last_move: LastMove = None, highlights: Iterable[str] = (),
           selected: str | None = None, size: int = 800, theme: str | Theme = "classic",
           caption: str = "", result: str = "") -> bytes:
    """The PNG picture of ``position``.

    * ``variant``: the rules the position belongs to (default: found by its name).
    * ``perspective``: the side sitting at the bottom; side 1 sees the board turned 180°.
    * ``last_move``: marked as from/to points and captured points; a list of moves marks
      every step of a turn played in several steps.
    * ``highlights``: node names to mark (such as a piece's legal destinations).
    * ``selected``: the node of the piece whose destinations are highlighted.
    * ``size``: the picture's width in pixels; the height follows from the board.
    * ``caption``: extra text on the right of the caption (players, game number).
    * ``result``: replaces "X to move" once the game is over ("1-0 · White wins").
    """
    image = render_image(position, variant=variant, perspective=perspective,
                         last_move=last_move, highlights=highlights, selected=selected,
                         size=size, theme=theme, caption=caption, result=result)
    return encode_png(image)


def encode_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


# --- the caption -----------------------------------------------------------------------
def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    """``text`` shortened with an ellipsis until it fits ``width`` pixels."""
    face = font(size)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…" if text else ""


def _draw_caption(image: Image.Image, layout: Layout, theme: Theme, variant: Variant,
                  position: Position, caption: str, result: str) -> None:
    draw = ImageDraw.Draw(image)
    size = layout.caption_font
    face = font(size)
    y = layout.caption_height / 2 + size * 0.05
    x = layout.margin
    right_edge = layout.size - layout.margin
    if result:
        head, tail = result, ""
    else:
        colours = _side_colours(theme, variant, position.side)
        token = side_token(colours, round(size * 1.05), theme)
        _paste(image, token, (round(x + size * 0.55), round(y)))
        x += size * 1.45
        head = f"{variant.side_names[position.side]} to move"
        tail = f"  ·  move {position.fullmove}"
    status = "  ·  ".join(t for t in (variant.status_text(position), caption) if t)
    # with nothing to report, the right-hand side names the game, dimmed
    colour = theme.caption if status else theme.caption_dim
    status = status or getattr(variant, "display_name", "")
    gap = size * 1.2
    room = right_edge - x
    head_width = draw.textlength(head, font=face)
    tail_width = draw.textlength(tail, font=face)
    status_full = draw.textlength(status, font=face) if status else 0.0
    if colour == theme.caption and status_full > room - head_width - tail_width - gap:
        tail, tail_width = "", 0.0  # the move number gives way to the status first
    least = room * 0.45 if colour == theme.caption else 0.0
    fitted = _fit(draw, status, size, max(least, room - head_width - tail_width - gap))
    status = fitted if fitted == status or colour == theme.caption else ""  # no half names
    status_width = draw.textlength(status, font=face) if status else 0.0
    if status:
        draw.text((right_edge, y), status, font=face, fill=colour, anchor="rm")
    head = _fit(draw, head, size, room - status_width - gap)
    draw.text((x, y), head, font=face, fill=theme.caption, anchor="lm")
    x += draw.textlength(head, font=face)
    tail = _fit(draw, tail, size, right_edge - x - status_width - gap)
    if tail:
        draw.text((x, y), tail, font=face, fill=theme.caption_dim, anchor="lm")


# --- the palette ---------------------------------------------------------------------
def _family_letters(family: str) -> list[str]:
    return sorted({letter for fam, letter in GLYPHS if fam == family}) or ["?"]


def _palette(variant: Variant, layout: Layout, theme: Theme) -> Image.Image:
    return _palette_for(variant.topology, family_of(variant.name, variant.topology.name),
                        tuple(variant.side_names), layout.size, layout.perspective, theme)


@lru_cache(maxsize=64)
def _palette_for(topology: Topology, family: str, side_names: tuple[str, ...], size: int,
                 perspective: int, theme: Theme) -> Image.Image:
    """A 256-colour palette fitted to everything a picture of this board can show: the
    board, every piece of the family for both sides (plain, heroic, carrying), every
    mark and the caption's text."""
    layout = _layout(topology, size, perspective)
    board = empty_board(topology, size, perspective, theme)
    sample = Image.new("RGB", (size, layout.height * 2), theme.frame)
    sample.paste(board, (0, 0))
    busy = board.copy()
    colours = [theme.side_colours(name, side) for side, name in enumerate(side_names)]
    sprites = []
    for letter in _family_letters(family):
        for side, c in enumerate(colours):
            for heroic in (False, True):
                stack: tuple[Piece, ...] = (Piece(letter, side, heroic),)
                if heroic:
                    stack += (Piece(letter, side), Piece(letter, side, True))
                sprites.append(stack_sprite(family, stack, (c,) * len(stack),
                                            layout.piece_diameter, theme))
    for kind in marks.KINDS:
        sprites.append(marks.mark_sprite(kind, layout.style.kind, layout.spacing,
                                         layout.piece_diameter, theme))
    sprites += [side_token(c, layout.caption_font, theme) for c in colours]
    for k, sprite in enumerate(sprites):
        _paste(busy, sprite, layout.centres[(k * 7) % len(topology)])
    draw = ImageDraw.Draw(busy)
    face = font(layout.caption_font)
    sample_text = "to move · check 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    draw.text((4, 4), sample_text, font=face, fill=theme.caption)
    draw.text((4, 4 + layout.caption_font * 1.4), sample_text, font=face, fill=theme.caption_dim)
    sample.paste(busy, (0, layout.height))
    return sample.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
