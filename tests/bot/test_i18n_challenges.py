"""Challenges in the reader's language: the answers to challenge commands, their refusals
and the news they send come from the catalogue (the English words stay exactly as they
were; names, variants, clocks and command words are values)."""

from __future__ import annotations

from bot.i18n import PSEUDO
from bot.service import outbox
from bot.service.scheduler import Scheduler

from .conftest import in_both

PLACE = "console:test"


async def test_a_challenge_and_its_news_are_worded_in_each_readers_language(service, alice,
                                                                            bob):
    made = await service.challenges.challenge(alice, PLACE, bob, "clash", side=1, days=3)
    assert in_both(made) == (
        "Challenge #1 sent to Bob: Clash of Command, 3 days per move, "
        "Alice plays Black, rated. It expires 2026-03-09 12:00 UTC.",
        "Đã gửi thách đấu #1 tới Bob: Đại chiến Chỉ huy, 3 ngày mỗi nước, Alice cầm Đen, "
        "tính điểm. Lời thách đấu hết hạn vào 12:00 UTC 9/3/2026.")
    [news] = await service.pending_notifications("console")
    assert outbox.worded(news) == news.text == (
        "Alice challenges you: Clash of Command, 3 days per move, Alice plays Black, rated. "
        "Answer with `accept #1` or `decline #1`.")
    assert outbox.worded(news, "vi") == (
        "Alice thách đấu bạn: Đại chiến Chỉ huy, 3 ngày mỗi nước, Alice cầm Đen, tính điểm. "
        "Hãy trả lời bằng `accept #1` hoặc `decline #1`.")
    done = await service.challenges.accept(bob, made.challenge.id)
    assert done.words("console", "vi") == (
        "Đã nhận lời thách đấu #1. Ván #1 đã bắt đầu: Bob (Trắng) đấu với Alice (Đen), "
        "Đại chiến Chỉ huy, 3 ngày mỗi nước. Bob (Trắng) đi trước.")


async def test_an_open_challenge_says_anyone_here_in_each_language(service, alice):
    made = await service.challenges.challenge(alice, PLACE, None, "clash", side=0)
    assert in_both(made) == (
        "Challenge #1 sent to anyone here: Clash of Command, no clock, "
        "Alice plays White, rated. It expires 2026-03-09 12:00 UTC.",
        "Đã gửi thách đấu #1 tới bất kỳ ai ở đây: Đại chiến Chỉ huy, không tính giờ, Alice cầm "
        "Trắng, tính điểm. Lời thách đấu hết hạn vào 12:00 UTC 9/3/2026.")
    assert made.words("console", PSEUDO).startswith("[Çhàlléñgé #1 šéñt tö [àñýöñé")


async def test_refused_challenge_commands_are_refused_in_the_senders_language(
        service, alice, bob, carol):
    refused = await service.challenges.challenge(alice, PLACE, alice)
    assert in_both(refused) == (
        "You cannot challenge yourself.", "Bạn không thể tự thách đấu chính mình.")
    made = await service.challenges.challenge(alice, PLACE, bob)
    refused = await service.challenges.decline(carol, made.challenge.id)
    assert in_both(refused) == (
        "You cannot decline challenge #1: it is not addressed to you.",
        "Bạn không thể từ chối thách đấu #1: nó không gửi cho bạn.")
    refused = await service.challenges.accept(alice, made.challenge.id)
    assert refused.words("console", "vi") == (
        "Bạn không thể tự nhận lời thách đấu của chính mình; hãy rút lại bằng `cancel #1`.")
    assert refused.words("discord", "vi") == (
        "Bạn không thể tự nhận lời thách đấu của chính mình; hãy rút lại bằng "
        "`/cancel challenge:1`.")  # the command's words belong to the transport
    await service.challenges.decline(bob, made.challenge.id)
    refused = await service.challenges.accept(bob, made.challenge.id)
    assert in_both(refused) == (
        "Challenge #1 is no longer open: it was declined.",
        "Thách đấu #1 không còn mở nữa: nó đã bị từ chối.")
    refused = await service.challenges.find_challenge(carol, PLACE, 7)
    assert refused.words("console", "vi") == "Không có thách đấu #7."


