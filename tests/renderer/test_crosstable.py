"""The crosstable picture draws what it is given, whole: every text inside its box in the
faces that draw it, a long name shortened with "…", Vietnamese with every letter, results
tinted by their first letter, the winners in gold, and no word of its own."""

from __future__ import annotations

import io
import unicodedata

import pytest
from PIL import Image

from renderer import CrossRow, Crosstable, draw_crosstable, get_theme
from renderer.crosstable import (
    ELLIPSIS,
    MAX_SCALE,
    NAME_MAX,
    TEXT_MAX,
    blend,
    lay_out,
    shorten,
)
from renderer.fonts import BOLD, REGULAR, missing, runs
from renderer.frame import Typesetter, _text_mask, text_width

THEME = get_theme("classic")
DISCORD_LIMIT = 10 * 1024 * 1024
NAMES = ["Tư lệnh Nguyễn Văn Ánh", "Alice Liddell", "Trần Đức Thắng", "Bob Büilder",
         "Nguyễn Thị Hường", "Zoë Łukasiewicz", "Lý Quốc Phượng", "Søren Ærø"]
OPPOSITE = {"1": "0", "0": "1", "½": "½", "": ""}


def round_robin(players: int, title: str = "Tournament #3 — Commander Chess round-robin",
                heads: tuple[str, str, str, str] = ("#", "Name", "Rating", "Score"),
                tiebreaks: tuple[str, ...] = ("SB", "Wins"), note: str = "") -> Crosstable:
    """A round-robin of ``players`` with the results of a fixed pattern, the first
    player the winner."""
    results = [["×"] * players for _ in range(players)]
    for a in range(players):
        for b in range(a + 1, players):
            result = ("1", "½", "0", "")[(a * 7 + b * 3) % 4]
            results[a][b], results[b][a] = result, OPPOSITE[result]
    rows = tuple(CrossRow(str(k + 1), NAMES[k % len(NAMES)], str(1500 + 10 * k),
                          tuple(results[k]), f"{players - k}½",
                          tuple(f"{k}.25" for _ in tiebreaks), winner=k == 0)
                 for k in range(players))
    rank, name, rating, score = heads
    return Crosstable(title, f"Round 4 of {players - 1} · 12 games played",
                      (rank, name, rating, *(str(k + 1) for k in range(players)), score,
                       *tiebreaks), rows, note=note)


def swiss(players: int, rounds: int) -> Crosstable:
    """A Swiss table of ``players`` over ``rounds`` rounds ("+W12" style cells)."""
    cells = ("+W12", "=B3", "-W40", "+B7", "")
    rows = tuple(CrossRow(str(k + 1), NAMES[k % len(NAMES)], "",
                          tuple(cells[(k + r) % len(cells)] for r in range(rounds)), "3½",
                          ("12.5",)) for k in range(players))
    return Crosstable("Swiss", "Round 9", ("#", "Name", "", *(str(r + 1) for r in
                                                             range(rounds)), "Pts", "BH"),
                      rows)


def image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def drawn_words(table: Crosstable) -> list[str]:
    """Every text the picture draws: the grid's, then the wrapped blocks' words."""
    sheet = lay_out(table, THEME)
    return [t.text for t in sheet.texts] + \
        [p.item.text for block in sheet.blocks for p in block.placed if p.item.text]


def grid_text(table: Crosstable, text: str):
    return next(t for t in lay_out(table, THEME).texts if t.text == text)


# --- the picture ------------------------------------------------------------------------
def test_the_same_table_gives_the_same_bytes():
    assert draw_crosstable(round_robin(8)) == draw_crosstable(round_robin(8))


def test_the_picture_is_a_png_as_large_as_its_layout():
    table = round_robin(6)
    sheet = lay_out(table, THEME)
    picture = Image.open(io.BytesIO(draw_crosstable(table)))
    assert picture.format == "PNG" and picture.size == (sheet.width, sheet.height)


def test_the_picture_grows_with_the_players_and_the_rounds():
    sizes = [image(draw_crosstable(swiss(players, rounds))).size
             for players, rounds in ((8, 5), (16, 5), (16, 11))]
    assert sizes[1][1] > sizes[0][1]  # more rows: taller
    assert sizes[2][0] > sizes[1][0] and sizes[2][1] == sizes[1][1]  # more rounds: wider


def test_the_largest_table_fits_discords_upload_at_every_scale():
    table = swiss(64, 40)
    for scale in (1.0, MAX_SCALE):
        data = draw_crosstable(table, scale=scale)
        assert len(data) < DISCORD_LIMIT
    assert image(data).size == (lay_out(table, THEME, MAX_SCALE).width,
                                lay_out(table, THEME, MAX_SCALE).height)


