"""Pictures in the reader's language: Vietnamese captions (and the pseudo-language's, 40%
longer) at 400 and 800 px fit whole, every letter drawn, with their exact words."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.cli.render import gallery_info, seeded_game
from bot.i18n import PSEUDO, untranslated
from bot.pictures import picture_words
from engine import Variant, all_variants, get_variant
from renderer import compose, get_theme, render, render_replay
from renderer.fonts import missing
from renderer.frame import Typesetter

THEME = get_theme("classic")
PLAYERS = ("Nguyễn Thị Hường", "Trần Đức Anh")
NAMES = [word for name in PLAYERS for word in name.split()]  # not English words
VI = {  # each variant's name and sides in Vietnamese
    "clash": ("Đại chiến Chỉ huy", ("Trắng", "Đen")),
    "commander": ("Cờ Tư Lệnh", ("Đỏ", "Xanh")),
    "combined-arms": ("Cờ vua Lữ đoàn Binh chủng hợp thành", ("Trắng", "Đen")),
    "mini-chieftain": ("mini-Chieftain", ("Trắng", "Đen")),
    "micro-chieftain": ("micro-Chieftain", ("Trắng", "Đen")),
}
COMMANDER_PIECES = ["Tư lệnh", "Sở chỉ huy", "Bộ binh", "Dân quân", "Xe tăng", "Công binh",
                    "Pháo binh", "Pháo phòng không", "Tên lửa", "Không quân", "Hải quân"]
TERRAIN = ["biển", "cửa sông", "bờ biển", "sông", "cầu", "Sở chỉ huy"]


def words(placed) -> list[str]:
    return [p.item.text.replace("\u00a0", " ") for p in placed if p.item.text]


def picture(variant: Variant, size: int, language: str, over: bool = False):
    """The composition of a middle game of ``variant`` with every caption a game has."""
    positions, moves = seeded_game(variant, 12)
    info = gallery_info(variant, 1, positions, moves, language)
    info = replace(info, players=PLAYERS)
    result = f"1-0 · {PLAYERS[0]} thắng: đối thủ hết giờ" if over else ""
    w = picture_words(variant, language)
    return positions[-1], info, result, w, compose(positions[-1], variant, THEME, size, 0,
                                                   info, result=result, words=w)


def assert_whole(comp, size: int) -> None:
    """Every caption's measured width fits its box and the picture's height, and every
    letter has a glyph."""
    for placed, face_size in ((comp.header, comp.header_size), (comp.panel, comp.panel_size)):
        setter = Typesetter(face_size)
        for p in placed:
            right = p.x + setter.item_width(p.item)
            assert 0 <= p.x and right <= size, (p.item.text, p.x, right)
            assert p.y + face_size <= comp.height, p.item.text
            assert missing(p.item.text) == [], p.item.text


@pytest.mark.parametrize("size", [400, 800])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_vietnamese_captions_fit_whole_with_their_words(variant, size):
    name, sides = VI[variant.name]
    position, info, _result, _w, comp = picture(variant, size, "vi")
    assert_whole(comp, size)
    header = " ".join(words(comp.header))
    side = position.side
    assert header.startswith(f"#{info.number} {name} ")
    assert f"{PLAYERS[0]} ({sides[0]}) đấu với {PLAYERS[1]} ({sides[1]})" in header
    assert f"Đến lượt {PLAYERS[side]} · nước {position.fullmove} · hạn chót 14:00 UTC " \
           f"3/12/2026" in header
    panel = " ".join(words(comp.panel))
    assert "còn 2 ngày 4 giờ" in panel and "3 ngày mỗi nước" in panel
    heading = "Các nước đi gần nhất" if size >= 720 else "Các nước đi gần nhất:"
    assert f"{heading} " in panel and info.moves[-1] in panel  # notation as it is
    if variant.piece_points:
        assert f"đã tiêu diệt {info.losses.points[0]} điểm" in panel
    png = render(position, variant=variant, size=size, info=info,
                 words=picture_words(variant, "vi"))
    assert Image.open(io.BytesIO(png)).size == (size, comp.height)


@pytest.mark.parametrize("size", [400, 800])
def test_the_commander_legend_names_the_terrain_and_every_piece_in_vietnamese(size):
    comp = picture(get_variant("commander"), size, "vi")[-1]
    assert words(comp.panel)[-len(TERRAIN) - len(COMMANDER_PIECES):] == \
        TERRAIN + COMMANDER_PIECES


def test_a_rules_diagram_has_the_legend_and_the_key_alone():
    variant = get_variant("combined-arms")
    comp = compose(variant.start_position(), variant, THEME, 400, 0,
                   words=picture_words(variant, "vi"))
    assert words(comp.panel) == ["Sở chỉ huy", "Không quân", "Pháo hạng nặng", "Pháo hạng nhẹ",
                                 "Thiết giáp", "Bộ binh"]
    assert " ".join(words(comp.header)) == (
        "Cờ vua Lữ đoàn Binh chủng hợp thành Đến lượt Trắng · nước 1")


@pytest.mark.parametrize("size", [400, 800])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_the_result_banner_replaces_whose_turn(variant, size):
    _position, _info, result, _w, comp = picture(variant, size, "vi", over=True)
    assert_whole(comp, size)
    header = " ".join(words(comp.header))
    assert header.endswith(result) and "Đến lượt" not in header


@pytest.mark.parametrize("size", [400, 800])
@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_the_pseudo_language_wraps_and_nothing_is_cut(variant, size):
    """Words 40% longer take more lines, never fewer letters: every item fits, and the
    header's letters are those of its texts, in order."""
    position, info, _result, w, comp = picture(variant, size, PSEUDO)
    assert_whole(comp, size)
    english = compose(position, variant, THEME, size, 0, info)
    assert comp.header_lines >= english.header_lines
    drawn = "".join(words(comp.header)).replace(" ", "")
    mover = w.to_move.replace("{mover}", PLAYERS[position.side])
    expected = "".join([f"#{info.number}", w.variant, PLAYERS[0], f"({w.sides[0]})",
                        w.versus, PLAYERS[1], f"({w.sides[1]})", mover,
                        w.move_number.replace("{number}", str(position.fullmove)),
                        f"·{info.deadline}", *([f"·{w.status(position)}"]
                                               if w.status(position) else [])])
    assert drawn == expected.replace(" ", "")
    # every word the picture says of its own is the catalogue's
    assert untranslated(" ".join(words(comp.header)), allowed=[*NAMES, "UTC"]) == []


