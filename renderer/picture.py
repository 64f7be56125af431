"""One picture of a position: header, board, marks, pieces and panel, as PNG bytes.

`render` is pure: the same arguments give the same bytes. It reads the position through
its variant (`pieces_at`, `status_text`, `side_names`, `topology`) and never generates
moves; legal destinations to highlight are passed in by the caller.

Speed: the empty board, the sprites and a palette are cached per (board, size,
perspective, theme), so a picture is a copy of the board, a few dozen pastes, a few lines
of text, a mapping onto the cached 256-colour palette and a PNG encoding of one byte per
pixel.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import Move, Piece, Position, Topology, Variant, get_variant

from . import marks
from .board import coordinates_box, empty_board
from .fonts import font
from .frame import (
    MIN_FONT,
    MIN_HEADER_FONT,
    NBSP,
    PANEL_FONT,
    PANEL_MIN_WIDTH,
    PANEL_SHARE,
    Item,
    Paragraph,
    Placed,
    Typesetter,
    draw_placed,
    header_size,
)
from .info import GameInfo, Material
from .layout import BOARD_STYLES, Layout
from .pieces import GLYPHS, family_of, side_token, stack_sprite
from .theme import RGB, SideColours, Theme, get_theme
from .words import ENGLISH, LEGEND, Words, fill

PNG_COMPRESS_LEVEL = 3


@lru_cache(maxsize=64)
def _layout(topology: Topology, size: int, perspective: int,
            origin: tuple[int, int] = (0, 0)) -> Layout:
    return Layout(topology, size, perspective, origin)


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


@dataclass(frozen=True)
class Composition:
    """Where everything of one picture goes: the board, and every piece of text placed."""

    width: int
    height: int
    board: Layout
    header: tuple[Placed, ...]
    header_size: int
    header_lines: int  # the lines the header's text takes (``header_lines`` may reserve more)
    panel: tuple[Placed, ...]
    panel_size: int
    beside: bool  # the panel stands beside the board (else in a strip below it)


def compose(position: Position, variant: Variant, theme: Theme, size: int, perspective: int,
            info: GameInfo | None = None, caption: str = "", result: str = "",
            header_lines: int = 0, min_height: int = 0, words: Words = ENGLISH) -> Composition:
    """Lay out the header, the board and the panel of a picture ``size`` pixels wide.

    The faces' sizes follow from the width alone, never from the text: a long header wraps
    onto more lines (a word longer than a line is broken between letters) and the picture
    grows. ``header_lines`` reserves room for at least that many header lines and
    ``min_height`` makes the picture at least that tall (the frames of a replay share
    both, so the board stays in place and every frame has one size). ``words``: the
    picture's own words (`Words`; English by default)."""
    # the panel speaks of a game (clocks, losses, moves): without one (a rules diagram, a
    # sample position) only a terrain legend remains, in a strip below
    beside = size >= PANEL_MIN_WIDTH and info is not None
    board_width = size - round(size * PANEL_SHARE) if beside else size
    pad = max(6, round(size * 0.015))
    width = size - 2 * pad
    hsize = header_size(size, board_width)
    setter = Typesetter(hsize)
    paragraphs = _header(variant, position, theme, info, caption, result, hsize, words)
    lines = setter.count(paragraphs, width)
    header, header_height = setter.place(paragraphs, pad, pad * 0.6, width)
    header_height = max(header_height, header_lines * setter.line_height)
    top = round(header_height + pad * 1.2)
    board = _layout(variant.topology, board_width, perspective, (0, top))
    psize = max(MIN_FONT, round(hsize * PANEL_FONT))
    # the coordinates stand in the board's margins: the panel keeps half their face's size
    # away from them
    labels = coordinates_box(board)
    clear = math.ceil(board.label_size / 2)
    if beside:
        left = max(board_width, labels[2] + clear)
        ptop, pwidth = top + round(board.margin * 0.6), size - left - pad
        max_lines = max(0, round((board.height - board.margin) / Typesetter(psize).line_height))
    else:
        left, ptop, pwidth = pad, max(top + board.height, labels[3] + clear), width
        max_lines = 0
    panel_paras = _panel(variant, position, theme, info, perspective, psize, pwidth, beside,
                         max_lines, board.piece_diameter, words)
    panel, panel_height = Typesetter(psize).place(panel_paras, left, ptop, pwidth)
    height = max(top + board.height, round(ptop + panel_height + pad * 0.8), min_height)
    return Composition(size, height, board, tuple(header), hsize, lines, tuple(panel), psize,
                       beside)


