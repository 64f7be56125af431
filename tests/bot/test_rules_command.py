"""`rules` at the console: the players' document in plain text, the picture's file named,
and a friendly answer to every near miss."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    assert "**" not in out and "![" not in out and "`" not in out
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
        f"The rules of Clash of Command have no part about 'queen'. rules clash TOPIC shows "
        f"one part: {CLASH_TOPICS}.")
    assert await console("rules") == (
        "Which variant? As in `rules clash` (clash, commander, combined-arms, mini-chieftain, "
        "micro-chieftain).")
    assert (await console("rules chess")).startswith("'chess': no such variant")
