"""The players' rules documents: every variant has one, every piece its part and picture,
every choice a test that exists, and every committed picture is what the renderer draws
now (run ``commandpost diagrams docs/rules`` after changing the renderer)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.rules_diagrams import DIAGRAMS, diagrams_main, piece_reach, stale_diagrams
from bot.service.rules_docs import DOCUMENTS, Document, document, find_section
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


@pytest.mark.parametrize("diagram", [d for d in DIAGRAMS if d.shows == "moves" and d.selected],
                         ids=lambda d: d.name)
def test_piece_diagrams_highlight_exactly_where_the_piece_may_go(diagram) -> None:
    variant = get_variant(diagram.variant)
    position = variant.parse_position(diagram.position)
    assert variant.format_position(position) == diagram.position
    assert diagram.highlights == piece_reach(variant, position, diagram.selected)


def _around(diagram, near) -> set[str]:
    """The board's points other than the selected one for which ``near(dx, dy)`` holds."""
    topology = get_variant(diagram.variant).topology
    f0, r0 = ord(diagram.selected[0]), int(diagram.selected[1:])
    return {n for n in topology.nodes if n != diagram.selected
            and near(ord(n[0]) - f0, int(n[1:]) - r0)}


def test_the_ring_of_fire_diagram_shows_a_missiles_zone() -> None:
    [ring] = [d for d in DIAGRAMS if d.shows == "ring"]
    variant = get_variant(ring.variant)
    assert [p.letter for p in variant.pieces_at(variant.parse_position(ring.position),
                                               ring.selected)] == ["S"]
    # a Missile's zone: the points with dx² + dy² <= 2², its own point aside
    assert set(ring.highlights) == _around(ring, lambda dx, dy: dx * dx + dy * dy <= 4)


def test_the_command_diagram_shows_the_squares_within_three_of_a_chieftain() -> None:
    [command] = [d for d in DIAGRAMS if d.shows == "command"]
    assert set(command.highlights) == _around(command, lambda dx, dy: max(abs(dx), abs(dy)) <= 3)
    variant = get_variant(command.variant)
    position = variant.parse_position(command.position)
    movers = {m.origin for m in variant.legal_moves(position)}
    assert "g7" in movers and "h8" not in movers  # in range, and out of it


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
