"""The service's words about a game beyond its moves come from the catalogue: its end
(resigning, aborting, a loss on time), draws, takebacks, reminders, the players it looks
up; worded in the reader's language, the news also after the outbox stored it (the English
words stay exactly as they were)."""

from __future__ import annotations

from bot.i18n import render
from bot.service import outbox
from bot.service.scheduler import Scheduler

from .conftest import in_both


async def _news(service, kind: str) -> list:
    return [n for n in await service.pending_notifications("console") if n.kind == kind]


async def test_resigning_and_aborting_answer_in_the_senders_language(service, alice, bob,
                                                                    start_game):
    game = await start_game(alice, bob)
    done = await service.resign(bob, game.id)
    assert done.message == "You resigned game #1: Alice (White) wins: Bob resigned (1-0)."
    assert done.words("console", "vi") == (
        "Bạn đã xin thua ván #1: Alice (Trắng) thắng: Bob xin thua (1-0).")  # the reason, as
    game = await start_game(alice, bob)  # stored in the game, is English for now
    done = await service.abort(alice, game.id)
    assert in_both(done) == ("Game #2 aborted.",
                                                           "Đã hủy ván #2.")
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    await service.move(bob, game.id, "h8-i7/D")
    refused = await service.abort(alice, game.id)
    assert in_both(refused) == (
        "Both sides have moved in game #3, so it can no longer be aborted; you may resign.",
        "Cả hai bên đều đã đi trong ván #3 nên không thể hủy ván được nữa; bạn có thể xin "
        "thua.")


async def test_a_draw_offer_and_its_news_in_each_readers_language(service, alice, bob,
                                                                  start_game):
    clash = await start_game(alice, bob)
    refused = await service.offer_draw(alice, clash.id)
    assert in_both(refused) == (
        "Clash of Command has no draws by agreement.",
        "Luật Đại chiến Chỉ huy không cho hai bên thỏa thuận hòa.")
    game = await start_game(alice, bob, variant="combined-arms")
    done = await service.offer_draw(alice, game.id)
    assert in_both(done) == (
        "Draw offered in game #2.", "Đã đề nghị hòa trong ván #2.")
    [news] = await _news(service, "draw-offer")
    assert news.text == ("Alice offers a draw in game #2. Answer with `draw` to accept or "
                         "`draw decline`.")
    assert outbox.worded(news, "vi") == (
        "Alice đề nghị hòa trong ván #2. Gửi `draw` để đồng ý, hoặc `draw decline` để từ "
        "chối.")
    refused = await service.offer_draw(alice, game.id)
    assert refused.words("console", "vi") == "Bạn đã đề nghị hòa trong ván #2 rồi."
    refused = await service.decline_draw(alice, game.id)
    assert in_both(refused) == (
        "There is no draw offer from your opponent to answer in game #2.",
        "Đối thủ không có lời đề nghị hòa nào để bạn trả lời trong ván #2.")
    done = await service.accept_draw(bob, game.id)
    assert in_both(done) == (
        "Game #2 is drawn by agreement.", "Ván #2 hòa theo thỏa thuận.")