def test_a_larger_scale_draws_larger_faces_and_a_larger_picture():
    small, large = lay_out(round_robin(4), THEME, 1.0), lay_out(round_robin(4), THEME, 2.0)
    assert large.size == 2 * small.size
    assert large.width > small.width and large.height > small.height


@pytest.mark.parametrize("scale", [0.0, -1.0, MAX_SCALE + 0.5, float("nan")])
def test_a_scale_out_of_range_is_refused(scale):
    with pytest.raises(ValueError, match="scale"):
        draw_crosstable(round_robin(4), scale=scale)


def test_a_row_without_a_text_for_every_head_is_refused():
    table = round_robin(4)
    short = CrossRow("5", "Eve", "", ("1",), "1", ("0", "0"))
    with pytest.raises(ValueError, match="'Eve' has 7 texts for 10 column heads"):
        draw_crosstable(Crosstable(table.title, table.subtitle, table.headers,
                                   (*table.rows, short)))


def test_a_row_with_other_tiebreaks_than_the_first_is_refused():
    table = round_robin(4)
    odd = CrossRow("5", "Eve", "", ("1", "0", "½", "×", "1"), "1", ("0",))
    with pytest.raises(ValueError, match="'Eve' has 1 tie-breaks, the first row 2"):
        draw_crosstable(Crosstable(table.title, table.subtitle, table.headers,
                                   (*table.rows, odd)))


# --- every text whole, in its box -------------------------------------------------------
@pytest.mark.parametrize("table", [round_robin(16, note="Tie-breaks: SB, wins"),
                                   swiss(20, 9)], ids=["round-robin", "swiss"])
@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_every_text_is_drawn_inside_its_box(table, scale):
    """The text's advance and the ink of its mask (the very mask drawn) lie inside its box,
    the boxes inside the picture; the wrapped blocks inside the picture's margins."""
    sheet = lay_out(table, THEME, scale)
    for t in sheet.texts:
        left, top, right, bottom = t.box
        assert 0 <= left and right <= sheet.width and bottom <= sheet.height, t.text
        assert left < t.x and t.x + text_width(t.text, sheet.size, t.bold) < right, t.text
        mask, (dx, dy) = _text_mask(t.text, sheet.size, t.bold)
        ink_left, ink_top = round(t.x) + dx, round(t.y) + dy
        assert left <= ink_left and ink_left + mask.width <= right, t.text
        assert top <= ink_top and ink_top + mask.height <= bottom, t.text
    for block in sheet.blocks:
        setter = Typesetter(block.size)
        for p in block.placed:
            assert 0 < p.x and p.x + setter.item_width(p.item) < sheet.width, p.item.text
            assert p.y + block.size / 2 < sheet.height, p.item.text


def test_names_are_left_aligned_and_results_centred():
    sheet = lay_out(round_robin(6), THEME)
    pad = round(sheet.size * 0.45)
    for t in sheet.texts:
        left, _top, right, _bottom = t.box
        if t.text in NAMES:
            assert t.x == left + pad
        elif t.text in ("1", "0", "½", "×"):
            width = text_width(t.text, sheet.size, t.bold)
            assert abs((t.x - left) - (right - t.x - width)) < 1, t.text


def test_every_text_of_the_table_is_drawn_once_in_order():
    table = round_robin(5, note="Tie-breaks: SB, wins")
    texts = [t.text for t in lay_out(table, THEME).texts]
    expected = list(table.headers)
    for row in table.rows:
        cells = [c for c in row.cells if c]
        expected += [row.rank, row.name, row.rating, *cells, row.score, *row.tiebreaks]
    assert texts == expected


# --- Vietnamese, and no word of the renderer's own --------------------------------------
VI_HEADS = ("Hạng", "Tên", "Hệ số Elo", "Điểm")
VI_TIEBREAKS = ("Hệ số SB", "Số ván thắng")


def vietnamese() -> Crosstable:
    return round_robin(8, title="Giải đấu #3 — Cờ Tư Lệnh vòng tròn một lượt", heads=VI_HEADS,
                       tiebreaks=VI_TIEBREAKS, note="Thứ tự xếp hạng phụ: Hệ số SB, số ván thắng")


