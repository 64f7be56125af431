"""The rest of the service's words come from the catalogue: the names of sides and variants,
dates and times, how a game ended (kept in the games table as its message's data, and an
older row's English words read back as the message that wrote them), the outbox's news of
a player who cannot be reached, the daily digest, the boundary's refusals, clock choices,
the computer's levels and refused names; each worded in the reader's language (the English
words stay exactly as they were)."""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.i18n import Text, from_json, moment, untranslated
from bot.names import name_problem
from bot.service import outbox
from bot.service.clock import DAY, TimeControl, parse_time_control
from bot.service.computer import level_error
from bot.service.phrasing import describe_result, phrase
from bot.service.results import STORAGE_DOWN, storage_words
from bot.service.words import ENGINE_ENDINGS, FIFTY_MOVES, read_ending, stored_ending
from bot.storage import DamagedGame, StorageError

from .conftest import in_both

MARCH_2 = 1772409600.0  # 2026-03-02 00:00 UTC


def test_a_moment_is_worded_as_each_language_writes_dates():
    plain, token = moment(MARCH_2 + 12.5 * 3600), i18n.Moment(MARCH_2 + 12.5 * 3600, token=True)
    assert (plain, plain.render("vi")) == ("2026-03-02 12:30 UTC", "12:30 UTC 2/3/2026")
    assert (phrase(token, "console"), phrase(token.render("vi"), "email")) == (
        "2026-03-02 12:30 UTC", "12:30 UTC 2/3/2026")
    assert phrase(token.render("vi"), "discord") == "<t:1772454600:f> (<t:1772454600:R>)"
    said = i18n._("It expires {moment}.", moment=token)
    again = from_json(json.loads(json.dumps(said.to_json())))
    assert (phrase(again, "console"), phrase(again.render("vi"), "console")) == (
        "It expires 2026-03-02 12:30 UTC.", "Lời thách đấu hết hạn vào 12:30 UTC 2/3/2026.")
    assert from_json({"id": "{t}", "values": {"t": {"moment": MARCH_2}}}).render("vi") == \
        "00:00 UTC 2/3/2026"


async def test_sides_and_the_variant_are_named_as_vietnamese_players_name_them(
        service, alice, bob, start_game):
    game = await start_game(alice, bob, variant="commander", days=3)
    done = await service.resign(bob, game.id)
    assert in_both(done) == (
        "You resigned game #1: Alice (Red) wins: Bob resigned (1-0).",
        "Bạn đã xin thua ván #1: Alice (Đỏ) thắng: Bob xin thua (1-0).")
    [news] = [n for n in await service.pending_notifications("console")
              if n.kind == "game-over" and n.address == "alice"]
    assert outbox.worded(news, "vi").startswith(
        "Ván #1 (Cờ Tư Lệnh, Alice (Đỏ) đấu với Bob (Xanh)) đã kết thúc: Alice (Đỏ) thắng: "
        "Bob xin thua (1-0).")


async def test_a_finished_games_end_is_stored_as_its_message_and_worded_when_shown(
        service, alice, bob, start_game):
    game = await start_game(alice, bob)
    await service.resign(bob, game.id)
    async with service.db.snapshot() as s:
        row = await s.one("SELECT reason FROM games WHERE id = ?", (game.id,))
    # a player's name is kept as a name (`Name`), which a transport's markup may quote
    assert json.loads(row["reason"]) == {"id": "{name} resigned",
                                         "values": {"name": {"name": "Bob"}}}
    game = await service.game(game.id)
    assert (game.reason, describe_result(game)) == (
        "Bob resigned", "Alice (White) wins: Bob resigned (1-0)")
    assert describe_result(game).render("vi") == "Alice (Trắng) thắng: Bob xin thua (1-0)"
    drawn = await start_game(alice, bob)
    await service.rooms.adjudicate(drawn.id, None, "admin")
    drawn = await service.game(drawn.id)
    assert (describe_result(drawn), describe_result(drawn).render("vi")) == (
        "drawn, adjudicated a draw by admin (1/2-1/2)", "hòa, admin phân xử hòa (1/2-1/2)")