async def test_a_takeback_asked_and_granted_in_each_readers_language(service, alice, bob,
                                                                     start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    done = await service.request_takeback(alice, game.id)
    assert in_both(done) == (
        "Takeback requested in game #1.", "Đã xin đi lại trong ván #1.")
    [news] = await _news(service, "takeback-request")
    assert outbox.worded(news, "vi") == (
        "Alice xin đi lại lượt vừa rồi trong ván #1. Gửi `takeback` để đồng ý, hoặc "
        "`takeback decline` để từ chối.")
    refused = await service.request_takeback(bob, game.id)
    assert in_both(refused) == (
        "Alice has asked for a takeback in game #1; answer it with `takeback` or "
        "`takeback decline` first.",
        "Alice đã xin đi lại trong ván #1; hãy trả lời trước bằng `takeback` hoặc "
        "`takeback decline`.")
    done = await service.accept_takeback(bob, game.id)
    assert in_both(done) == (
        "Takeback accepted in game #1: Alice is to move.",
        "Đã đồng ý cho đi lại trong ván #1: đến lượt Alice.")
    [news] = await _news(service, "takeback")
    assert (news.text, outbox.worded(news, "vi")) == (
        "Bob accepted your takeback in game #1. Alice is to move.",
        "Bob đã đồng ý cho bạn đi lại trong ván #1. Đến lượt Alice.")


async def test_a_reminder_and_a_loss_on_time_are_worded_when_delivered(service, alice, bob,
                                                                       start_game, clock):
    game = await start_game(alice, bob, days=3)
    scheduler = Scheduler(service)
    clock.advance(days=2.4)
    await scheduler.run_due()
    [reminder] = await _news(service, "reminder")
    assert outbox.worded(reminder, "vi") == (
        "Nhắc nhở: ván #1 (Đại chiến Chỉ huy) với Bob đang chờ nước đi của bạn. Bạn còn "
        "14 giờ 24 phút (đến 12:00 UTC 5/3/2026).")
    clock.advance(days=1)
    await scheduler.run_due()
    over = [n for n in await _news(service, "game-over") if n.address == "bob"]
    assert over[0].text == (
        "Game #1 (Clash of Command, Alice (White) vs Bob (Black)) is over: Bob (Black) wins: "
        "Alice ran out of time (0-1). Ratings: Alice 1500 → 1338, Bob 1500 → 1662.")
    assert outbox.worded(over[0], "vi").startswith(
        "Ván #1 (Đại chiến Chỉ huy, Alice (Trắng) đấu với Bob (Đen)) đã kết thúc: Bob "
        "(Đen) thắng: Alice hết giờ (0-1). Điểm xếp hạng: Alice 1500 → 1338, Bob 1500 → 1662.")
    assert game.id == 1


async def test_a_player_not_found_is_told_in_the_senders_language(service, alice):
    assert in_both(await service.find_player("console", "zed")) == (
        "I do not know anyone called 'zed'.", "Tôi không biết ai tên là 'zed'.")


async def test_conditional_moves_are_told_in_each_readers_language(service, alice, bob,
                                                                   start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    refused = await service.forecasts.add_forecast(alice, game.id, ["if", "h8-i7/D", "then"])
    assert refused.words("console", "vi") == (
        "Mỗi `if` cần một lượt của đối thủ, và mỗi `then` cần nước đáp của bạn. Hãy viết một "
        "nhánh như sau: `if h8-i7/D then b2-a3/D then if i7-h6/D then a3-b4/D`.")
    done = await service.forecasts.add_forecast(alice, game.id,
                                                "if h8-i7/D then a3-b4/D".split())
    assert done.words("console", "vi") == (
        "Đã ghi nhánh có điều kiện trong ván #1: if h8-i7/D then a3-b4/D. Chỉ mình bạn thấy "
        "nhánh này cho đến khi nó được đi.")
    done = await service.move(bob, game.id, "h8-i7/D")
    assert in_both(done) == (
        "1... h8-i7/D played in game #1. Alice (White) is to move. Alice "
        "answered at once with a3-b4/D, a conditional move. Your move.",
        "Đã đi 1... h8-i7/D trong ván #1. Đến lượt Alice (Trắng). Alice đáp lại ngay bằng "
        "a3-b4/D, một nước đi có điều kiện. Đến lượt bạn.")
    [news] = await _news(service, "forecast")
    assert outbox.worded(news, "vi") == (
        "Bob đã đi h8-i7/D trong ván #1 (Đại chiến Chỉ huy); nước đi có điều kiện a3-b4/D của "
        "bạn đã được đi để đáp lại. Bạn không còn nước đi có điều kiện nào trong ván đó.")
    refused = await service.forecasts.clear_forecast(alice, game.id)
    assert in_both(refused) == (
        "You have no conditional moves in game #1.",
        "Bạn không có nước đi có điều kiện nào trong ván #1.")


async def test_notes_are_listed_and_refused_in_their_authors_language(service, alice, bob,
                                                                       carol, start_game):
    game = await start_game(alice, bob)
    await service.notes.add_note(alice, game.id, "open with the droid")
    assert (await service.move(alice, game.id, "b2-a3/D")).ok
    done = await service.notes.add_note(alice, game.id, "the left flank is weak")
    assert done.words("console", "vi") == "Đã lưu ghi chú về ván #1 (chỉ mình bạn thấy)."
    text = await service.notes.notes_text(alice, game.id)
    assert text == ("Your notes (only you see them):\n"
                    "  at the start (2026-03-02 12:00 UTC): open with the droid\n"
                    "  after 1. (2026-03-02 12:00 UTC): the left flank is weak")
    assert render(text, "vi") == (
        "Ghi chú của bạn (chỉ mình bạn thấy):\n"
        "  lúc bắt đầu (12:00 UTC 2/3/2026): open with the droid\n"
        "  sau lượt 1. (12:00 UTC 2/3/2026): the left flank is weak")  # the notes' own words
    refused = await service.notes.add_note(carol, game.id, "spy")
    assert refused.words("console", "vi") == (
        "Chỉ người chơi của ván #1 mới được ghi chú về ván này.")
    refused = await service.notes.add_note(bob, game.id, "x" * 1001)
    assert refused.words("console", "vi") == (
        "Mỗi ghi chú dài tối đa 1000 ký tự; ghi chú này có 1001 ký tự.")


async def test_watching_and_an_admins_ruling_in_the_readers_language(service, alice, bob,
                                                                     start_game):
    game = await start_game(alice, bob)
    watcher = await service.player("discord", "3", "Carol")
    done = await service.rooms.watch(watcher, game.id)
    assert (done.message, done.words("discord", "vi")) == (
        "You are watching game #1.", "Bạn đang theo dõi ván #1.")
    await service.move(alice, game.id, "b2-a3/D")
    news = await service.rooms.watch_news(game.id)
    assert (news, render(news, "vi")) == (
        "Alice played 1. b2-a3/D in game #1 (Clash of Command). Bob (Black) is to move.",
        "Alice đã đi 1. b2-a3/D trong ván #1 (Đại chiến Chỉ huy). Đến lượt Bob (Đen).")
    done = await service.rooms.unwatch(watcher, game.id)
    assert done.words("discord", "vi") == "Bạn đã ngừng theo dõi ván #1."
    refused = await service.rooms.unwatch(watcher, game.id)
    assert refused.words("discord", "vi") == "Bạn không theo dõi ván #1."
    done = await service.rooms.adjudicate(game.id, 1, "admin")
    assert done.message == "Game #1 adjudicated: Bob (Black) wins: adjudicated by admin (0-1)."
    assert done.words("discord", "vi").startswith("Đã phân xử ván #1: ")
    refused = await service.rooms.adjudicate(game.id, 0, "admin")
    assert (refused.message, refused.words("discord", "vi")) == (
        "Game #1 is already over.", "Ván #1 đã kết thúc rồi.")
    other = await start_game(alice, bob)
    done = await service.rooms.adjudicate(other.id, None, "admin", abort=True)
    assert (done.message, done.words("discord", "vi")) == (
        "Game #2 aborted: aborted (aborted by admin).",
        "Đã hủy ván #2: đã hủy (admin đã hủy ván).")  # the stored reason: English for now