def test_vietnamese_names_and_heads_are_drawn_whole_with_every_letter():
    table = vietnamese()
    sheet = lay_out(table, THEME)
    drawn = [t.text for t in sheet.texts]
    for text in (*VI_HEADS, *VI_TIEBREAKS, "Tư lệnh Nguyễn Văn Ánh", "Nguyễn Thị Hường"):
        assert text in drawn
    words = drawn_words(table)
    for text in words:
        assert missing(text) == [], text
        assert {path for _part, path in runs(text, bold=True) + runs(text)} <= {REGULAR, BOLD}
    assert " ".join(words[len(drawn):]) == " ".join(
        ("Giải đấu #3 — Cờ Tư Lệnh vòng tròn một lượt", "Round 4 of 7 · 12 games played",
         "Thứ tự xếp hạng phụ: Hệ số SB, số ván thắng"))


def test_every_word_drawn_is_the_callers():
    table = vietnamese()
    given = {*table.headers, *(t for row in table.rows for t in (
        row.rank, row.name, row.rating, *row.cells, row.score, *row.tiebreaks))}
    blocks = " ".join((table.title, table.subtitle, table.note)).split()
    sheet = lay_out(table, THEME)
    assert {t.text for t in sheet.texts} <= given
    assert [p.item.text for b in sheet.blocks for p in b.placed] == blocks


def test_an_empty_table_says_so_only_in_the_words_given():
    table = Crosstable("Giải đấu #4", "Đăng ký đến hết 3/12", ("Hạng", "Tên", "Điểm"), (),
                       empty="Chưa có ai đăng ký")
    sheet = lay_out(table, THEME)
    assert [t.text for t in sheet.texts] == ["Hạng", "Tên", "Điểm"]
    assert " ".join(p.item.text for b in sheet.blocks for p in b.placed) == \
        "Giải đấu #4 Đăng ký đến hết 3/12 Chưa có ai đăng ký"
    assert image(draw_crosstable(table)).size == (sheet.width, sheet.height)


def test_an_empty_table_without_a_line_for_it_draws_its_heads_alone():
    table = Crosstable("", "", ("#", "Name"), ())
    sheet = lay_out(table, THEME)
    assert [t.text for t in sheet.texts] == ["#", "Name"] and sheet.blocks == ()
    assert len(draw_crosstable(table)) > 0


# --- a long name ---------------------------------------------------------------------------
LONG = "Hikaru Nakamura, called the Grand Commander of the Northern Sea Fleet"


def test_a_name_too_long_ends_in_an_ellipsis_and_keeps_all_that_fits():
    rows = round_robin(3).rows
    table = round_robin(3)
    table = Crosstable(table.title, table.subtitle, table.headers,
                       (rows[0], CrossRow("2", LONG, "1490", rows[1].cells, "1", ("0", "0")),
                        rows[2]))
    sheet = lay_out(table, THEME)
    shown = next(t.text for t in sheet.texts if t.text.startswith("Hikaru"))
    room = sheet.size * NAME_MAX
    assert shown.endswith(ELLIPSIS) and LONG.startswith(shown[:-1])
    assert text_width(shown, sheet.size) <= room
    longer = LONG[:len(shown)].rstrip() + ELLIPSIS  # one letter more does not fit
    assert text_width(longer, sheet.size) > room


def test_a_name_that_fits_is_drawn_whole():
    assert shorten("Nguyễn Thị Hường", 15, False, 15 * NAME_MAX) == "Nguyễn Thị Hường"


def test_a_winners_long_name_is_measured_bold():
    shown = shorten(LONG, 15, True, 15 * NAME_MAX)
    assert text_width(shown, 15, True) <= 15 * NAME_MAX
    assert len(shown) <= len(shorten(LONG, 15, False, 15 * NAME_MAX))


def test_a_name_is_never_shortened_between_a_letter_and_its_marks():
    name = unicodedata.normalize("NFD", "Tư lệnh Nguyễn Văn Ánh Trần Đức Thắng " * 3)
    for room in range(40, 300, 7):
        shown = shorten(name, 15, False, room)
        assert not unicodedata.category(name[len(shown) - 1])[0] == "M", room


def test_another_text_too_long_ends_in_an_ellipsis():
    table = round_robin(3, tiebreaks=("Sonneborn-Berger with every cut",))
    head = lay_out(table, THEME).texts[len(table.headers) - 1].text
    assert head.endswith(ELLIPSIS)
    assert text_width(head, 15, True) <= 15 * TEXT_MAX


# --- colours ------------------------------------------------------------------------------
def colour_at(table: Crosstable, line: int, column: int, where: str = "left", theme=THEME):
    """The colour of the box of ``line`` (0: the heads) and ``column`` two pixels inside
    its left (or right) edge and its top: clear of the letters."""
    sheet = lay_out(table, theme)
    left, right = sheet.columns[column]
    x = left + 2 if where == "left" else right - 3
    return image(draw_crosstable(table, theme)).getpixel((x, sheet.lines[line][0] + 2))