def render_image(position: Position, *, variant: Variant | None = None, perspective: int = 0,
                 last_move: LastMove = None, highlights: Iterable[str] = (),
                 selected: str | None = None, size: int = 800,
                 theme: str | Theme = "classic", caption: str = "",
                 result: str = "", info: GameInfo | None = None, header_lines: int = 0,
                 min_height: int = 0, words: Words = ENGLISH) -> Image.Image:
    """The picture as a palette image (see `render` for the arguments; `compose` for
    ``header_lines`` and ``min_height``)."""
    variant = variant or get_variant(position.variant)
    theme = get_theme(theme)
    topology = variant.topology
    perspective = 1 if perspective else 0
    comp = compose(position, variant, theme, size, perspective, info, caption, result,
                   header_lines, min_height, words)
    layout = comp.board
    family = family_of(variant.name, topology.name)
    image = Image.new("RGB", (comp.width, comp.height), theme.frame)
    image.paste(empty_board(topology, layout.size, perspective, theme), layout.origin)
    stacks = [variant.pieces_at(position, name) for name in topology.nodes]
    occupied = {i for i, stack in enumerate(stacks) if stack}
    kind = layout.style.kind
    for node, mark in _marks(topology, last_move, highlights, selected, occupied):
        sprite = marks.mark_sprite(mark, kind, layout.spacing, layout.piece_diameter, theme)
        _paste(image, sprite, layout.centres[node])
    for move in _moves(last_move):
        _draw_arrows(image, layout, topology, move, theme)
    for node in sorted(occupied):
        stack = stacks[node]
        colours = tuple(_side_colours(theme, variant, p.side) for p in stack)
        sprite = stack_sprite(family, tuple(stack), colours, layout.piece_diameter, theme)
        _paste(image, sprite, layout.centres[node])
    draw_placed(image, comp.header, comp.header_size)
    draw_placed(image, comp.panel, comp.panel_size)
    palette = _palette_for(variant, theme)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _draw_arrows(image: Image.Image, layout: Layout, topology: Topology, move: Move,
                 theme: Theme) -> None:
    """An arrow for each step of the last move that goes somewhere."""
    width = max(2.0, layout.spacing * 0.09)
    inset = layout.piece_diameter * (0.62 if layout.style.kind != "squares" else 0.5)
    for step in move.steps:
        a, b = _node(topology, step.origin), _node(topology, step.target)
        if a == b:
            continue
        (xa, ya), (xb, yb) = layout.centres[a], layout.centres[b]
        sprite, (ox, oy) = marks.arrow_sprite(xb - xa, yb - ya, width, inset, theme)
        image.paste(sprite, (xa - ox, ya - oy), sprite)


