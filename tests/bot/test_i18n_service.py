"""The first words of the service that come from the catalogue: a move's answer and the
opponent's news of it, worded in the reader's language, also after the outbox stored the
news (the English words stay exactly as they were)."""

from __future__ import annotations

from bot.i18n import PSEUDO
from bot.service import outbox

from .conftest import in_both


async def test_a_moves_answer_is_worded_in_the_movers_language(service, alice, bob, start_game):
    game = await start_game(alice, bob)
    done = await service.move(alice, game.id, "b2-a3/D")
    assert done.message == "1. b2-a3/D played in game #1. Bob (Black) is to move."
    assert done.words("console", "vi") == "Đã đi 1. b2-a3/D trong ván #1. Đến lượt Bob (Đen)."
    assert done.words("console", PSEUDO) == (
        "[[1. b2-a3/D plàýéd îñ gàmé #1. ~~~~~~~~~~~~~~~~] [Bob ([Blàçk ~~]) îš tö mövé. "
        "~~~~~~~~~~~] ~~~~]")  # each sentence accented and longer; notation and names not


async def test_the_opponents_news_is_worded_in_the_opponents_language_when_delivered(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, days=3)
    await service.move(alice, game.id, "b2-a3/D")
    [news] = [n for n in await service.pending_notifications("console")
              if n.kind == "your-move"]
    assert news.text.startswith("Alice played 1. b2-a3/D in game #1 (Clash of Command). "
                                "Your move. You have 3 days (until ")
    assert outbox.worded(news) == news.text
    assert outbox.worded(news, "vi").startswith(
        "Alice đã đi 1. b2-a3/D trong ván #1 (Đại chiến Chỉ huy). Đến lượt bạn. Bạn còn 3 ngày "
        "(đến ")


async def test_a_turn_that_goes_on_says_what_is_left_in_each_language(
        service, alice, bob, start_game, pairs):
    game = await start_game(alice, bob, variant="pairs")
    done = await service.move(alice, game.id, "b2-a3/D")
    assert done.goes_on
    assert in_both(done) == (
        "b2-a3/D played in game #1. Your turn goes on: send the next step, or `end` to "
        "finish it.",
        "Đã đi b2-a3/D trong ván #1. Lượt của bạn vẫn tiếp tục: hãy gửi bước tiếp theo, "
        "hoặc gửi `end` để kết thúc lượt.")


async def test_a_refused_move_is_refused_in_the_senders_language(service, alice, bob, carol,
                                                                   start_game):
    game = await start_game(alice, bob)
    refused = await service.move(bob, game.id, "h8-i7/D")
    assert in_both(refused) == (
        "It is not your turn in game #1: Alice (White) is to move.",
        "Chưa đến lượt bạn trong ván #1: đang là lượt của Alice (Trắng).")
    refused = await service.move(carol, game.id, "b2-a3/D")
    assert refused.words("console", "vi") == (
        "Bạn không chơi trong ván #1 (Alice đấu với Bob).")
    refused = await service.move(alice, 99, "b2-a3/D")
    assert refused.words("console", "vi") == "Không có ván #99."
    refused = await service.move(alice, game.id, "b2-b9/D")
    assert refused.words("console", "vi") == (
        "Tôi không đọc được 'b2-b9/D' thành một nước đi: b9 không phải một điểm của bàn cờ "
        "(các điểm là a1, c1, ... i9, nơi số thứ tự cột cộng với hàng là số chẵn).")
    refused = await service.move(alice, game.id, "b2-c5/D")
    assert in_both(refused) == (
        "b2-c5/D is not a legal move here: the Factor on b2 can only move one point forward.",
        "b2-c5/D không phải là nước đi hợp lệ ở đây: Công xưởng ở b2 chỉ được tiến một điểm.")


async def test_which_game_is_asked_in_the_senders_language(service, alice, bob, carol,
                                                           start_game):
    first = await start_game(alice, bob)
    await start_game(carol, alice)
    await service.move(alice, first.id, "b2-a3/D")  # no game waits for Alice
    refused = await service.inference.find_game(alice, "console:test")
    assert in_both(refused) == (
        "Which game? You have 2 games in progress:\n"
        "  #1 Alice vs Bob (Clash of Command, Bob to move): `board #1`\n"
        "  #2 Carol vs Alice (Clash of Command, Carol to move): `board #2`",
        "Ván nào? Bạn đang chơi 2 ván:\n"
        "  #1 Alice đấu với Bob (Đại chiến Chỉ huy, đến lượt Bob): `board #1`\n"
        "  #2 Carol đấu với Alice (Đại chiến Chỉ huy, đến lượt Carol): `board #2`")
    refused = await service.inference.find_game(alice, "console:test", purpose="end")
    assert refused.words("console", "vi").startswith(
        "Bạn không có lượt nhiều bước nào đang dở để kết thúc: `end` dùng để")


def test_a_damaged_message_in_a_stored_notification_is_delivered_in_its_english_words():
    from bot.service.model import Notification

    for damaged in ({"id": 5}, {"id": "x {a}", "values": "not a mapping"}, "text", None):
        note = Notification(1, "console", 2, "bob", "console:test", 1, "your-move",
                            "Alice played 1. b2-a3/D.", 0.0, payload={"message": damaged})
        assert outbox.worded(note, "vi") == "Alice played 1. b2-a3/D."
