"""Reading, splitting and shaping the players' rules documents (``bot/service/rules_docs.py``)."""

from __future__ import annotations

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


def test_plain_text_drops_markup_pictures_and_fences() -> None:
    markdown = ("## Moves\n\n![A picture](diagrams/x.png)\n\nA **bold** and *soft* word, "
                "`code` and a [link](../../tests/x.py).\n\n| a | b |\n|---|---|\n| c | d |\n\n"
                "```example\nlegal: c3-d4\n```")
    assert as_plain_text(markdown) == (
        "MOVES\n=====\n\nA bold and soft word, code and a link.\n\n- c: d\n\n    legal: c3-d4")


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