def test_the_pseudo_language_words_every_caption_of_the_panel():
    variant = get_variant("commander")
    comp = picture(variant, 800, PSEUDO)[-1]
    panel = " ".join(w for w in words(comp.panel) if not w[:1].isdigit())  # moves aside
    assert untranslated(panel, allowed=NAMES) == []
    assert "[Çömmàñdér ~~~~]" in panel and "[rîvér möûth ~~~~~]" in panel


VI_STATUSES = [
    ("commander", "3c7/11/11/11/11/11/11/11/11/3G6+t/11/9IC r - - 0 1", [],
     "Bên Đỏ đang bị chiếu"),
    ("commander", "7c1ee/11/11/2n2a5/11/11/2(NFT)1i6/11/11/11/11/6C2EE r - - 0 1", ["N>xc9"],
     "Bên Đỏ đang triển khai quân từ c6 (N>xc9): gửi bước tiếp theo hoặc kết thúc lượt"),
    ("combined-arms", "k7/8/8/8/4n3/8/8/4K2R w - - 0 1", [], "bị chiếu"),
    ("mini-chieftain", "3cc3/8/8/8/2m1m3/3M1M2/8/3CC3 w - 1", [],
     "Bên Trắng được đi tối đa 2 quân"),
]


@pytest.mark.parametrize("name, fen, steps, status", VI_STATUSES)
def test_the_status_is_worded_in_vietnamese(name, fen, steps, status):
    variant = get_variant(name)
    position = variant.parse_position(fen)
    for text in steps:
        position = variant.apply(position, variant.parse_move(position, text))
    assert picture_words(variant, "vi").status(position) == status
    comp = compose(position, variant, THEME, 400, 0, words=picture_words(variant, "vi"))
    assert f"· {status}" in " ".join(words(comp.header))


def test_a_chieftain_turn_in_progress_keeps_its_moves_and_the_end_command():
    variant = get_variant("mini-chieftain")
    position = variant.parse_position("3cc3/8/8/8/2m1m3/3M1M2/8/3CC3 w - 1")
    position = variant.apply(position, variant.parse_move(position, "Md3xc4"))
    english = variant.status_text(position)
    free = english.split("activate: ")[1].split(";")[0]
    assert picture_words(variant, "vi").status(position) == (
        f"Lượt của bên Trắng đang dở: Md3xc4 (1/2); Thủ lĩnh còn ra lệnh được: "
        f"{free}; gửi một nước đi hoặc 'end'")


@pytest.mark.parametrize("variant", all_variants(), ids=lambda v: v.name)
def test_english_words_draw_the_picture_the_renderer_draws_alone(variant):
    positions, moves = seeded_game(variant, 12)
    info = gallery_info(variant, 1, positions, moves)
    for size in (400, 800):
        alone = compose(positions[-1], variant, THEME, size, 1, info)
        worded = compose(positions[-1], variant, THEME, size, 1, info,
                         words=picture_words(variant, "en"))
        assert worded == alone


def test_every_replay_frame_speaks_vietnamese_and_all_have_one_size():
    variant = get_variant("commander")
    positions, moves = seeded_game(variant, 4)
    w = picture_words(variant, "vi")
    data = render_replay(positions, moves, size=400, words=w, result="1-0 · Đỏ thắng")
    image = Image.open(io.BytesIO(data))
    assert image.n_frames == len(positions)
    for k, position in enumerate(positions):
        comp = compose(position, variant, THEME, 400, 0, words=w,
                       result="1-0 · Đỏ thắng" if k == len(positions) - 1 else "")
        assert_whole(comp, 400)
        header = " ".join(words(comp.header))
        assert header == "Cờ Tư Lệnh " + ("1-0 · Đỏ thắng" if k == len(positions) - 1 else
                                         f"Đến lượt {VI['commander'][1][position.side]} "
                                         f"· nước {position.fullmove}")