async def test_an_older_rows_english_ending_is_read_as_the_message_that_wrote_it(
        service, alice, bob, start_game):
    game = await start_game(alice, bob)
    await service.resign(alice, game.id)
    for old, english, vietnamese in [
            ("Alice resigned", "Bob (Black) wins: Alice resigned (0-1)",
             "Bob (Đen) thắng: Alice xin thua (0-1)"),
            ("Alice ran out of time", "Bob (Black) wins: Alice ran out of time (0-1)",
             "Bob (Đen) thắng: Alice hết giờ (0-1)"),
            ("adjudicated by admin", "Bob (Black) wins: adjudicated by admin (0-1)",
             "Bob (Đen) thắng: admin phân xử (0-1)"),
            ("Red has no Commander left", "Bob (Black) wins: Red has no Commander left (0-1)",
             "Bob (Đen) thắng: Đỏ không còn Tư lệnh nào (0-1)"),  # the engine's
            ("Black killed the White headquarters (King)",
             "Bob (Black) wins: Black killed the White headquarters (King) (0-1)",
             "Bob (Đen) thắng: Đen đã tiêu diệt sở chỉ huy (Vua) của Trắng (0-1)"),
            ("the Red flag fell", "Bob (Black) wins: the Red flag fell (0-1)",
             "Bob (Đen) thắng: the Red flag fell (0-1)")]:  # words of no message: as they are
        async with service.db.transaction() as s:
            await s.execute("UPDATE games SET reason = ? WHERE id = ?", (old, game.id))
        read = await service.game(game.id)
        assert (read.reason, describe_result(read), describe_result(read).render("vi")) == (
            old, english, vietnamese)


def test_an_ending_is_stored_and_read_back_whatever_it_holds():
    ended = Text("{name} resigned", {"name": "Bob"})
    assert read_ending(stored_ending(ended)).render("vi") == "Bob xin thua"
    assert stored_ending("by agreement") == "by agreement"
    assert read_ending("by agreement").render("vi") == "do hai bên thỏa thuận"
    assert read_ending('{"id": broken') == '{"id": broken'  # words that only look like data
    assert read_ending(" resigned") == " resigned"  # no name: not the service's words
    assert read_ending("") == ""


def test_the_engines_endings_an_older_row_has_are_messages_of_the_catalogue():
    assert {(ending, None) for ending in (*ENGINE_ENDINGS, FIFTY_MOVES)} <= i18n.template()


async def test_a_player_who_cannot_be_reached_is_told_in_each_readers_language(
        service, alice, bob, start_game, clock):
    game = await start_game(alice, bob, days=3)
    await service.move(alice, game.id, "b2-a3/D")
    [note] = [n for n in await service.pending_notifications("console")
              if n.kind == "your-move"]
    async with service.db.transaction() as s:
        await outbox.tell_unreachable(s, note, "550 User unknown", clock())
    told = [n for n in await service.pending_notifications("console")
            if n.kind == outbox.UNREACHABLE and n.address == "alice"]
    assert [(n.text, outbox.worded(n, "vi")) for n in told] == [(
        "Bob cannot be reached on the console (550 User unknown); their clock keeps running: "
        "they lose on time at 2026-03-05 12:00 UTC unless they move.",
        "Không thể liên lạc với Bob trên bàn điều khiển (550 User unknown); đồng hồ của họ "
        "vẫn chạy: họ sẽ thua vì hết giờ lúc 12:00 UTC 5/3/2026 nếu không đi.")]


async def test_the_daily_digest_is_worded_in_its_readers_language(service, alice, bob,
                                                                   start_game, clock):
    await start_game(alice, bob, days=3)
    await start_game(bob, alice)
    await service.set_preference(alice, "digest", True)
    clock.advance(days=1)
    assert await service.posts.process_digests() == 1
    [digest] = [n for n in await service.pending_notifications("console")
                if n.kind == "digest"]
    assert (digest.text, outbox.worded(digest, "vi")) == (
        "Your daily digest: 1 game waits for your move.\n"
        "• #1 against Bob (Clash of Command): 2 days left",
        "Bản tin hằng ngày: 1 ván đang chờ bạn đi.\n"
        "• #1 với Bob (Đại chiến Chỉ huy): còn 2 ngày")


