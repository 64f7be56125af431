"""The players' rules documents: every variant has one, every piece its part and picture,
every choice a test that exists, and every committed picture is what the renderer draws
now (run ``commandpost diagrams docs/rules`` after changing the renderer)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.rules_diagrams import DIAGRAMS, diagrams_main, piece_reach, stale_diagrams
from bot.rules_docs import DOCUMENTS, Document, document, find_section
from engine import Variant, all_variants, get_variant

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
SECTIONS = ["The board", "The pieces", "Special rules", "How a game ends", "Notation",
            "Choices this project made"]
TEST_LINK = re.compile(r"\[`(test_\w+)`\]\(\.\./\.\./(tests/[\w/]+\.py)\)")
VARIANTS = [v.name for v in all_variants()]


def _doc(variant: Variant) -> Document:
    doc = document(variant)
    assert doc is not None, f"no document for {variant.name}"
    return doc


def test_every_variant_has_a_document() -> None:
    assert sorted(DOCUMENTS) == sorted(VARIANTS)
    assert sorted(p.name for p in RULES.glob("*.md")) == sorted(set(DOCUMENTS.values()))


@pytest.mark.parametrize("name", VARIANTS)
def test_each_document_has_the_sections_in_order(name: str) -> None:
    doc = _doc(get_variant(name))
    assert [s.title for s in doc.sections if s.level == 2] == SECTIONS


@pytest.mark.parametrize("name", VARIANTS)
def test_every_piece_has_a_part_with_its_picture(name: str) -> None:
    variant = get_variant(name)
    doc = _doc(variant)
    for letter, piece in variant.piece_names.items():
        part = find_section(doc, variant, piece)
        assert part is not None and part.title == f"{piece} ({letter})", piece
        assert find_section(doc, variant, letter) == part
        assert len(part.pictures) == 1 and (RULES / part.pictures[0]).is_file(), piece


def test_every_picture_shown_is_a_diagram_and_every_diagram_is_shown() -> None:
    shown = set()
    for path in RULES.glob("*.md"):
        shown |= set(re.findall(r"!\[[^\]]*\]\((diagrams/[\w.-]+)\)", path.read_text()))
    assert shown == {f"diagrams/{d.file_name}" for d in DIAGRAMS}


@pytest.mark.parametrize("file_name", sorted(set(DOCUMENTS.values())))
def test_every_choice_names_a_test_that_exists(file_name: str) -> None:
    text = (RULES / file_name).read_text(encoding="utf-8")
    choices = text.split("## Choices this project made", 1)[1]
    bullets = [b for b in re.split(r"\n(?=- )", choices) if b.startswith("- ")]
    assert len(bullets) >= 5
    for bullet in bullets:
        links = TEST_LINK.findall(bullet)
        assert links, f"a choice without its test: {bullet[:70]!r}"
        for test, path in links:
            assert re.search(rf"^def {test}\(", (ROOT / path).read_text(), re.M), (test, path)


@pytest.mark.parametrize("diagram", [d for d in DIAGRAMS if d.selected],
                         ids=lambda d: d.name)
def test_piece_diagrams_highlight_exactly_where_the_piece_may_go(diagram) -> None:
    variant = get_variant(diagram.variant)
    position = variant.parse_position(diagram.position)
    assert variant.format_position(position) == diagram.position
    assert diagram.highlights == piece_reach(variant, position, diagram.selected)


def test_committed_diagrams_are_what_the_renderer_draws_now() -> None:
    stale = stale_diagrams(RULES)
    assert stale == [], f"stale pictures {stale}: run `commandpost diagrams docs/rules`"


def test_diagrams_command_writes_checks_and_prunes(tmp_path: Path, capsys) -> None:
    assert diagrams_main([str(tmp_path), "--check"]) == 1  # nothing written yet
    assert diagrams_main([str(tmp_path)]) == 0
    folder = tmp_path / "diagrams"
    assert sorted(p.name for p in folder.iterdir()) == sorted(d.file_name for d in DIAGRAMS)
    assert diagrams_main([str(tmp_path), "--check"]) == 0
    (folder / "clash-droid.png").write_bytes((folder / "clash-hawk.png").read_bytes())
    (folder / "old.png").write_bytes(b"")
    capsys.readouterr()
    assert diagrams_main([str(tmp_path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "clash-droid.png" in out and "old.png" in out and "clash-hawk.png" not in out
    assert diagrams_main([str(tmp_path)]) == 0
    assert not (folder / "old.png").exists()
    assert diagrams_main([str(tmp_path), "--check"]) == 0
