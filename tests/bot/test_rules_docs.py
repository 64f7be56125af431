"""Reading, splitting and shaping the players' rules documents (``bot/service/rules_docs.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service import rules_docs
from bot.service.rules_docs import (
    as_discord,
    as_plain_text,
    messages,
    parse_document,
    rules_part,
    unwrap,
)
from engine import all_variants, get_variant

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"

SAMPLE = """# Title

Intro line one
line two.

## First

Text of the first.

```example
# not a heading: inside a block
position: start
```

## Second

### Part (P)

![A picture](diagrams/x.png)

Part text.
"""


def test_a_document_splits_into_title_intro_and_sections_not_inside_blocks() -> None:
    doc = parse_document("x.md", SAMPLE)
    assert (doc.title, doc.intro) == ("Title", "Intro line one\nline two.")
    assert [(s.title, s.level, s.parent) for s in doc.sections] == [
        ("First", 2, ""), ("Second", 2, ""), ("Part (P)", 3, "Second")]
    assert "# not a heading" in doc.sections[0].text
    assert doc.sections[2].pictures == ("diagrams/x.png",)


def test_plain_text_drops_markup_pictures_and_fences_and_keeps_code_marked() -> None:
    markdown = ("## Moves\n\n![A picture](diagrams/x.png)\n\nA **bold** and *soft* word, "
                "`code` and a [link](../../tests/x.py).\n\n| a | b |\n|---|---|\n| c | d |\n\n"
                "```example\nlegal: c3-d4\n```")
    assert as_plain_text(markdown) == (
        "MOVES\n=====\n\nA bold and soft word, `code` and a link.\n\n- c: d\n\n    legal: c3-d4")


def test_plain_text_keeps_the_signs_inside_code() -> None:
    """A shot is `*` in Combined Arms notation: inside code it is no emphasis mark."""
    assert as_plain_text("`*` before a square it shoots, as in `Bc1*e3` or *`Ra1*a4`*") == (
        "`*` before a square it shoots, as in `Bc1*e3` or *`Ra1*a4`*")
    assert as_plain_text("a **stay** capture (`_`), *or* `@`") == "a stay capture (`_`), or `@`"


def test_discord_keeps_markdown_unwraps_paragraphs_and_drops_pictures_and_file_links() -> None:
    markdown = ("### Part (P)\n\n![A picture](diagrams/x.png)\n\nOne\nparagraph [test]"
                "(../../tests/x.py), [site](https://example.org).\n\n- item\n  goes on\n- next"
                "\n\n```example\nlegal: a\nillegal: b\n```")
    assert as_discord(markdown) == (
        "### Part (P)\n\nOne paragraph test, [site](https://example.org).\n\n"
        "- item goes on\n- next\n\n```example\nlegal: a\nillegal: b\n```")
    assert unwrap("| a |\n| b |") == "| a |\n| b |"


def test_long_text_goes_in_messages_cut_between_paragraphs_blocks_closed_and_reopened() -> None:
    text = "one\n\n```example\n" + "x\n" * 30 + "```\n\nlast"
    pieces = messages(text, 40)
    assert all(len(p) <= 40 and p.count("```") % 2 == 0 for p in pieces)
    assert pieces[0].startswith("one\n\n```example\nx\n") and pieces[0].endswith("x\n```")
    assert all(p.startswith("```example\nx\n") for p in pieces[1:])  # reopened
    assert pieces[-1].endswith("x\n```\n\nlast")
    assert sum(p.count("x\n") for p in pieces) == 30
    assert messages("short", 40) == ["short"]
    assert messages("a" * 90, 40) == ["a" * 32, "a" * 32, "a" * 26]


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_every_variant_and_every_piece_has_its_part(variant: str) -> None:
    rules = get_variant(variant)
    assert rules_part(rules).markdown.startswith("# ")
    for letter, name in rules.piece_names.items():
        part = rules_part(rules, letter)
        assert part.found and part.markdown.startswith(f"### {name} ({letter})")
        assert len(part.pictures) == 1 and part.pictures[0].is_file()


def test_a_shared_document_shows_each_game_its_own_board() -> None:
    for name in ("mini-chieftain", "micro-chieftain"):
        part = rules_part(get_variant(name))
        assert [p.name for p in part.pictures] == [f"{name}-board.png"]
        assert part.markdown.startswith("# mini-Chieftain and micro-Chieftain\n")


def test_without_the_documents_the_short_rules_text_is_shown(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(rules_docs, "PLACES", (tmp_path,))
    clash = get_variant("clash")
    part = rules_part(clash, "droid")
    assert (part.markdown, part.pictures) == (clash.rules_text, ())


def test_a_variant_without_a_document_shows_its_short_rules_text(monkeypatch) -> None:
    monkeypatch.delitem(rules_docs.DOCUMENTS, "clash")
    clash = get_variant("clash")
    assert rules_part(clash).markdown == clash.rules_text


def _document_part(file_name: str, title: str) -> str:
    """The lines of the shipped document from heading ``title`` to the next heading of
    its level or above (a ``##`` section takes its ``###`` parts along), read here without
    `parse_document`."""
    lines = (RULES / file_name).read_text(encoding="utf-8").splitlines()
    fenced, start, level, taken = False, None, 0, []
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
        depth = len(line) - len(line.lstrip("#")) if not fenced and line.startswith("#") else 0
        if start is not None and depth and depth <= level:
            break
        if start is None and depth and line[depth:].strip() == title:
            start, level = len(taken), depth
        if start is not None:
            taken.append(line)
    assert taken, f"{title!r} is not a heading of {file_name}"
    return "\n".join(taken).strip()


def _offered(variant: str) -> list[str]:
    """What `rules VARIANT TOPIC` offers: the sections `topics` names, then the pieces."""
    rules = get_variant(variant)
    doc = rules_docs.document(rules)
    assert doc is not None
    sections = rules_docs.topics(doc, rules).split("or a section (")[1].rstrip(")").split(", ")
    return [*sections, *(name.lower() for name in rules.piece_names.values())]


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_every_offered_section_and_piece_shows_the_documents_whole_text(variant: str) -> None:
    rules = get_variant(variant)
    file_name = rules_docs.DOCUMENTS[variant]
    for topic in _offered(variant):
        part = rules_part(rules, topic)
        heading = part.markdown.split("\n", 1)[0]
        title = heading.lstrip("#").strip()
        assert title.lower().startswith(topic), (topic, heading)
        assert part.markdown == (f"{_document_part(file_name, title)}\n\n"
                                 f"(From docs/rules/{file_name}, “{title}”.)"), topic


def test_special_rules_are_every_part_of_the_section() -> None:
    """The section is its parts: the heading alone was all `rules commander special rules`
    showed."""
    part = rules_part(get_variant("commander"), "special rules")
    headings = [line for line in part.markdown.splitlines() if line.startswith("#")]
    assert headings == ["## Special rules", "### Stacks and carrying",
                        "### Deploys: splitting a stack", "### Three kinds of capture",
                        "### Air defence", "### Heroes", "### Check"]
    assert [p.name for p in part.pictures] == ["commander-ring-of-fire.png"]
    clash = rules_part(get_variant("clash"), "special rules").markdown
    assert [line for line in clash.splitlines() if line.startswith("#")] == [
        "## Special rules", "### Building and transforming", "### Droids and Hawks take turns",
        "### Promotion to Slicer"]


# --- the documents in other languages ---------------------------------------------------
def test_a_language_is_its_primary_tag_and_english_or_nonsense_is_the_source() -> None:
    assert [rules_docs.language_folder(tag) for tag in
            ("vi", "vi-VN", "VI_vn", " vi ", "en", "en-GB", "", "../vi", "vi/x", "v" * 40)] == \
        ["vi", "vi", "vi", "vi", "", "", "", "", "", ""]


def test_a_document_is_read_in_the_language_asked_for_else_in_english() -> None:
    commander = get_variant("commander")
    vi = rules_docs.document(commander, "vi-VN")
    assert vi is not None and (vi.language, vi.where) == ("vi", "docs/rules/vi/commander.md")
    assert vi.title == "Cờ Tư Lệnh (Commander Chess)"
    assert [(s.title, s.key) for s in vi.sections if s.level == 2] == [
        ("Bàn cờ", "The board"), ("Các quân cờ", "The pieces"),
        ("Luật đặc biệt", "Special rules"), ("Kết thúc ván cờ", "How a game ends"),
        ("Ghi nước đi", "Notation"), ("Những lựa chọn của dự án", "Choices this project made")]
    english = rules_docs.document(commander)
    assert english is not None and english.where == "docs/rules/commander.md"
    assert rules_docs.document(commander, "fr") == english
    assert rules_docs.document(commander, "en-US") == english


def test_a_translation_not_built_like_its_document_is_not_served(monkeypatch, tmp_path) -> None:
    for name in ("clash.md", "commander.md"):
        (tmp_path / name).write_text((RULES / name).read_text(encoding="utf-8"))
    (tmp_path / "vi").mkdir()
    translated = (RULES / "vi" / "commander.md").read_text(encoding="utf-8")
    (tmp_path / "vi" / "commander.md").write_text(translated.replace("### Anh hùng\n", ""))
    monkeypatch.setattr(rules_docs, "PLACES", (tmp_path,))
    doc = rules_docs.document(get_variant("commander"), "vi")
    assert doc is not None and (doc.language, doc.title) == ("en", "Commander Chess (Cờ Tư Lệnh)")


def test_the_vietnamese_rules_answer_in_vietnamese_with_the_same_pictures() -> None:
    commander = get_variant("commander")
    start = rules_part(commander, language="vi")
    assert start.markdown.startswith("# Cờ Tư Lệnh (Commander Chess)\n\nCờ Tư Lệnh là cờ")
    assert "\n## Bàn cờ\n" in start.markdown
    assert start.markdown.endswith(
        "một quân cờ (Tư lệnh, Bộ binh, Xe tăng, Dân quân, Công binh, Pháo binh, Pháo phòng "
        "không, Tên lửa, Không quân, Hải quân, Sở chỉ huy) hoặc một mục (bàn cờ, luật đặc biệt, "
        "kết thúc ván cờ, ghi nước đi, những lựa chọn của dự án). "
        "Toàn bộ tài liệu: docs/rules/vi/commander.md.")
    assert start.pictures == rules_part(commander).pictures == (
        RULES / "diagrams" / "commander-board.png",)
    for topic in ("Tư lệnh", "tu lenh", "TƯ LỆNH", "C", "commander"):
        part = rules_part(commander, topic, language="vi")
        assert part.markdown.startswith("### Tư lệnh (C)\n"), topic
        assert part.markdown.endswith(
            "(Trích từ docs/rules/vi/commander.md, mục “Tư lệnh (C)”.)")
        assert part.pictures == (RULES / "diagrams" / "commander-commander.png",)
    assert rules_part(commander, "phao phong khong", language="vi").markdown.startswith(
        "### Pháo phòng không (G)\n")
    special = rules_part(commander, "luật đặc biệt", language="vi")
    assert [line for line in special.markdown.splitlines() if line.startswith("#")] == [
        "## Luật đặc biệt", "### Chồng quân và chở quân", "### Triển khai: tách chồng quân",
        "### Ba kiểu bắt quân", "### Phòng không", "### Anh hùng", "### Chiếu tướng"]
    assert special.pictures == (RULES / "diagrams" / "commander-ring-of-fire.png",)
    # an English word finds the part too, in the reader's language
    assert rules_part(commander, "special rules", language="vi").markdown == special.markdown
    assert not rules_part(commander, "xyz", language="vi").found


def test_a_language_without_a_document_reads_the_english_one() -> None:
    clash = get_variant("clash")
    assert rules_part(clash, "droid", language="xx") == rules_part(clash, "droid")


def test_a_pieces_own_name_wins_over_a_longer_name_holding_it() -> None:
    mini = get_variant("mini-chieftain")
    for topic, heading in (("Lính", "### Lính (M)"), ("linh", "### Lính (M)"),
                           ("thu linh", "### Thủ lĩnh (C)"), ("Kỵ binh", "### Kỵ binh (N)")):
        assert rules_part(mini, topic, language="vi").markdown.startswith(heading + "\n"), topic
    micro = rules_part(get_variant("micro-chieftain"), "ngan tuong", language="vi")
    assert micro.markdown.startswith("### Ngân tướng (V)\n")
    assert [p.name for p in micro.pictures] == ["micro-chieftain-silver.png"]
    assert [p.name for p in rules_part(get_variant("micro-chieftain"), language="vi").pictures] \
        == ["micro-chieftain-board.png"]


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_every_offered_vietnamese_section_and_piece_shows_the_translations_whole_text(
        variant: str) -> None:
    rules = get_variant(variant)
    doc = rules_docs.document(rules, "vi")
    assert doc is not None and doc.language == "vi"
    offered = rules_docs.topics(doc, rules)
    sections = offered.split("or a section (")[1].rstrip(")").split(", ")
    pieces = offered.split("pieces (")[1].split(") or a section")[0].split(", ")
    assert len(pieces) == len(rules.piece_names)
    file_name = f"vi/{rules_docs.DOCUMENTS[variant]}"
    for topic in [*sections, *(name.lower() for name in pieces)]:
        part = rules_part(rules, topic, language="vi")
        title = part.markdown.split("\n", 1)[0].lstrip("#").strip()
        assert title.lower().startswith(topic), (topic, title)
        assert part.markdown == (f"{_document_part(file_name, title)}\n\n"
                                 f"(Trích từ docs/rules/{file_name}, mục “{title}”.)"), topic