def render(position: Position, *, variant: Variant | None = None, perspective: int = 0,
           last_move: LastMove = None, highlights: Iterable[str] = (),
           selected: str | None = None, size: int = 800, theme: str | Theme = "classic",
           caption: str = "", result: str = "", info: GameInfo | None = None,
           words: Words = ENGLISH) -> bytes:
    """The PNG picture of ``position``.

    * ``variant``: the rules the position belongs to (default: found by its name).
    * ``perspective``: the side sitting at the bottom; side 1 sees the board turned 180°.
    * ``last_move``: marked as from/to points, an arrow, and captured points; a list of
      moves marks every step of a turn played in several steps.
    * ``highlights``: node names to mark (such as a piece's legal destinations).
    * ``selected``: the node of the piece whose destinations are highlighted.
    * ``size``: the picture's width in pixels; the height follows from what it shows.
    * ``caption``: a line of text for the header when there is no ``info``.
    * ``result``: replaces "X to move" once the game is over ("1-0 · White wins").
    * ``info``: the game around the position (number, players, deadline, clocks, losses,
      last moves), shown in the header and the panel. Losses are drawn as given in
      ``info.losses`` (counted from the game's moves by the caller, `renderer.losses`);
      without them, or without ``info`` (a rules diagram, a bare position), the picture
      has no losses line.
    * ``words``: the words the picture draws of its own (the variant's and sides' names,
      "to move", the panel's headings, the legend), in the reader's language (`Words`;
      English by default).
    """
    image = render_image(position, variant=variant, perspective=perspective,
                         last_move=last_move, highlights=highlights, selected=selected,
                         size=size, theme=theme, caption=caption, result=result, info=info,
                         words=words)
    return encode_png(image)


def encode_png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


# --- the header and the panel -------------------------------------------------------------
def _token(theme: Theme, variant: Variant, side: int, size: int) -> Image.Image:
    """A disc in the side's colours with a light rim, so a dark side shows on the frame."""
    return _ringed_token(_side_colours(theme, variant, side), round(size * 0.95), theme)


@lru_cache(maxsize=64)
def _ringed_token(colours: SideColours, diameter: int, theme: Theme) -> Image.Image:
    token = side_token(colours, diameter, theme).copy()
    k = 4
    ring = Image.new("RGBA", (token.width * k, token.height * k), (0, 0, 0, 0))
    c, r = ring.width / 2, diameter * k / 2
    ImageDraw.Draw(ring).ellipse((c - r, c - r, c + r, c + r), outline=theme.caption_dim + (255,),
                                 width=max(1, round(diameter * k * 0.08)))
    ring = ring.resize(token.size, Image.Resampling.LANCZOS)
    return Image.alpha_composite(token, ring)


def _header(variant: Variant, position: Position, theme: Theme, info: GameInfo | None,
            caption: str, result: str, size: int, words: Words = ENGLISH) -> list[Paragraph]:
    """The game (number, name), the players with their colours, and whose turn it is or
    the result, with the deadline."""
    info = info or GameInfo()
    title = Paragraph()
    if info.number is not None:
        title.word(f"#{info.number}", theme.caption, bold=True)
    if caption:
        title.word(caption, theme.caption)
    title.word(words.variant_name(variant), theme.caption_dim)
    out = [title]
    names = info.players
    if names:
        players = Paragraph()
        for side in (0, 1):
            if side:
                players.word(words.versus, theme.caption_dim)
            players.word(names[side], theme.caption, bold=True,
                         images=(_token(theme, variant, side, size),))
            players.word(f"({words.side(variant, side)})", theme.caption_dim)
        out.append(players)
    state = Paragraph()
    if result:
        state.word(result, theme.caption, bold=True)
    else:
        side = position.side
        mover = names[side] if names else words.side(variant, side)
        state.word(fill(words.to_move, mover=mover), theme.caption, bold=True,
                   images=(_token(theme, variant, side, size),))
        state.word(fill(words.move_number, number=position.fullmove), theme.caption_dim)
        if info.deadline:
            state.word(f"· {info.deadline}", theme.caption, keep=True)
        status = words.status_of(variant, position)
        if status:
            state.word(f"· {status}", theme.caption)
    out.append(state)
    return out