async def test_a_declined_and_an_expired_challenge_tell_the_challenger_in_their_language(
        service, clock, alice, bob):
    made = await service.challenges.challenge(alice, PLACE, bob)
    done = await service.challenges.decline(bob, made.challenge.id)
    assert done.words("console", "vi") == "Đã từ chối thách đấu #1."
    await service.challenges.challenge(alice, PLACE, bob)
    clock.advance(days=7)
    assert (await Scheduler(service).run_due())["challenges"] == 1
    news = [n for n in await service.pending_notifications("console")
            if n.address == "alice"]
    assert [(n.text, outbox.worded(n, "vi")) for n in news] == [
        ("Bob declined your challenge #1.", "Bob đã từ chối lời thách đấu #1 của bạn."),
        ("Your challenge #2 (Clash of Command, no clock, side chosen at random, rated) expired "
         "unanswered.",
         "Lời thách đấu #2 của bạn (Đại chiến Chỉ huy, không tính giờ, bên cầm quân chọn ngẫu "
         "nhiên, tính điểm) đã hết hạn mà không ai trả lời.")]


# --- vacations -----------------------------------------------------------------------
async def test_a_vacation_and_its_news_are_worded_in_each_readers_language(
        service, clock, alice, bob, start_game):
    game = await start_game(alice, bob, days=3)
    done = await service.vacations.start(alice, 5)
    assert in_both(done) == (
        "You are on vacation until 2026-03-07 12:00 UTC (5 days). Your "
        "clocks are paused (games to move in: #1); send `back` when you "
        "return.",
        "Bạn được nghỉ đến 12:00 UTC 7/3/2026 (5 ngày). Đồng hồ của bạn đã tạm dừng (các "
        "ván đang đến lượt bạn: #1); khi quay lại, hãy gửi `back`.")
    refused = await service.vacations.start(alice)
    assert refused.words("discord", "vi").startswith("Bạn đang nghỉ đến <t:")
    assert refused.words("discord", "vi").endswith(
        "; gửi `/vacation end:True` để kết thúc kỳ nghỉ.")
    news = [n for n in await service.pending_notifications("console") if n.kind == "vacation"]
    assert [(n.text, outbox.worded(n, "vi")) for n in news] == [
        ("Alice is on vacation; the clock of game #1 is paused.",
         "Alice đang nghỉ; đồng hồ của ván #1 tạm dừng.")]
    assert in_both(await service.move(alice, game.id, "b2-a3/D")) == (
        "1. b2-a3/D played in game #1. Bob (Black) is to move. Moving ends "
        "your vacation: your clocks run again.",
        "Đã đi 1. b2-a3/D trong ván #1. Đến lượt Bob (Đen). Vì bạn đã đi, kỳ nghỉ kết thúc: "
        "đồng hồ của bạn chạy lại.")
    refused = await service.vacations.end(alice)
    assert in_both(refused) == (
        "You are not on vacation.", "Bạn hiện không nghỉ.")


async def test_coming_back_says_welcome_back_in_each_language(service, clock, alice, bob,
                                                              start_game):
    game = await start_game(alice, bob, days=3)
    done = await service.vacations.start(bob, 5)
    assert done.words("console", "vi") == (
        "Bạn được nghỉ đến 12:00 UTC 7/3/2026 (5 ngày). Đồng hồ của bạn đã tạm dừng (hiện "
        "chưa có ván nào đến lượt bạn); khi quay lại, hãy gửi `back`.")
    await service.move(alice, game.id, "b2-a3/D")  # Bob's turn starts paused
    done = await service.vacations.end(bob)
    assert in_both(done) == (
        "Welcome back! Your clocks run again (games to move in: #1).",
        "Chào mừng bạn quay lại! Đồng hồ của bạn chạy lại (các ván đang đến lượt bạn: #1).")
    news = [n for n in await service.pending_notifications("console")
            if n.kind in ("vacation", "your-move") and "back" in n.text.lower()]
    assert [(n.address, outbox.worded(n, "vi")) for n in news] == [
        ("alice", "Bob đã trở lại sau kỳ nghỉ; đồng hồ của ván #1 chạy lại."),
        ("bob", "Chào mừng bạn quay lại: ván #1 đang chờ nước đi của bạn. Bạn còn 3 ngày "
                "(đến 12:00 UTC 5/3/2026).")]