async def test_several_challenges_are_listed_with_their_variants_names_in_each_language(
        service, alice, bob, carol):
    await service.challenges.challenge(alice, "console:test", carol)
    await service.challenges.challenge(bob, "console:test", carol, variant="commander")
    refused = await service.challenges.find_challenge(carol, "console:test")
    assert in_both(refused) == (
        "There are several challenges: #1 (Alice, Clash of Command), #2 (Bob, Commander Chess "
        "(Cờ Tư Lệnh)). Say which, as in `accept #1`.",
        "Có nhiều lời thách đấu: #1 (Alice, Đại chiến Chỉ huy), #2 (Bob, Cờ Tư Lệnh). Hãy nói rõ "
        "là cái nào, ví dụ `accept #1`.")


async def test_the_boundarys_refusals_in_the_senders_language(service, alice, bob,
                                                              start_game):
    refused = await service.move(alice, 0, "b2-a3/D")
    assert in_both(refused) == ("There is no game #0.", "Không có ván #0.")
    refused = await service.move(alice, 1, "x" * 500)
    assert in_both(refused) == ("That move is too long (500 characters; at most 400).",
                                "Phần nước đi này quá dài (500 ký tự; tối đa 400).")
    refused = await service.challenges.challenge(alice, "console:test", bob, variant="shogi")
    assert in_both(refused)[1].startswith("Không có biến thể nào tên là 'shogi'. Hãy chọn "
                                          "một trong: ")
    game = await start_game(alice, bob)
    refused = await service.archive.export(game.id, format="fen")
    assert in_both(refused) == (
        "There is no record format 'fen': write commandpost or cotulenh.",
        "Không có định dạng biên bản 'fen': hãy viết commandpost hoặc cotulenh.")
    refused = await service.archive.export(game.id, format="cotulenh")
    assert in_both(refused) == (
        "The cotulenh format is for Commander Chess games; game #1 is Clash of Command.",
        "Định dạng cotulenh chỉ dành cho ván Cờ Tư Lệnh; ván #1 là Đại chiến Chỉ huy.")


async def test_a_clock_choice_and_its_refusal_in_each_language(service, alice, bob):
    refused = await service.challenges.challenge(alice, "console:test", bob, days=4)
    assert in_both(refused) == (
        "'4' is not a time control: the time per move is 1, 2, 3, 5, 7 or 14 days, or none.",
        "'4' không phải là cách tính giờ: thời gian mỗi nước là 1, 2, 3, 5, 7 hoặc 14 ngày, "
        "hoặc không tính giờ.")
    words = TimeControl(3, 1, 10, 30).describe()
    assert (words, words.render("vi")) == (
        "3 days + 1 day per move, at most 10 days in the bank, at most 30 days in all",
        "3 ngày + 1 ngày mỗi nước, quỹ thời gian tối đa 10 ngày, tổng cộng tối đa 30 ngày")
    half = TimeControl(1.5).describe()
    assert (half, half.render("vi")) == ("1.5 days per move", "1.5 ngày mỗi nước")
    with pytest.raises(ValueError) as refused_clock:
        parse_time_control(["max10d"], 3)
    said = refused_clock.value.args[0]
    assert (str(refused_clock.value), said.render("vi")) == (
        "a bank maximum such as max10d needs a Fischer clock, as in `3d+1d max10d`",
        "giới hạn quỹ thời gian như max10d cần đồng hồ Fischer, ví dụ `3d+1d max10d`")


def test_a_computer_level_that_does_not_exist():
    said = level_error(9)
    assert (said, said.render("vi")) == (
        "There is no level 9: the computer plays at levels 1 to 5.",
        "Không có cấp độ 9: máy chơi ở các cấp độ từ 1 đến 5.")


