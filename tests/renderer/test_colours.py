"""Marks stand out on every terrain, and the colour-blind theme keeps sides and marks apart
for people with deuteranopia or protanopia."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import get_variant
from renderer import THEMES, get_theme, render
from renderer.marks import arrow_sprite

# Machado, Oliveira and Fernandes (2009), severity 1.0, applied to linear RGB
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}
MIN_DELTA_E = 20.0  # CIE76: 2.3 is just noticeable; 20 is told apart at a glance


def linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(rgb) -> float:
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def simulate(rgb, deficiency: str) -> tuple[float, float, float]:
    lin = [linear(c) for c in rgb[:3]]
    return tuple(min(1.0, max(0.0, sum(m * v for m, v in zip(row, lin, strict=True))))
                 for row in MACHADO[deficiency])


def lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a, b, deficiency: str | None) -> float:
    if deficiency:
        la, lb = lab(simulate(a, deficiency)), lab(simulate(b, deficiency))
    else:
        la, lb = lab(tuple(linear(c) for c in a[:3])), lab(tuple(linear(c) for c in b[:3]))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5


@pytest.mark.parametrize("theme", THEMES.values(), ids=lambda t: t.name)
def test_the_last_move_edge_stands_out_on_every_background(theme):
    for name, colour in theme.backgrounds().items():
        assert contrast(theme.mark_edge, colour) >= 3.0, name
    # the bright core shows inside the dark edge
    assert contrast(theme.last_move, theme.mark_edge) >= 3.0


@pytest.mark.parametrize("theme", THEMES.values(), ids=lambda t: t.name)
def test_the_arrow_is_drawn_in_the_edge_and_core_colours(theme):
    sprite, _ = arrow_sprite(120, 0, 8.0, 10.0, theme)
    colours = {c[:3] for _, c in sprite.getcolors(1 << 16) if c[3] == 255}
    assert theme.mark_edge in colours and theme.last_move[:3] in colours


def test_a_last_move_onto_the_river_mouth_is_marked_in_both_tones():
    """The light-blue patch of Commander Chess (d6-e7) was where a last move faded."""
    variant = get_variant("commander")
    start = variant.start_position()
    theme = get_theme("classic")
    move = next(m for m in variant.legal_moves(start) if m.target in ("d6", "e6", "d7", "e7"))
    image = Image.open(io.BytesIO(render(variant.make_move(start, move), variant=variant,
                                         size=800, last_move=move))).convert("RGB")
    near = {c for _, c in image.getcolors(1 << 20)}
    assert any(sum((p - q) ** 2 for p, q in zip(c, theme.mark_edge, strict=True)) < 300
               for c in near)


@pytest.mark.parametrize("deficiency", sorted(MACHADO))
def test_the_colour_blind_theme_keeps_sides_and_marks_apart(deficiency):
    theme = get_theme("colour-blind")
    fills = dict((name, c.fill) for name, c in theme.sides)
    for a, b in (("white", "black"), ("red", "blue")):
        assert delta_e(fills[a], fills[b], deficiency) >= MIN_DELTA_E, (a, b)
    marks = {"last move": theme.last_move, "capture": theme.capture,
             "highlight": theme.highlight}
    names = sorted(marks)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert delta_e(marks[a], marks[b], deficiency) >= MIN_DELTA_E, (a, b)
    for side in ("red", "blue"):  # a highlight never looks like a side's piece
        assert delta_e(theme.highlight, fills[side], deficiency) >= MIN_DELTA_E, side


def test_the_classic_theme_is_the_one_that_confuses_red_and_green():
    """Why the option exists: the classic capture red and highlight green nearly meet."""
    classic, safe = get_theme("classic"), get_theme("colour-blind")
    assert delta_e(classic.capture, classic.highlight, "deuteranopia") < \
        delta_e(safe.capture, safe.highlight, "deuteranopia")


def test_themes_are_found_by_name_and_alias():
    assert get_theme("colourblind") is get_theme("Colour-Blind") is THEMES["colour-blind"]
    with pytest.raises(ValueError, match="no such theme"):
        get_theme("neon")