def _panel(variant: Variant, position: Position, theme: Theme, info: GameInfo | None,
           perspective: int, size: int, width: float, beside: bool, max_lines: int,
           board_piece: int, words: Words = ENGLISH) -> list[Paragraph]:
    """Each side (the far side first, as on the board): its clock and what it has lost
    (as the caller counted it from the moves; no such line without ``info.losses``); then
    the last moves, and the terrain legend of a board that has terrain, then the key to
    the pieces' letters where ``words`` has one."""
    out: list[Paragraph] = []
    legend = _legends(variant, theme, size, perspective, words)
    if info is None:
        return legend
    family = family_of(variant.name, variant.topology.name)
    for side in (1 - perspective, perspective):
        row = Paragraph()
        name = info.players[side] if info.players else words.side(variant, side)
        row.word(name, theme.caption, bold=True, images=(_token(theme, variant, side, size),))
        if info.clocks[side]:
            row.word(f"· {info.clocks[side]}", theme.caption, keep=True)
        out.append(row)
        if info.losses is not None:
            out.append(_losses(variant, theme, family, info.losses, side, size, words))
    moves = [m.replace(" ", NBSP) for m in info.moves]
    if moves:
        if beside:
            kept = _legend_lines(variant, legend, words, size, width)
            room = max(1, max_lines - len(out) - 1 - kept)
            out.append(Paragraph().word(words.last_moves, theme.caption_dim))
            out += [Paragraph().word(m, theme.caption) for m in moves[-room:]]
        else:
            row = Paragraph().word(words.last_moves_row, theme.caption_dim)
            for m in moves[-6:]:
                row.word(m, theme.caption)
            out.append(row)
    return out + legend


def _losses(variant: Variant, theme: Theme, family: str, lost: Material, side: int,
            size: int, words: Words = ENGLISH) -> Paragraph:
    row = Paragraph()
    if lost.points is not None:
        return row.word(fill(words.destroyed, points=lost.points[side]), theme.caption_dim)
    letters = lost.letters[side]
    if not letters:
        return row.word(words.lost_nothing, theme.caption_dim)
    row.word(words.lost, theme.caption_dim)
    colours = _side_colours(theme, variant, side)
    diameter = round(size * 1.5)
    for letter in letters:
        sprite = stack_sprite(family, (Piece(letter, side),), (colours,), diameter, theme)
        row.items.append(Item(images=(sprite,), joined=True))
    return row


def _legend_kinds(variant: Variant) -> bool:
    return BOARD_STYLES.get(variant.topology.name) is not None and \
        BOARD_STYLES[variant.topology.name].kind == "grid"


def _legend(theme: Theme, size: int, words: Words = ENGLISH) -> Paragraph:
    """The terrain kinds, each named once beside a swatch of its colour."""
    row = Paragraph()
    for key, label in words.terrain:
        row.word(label, theme.caption_dim, images=(_swatch(theme, key, size),))
    return row


def _key(variant: Variant, theme: Theme, size: int, side: int, words: Words) -> Paragraph:
    """Each piece named once beside its picture (the side at the bottom's colours), its
    name held on one line."""
    row = Paragraph()
    family = family_of(variant.name, variant.topology.name)
    colours = _side_colours(theme, variant, side)
    diameter = round(size * 1.5)
    for letter, name in words.pieces:
        sprite = stack_sprite(family, (Piece(letter, side),), (colours,), diameter, theme)
        row.word(name, theme.caption_dim, images=(sprite,), keep=True)
    return row


def _legends(variant: Variant, theme: Theme, size: int, side: int,
             words: Words) -> list[Paragraph]:
    """The terrain legend of a board with terrain, then the key to the pieces (if any)."""
    out = [_legend(theme, size, words)] if _legend_kinds(variant) else []
    return out + ([_key(variant, theme, size, side, words)] if words.pieces else [])


def _legend_lines(variant: Variant, legend: list[Paragraph], words: Words, size: int,
                  width: float) -> int:
    """The lines kept for the legends below the last moves: three for the terrain
    legend, and the lines the key to the pieces (the last legend) takes."""
    pieces = Typesetter(size).count(legend[-1:], width) if words.pieces else 0
    return (3 if _legend_kinds(variant) else 0) + pieces


