"""The console's pictures in the language of the one typing: the words, the clocks and the
result a board picture is drawn with (`language vi`), and English exactly as before."""

from __future__ import annotations

from typing import Any

import pytest

from bot import pictures
from bot.pictures import game_info, picture_words
from engine import get_variant

COMMANDER = get_variant("commander")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each picture is drawn with (its words, info and result), one dict a picture."""
    calls: list[dict[str, Any]] = []

    def draw(position: object, **options: Any) -> bytes:
        calls.append(options)
        return b"\x89PNG\r\n\x1a\n"

    monkeypatch.setattr(pictures, "_renderer", lambda: draw)
    return calls


async def _commander(session, service) -> None:
    await session("challenge bob commander red 3d")
    await session("as bob")
    await session("accept")
    await session("as Alice")


@pytest.mark.sqlite_only(reason="console words only")
async def test_a_vietnamese_players_picture_is_drawn_in_vietnamese(
        session, service, offered, drawn):
    await _commander(session, service)
    await session("language vi")
    drawn.clear()
    assert (await session("board #1")).endswith("Hình: " + str(
        session.console.settings.pictures_dir / "game-1-0-red.png"))
    [options] = drawn
    words = options["words"]
    assert words == picture_words(COMMANDER, "vi")
    assert (words.variant, words.sides, words.to_move, words.versus) == (
        "Cờ Tư Lệnh", ("Đỏ", "Xanh"), "Đến lượt {mover}", "đấu với")
    game = await service.game(1)
    assert options["info"] == game_info(game, await service.played_moves(1), 0,
                                        language="vi")
    assert options["info"].clocks[1] == "3 ngày mỗi nước"
    assert options["info"].deadline == "hạn chót 12:00 UTC 5/3/2026"
    assert options["result"] == ""


@pytest.mark.sqlite_only(reason="console words only")
async def test_an_english_players_picture_stays_english(session, service, offered, drawn):
    await _commander(session, service)
    drawn.clear()
    await session("board #1")
    [options] = drawn
    assert options["words"] == picture_words(COMMANDER)
    assert options["words"].variant == "Commander Chess (Cờ Tư Lệnh)"
    assert options["info"].clocks[1] == "3 days per move"
    assert options["info"].deadline == "until 2026-03-05 12:00 UTC"


@pytest.mark.sqlite_only(reason="console words only")
async def test_the_result_on_a_vietnamese_picture_is_vietnamese(session, service, offered,
                                                                drawn):
    await _commander(session, service)
    await session("language vi")
    await session("resign #1")
    drawn.clear()
    await session("board #1")
    [options] = drawn
    assert options["result"] == "bob (Xanh) thắng: Alice xin thua (0-1)"
    await session("language en")
    drawn.clear()
    await session("board #1")
    [options] = drawn
    assert options["result"] == "bob (Blue) wins: Alice resigned (0-1)"
