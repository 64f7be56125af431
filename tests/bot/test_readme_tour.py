"""The README's first game plays at the console as it is written: its block of console
commands, each line typed as it is, gets the answers the README tells of."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOUR = re.compile(r"^```commandpost\n(.*?)^```$", re.M | re.S)


def tour_lines() -> list[str]:
    blocks = TOUR.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(blocks) == 1, "the README shows one first game at the console"
    return blocks[0].splitlines()


@pytest.mark.sqlite_only(reason="console words only; the drivers are covered by test_console")
async def test_the_readmes_first_game_plays_as_it_is_written(session) -> None:
    said = [await session(line) for line in tour_lines()]
    assert said[0] == "You are Alice (the name as first written)."  # the session's Alice
    assert said[1].startswith("Challenge #1 sent to bob: Clash of Command, 3 days per move, "
                              "Alice plays White, rated.")
    assert said[2] == "You are bob."
    assert said[3].startswith("Challenge #1 accepted. Game #1 started: Alice (White) vs bob "
                              "(Black), Clash of Command, 3 days per move.")
    assert said[4] == "You are Alice (the name as first written). Your move in game #1."
    assert said[5].startswith("F on b2: 6 moves: b2-a3/D b2-a3/H b2-b4/D b2-b4/H b2=D b2=H\n")
    assert said[6].startswith("1. b2-a3/D played in game #1. bob (Black) is to move.\n")
    pictures = session.console.settings.pictures_dir
    assert f"Picture: {pictures / 'game-1-1-white.png'}" in said[6].splitlines()
    assert said[6].splitlines()[-1] == ("  [to bob] Alice played 1. b2-a3/D in game #1 (Clash "
                                        "of Command). Your move. You have 3 days (until "
                                        "2026-03-05 12:00 UTC).")
    assert said[7].startswith("Computer (level 2) accepts at once. Game #2 started: ")
    assert "(Black), Clash of Command, no clock." in said[7]  # its side is drawn at random
    assert len(said) == 8
