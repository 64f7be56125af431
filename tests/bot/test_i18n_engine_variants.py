"""The engine's reasons in the reader's language for Clash of Command, Combined Arms and
the Chieftain games: why a move is refused, how a game ended and why a set-up position
cannot be used come from the engine as phrases (`engine.phrases`) that the catalogue
words, with the piece names of the Vietnamese rules; move text is never translated."""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.i18n import PSEUDO
from bot.service.phrasing import describe_result
from engine import EngineError, get_variant

from .conftest import PLACE, in_both

# (variant, moves played in order from the start, each a refusal or None for a move that
# is played) with each refusal in English and in Vietnamese
REFUSALS = {
    "clash": [
        ("b2-c3", "b2-c3 is not a legal move here: c3 is occupied: the Factor on b2 moves "
                  "only to an empty point.",
         "b2-c3 không phải là nước đi hợp lệ ở đây: c3 đã có quân: Công xưởng ở b2 chỉ đi "
         "tới điểm trống."),
        ("a1=D", "a1=D is not a legal move here: a Commander can only turn into a Brute or a "
                 "Factor.",
         "a1=D không phải là nước đi hợp lệ ở đây: Tư lệnh chỉ có thể biến thành Lực sĩ hoặc "
         "Công xưởng."),
        ("b2=B", "b2=B is not a legal move here: a Factor can only turn into a Droid or a "
                 "Hawk.",
         "b2=B không phải là nước đi hợp lệ ở đây: Công xưởng chỉ có thể biến thành Người máy "
         "hoặc Diều hâu."),
        ("b2-a3/Q", "I cannot read 'b2-a3/Q' as a move: 'q' is not a piece letter or name.",
         "Tôi không đọc được 'b2-a3/Q' thành một nước đi: 'q' không phải chữ hay tên của một "
         "quân."),
        ("e3-e4", "I cannot read 'e3-e4' as a move: e4 is not a point of the board (points "
                  "are a1, c1, ... i9 where the file number plus the rank is even).",
         "Tôi không đọc được 'e3-e4' thành một nước đi: e4 không phải một điểm của bàn cờ "
         "(các điểm là a1, c1, ... i9, nơi số thứ tự cột cộng với hàng là số chẵn)."),
    ],
    "combined-arms": [
        ("e1-g1", "e1-g1 is not a legal move here: g1 holds your own armour (Knight).",
         "e1-g1 không phải là nước đi hợp lệ ở đây: ở g1 là thiết giáp (Mã) của chính bạn."),
        ("O-O", "O-O is not a legal move here: the squares between the headquarters (King) "
                "and the heavy artillery must be empty.",
         "O-O không phải là nước đi hợp lệ ở đây: các ô giữa sở chỉ huy (Vua) và pháo hạng "
         "nặng phải trống."),
        ("d1-d5", "d1-d5 is not a legal move here: aviation (the Queen) may not enter d5: it "
                  "is within range of Black's heavy artillery (Rook) on a8.",
         "d1-d5 không phải là nước đi hợp lệ ở đây: không quân (Hậu) không được vào d5: ô đó "
         "nằm trong tầm bắn của pháo hạng nặng (Xe) của Đen ở a8."),
        ("Bc1*e3", "Bc1*e3 is not a legal move here: there is no enemy piece on e3 to shoot.",
         "Bc1*e3 không phải là nước đi hợp lệ ở đây: không có quân địch nào ở e3 để bắn."),
        ("b1-b3", "b1-b3 is not a legal move here: armour (a Knight) makes exactly three "
                  "single orthogonal steps (it may turn or step back), so it ends 1 or 3 "
                  "steps from where it started.",
         "b1-b3 không phải là nước đi hợp lệ ở đây: thiết giáp (Mã) đi đúng ba bước đơn theo "
         "hàng và cột (được rẽ hoặc bước lùi), nên dừng cách chỗ xuất phát 1 hoặc 3 bước."),
        ("k9-a1", "I cannot read 'k9-a1' as a move: k9 is not a square of the board (a1 to "
                  "h8).",
         "Tôi không đọc được 'k9-a1' thành một nước đi: k9 không phải một ô của bàn cờ (a1 "
         "đến h8)."),
    ],
    "mini-chieftain": [
        ("Cd1-d3", "Cd1-d3 is not a legal move here: the Chieftain may not jump: every square "
                   "between d1 and d3 (c2, d2, e2) is occupied.",
         "Cd1-d3 không phải là nước đi hợp lệ ở đây: Thủ lĩnh không được nhảy: mọi ô giữa d1 "
         "và d3 (c2, d2, e2) đều đã có quân."),
        ("Md2-d4", "Md2-d4 is not a legal move here: a Man moves one square in any direction.",
         "Md2-d4 không phải là nước đi hợp lệ ở đây: Lính đi một ô theo bất kỳ hướng nào."),
        ("Nb1-b3", "Nb1-b3 is not a legal move here: a kNight moves like a chess knight (two "
                   "squares one way, one the other).",
         "Nb1-b3 không phải là nước đi hợp lệ ở đây: Kỵ binh đi như quân Mã cờ vua (hai ô "
         "theo một hướng, một ô theo hướng kia)."),
        ("Md2-d3, Me2-e3, Mf2-f3",
         "Md2-d3, Me2-e3, Mf2-f3 is not a legal move here: move 3, Mf2-f3: the turn allows "
         "2 moves (one per Chieftain) and 2 have been made.",
         "Md2-d3, Me2-e3, Mf2-f3 không phải là nước đi hợp lệ ở đây: nước 3, Mf2-f3: lượt "
         "này cho phép 2 nước đi (mỗi Thủ lĩnh một nước) và đã đi 2 nước."),
        ("Md2-d3, Md3-d4",
         "Md2-d3, Md3-d4 is not a legal move here: move 2, Md3-d4: the Man on d3 has already "
         "moved this turn; no piece moves twice.",
         "Md2-d3, Md3-d4 không phải là nước đi hợp lệ ở đây: nước 2, Md3-d4: Lính ở d3 đã đi "
         "trong lượt này; không quân nào được đi hai lần."),
        ("Xd2-d3", "I cannot read 'Xd2-d3' as a move: 'X' is not a piece letter (C, H, S, N, "
                   "M).",
         "Tôi không đọc được 'Xd2-d3' thành một nước đi: 'X' không phải chữ của quân (C, H, S, "
         "N, M)."),
    ],
    "micro-chieftain": [
        ("Gb2-b4", "Gb2-b4 is not a legal move here: a Gold moves one square orthogonally or "
                   "one square diagonally forward.",
         "Gb2-b4 không phải là nước đi hợp lệ ở đây: Kim tướng đi một ô theo hàng hoặc cột, "
         "hoặc một ô chéo về phía trước."),
        ("Va2-b4", "Va2-b4 is not a legal move here: a Silver moves one square diagonally or "
                   "one square straight forward.",
         "Va2-b4 không phải là nước đi hợp lệ ở đây: Ngân tướng đi một ô chéo hoặc một ô "
         "thẳng về phía trước."),
    ],
}


