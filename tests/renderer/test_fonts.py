"""The picture's face has a glyph for every letter of the players' languages."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from engine import get_variant
from renderer import render
from renderer.fonts import BOLD, REGULAR
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
