"""The players' rules in other languages (``docs/rules/vi/*.md``): each translation is built
like its English document (the same sections in the same order, the same pieces, the same
pictures), holds the same notation examples and names the same tests for its choices, and
leaves no English sentence in its prose."""

from __future__ import annotations

import re

import pytest
from rules_examples import RULES, examples

from bot.service.rules_docs import (
    DOCUMENTS,
    PIECES_SECTION,
    Document,
    document,
    find_section,
    parse_document,
)
from engine import all_variants, get_variant

# language -> the documents translated into it
TRANSLATIONS = {"vi": ["chieftain.md", "clash.md", "combined-arms.md", "commander.md"]}
PAIRS = [(language, name) for language, names in TRANSLATIONS.items() for name in names]
FENCE = re.compile(r"^\s*```")
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
# words of English prose that no Vietnamese sentence holds (nor any name of a piece or game)
ENGLISH = ("the", "and", "of", "is", "to", "with", "for", "from", "that", "which", "when",
           "by", "it", "its", "are", "be", "or", "on", "at", "this", "not", "only", "each",
           "every", "piece", "pieces", "move", "moves", "square", "point", "board", "capture",
           "captures", "turn", "side", "game", "see", "here", "there", "has", "have")
# the games' own names, which stay as their authors wrote them
PROPER_NAMES = re.compile(r"Clash of Command|Combined Arms Brigade Chess|Commander Chess")
ENGLISH_WORD = re.compile(r"\b(" + "|".join(ENGLISH) + r")\b", re.I)
TEST_LINK = re.compile(r"\[`(test_\w+)`\]\(([./]+)(tests/[\w/]+\.py)\)")
VARIANTS = [v.name for v in all_variants()]


def _english(name: str) -> Document:
    return parse_document(name, (RULES / name).read_text(encoding="utf-8"))


def _translated(language: str, name: str) -> Document:
    path = RULES / language / name
    return parse_document(name, path.read_text(encoding="utf-8"), language)


def test_every_translated_document_is_listed_here() -> None:
    found = sorted(p.relative_to(RULES).as_posix() for p in RULES.glob("*/*.md"))
    assert found == sorted(f"{language}/{name}" for language, name in PAIRS)
    assert {name for _, name in PAIRS} <= set(DOCUMENTS.values())


@pytest.mark.parametrize(("language", "name"), PAIRS)
def test_a_translation_has_the_sections_pieces_and_pictures_of_its_document(
        language: str, name: str) -> None:
    english, translated = _english(name), _translated(language, name)
    assert len(translated.sections) == len(english.sections)
    assert [s.level for s in translated.sections] == [s.level for s in english.sections]
    pieces = translated.sections[[s.title for s in english.sections].index(PIECES_SECTION)]
    assert [k for k, s in enumerate(translated.sections) if s.parent == pieces.title] == \
        [k for k, s in enumerate(english.sections) if s.parent == PIECES_SECTION]
    assert [s.pictures for s in translated.sections] == [s.pictures for s in english.sections]
    assert all((RULES / p).is_file() for s in translated.sections for p in s.pictures)
    assert translated.title != english.title and translated.intro


@pytest.mark.parametrize(("language", "name"), PAIRS)
def test_a_translations_titles_are_its_own_and_its_pieces_keep_their_letters(
        language: str, name: str) -> None:
    english, translated = _english(name), _translated(language, name)
    for mine, theirs in zip(translated.sections, english.sections, strict=True):
        assert mine.title != theirs.title, theirs.title
        letter = re.search(r" \(\w+\)$", theirs.title)
        if theirs.parent == PIECES_SECTION:
            assert letter is not None and mine.title.endswith(letter.group(0)), mine.title


@pytest.mark.parametrize(("language", "name"), PAIRS)
def test_a_translation_holds_the_same_examples(language: str, name: str) -> None:
    def notation(found):
        return [(e.variant, e.position, e.kind, e.text, e.expect, e.expect_kind) for e in found]

    english = examples([RULES / name])
    assert english
    assert notation(examples([RULES / language / name])) == notation(english)


@pytest.mark.parametrize(("language", "name"), PAIRS)
def test_a_translations_choices_name_the_same_tests(language: str, name: str) -> None:
    def tests(text: str, up: str) -> list[tuple[str, str]]:
        last = text.rsplit("\n## ", 1)[1]
        links = TEST_LINK.findall(last)
        assert all(prefix == up for _, prefix, _ in links), last[:60]
        return [(test, path) for test, _, path in links]

    english = (RULES / name).read_text(encoding="utf-8")
    translated = (RULES / language / name).read_text(encoding="utf-8")
    assert tests(translated, "../../../") == tests(english, "../../")


def prose(text: str) -> list[tuple[int, str]]:
    """The lines of prose: outside fenced blocks, without code spans, link targets and the
    games' names."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            line = PROPER_NAMES.sub("", LINK_TARGET.sub("]", CODE_SPAN.sub("", line)))
            out.append((number, line))
    return out


@pytest.mark.parametrize(("language", "name"), PAIRS)
def test_no_english_sentence_is_left_in_a_translation(language: str, name: str) -> None:
    text = (RULES / language / name).read_text(encoding="utf-8")
    left = [f"{name}:{number}: {line.strip()}" for number, line in prose(text)
            if ENGLISH_WORD.search(line)]
    assert left == []


def test_the_english_check_finds_english() -> None:
    lines = prose("Quân đi `the move`.\n```\nthe block\n```\n[là](../the/x.md) đây\n"
                  "Xe tăng moves and captures.\nQuân (and) đi.\nClash of Command và the Clash.")
    assert [n for n, line in lines if ENGLISH_WORD.search(line)] == [6, 7, 8]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_piece_has_its_part_and_picture_in_each_language(name: str) -> None:
    variant = get_variant(name)
    for language, file_name in PAIRS:
        if DOCUMENTS[name] != file_name:
            continue
        doc = document(variant, language)
        assert doc is not None and doc.language == language
        for letter, piece in variant.piece_names.items():
            part = find_section(doc, variant, piece)
            assert part is not None and part.title.endswith(f" ({letter})"), piece
            assert part.key == f"{piece} ({letter})"
            assert find_section(doc, variant, letter) == part
            assert find_section(doc, variant, part.title.rsplit(" (", 1)[0]) == part
            assert len(part.pictures) == 1 and (RULES / part.pictures[0]).is_file(), piece

