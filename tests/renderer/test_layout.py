"""Nothing the picture says is ever cut: every string of the header and the panel is set in
full, inside the picture, at Discord's preview width (400 px) and at 800 px."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from bot.cli.render import seeded_game
from engine import all_variants, get_variant
from renderer import GameInfo, compose, get_theme, losses, render
from renderer.board import empty_board
from renderer.fonts import font
from renderer.frame import Item, Typesetter

THEME = get_theme("classic")
MINI = get_variant("mini-chieftain")
LONG = ("Alice Pleasance Liddell-Hargreaves", "Nguyễn Thị Hường Trần-Đức")


def info(moves: tuple[str, ...]) -> GameInfo:
    return GameInfo(number=12345, players=LONG, deadline="until 2026-12-03 14:00 UTC",
                    clocks=("2 days 4 hours left", "3 days per move"), moves=moves)


def words(placed) -> str:
    return " ".join(p.item.text for p in placed if p.item.text).replace("\u00a0", " ")


@pytest.mark.parametrize("size", [400, 800])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_every_caption_string_fits_and_is_whole(variant, size):
    positions, moves = seeded_game(variant, 12)
    texts = tuple(f"{k}. {variant.format_move(positions[k - 1], m)}"
                  for k, m in enumerate(moves[1:], 1))
    result = f"1-0 · {LONG[0]} ({variant.side_names[0]}) wins: the opponent's time ran out"
    for position, res in ((positions[-1], ""), (positions[-1], result)):
        comp = compose(position, variant, THEME, size, 0, info(texts), result=res)
        setter_sizes = ((comp.header, comp.header_size), (comp.panel, comp.panel_size))
        for placed, face_size in setter_sizes:
            setter = Typesetter(face_size)
            for p in placed:
                right = p.x + setter.item_width(p.item)
                assert 0 <= p.x and right <= size, (p.item.text, p.x, right)
                assert p.y + face_size <= comp.height, p.item.text
        header = words(comp.header)
        assert "#12345" in header and LONG[0] in header and LONG[1] in header
        if res:
            assert res in header and "to move" not in header
        else:
            assert f"{LONG[position.side]} to move" in header
            assert "until 2026-12-03 14:00 UTC" in header
        panel = words(comp.panel)
        assert "2 days 4 hours left" in panel and "3 days per move" in panel
        assert texts[-1] in panel
        png = render(position, variant=variant, size=size, info=info(texts), result=res)
        assert Image.open(io.BytesIO(png)).size == (size, comp.height)


def test_the_header_face_stays_readable_at_400_px():
    variant = all_variants()[0]
    comp = compose(variant.start_position(), variant, THEME, 400, 0, info(()))
    assert comp.header_size >= 13 and comp.panel_size >= 12
    assert not comp.beside
    assert compose(variant.start_position(), variant, THEME, 800, 0, info(())).beside


def test_a_word_longer_than_a_line_is_broken_not_cut():
    name = "Wolfeschlegelsteinhausenbergerdorff" * 3
    variant = all_variants()[0]
    comp = compose(variant.start_position(), variant, THEME, 400, 0,
                   GameInfo(number=1, players=(name, "Bob")))
    assert name in words(comp.header).replace(" ", "")
    width = max(p.x + Typesetter(comp.header_size).item_width(p.item) for p in comp.header)
    assert width <= 400
    assert font(comp.header_size).getlength("W") > 0


# --- a long name takes more lines, never smaller letters --------------------------------------
WIDE = "W" * 40
NORMAL = {400: (14, 12), 640: (23, 20), 800: (22, 19)}  # (header, panel) face sizes


@pytest.mark.parametrize("size", sorted(NORMAL))
def test_a_name_of_forty_letters_is_broken_between_letters_at_the_normal_size(size):
    start = MINI.start_position()
    game = GameInfo(number=10, players=(WIDE, "Bob"), losses=losses(MINI, []))
    comp = compose(start, MINI, THEME, size, 0, game)
    assert (comp.header_size, comp.panel_size) == NORMAL[size]
    header = words(comp.header)
    assert header.startswith("#10 mini-Chieftain ")
    assert "White may move up to 2 pieces" in header
    assert words(comp.panel).count("lost: nothing") == 2
    # the name is set twice (the players, who is to move), each time in pieces that fill
    # their line: one more letter would not fit
    pad = max(6, round(size * 0.015))
    setter = Typesetter(comp.header_size)
    pieces = [p for p in comp.header if p.item.text.strip("W") == "" and p.item.text]
    assert "".join(p.item.text for p in pieces) == WIDE * 2
    assert len(pieces) >= 4
    taken = 0
    for p in pieces:
        assert p.x == pad and p.x + setter.item_width(p.item) <= size - pad
        taken += len(p.item.text)
        if taken % len(WIDE):  # not the name's last piece: the line is full
            longer = Item(p.item.text + "W", bold=True, images=p.item.images)
            assert p.x + setter.item_width(longer) > size - pad


def test_a_long_name_leaves_the_faces_of_a_short_names_picture():
    start = MINI.start_position()
    for size in NORMAL:
        short = compose(start, MINI, THEME, size, 0, GameInfo(number=10, players=("Ann", "Bob")))
        wide = compose(start, MINI, THEME, size, 0, GameInfo(number=10, players=(WIDE, "Bob")))
        assert (wide.header_size, wide.panel_size) == (short.header_size, short.panel_size)
        assert wide.header_lines > short.header_lines
        assert wide.height > short.height


# --- the board's coordinates and the panel -----------------------------------------------------
def ink_box(image: Image.Image, background: tuple[int, int, int]) -> tuple[int, int, int, int]:
    """The box of every pixel of ``image`` not in the ``background`` colour."""
    plain = Image.new("RGB", image.size, background)
    mask = ImageChops.difference(image.convert("RGB"), plain).convert("L")
    box = mask.point(lambda v: 255 if v > 8 else 0).getbbox()
    assert box is not None
    return box


@pytest.mark.parametrize("size", [640, 800])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_the_panel_keeps_clear_of_the_board_coordinates(variant, size):
    """Half the coordinates' face size at least lies between the rank numbers (the panel
    beside the board) or the file letters (the panel below it) and the panel."""
    positions, moves = seeded_game(variant, 6)
    texts = tuple(f"{k}. {variant.format_move(positions[k - 1], m)}"
                  for k, m in enumerate(moves[1:], 1))
    game = GameInfo(number=10, players=("Ann", "Bob"), moves=texts,
                    losses=losses(variant, zip(positions, moves[1:], strict=False)))
    comp = compose(positions[-1], variant, THEME, size, 0, game)
    board = comp.board
    top = board.origin[1]
    # the labels' ink, as the empty board draws them: the board face aside, what is not
    # frame colour in the margins is a letter or a number
    image = empty_board(variant.topology, board.size, 0, THEME)
    _, _, right, bottom = (round(v) + 2 for v in board.board_box)
    margin_right = image.crop((right, 0, image.width, image.height))
    margin_below = image.crop((0, bottom - top, image.width, image.height))
    ink_right = right + ink_box(margin_right, THEME.frame)[2]
    ink_bottom = bottom + ink_box(margin_below, THEME.frame)[3]
    clear = board.label_size / 2
    line = Typesetter(comp.panel_size).line_height
    assert comp.panel
    if comp.beside:
        assert size == 800
        assert min(p.x for p in comp.panel) - ink_right >= clear
    else:
        assert size == 640
        assert min(p.y - line / 2 for p in comp.panel) - ink_bottom >= clear