@lru_cache(maxsize=64)
def _swatch(theme: Theme, key: str, size: int) -> Image.Image:
    side = max(6, round(size * 0.8))
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    fill = theme.land if key == "headquarters" else getattr(theme, key)
    edge = theme.headquarters if key == "headquarters" else theme.bridge_edge \
        if key == "bridge" else theme.caption_dim
    draw.rectangle((0, 0, side - 1, side - 1), fill=fill + (255,), outline=edge + (255,),
                   width=max(1, side // 6 if key == "headquarters" else 1))
    return image


# --- the palette ---------------------------------------------------------------------
def _family_letters(family: str) -> list[str]:
    return sorted({letter for fam, letter in GLYPHS if fam == family}) or ["?"]


PALETTE_SIZE = 360  # the palette is fitted on a picture this wide, whatever the size


@lru_cache(maxsize=64)
def _palette_for(variant: Variant, theme: Theme) -> Image.Image:
    """A 256-colour palette fitted to everything a picture of this board can show: the
    board, every piece of the family for both sides (plain, heroic, carrying), every
    mark, the arrow, the tokens, swatches and the text. The colours (and the blends of
    their anti-aliased edges) do not depend on the size, so one small sample serves every
    size and the first picture of a new size does not pay for it."""
    board_size, perspective = PALETTE_SIZE, 0
    header = panel = MIN_HEADER_FONT
    topology = variant.topology
    family = family_of(variant.name, topology.name)
    layout = _layout(topology, board_size, perspective)
    board = empty_board(topology, board_size, perspective, theme)
    sample = Image.new("RGB", (board_size, layout.height * 2), theme.frame)
    sample.paste(board, (0, 0))
    busy = board.copy()
    colours = [theme.side_colours(name, side) for side, name in enumerate(variant.side_names)]
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
    sprites += [_ringed_token(c, round(header * 0.95), theme) for c in colours]
    sprites += [_swatch(theme, key, panel) for key, _name in LEGEND]
    for k, sprite in enumerate(sprites):
        _paste(busy, sprite, layout.centres[(k * 7) % len(topology)])
    arrow, (ox, oy) = marks.arrow_sprite(round(layout.spacing * 2), round(layout.spacing),
                                         max(2.0, layout.spacing * 0.09), 0.0, theme)
    busy.paste(arrow, (layout.margin.__round__() - ox + 40, 40 - oy), arrow)
    draw = ImageDraw.Draw(busy)
    sample_text = "to move · check 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for k, (size, bold) in enumerate(((header, True), (header, False), (panel, False))):
        for j, colour in enumerate((theme.caption, theme.caption_dim)):
            draw.text((4, 4 + (2 * k + j) * header * 1.4), sample_text, font=font(size, bold),
                      fill=colour)
    sample.paste(busy, (0, layout.height))
    # the marks' exact colours are kept whatever the sample's pixel counts say: a thin
    # dark edge must stay dark, or the last move fades on some terrain
    keys = sorted({theme.mark_edge, theme.last_move[:3], theme.capture[:3],
                   theme.highlight[:3], theme.caption, theme.caption_dim, theme.frame,
                   *(c.fill for c in colours), *(c.outline for c in colours)})
    return fitted_palette(sample, keys)


def fitted_palette(sample: Image.Image, keys: list[RGB]) -> Image.Image:
    """A 256-colour palette holding ``keys`` exactly and, for the rest, the colours that
    fit ``sample`` best (median cut, no dithering)."""
    fitted = sample.quantize(256 - len(keys), method=Image.Quantize.MEDIANCUT,
                             dither=Image.Dither.NONE)
    entries = (fitted.getpalette() or [])[:3 * (256 - len(keys))]
    entries += [v for rgb in keys for v in rgb]
    palette = Image.new("P", (1, 1))
    palette.putpalette(entries)
    return palette