@pytest.mark.parametrize("variant", list(REFUSALS))
async def test_a_refused_move_gets_the_engines_reason_in_each_language(
        service, alice, bob, start_game, variant: str) -> None:
    game = await start_game(alice, bob, variant=variant)
    for move, english, vietnamese in REFUSALS[variant]:
        refused = await service.move(alice, game.id, move)
        assert not refused.ok
        assert in_both(refused) == (english, vietnamese)


@pytest.mark.parametrize("variant", list(REFUSALS))
async def test_no_refusal_bypasses_the_catalogue(service, alice, bob, start_game,
                                                 variant: str) -> None:
    game = await start_game(alice, bob, variant=variant)
    for move, _english, _vietnamese in REFUSALS[variant]:
        refused = await service.move(alice, game.id, move)
        assert i18n.untranslated(refused.words("console", PSEUDO)) == []


# (variant, a start position, the winning move, the ending in English and in Vietnamese)
ENDINGS = [
    ("clash", "5/4/5/4/5/4/5/c3/BC3 w 1", "a1xb2",
     "1. a1xb2 played in game #1. Game over: Alice (White) wins: Black has no Commander "
     "left (1-0).", "Đen không còn Tư lệnh nào (1-0)."),
    ("combined-arms", "k7/1K6/8/8/8/8/8/8 w - - 0 1", "b7xa8",
     "1. Kb7xa8 played in game #1. Game over: Alice (White) wins: White killed the Black "
     "headquarters (King) (1-0).", "Trắng đã tiêu diệt sở chỉ huy (Vua) của Đen (1-0)."),
    ("mini-chieftain", "8/8/8/8/8/8/c7/HC6 w - 1", "Ha1xa2",
     "1. Ha1xa2 played in game #1. Game over: Alice (White) wins: Black has no Chieftain "
     "left (1-0).", "Đen không còn Thủ lĩnh nào (1-0)."),
]