REFUSED_NAMES = [  # (a name typed, why it is refused in English, in Vietnamese)
    ("<bob>", "'<bob>' is not a name: a name starts with a letter or a digit.",
     "'<bob>' không phải là tên: tên phải bắt đầu bằng chữ cái hoặc chữ số."),
    ("bo<b>", "'bo<b>' is not a name: a name holds only letters, digits, spaces and . ' - _, "
              "not '<' or '>'.",
     "'bo<b>' không phải là tên: tên chỉ gồm chữ cái, chữ số, dấu cách và . ' - _, không "
     "có '<' hoặc '>'."),
    ("a<>{}[]()", "'a<>{}[]()' is not a name: a name holds only letters, digits, spaces and "
                  ". ' - _, not '<', '>', '{', '}', '[' or 3 others.",
     "'a<>{}[]()' không phải là tên: tên chỉ gồm chữ cái, chữ số, dấu cách và . ' - _, "
     "không có '<', '>', '{', '}', '[' hoặc 3 ký tự khác."),
]


@pytest.mark.parametrize(("name", "english", "vietnamese"), REFUSED_NAMES)
def test_a_refused_name_says_why_in_each_language(name, english, vietnamese):
    said = name_problem(name)
    assert (said, said.render("vi")) == (english, vietnamese)


async def test_a_whole_game_in_the_pseudo_language_leaves_no_english_of_the_service(
        service, alice, bob, start_game, clock):
    """Every answer and every piece of news of a game, from the challenge to its end,
    worded in the pseudo-language: nothing bypasses the catalogue but the names, the
    notation and the tokens (UTC, commandpost)."""
    answers = []
    made = await service.challenges.challenge(alice, "console:test", bob, days=3, side=0)
    answers += [made, await service.challenges.accept(bob, made.challenge.id)]
    game = made.challenge.game_id or (await service.games(alice))[0].id
    for player, move in [(alice, "b2-a3/D"), (bob, "h8-i7/D"), (alice, "h2-h4/D")]:
        answers.append(await service.move(player, game, move))
    answers += [await service.offer_draw(bob, game),  # refused: no draws in this variant
                await service.request_takeback(bob, game),
                await service.decline_takeback(alice, game)]
    clock.advance(days=2.5)
    await service.process_reminders()
    answers.append(await service.resign(bob, game))
    allowed = ["Alice", "Bob", "UTC", "commandpost"]
    for answer in answers:
        assert untranslated(answer.words("console", i18n.PSEUDO), allowed) == [], answer.message
    news = await service.pending_notifications("console", limit=500)
    assert {n.kind for n in news} >= {"challenge", "game-start", "your-move", "takeback-request",
                                      "takeback", "reminder", "game-over"}
    for note in news:
        assert untranslated(outbox.worded(note, i18n.PSEUDO), allowed) == [], note.text


async def test_a_loss_on_time_is_told_in_vietnamese_also_from_its_stored_end(
        service, alice, bob, start_game, clock):
    game = await start_game(alice, bob, days=1)
    clock.advance(seconds=DAY + 1)
    assert await service.process_timeouts() == 1
    game = await service.game(game.id)
    assert describe_result(game).render("vi") == "Bob (Đen) thắng: Alice hết giờ (0-1)"


def test_a_storage_fault_is_told_in_the_readers_language():
    for err, vietnamese in [
            (StorageError("the database is locked by another program"),
             "Hiện dịch vụ không lưu được nước đi; chưa có gì thay đổi. Vui lòng thử lại sau."),
            (DamagedGame(3), "Ván #3 bị hỏng trong cơ sở dữ liệu; người quản trị máy chủ có thể "
                             "chạy `commandpost db check` để xem còn cứu được những gì."),
            (DamagedGame(None), "Một ván bị hỏng trong cơ sở dữ liệu; người quản trị máy chủ có "
                                "thể chạy `commandpost db check` để xem còn cứu được những gì.")]:
        words = storage_words(err)
        english = STORAGE_DOWN if not isinstance(err, DamagedGame) else str(err)
        assert (words, i18n.render(words, "vi")) == (english, vietnamese)
