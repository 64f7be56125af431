"""The renderer draws what it is given: every piece where it stands, in its side's colour,
the Commander Chess terrain where the rules put it, the board turned for the far side."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageSequence

from engine import Move, Piece, Position, Variant, all_variants, get_variant
from engine.boards import CHESS, COMMANDER
from renderer import GLYPHS, Layout, compose, get_theme, render, render_replay
from renderer.board import empty_board
from renderer.pieces import piece_sprite, stack_sprite

SIZE = 320
THEME = get_theme("classic")
CLASH = get_variant("clash")


class BoardOnly(Variant):
    """A stand-in variant that shows given pieces on a board, for boards and pieces whose
    rules are not implemented yet (and for stacks, which Clash of Command has none of)."""

    def __init__(self, name: str, topology, side_names=("White", "Black"),
                 pieces: dict[str, tuple[Piece, ...]] | None = None, status: str = "") -> None:
        self.name = name
        self.display_name = name
        self.topology = topology
        self.side_names = side_names
        self.pieces = pieces or {}
        self.status = status

    def pieces_at(self, position: Position, node: str) -> tuple[Piece, ...]:
        return self.pieces.get(node, ())

    def start_position(self, mode: str = "standard") -> Position:
        return Position(self.name, (None,) * len(self.topology))

    def status_text(self, position: Position) -> str:
        return self.status

    def legal_moves(self, position: Position) -> list[Move]:
        raise AssertionError("the renderer must never generate moves")


def blank(variant: Variant, side: int = 0) -> Position:
    return Position(variant.name, (None,) * len(variant.topology), side)


def board_at(variant: Variant, position: Position | None = None, perspective: int = 0,
             **options) -> Layout:
    """Where the board of this picture lies (below its header)."""
    position = position or blank(variant)
    return compose(position, variant, THEME, SIZE, perspective, **options).board


def picture(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=False)) ** 0.5


def game_positions(variant: Variant = CLASH, n_games: int = 2, plies: int = 24
                   ) -> list[Position]:
    """The start and positions from seeded random games (the test picks the moves)."""
    rng = random.Random(20240611)
    out = [variant.start_position()]
    for _ in range(n_games):
        position = variant.start_position()
        for _ in range(plies):
            moves = variant.legal_moves(position)
            if not moves:
                break
            position = variant.make_move(position, rng.choice(moves))
            out.append(position)
    return out[::7]


def empty_clash(side: int = 0) -> Position:
    return Position("clash", (None,) * len(CLASH.topology), side)


# --- purity -------------------------------------------------------------------------
def test_same_input_gives_the_same_bytes():
    position = CLASH.start_position()
    assert render(position, size=SIZE) == render(position, size=SIZE)


def test_different_positions_give_different_pictures():
    start = CLASH.start_position()
    after = CLASH.apply(start, CLASH.parse_move(start, "b2=H"))
    before_bytes = picture(render(start, size=SIZE)).tobytes()
    assert before_bytes != picture(render(after, size=SIZE)).tobytes()


def test_the_picture_is_a_png_of_the_asked_width():
    image = Image.open(io.BytesIO(render(CLASH.start_position(), size=SIZE)))
    assert image.format == "PNG" and image.width == SIZE


def test_render_never_generates_moves():
    variant = BoardOnly("clash", CLASH.topology, pieces={"e5": (Piece("C", 0),)})
    render(blank(variant), variant=variant, size=SIZE, highlights=("a1",))  # would raise


# --- pieces where they stand, in their side's colour ----------------------------------
@pytest.mark.parametrize("perspective", [0, 1])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_every_occupied_point_shows_a_piece_of_its_side(variant, perspective):
    white = THEME.side_colours(variant.side_names[0]).fill
    black = THEME.side_colours(variant.side_names[1]).fill
    radius = board_at(variant, perspective=perspective).piece_diameter * 0.3
    for position in game_positions(variant):
        image = picture(render(position, variant=variant, size=SIZE, perspective=perspective))
        layout = board_at(variant, position, perspective)
        empty = empty_board(variant.topology, layout.size, perspective, THEME)
        pixels = image.load()
        for node, name in enumerate(variant.topology.nodes):
            stack = variant.pieces_at(position, name)
            x, y = layout.centres[node]
            board_pixel = empty.getpixel((x - layout.origin[0], y - layout.origin[1]))
            if not stack:
                assert distance(image.getpixel((x, y)), board_pixel) < 32, name
                continue
            own, other = (white, black) if stack[0].side == 0 else (black, white)
            near_own = near_other = 0
            for dx in range(-round(radius), round(radius) + 1):
                for dy in range(-round(radius), round(radius) + 1):
                    pixel = pixels[x + dx, y + dy]
                    near_own += distance(pixel, own) < 30
                    near_other += distance(pixel, other) < 30
            # the body is the side colour; the letter may be near the other side's colour
            assert near_own > (2 * radius) ** 2 * 0.25 and near_own > near_other, name


def test_each_clash_piece_has_its_own_silhouette():
    masks = {letter: piece_sprite("clash", letter, THEME.side_colours("White"), False, 60,
                                  THEME).getchannel("A").tobytes()
             for letter in "CFDHBS"}
    assert len(set(masks.values())) == 6


@pytest.mark.parametrize("family, letters", [
    ("clash", "CFDHBS"),
    ("commander", "CITMEAGSFNH"),
    ("chess", "KQRBNP"),
    ("chieftain", "CHSNMGV"),
])
def test_every_variant_letter_has_a_glyph(family, letters):
    assert {letter for fam, letter in GLYPHS if fam == family} == set(letters)


# --- stacks and heroic pieces ------------------------------------------------------------
def gold_pixels(image: Image.Image, centre: tuple[int, int], radius: int) -> int:
    x, y = centre
    return sum(distance(image.getpixel((x + dx, y + dy)), THEME.heroic) < 40
               for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1))


def test_a_heroic_piece_wears_gold_and_a_plain_one_does_not():
    topology = COMMANDER
    plain = BoardOnly("commander", topology, ("Red", "Blue"), {"g5": (Piece("T", 0),)})
    hero = BoardOnly("commander", topology, ("Red", "Blue"), {"g5": (Piece("T", 0, True),)})
    layout = board_at(plain)
    centre = layout.centres[topology.node("g5")]
    radius = layout.piece_diameter * 2 // 3
    assert gold_pixels(picture(render(blank(plain), variant=plain, size=SIZE)), centre, radius) == 0
    assert gold_pixels(picture(render(blank(hero), variant=hero, size=SIZE)), centre, radius) > 10


def test_a_stack_shows_its_passengers():
    red = THEME.side_colours("Red")
    navy = (Piece("N", 0),)
    loaded = (Piece("N", 0), Piece("F", 0), Piece("T", 0))
    alone = stack_sprite("commander", navy, (red,), 60, THEME)
    carrying = stack_sprite("commander", loaded, (red,) * 3, 60, THEME)
    other_order = stack_sprite("commander", (loaded[0], loaded[2], loaded[1]), (red,) * 3, 60,
                               THEME)
    assert alone.tobytes() != carrying.tobytes() != other_order.tobytes()
    heroic_passenger = stack_sprite("commander", (loaded[0], Piece("F", 0, True), loaded[2]),
                                    (red,) * 3, 60, THEME)
    assert heroic_passenger.tobytes() != carrying.tobytes()


def test_a_stack_on_the_board_is_drawn_where_it_stands():
    stack = (Piece("N", 1), Piece("F", 1), Piece("T", 1))
    variant = BoardOnly("commander", COMMANDER, ("Red", "Blue"), {"b11": stack})
    single = BoardOnly("commander", COMMANDER, ("Red", "Blue"), {"b11": stack[:1]})
    layout = board_at(variant)
    x, y = layout.centres[COMMANDER.node("b11")]
    box = (x - layout.piece_diameter, y - layout.piece_diameter,
           x + layout.piece_diameter, y + layout.piece_diameter)
    a = picture(render(blank(variant), variant=variant, size=SIZE))
    b = picture(render(blank(single), variant=single, size=SIZE))
    assert a.crop(box).tobytes() != b.crop(box).tobytes()
    bottom = layout.board_box[3]  # the panel below counts what stands on the board
    assert a.crop((0, y + layout.piece_diameter, SIZE, bottom)).tobytes() == \
        b.crop((0, y + layout.piece_diameter, SIZE, bottom)).tobytes()


# --- the Commander Chess terrain -------------------------------------------------------
def test_commander_terrain_colours_are_where_the_rules_put_them():
    variant = BoardOnly("commander", COMMANDER, ("Red", "Blue"))
    image = picture(render(blank(variant), variant=variant, size=SIZE))
    layout = board_at(variant)
    s = layout.spacing
    expected = {"sea": THEME.sea, "coast": THEME.coast, "mouth": THEME.mouth, "land": THEME.land}
    for node, name in enumerate(COMMANDER.nodes):
        file_ = name[0]
        kind = ("sea" if file_ in "ab" else "coast" if file_ == "c"
                else "mouth" if name in ("d6", "e6", "d7", "e7") else "land")
        x, y = layout.point(node)
        pixel = image.getpixel((round(x + 0.25 * s), round(y + 0.25 * s)))
        if name in ("f2", "h2", "f11", "h11"):
            assert distance(image.getpixel((round(x + 0.43 * s), round(y + 0.2 * s))),
                            THEME.headquarters) < 24, name
            continue
        assert distance(pixel, expected[kind]) < 12, (name, pixel, kind)


@pytest.mark.parametrize("file_, colour", [
    ("a", "sea"), ("b", "sea"), ("c", "river"), ("e", "river"), ("f", "bridge"),
    ("g", "river"), ("h", "bridge"), ("k", "river"),
])
def test_the_river_and_its_two_bridges(file_, colour):
    variant = BoardOnly("commander", COMMANDER, ("Red", "Blue"))
    for perspective in (0, 1):
        image = picture(render(blank(variant), variant=variant, size=SIZE,
                               perspective=perspective))
        layout = board_at(variant, perspective=perspective)
        (x6, y6), (x7, y7) = (layout.point(COMMANDER.node(f"{file_}{r}")) for r in (6, 7))
        pixel = image.getpixel((round(x6), round((y6 + y7) / 2)))
        assert distance(pixel, getattr(THEME, colour)) < 12, (file_, pixel)


# --- orientation -----------------------------------------------------------------------
def changed_rows(a: Image.Image, b: Image.Image) -> list[int]:
    width = a.width
    pa, pb = a.tobytes(), b.tobytes()
    row = width * 3
    return [y for y in range(a.height) if pa[y * row:(y + 1) * row] != pb[y * row:(y + 1) * row]]


@pytest.mark.parametrize("variant", [
    CLASH,
    BoardOnly("cab", CHESS),
    BoardOnly("commander", COMMANDER, ("Red", "Blue")),
], ids=["clash", "chess", "commander"])
def test_the_first_rank_is_at_the_bottom_for_side_0_and_at_the_top_for_side_1(variant):
    topology = variant.topology
    node = topology.node(f"{topology.files[4]}1")
    lone = BoardOnly(variant.name, topology, variant.side_names,
                     {topology.nodes[node]: (Piece("C", 0),)})
    empty = BoardOnly(variant.name, topology, variant.side_names)
    for perspective, lower_half in ((0, True), (1, False)):
        a = picture(render(blank(lone), variant=lone, size=SIZE, perspective=perspective))
        b = picture(render(blank(empty), variant=empty, size=SIZE, perspective=perspective))
        rows = changed_rows(a, b)
        assert rows
        assert (min(rows) > a.height * 0.6) == lower_half
        assert (max(rows) < a.height * 0.4) == (not lower_half)


def test_files_run_the_other_way_for_the_far_side():
    layout0, layout1 = Layout(CHESS, SIZE, 0), Layout(CHESS, SIZE, 1)
    a1, h8 = CHESS.node("a1"), CHESS.node("h8")
    assert layout0.centres[a1][0] < layout0.centres[h8][0]
    assert layout1.centres[a1][0] > layout1.centres[h8][0]
    assert layout1.centres[a1] == layout0.centres[h8]


# --- marks and caption -------------------------------------------------------------------
def test_the_last_move_marks_its_points():
    start = CLASH.start_position()
    move = CLASH.parse_move(start, "b2-a3/D")
    after = CLASH.make_move(start, move)
    layout = board_at(CLASH, after)
    plain = picture(render(after, size=SIZE))
    marked = picture(render(after, size=SIZE, last_move=move))
    x, y = layout.centres[CLASH.topology.node("a3")]
    d = layout.piece_diameter * 2 // 3  # the halo shows around the piece that moved
    assert plain.crop((x - d, y - d, x + d, y + d)).tobytes() != \
        marked.crop((x - d, y - d, x + d, y + d)).tobytes()


def test_captured_points_are_marked_in_red():
    variant = BoardOnly("clash", CLASH.topology)
    move = Move.single("a5", "a1", captures=("a3",))
    layout = board_at(variant)
    image = picture(render(blank(variant), variant=variant, size=SIZE, last_move=move))
    x, y = layout.centres[CLASH.topology.node("a3")]
    red = THEME.capture[:3]
    d = layout.piece_diameter // 2
    assert any(distance(image.getpixel((x + dx, y + dy)), red) < 60
               for dx in range(-d, d + 1) for dy in range(-d, d + 1))


def test_highlights_mark_points_and_unknown_points_are_refused():
    position = CLASH.start_position()
    plain = render(position, size=SIZE)
    assert render(position, size=SIZE, highlights=("e5",)) != plain
    with pytest.raises(ValueError, match="z9"):
        render(position, size=SIZE, highlights=("z9",))


def test_the_caption_shows_the_status_text_and_result():
    quiet = BoardOnly("cab", CHESS)
    check = BoardOnly("cab", CHESS, status="check")
    assert render(blank(quiet), variant=quiet, size=SIZE) != \
        render(blank(check), variant=check, size=SIZE)
    assert render(blank(quiet), variant=quiet, size=SIZE) != \
        render(blank(quiet), variant=quiet, size=SIZE, result="1-0 · White wins")


# --- replays ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["gif", "png"])
def test_a_replay_has_one_frame_per_position(fmt):
    rng = random.Random(7)
    positions, moves = [CLASH.start_position()], [None]
    for _ in range(5):
        move = rng.choice(CLASH.legal_moves(positions[-1]))
        moves.append(move)
        positions.append(CLASH.make_move(positions[-1], move))
    data = render_replay(positions, moves, size=200, fmt=fmt)
    image = Image.open(io.BytesIO(data))
    assert image.format == fmt.upper()
    assert getattr(image, "n_frames", 1) == len(positions)


def played_steps(variant: Variant, fen: str, texts: list[str]
                 ) -> tuple[list[Position], list[Move | None]]:
    position = variant.parse_position(fen)
    positions, moves = [position], [None]
    for text in texts:
        moves.append(variant.parse_move(positions[-1], text))
        positions.append(variant.apply(positions[-1], moves[-1]))
    return positions, moves


DEPLOY = ("commander", "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1",
          ["N>xc9", "T>xe6", "F>xf9"], "Red is deploying from c6 (N>xc9): send the next step")
TURN = ("mini-chieftain", "3cc3/8/8/8/2m1m3/3M1M2/8/3CC3 w - 1", ["Md3xc4", "Mf3xe4"],
        "White's turn in progress: Md3xc4 (1 of 2)")


def frames_of(data: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(data))
    return [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]


@pytest.mark.parametrize("fmt", ["gif", "png"])
@pytest.mark.parametrize("game", [DEPLOY, TURN], ids=["deploy", "chieftain-turn"])
def test_every_replay_frame_is_whole_and_all_have_one_size(game, fmt):
    """A step of a turn says more than the first frame's header: every frame still shows
    its whole picture, the board in one place, and below it only the frame colour."""
    name, fen, texts, status = game
    variant = get_variant(name)
    positions, moves = played_steps(variant, fen, texts)
    assert status in variant.status_text(positions[1])
    alone = [compose(p, variant, THEME, SIZE, 0) for p in positions]
    assert alone[1].header_lines > alone[0].header_lines  # the step's header is longer
    frames = frames_of(render_replay(positions, moves, size=SIZE, fmt=fmt))
    assert len(frames) == len(positions)
    assert {f.size for f in frames} == {(SIZE, max(c.height for c in alone))}
    board_tops = set()
    for k, (frame, comp) in enumerate(zip(frames, alone, strict=True)):
        # the frame holds the picture of its own position, from the board down, whole:
        # the file letters and the terrain legend included
        single = picture(render(positions[k], variant=variant, last_move=moves[k], size=SIZE))
        top = comp.board.origin[1]
        below = single.crop((0, top, SIZE, single.height))
        lines = frames[0].height - single.height
        board_top = top + lines
        board_tops.add(board_top)
        assert frame.crop((0, board_top, SIZE, board_top + below.height)).tobytes() == \
            below.tobytes()
        rest = frame.crop((0, board_top + below.height, SIZE, frame.height))
        assert set(rest.getdata()) <= {THEME.frame}
    assert len(board_tops) == 1  # the board stays in place


def test_the_selected_piece_is_marked_under_it():
    position = CLASH.start_position()
    layout = board_at(CLASH, position)
    plain = picture(render(position, size=SIZE))
    chosen = picture(render(position, size=SIZE, selected="c3", highlights=("b4", "c5")))
    x, y = layout.centres[CLASH.topology.node("c3")]
    d = layout.piece_diameter * 2 // 3
    assert plain.crop((x - d, y - d, x + d, y + d)).tobytes() != \
        chosen.crop((x - d, y - d, x + d, y + d)).tobytes()
    x, y = layout.centres[CLASH.topology.node("e5")]  # elsewhere nothing changes
    assert plain.crop((x - d, y - d, x + d, y + d)).tobytes() == \
        chosen.crop((x - d, y - d, x + d, y + d)).tobytes()