# --- records -------------------------------------------------------------------------
async def test_a_record_offered_exported_and_imported_in_each_language(service, alice, bob,
                                                                      start_game):
    game = await start_game(alice, bob)
    await service.move(alice, game.id, "b2-a3/D")
    exported = await service.archive.export(game.id)
    assert in_both(exported) == (
        "Record of game #1.", "Biên bản ván #1.")
    refused = await service.archive.export(9)
    assert refused.words("console", "vi") == "Không có ván #9."
    made = await service.archive.offer_import(alice, PLACE, exported.text, bob)
    assert in_both(made) == (
        "Challenge #2 sent to Bob: to continue a recorded game of Clash of "
        "Command (1 step played; Alice plays White). The game starts when "
        "Bob accepts.",
        "Đã gửi thách đấu #2 tới Bob: chơi tiếp một ván Đại chiến Chỉ huy đã ghi lại (đã đi 1 "
        "bước; Alice cầm Trắng). Ván đấu sẽ bắt đầu khi Bob nhận lời.")
    [news] = [n for n in await service.pending_notifications("console")
              if n.kind == "challenge" and n.address == "bob"][-1:]
    assert outbox.worded(news, "vi") == (
        "Alice mời bạn chơi tiếp một ván Đại chiến Chỉ huy đã ghi lại (đã đi 1 bước; Alice cầm "
        "Trắng). Hãy trả lời bằng `accept #2` hoặc `decline #2`.")
    done = await service.challenges.accept(bob, made.challenge.id)
    assert in_both(done) == (
        "Challenge #2 accepted. Imported as game #2 (in progress, 1 step): "
        "Alice (White) vs Bob (Black).",
        "Đã nhận lời thách đấu #2. Đã nhập thành ván #2 (đang chơi, 1 bước): Alice (Trắng) "
        "đấu với Bob (Đen).")
    [news] = [n for n in await service.pending_notifications("console")
              if n.kind == "game-start" and n.game_id == 2]
    assert (news.address, outbox.worded(news, "vi")) == (
        "alice", "Bob đã nhận lời thách đấu #2: ván #2 chơi tiếp ván đã ghi lại, Alice (Trắng) "
                 "đấu với Bob (Đen).")


async def test_a_refused_record_is_refused_in_the_senders_language(service, alice, bob):
    refused = await service.archive.import_game(alice, PLACE, '[Variant "clash"]\n', alice)
    assert refused.words("console", "vi") == "Bạn không thể chơi một ván với chính mình."
    refused = await service.archive.import_game(
        alice, PLACE, '[Variant "clash"]\n[TimeControl "4 days per move"]\n', bob)
    assert refused.words("console", "vi") == (
        "Không nhập được biên bản này: '4 days' không phải là cách tính giờ: thời gian mỗi nước "
        "là 1, 2, 3, 5, 7 hoặc 14 ngày, hoặc không tính giờ.")
    for record, english, vietnamese in [
            ('[Variant "clash"]\nb2-a3\n',
             "line 2: 'b2-a3' is not a numbered turn like '12. c3-d4' or '12... d6-c5'",
             "dòng 2: 'b2-a3' không phải là một lượt có đánh số như '12. c3-d4' hoặc "
             "'12... d6-c5'"),
            ('[Variant "clash"]\n1. zz\n',
             "turn 1. zz: 'zz': a move starts with the point of the piece that moves, as in "
             "c3-d4",
             "lượt 1. zz: 'zz': nước đi bắt đầu bằng điểm của quân được đi, như c3-d4"),
            ('[Variant "clash"]\n[Result "2-0"]\n',
             "the Result tag '2-0' is not one of 1-0, 0-1, 1/2-1/2, *",
             "thẻ Result '2-0' không phải là một trong các giá trị 1-0, 0-1, 1/2-1/2, *"),
            ('[Variant "commander"]\n[Red "a"]\n[Blue "b"]\n1. Zz9 *\n',
             "move 1. Zz9: no legal move of Red is written so here",
             "nước 1. Zz9: ở đây không có nước đi hợp lệ nào của Đỏ được ghi như vậy")]:
        refused = await service.archive.import_game(alice, PLACE, record, bob)
        assert in_both(refused) == (f"That record cannot be imported: {english}",
                                    f"Không nhập được biên bản này: {vietnamese}")
    refused = await service.archive.import_game(
        alice, PLACE, '[Variant "clash"]\n[Mode "blitz"]\n', bob)
    assert in_both(refused) == (
        "That record cannot be imported: Clash of Command has no mode 'blitz'.",
        "Không nhập được biên bản này: Đại chiến Chỉ huy không có chế độ 'blitz'.")