def shade(table: Crosstable, line: int, theme=THEME):
    """The shade of a row (its rank's box, which no result tints), as drawn."""
    return colour_at(table, line, 0, theme=theme)


def near(drawn, expected) -> bool:
    """The colour drawn is the expected one within the 256-colour palette's precision
    (Pillow maps colours onto a palette in steps of 4 per channel), which is far closer
    than any two tints of a row are to each other."""
    return max(abs(a - b) for a, b in zip(drawn, expected, strict=True)) <= 6


def test_a_swiss_result_is_tinted_by_its_first_letter():
    table = swiss(1, 5)
    assert table.rows[0].cells == ("+W12", "=B3", "-W40", "+B7", "")
    row = shade(table, 1)
    expected = [blend(row, THEME.highlight[:3], 0.42), blend(row, THEME.last_move[:3], 0.42),
                blend(row, THEME.capture[:3], 0.42), blend(row, THEME.highlight[:3], 0.42), row]
    for r in range(5):
        assert near(colour_at(table, 1, 3 + r), expected[r]), table.rows[0].cells[r]
    assert not near(expected[0], expected[1]) and not near(expected[1], expected[2])


def test_a_round_robin_win_draw_loss_and_the_diagonal_have_their_tints():
    table = Crosstable("Round-robin", "", ("#", "Name", "", "1", "2", "3", "4", "Pts"), (
        CrossRow("1", "Ann", "", ("×", "1", "½", "0"), "1½"),
        CrossRow("2", "Bob", "", ("0", "×", "", "="), "½"),
        CrossRow("3", "Cao", "", ("½", "", "×", "-"), "½"),
        CrossRow("4", "Dũng", "", ("1", "=", "+", "×"), "2½")))
    tints = {"1": THEME.highlight[:3], "+": THEME.highlight[:3], "½": THEME.last_move[:3],
             "=": THEME.last_move[:3], "0": THEME.capture[:3], "-": THEME.capture[:3]}
    for line, row in enumerate(table.rows, start=1):
        own = shade(table, line)
        for k, cell in enumerate(row.cells):
            expected = blend(own, THEME.mark_edge, 0.6) if cell == "×" else \
                blend(own, tints[cell], 0.42) if cell else own
            assert near(colour_at(table, line, 3 + k), expected), (row.name, cell)


def test_a_double_round_robin_pair_of_results_is_tinted_in_two_halves():
    table = Crosstable("Double", "", ("#", "Name", "", "1", "2", "Pts"),
                       (CrossRow("1", "Ann", "", ("×", "1½"), "1½"),
                        CrossRow("2", "Bob", "", ("0½", "×"), "½")))
    first, second = shade(table, 1), shade(table, 2)
    assert near(colour_at(table, 1, 4, "left"), blend(first, THEME.highlight[:3], 0.42))
    assert near(colour_at(table, 1, 4, "right"), blend(first, THEME.last_move[:3], 0.42))
    assert near(colour_at(table, 2, 3, "left"), blend(second, THEME.capture[:3], 0.42))
    assert near(colour_at(table, 2, 3, "right"), blend(second, THEME.last_move[:3], 0.42))


def test_the_winners_row_is_gold_with_the_name_in_bold_and_the_others_in_turns():
    table = round_robin(4)
    assert [row.winner for row in table.rows] == [True, False, False, False]
    assert near(shade(table, 1), blend(THEME.frame, THEME.heroic, 0.3))
    assert shade(table, 2) == shade(table, 4) != shade(table, 3)
    assert grid_text(table, NAMES[0]).bold and not grid_text(table, NAMES[1]).bold


def test_the_colour_blind_theme_tints_with_its_own_colours():
    table = swiss(1, 5)
    blind = get_theme("colour-blind")
    row = shade(table, 1, blind)
    assert near(colour_at(table, 1, 5, theme=blind), blend(row, blind.capture[:3], 0.42))
    assert not near(colour_at(table, 1, 5, theme=blind), colour_at(table, 1, 5))


def test_a_column_with_nothing_in_it_takes_no_room():
    unrated = swiss(4, 3)
    assert all(row.rating == "" for row in unrated.rows) and unrated.headers[2] == ""
    rated = Crosstable(unrated.title, unrated.subtitle,
                       unrated.headers[:2] + ("Elo",) + unrated.headers[3:], unrated.rows)
    left, right = lay_out(unrated, THEME).columns[2]
    assert left == right
    assert lay_out(unrated, THEME).width < lay_out(rated, THEME).width