@pytest.mark.parametrize(("variant", "fen", "move", "english", "vietnamese"), ENDINGS)
async def test_an_ending_is_worded_in_vietnamese(service, alice, bob, start_game,
                                                 variant: str, fen: str, move: str,
                                                 english: str, vietnamese: str) -> None:
    game = await start_game(alice, bob, variant=variant, start_fen=fen, rated=False)
    done = await service.move(alice, game.id, move)
    assert done.ok
    assert done.message == english
    assert done.words("console", "vi").endswith(vietnamese)
    assert i18n.untranslated(done.words("console", PSEUDO), {"Alice"}) == []
    async with service.db.snapshot() as s:  # the ending is stored as its message's data
        row = await s.one("SELECT reason FROM games WHERE id = ?", (game.id,))
    assert json.loads(row["reason"])["id"] == done.game.reason.msgid
    read = await service.game(game.id)
    assert describe_result(read).render("vi").endswith(vietnamese.removesuffix("."))


def test_the_chieftain_status_and_a_draw_are_phrases() -> None:
    rules = get_variant("micro-chieftain")
    start = rules.start_position()
    assert rules.status_text(start) == "White may move up to 2 pieces"
    assert i18n.render(rules.status_text(start), "vi") == "Bên Trắng được đi tối đa 2 quân"
    after = rules.make_move(start, rules.parse_move(start, "Gd2-d3"))
    assert i18n.render(rules.status_text(after), "vi") == (
        "Lượt của bên Trắng đang dở: Gd2-d3 (1/2); Thủ lĩnh còn ra lệnh được: d1, e1; gửi "
        "một nước đi hoặc 'end'")


# (variant, a start position that cannot be used, the reason in English and Vietnamese)
SET_UPS = [
    ("clash", "bcccc/ffff/hdhd1/4/5/4/1DHDH/FFFF/CCCCX w 1",
     "'X' is not a piece letter nor a number of empty points (1 to 5)",
     "'X' không phải chữ của quân, cũng không phải số điểm trống (1 đến 5)"),
    ("clash", "5/4/5/4/5/4/5/c3/BC2 w 1",
     "rank 1 must describe 5 points, not 4", "hàng 1 phải mô tả 5 điểm, không phải 4"),
    ("combined-arms", "8/8/8 w", "the placement needs 8 ranks separated by '/'",
     "phần vị trí quân cần 8 hàng, ngăn cách bằng '/'"),
    ("combined-arms", "kk6/8/8/8/8/8/8/K7 w", "Black has more than one King",
     "Đen có nhiều hơn một Vua"),
    ("mini-chieftain", "hnsccsnh/mmmmmmmm/8/8/8/8/MMMMMMMM/HNSCCSNH w - 0",
     "the move number must be a whole number from 1",
     "số nước phải là một số nguyên từ 1 trở lên"),
    ("micro-chieftain", "8/8/8/8/8/8/8/8 w - 1", "neither side has a Chieftain",
     "không bên nào có Thủ lĩnh"),
    ("micro-chieftain", "hnsccsnh/vgvggvgv/8/8/8/8/VGVGGVGV/HNSCCSNH w Hh1-h3 1",
     "after Hh1-h3 a White Hero must stand on h3",
     "sau Hh1-h3, trên h3 phải có Dũng sĩ Trắng"),
    ("commander", "11/11 r - - 0 1", "the placement needs 12 ranks separated by '/'",
     "phần vị trí quân cần 12 hàng, ngăn cách bằng '/'"),
]


@pytest.mark.parametrize(("variant", "fen", "english", "vietnamese"), SET_UPS)
async def test_a_set_up_position_error_is_worded_in_vietnamese(
        service, alice, bob, variant: str, fen: str, english: str, vietnamese: str) -> None:
    refused = await service.challenges.challenge(alice, PLACE, bob, variant=variant,
                                                 start_fen=fen)
    assert in_both(refused) == (
        f"That start position cannot be used: {fen!r}: {english}",
        f"Không dùng được thế cờ khởi đầu này: {fen!r}: {vietnamese}")
    assert i18n.untranslated(refused.words("console", PSEUDO)) == []


def test_the_engines_position_and_mode_errors_keep_their_english_and_their_phrase() -> None:
    with pytest.raises(EngineError) as unknown:
        get_variant("chaturanga")
    assert str(unknown.value) == ("'chaturanga': no such variant (known: clash, commander, "
                                  "combined-arms, mini-chieftain, micro-chieftain)")
    assert i18n.render(unknown.value.args[0], "vi") == (
        "'chaturanga': không có biến thể nào như vậy (các biến thể: clash, commander, "
        "combined-arms, mini-chieftain, micro-chieftain)")
    with pytest.raises(EngineError) as mode:
        get_variant("commander").start_position("blitz")
    assert i18n.render(mode.value.args[0], "vi") == (
        "'blitz': Cờ Tư Lệnh không có thể thức nào như vậy (các thể thức: standard, marine, "
        "air, land, raid, sea-air)")


