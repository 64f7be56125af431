"""The picture's face has a glyph for every letter of the players' languages."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw

from engine import get_variant
from renderer import render
from renderer.fonts import (
    BOLD,
    FALLBACK,
    REGULAR,
    REPLACEMENT,
    coverage,
    face,
    missing,
    runs,
    stroke,
)
from renderer.frame import _text_mask, text_width
from renderer.info import GameInfo

NAMES = {
    "latin": "Bob Büilder · Zoë Łukasiewicz · Søren Ærø · François Ñúñez",
    "vietnamese": "Cờ Tư Lệnh · Nguyễn Thị Hường · Trần Đức Thắng · Lý Quốc Phượng",
    "greek": "Αλέξανδρος Παπαδόπουλος · Ελένη Ζαφειρίου",
    "cyrillic": "Пётр Чайковский · Ёлка Щукина · Ґанна Їжакевич",
}


@pytest.mark.parametrize("face", [REGULAR, BOLD], ids=["regular", "bold"])
@pytest.mark.parametrize("script", sorted(NAMES))
def test_every_letter_of_each_script_has_a_glyph(face, script):
    cmap = TTFont(face, lazy=True).getBestCmap()
    missing = sorted({ch for ch in NAMES[script] if ord(ch) not in cmap})
    assert missing == []


@pytest.mark.parametrize("script", sorted(NAMES))
def test_names_in_each_script_are_drawn(script):
    name = NAMES[script].split(" · ")[1]
    variant = get_variant("commander")
    png = render(variant.start_position(), variant=variant, size=400,
                 info=GameInfo(number=7, players=(name, "Ann")))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("face", [REGULAR, BOLD, FALLBACK],
                         ids=["regular", "bold", "fallback"])
def test_the_cmap_read_without_fonttools_is_the_fonts_own(face):
    cmap = TTFont(face, lazy=True).getBestCmap()
    assert coverage(face) == {code for code, glyph in cmap.items() if glyph != ".notdef"}


def test_a_chinese_name_is_drawn_in_the_fallback_face():
    assert runs("张伟") == (("张伟", FALLBACK),)
    assert runs("张伟", bold=True) == (("张伟", FALLBACK),)
    assert missing("张伟") == []


def test_japanese_and_korean_names_are_drawn_in_the_fallback_face():
    assert runs("山田はなこ") == (("山田はなこ", FALLBACK),)
    assert runs("김민준") == (("김민준", FALLBACK),)


def test_a_vietnamese_name_keeps_the_main_face():
    assert runs("Nguyễn Thị Hường") == (("Nguyễn Thị Hường", REGULAR),)
    assert runs("Trần Đức Thắng", bold=True) == (("Trần Đức Thắng", BOLD),)


def test_a_name_of_two_scripts_is_cut_into_runs_at_the_script_change():
    assert runs("Zhang 张伟 (Red)") == (("Zhang ", REGULAR), ("张伟 ", FALLBACK),
                                        ("(Red)", REGULAR))


def test_a_letter_no_face_has_is_drawn_as_a_replacement_with_its_marks_left_out():
    # Devanagari: neither DejaVu nor Droid Sans Fallback has it
    assert runs("Ram राम") == (("Ram " + REPLACEMENT * 2, REGULAR),)
    assert missing("Ram राम") == ["र", "म"]


def _ink(mask):
    return mask.getbbox() is not None


def test_the_chinese_name_drawn_is_the_fallback_faces_glyphs_not_empty_boxes():
    mask, _ = _text_mask("张伟", 24, False)
    droid = face(FALLBACK, 24)
    x0, y0, x1, y1 = droid.getbbox("张伟", anchor="ls")
    expected = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(expected).text((-x0, -y0), "张伟", font=droid, fill=255, anchor="ls")
    assert mask.tobytes() == expected.tobytes()
    dejavu = face(REGULAR, 24)  # what was drawn before: DejaVu's empty boxes (.notdef)
    x0, y0, x1, y1 = dejavu.getbbox("张伟", anchor="ls")
    boxes = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(boxes).text((-x0, -y0), "张伟", font=dejavu, fill=255, anchor="ls")
    assert _ink(mask) and mask.tobytes() != boxes.tobytes()


def test_a_mixed_name_is_as_wide_as_its_runs():
    width = text_width("Zhang 张伟", 20)
    assert width == (face(REGULAR, 20).getlength("Zhang ") + face(FALLBACK, 20).getlength("张伟"))
    mask, _ = _text_mask("Zhang 张伟", 20, False)
    assert abs(mask.width - width) <= 3


def test_a_picture_with_a_chinese_name_shows_the_glyphs_in_its_header():
    variant = get_variant("commander")
    pictures = [Image.open(io.BytesIO(render(
        variant.start_position(), variant=variant, size=400,
        info=GameInfo(number=7, players=(name, "Ann"))))) for name in ("张伟", "张三")]
    top = [p.convert("RGB").crop((0, 0, 400, 40)).tobytes() for p in pictures]
    assert top[0] != top[1]  # two names in the fallback face differ where boxes would not


def _ink_sum(mask) -> int:
    return sum(v * n for v, n in enumerate(mask.histogram()))


def test_a_bold_chinese_name_is_drawn_heavier_than_a_plain_one():
    assert stroke(FALLBACK, 24, True) == 0.72 and stroke(FALLBACK, 24, False) == 0.0
    assert stroke(BOLD, 24, True) == 0.0  # DejaVu has a bold cut of its own
    plain, _ = _text_mask("张伟", 24, False)
    bold, _ = _text_mask("张伟", 24, True)
    assert _ink_sum(bold) > _ink_sum(plain) * 1.2
    assert text_width("张伟", 24, True) == face(FALLBACK, 24).getlength("张伟") + 2 * 0.72
