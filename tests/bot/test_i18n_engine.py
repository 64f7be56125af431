"""The engine's reasons in the reader's language: why a move is refused, and how a game
ended, come from the engine as phrases (`engine.phrases`) that the catalogue words, while
the move text itself is never translated."""

from __future__ import annotations

from bot import i18n
from bot.i18n import PSEUDO
from engine import get_variant

from .conftest import in_both


async def test_a_commander_move_is_refused_with_the_engines_reason_in_each_language(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander")
    refused = await service.move(alice, game.id, "Te9")
    assert in_both(refused) == (
        "Te9 is not a legal move here: no tank of yours stands on a straight line to e9.",
        "Te9 không phải là nước đi hợp lệ ở đây: không có Xe tăng nào của bạn nằm trên "
        "đường thẳng tới e9.")


async def test_a_move_text_that_is_no_move_gets_the_engines_hint_in_each_language(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander")
    refused = await service.move(alice, game.id, "te5")
    english, vietnamese = in_both(refused)
    assert english.endswith("piece letters are written in upper case (C I T M E A G S F N "
                            "H), files in lower case (a to k).")
    assert vietnamese.endswith("chữ của quân viết hoa (C I T M E A G S F N H), cột viết "
                               "thường (a đến k).")
    assert i18n.untranslated(refused.words("console", PSEUDO)) == []


def test_an_ending_is_a_phrase_that_each_language_words() -> None:
    variant = get_variant("commander")
    # Blue to move, its commander captured on the move before
    position = variant.parse_position("11/11/11/11/11/11/11/11/11/11/11/5C5 b - - 0 1")
    ending = variant.outcome(position)
    assert (ending.status, ending.winner, ending.reason) == (
        "win", 0, "Blue's commander has been captured")
    assert i18n.render(ending.reason, "vi") == "Tư lệnh của Xanh đã bị bắt"
