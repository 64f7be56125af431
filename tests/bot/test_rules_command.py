"""`rules` at the console: the players' document in plain text, the picture's file named,
and a friendly answer to every near miss."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.service.rules_docs import DOCUMENTS, as_plain_text, document, rules_part, topics
from engine import all_variants, get_variant

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
CLASH_TOPICS = ("pieces (Commander, Factor, Droid, Hawk, Brute, Slicer) or a section (the "
                "board, special rules, how a game ends, notation, choices this project made)")


@pytest.fixture
def console(session):
    return session


async def test_rules_of_a_piece_are_its_part_in_plain_text_with_the_picture_file(console):
    assert await console("rules clash droid") == (
        "Droid (D)\n"
        "---------\n"
        "\n"
        "A Droid steps one point forward to an empty point, or captures by moving one point\n"
        "sideways or backwards onto an occupied point — here the Black Droid on f4 or the own\n"
        "Factor on c3, but not the Droid straight ahead on d6. After either it turns into a "
        "Hawk.\n"
        "\n"
        "(From docs/rules/clash.md, “Droid (D)”.)\n"
        f"Picture: {RULES / 'diagrams' / 'clash-droid.png'}")


async def test_rules_of_a_variant_start_with_its_title_and_board(console):
    out = await console("rules CAB")
    assert out.startswith("COMBINED ARMS BRIGADE CHESS\n===========================\n\n"
                          "Combined Arms Brigade Chess (Saleh Waziruddin) keeps the chessboard")
    assert "\nTHE BOARD\n=========\n" in out
    assert "**" not in out and "![" not in out
    assert out.endswith(f"Picture: {RULES / 'diagrams' / 'combined-arms-board.png'}")


async def test_rules_of_a_section_by_a_word_of_its_title(console):
    out = await console("rules micro-chieftain command control")
    assert out.startswith("Command control\n---------------\n\n- A turn is 1 to N moves")
    assert out.endswith(f"Picture: {RULES / 'diagrams' / 'mini-chieftain-command.png'}")
    out = await console("rules commander NOTATION")
    assert "\n    position: start\n    legal: Fee6 => " in out  # examples, as an indented block
    assert "Picture:" not in out


async def test_rules_near_misses_say_what_exists(console):
    assert await console("rules clash queen") == (
        f"The rules of Clash of Command have no part about 'queen'. `rules clash TOPIC` shows "
        f"one part: {CLASH_TOPICS}.")
    assert await console("rules") == (
        "Which variant? As in `rules clash` (clash, commander, combined-arms, mini-chieftain, "
        "micro-chieftain).")
    assert (await console("rules chess")).startswith("'chess': no such variant")


async def test_a_section_of_parts_is_shown_whole(console):
    assert await console("rules clash special rules") == (
        "SPECIAL RULES\n"
        "=============\n"
        "\n"
        "Building and transforming\n"
        "-------------------------\n"
        "\n"
        "Only Commanders and Factors build: the piece they leave behind is new, and it appears on\n"
        "the point they left. A Commander or Factor that does not step may instead transform in\n"
        "place; that is its whole turn. A Commander can always transform, so a player with a\n"
        "Commander always has a move.\n"
        "\n"
        "Droids and Hawks take turns\n"
        "---------------------------\n"
        "\n"
        "A Droid that moves becomes a Hawk; a Hawk that moves becomes a Droid — with or without a\n"
        "capture.\n"
        "\n"
        "Promotion to Slicer\n"
        "-------------------\n"
        "\n"
        "A piece that ends its move on the opponent's back row becomes a Slicer, whatever it\n"
        "was and whatever it would otherwise have become. A piece left behind or transformed in\n"
        "place does not promote, and nothing promotes on its own back row.\n"
        "\n"
        "(From docs/rules/clash.md, “Special rules”.)")


async def test_code_in_the_rules_keeps_its_marks_at_the_console(console):
    out = await console("rules micro-chieftain notation")
    assert ("A whole turn lists its moves, separated by `, ` (on input also `;` or\n"
            "spaces).") in out
    assert "- shot: `Bc1*e3`, `Ra1*a4`\n" in await console("rules cab notation")
    out = await console("rules commander special rules")
    assert "A normal capture (`x`) moves onto the point. A stay capture (`_`) fires" in out
    assert "\nHeroes\n------\n\nA piece that gives check becomes a hero (`+`) at the end" in out


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
async def test_every_offered_part_is_shown_whole_at_the_console(console, variant):
    """Each section `rules` offers and each piece: the part's whole text, every code span of
    the document's text in its backticks, the pictures' files named."""
    rules = get_variant(variant)
    doc = document(rules)
    offered = topics(doc, rules).split("or a section (")[1].rstrip(")").split(", ")
    source = (RULES / DOCUMENTS[variant]).read_text(encoding="utf-8")
    for topic in [*offered, *rules.piece_names]:
        part = rules_part(rules, topic)
        out = await console(f"rules {variant} {topic}")
        assert out == "\n".join([as_plain_text(part.markdown),
                                 *(f"Picture: {p}" for p in part.pictures)])
        start = source.index(part.markdown.split("\n", 1)[0])
        shown = source[start:start + len(part.markdown)]
        for code in re.findall(r"`[^`\n]+`", re.sub(r"(?m)^\s*```.*$", "", shown)):
            assert code in out, (topic, code)
