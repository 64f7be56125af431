"""The mail a player receives, in its reader's language, over real SMTP on loopback: the
language they chose (`language vi`), else the one their mail says (Content-Language), else
English. News (a move, a challenge) is worded for the one who receives it, never in its
sender's language, and every mail says its language in Content-Language; a subject in
Vietnamese keeps every space however it is folded. The tests that need Vietnamese offered
say so (the `offered` fixture).

The lines other parts of the service write inside a game mail (the game's header line, the
board's caption: `Commands.describe`, `textboard.caption`) are compared with what those
parts say in the same language; every other word is asserted here. In the pseudo-language
no English word is left in a whole mail but the players' names and addresses."""

from __future__ import annotations

from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage
from email.parser import BytesParser
from io import BytesIO

import pytest

from bot import i18n
from bot.email_gateway.outbound import compose
from bot.i18n import PSEUDO, format_moment, render
from bot.pictures import points_destroyed
from bot.textboard import caption, text_board
from engine import get_variant

from .conftest import text_of

ALICE, BOB = "alice@players.test", "bob@players.test"
CLASH = get_variant("clash")
START = text_board(CLASH, CLASH.start_position())  # the boards as tests/bot test them
MOVED = text_board(CLASH, CLASH.apply(CLASH.start_position(), CLASH.parse_move(
    CLASH.start_position(), "b2-a3/D")), marked=("b2", "a3"))


def body(mail: EmailMessage) -> str:
    """A mail's text, its lines ending as Python writes them."""
    return text_of(mail).replace("\r\n", "\n")


def head(mail: EmailMessage) -> tuple[str, str]:
    """A mail's subject and the language it says it is in."""
    return str(mail["Subject"]), str(mail["Content-Language"])


async def others(mail, language: str) -> tuple[str, str]:
    """What other parts write in game #1's mail, in ``language``: the game's header line
    and the board's caption."""
    game = await mail.service.game(1)
    position = await mail.service.position(game)
    played = await mail.service.played_moves(1)
    return (render(mail.gateway.commands.describe(game), language),
            render(caption(get_variant(game.variant), position,
                           points_destroyed(game, played)), language))


GAME_EN = ("Game #1: Alice vs bob — Clash of Command", "en")  # a game mail's subject
GAME_VI = ("Ván #1: Alice đấu với bob — Đại chiến Chỉ huy", "vi")
NO_COMMAND_VI = ("Tôi không tìm thấy lệnh nào trong thư của bạn. Hãy viết lệnh ở dòng đầu "
                 "tiên, phía trên phần trích dẫn; những gì bạn có thể gửi ở bên dưới.\n\n")
WAITING_VI = ("Đang là lượt của bob: bạn sẽ nhận thư khi đối thủ đã đi. Trong lúc chờ, bạn có "
              "thể trả lời bằng `board`, `resign`, `takeback`, `export` hoặc `help`.\n")


def started_vi(described: str, said: str) -> str:
    """Game #1 as Alice reads it in Vietnamese before the first move, her turn."""
    return (f"{described}\n\n{START}\n{said}\n\nChưa có nước đi nào.\n\n"
            "Đến lượt bạn. Hãy trả lời thư này với nước đi của bạn ở dòng đầu tiên, ví dụ "
            "`move c3-b4` (hoặc `moves` để xem các nước đi hợp lệ, `board`, `resign`, "
            "`takeback`, `help`).\n")


def moved_vi(described: str, said: str, closing: str) -> str:
    """Game #1 in Vietnamese after Alice's first move, ending with ``closing``."""
    return (f"{described}\nLượt vừa rồi: Alice (Trắng): 1. b2-a3/D.\n\n{MOVED}\n{said}\n\n"
            f"Các nước đi:\n  1. b2-a3/D\n\n{closing}")


async def received(mail, address: str, expected: tuple[str, str], text: str) -> EmailMessage:
    """The next mail to ``address``, asserted: its subject and language, and its text."""
    sent = await mail.relay.next_to(address)
    assert head(sent) == expected
    assert body(sent) == text
    return sent


async def test_a_vietnamese_player_and_an_english_one_each_read_their_own_language(
        mail, offered):
    chosen = await mail.confirmed(f"Alice <{ALICE}>", "language vi")
    assert body(chosen) == "Từ nay ngôn ngữ của bạn là Tiếng Việt (vi).\n"
    assert head(chosen) == ("Re: Re: hi", "vi")

    # the request to confirm a command sent without a key, in her language too
    await mail.post.send(f"Alice <{ALICE}>", f"challenge {BOB} white", subject="thách đấu")
    asked = await mail.relay.next_to(ALICE)
    async with mail.service.db.snapshot() as s:
        row = await s.one("SELECT expires_at FROM mail_confirmations WHERE address = ? "
                          "ORDER BY id DESC LIMIT 1", (ALICE,))
    assert head(asked) == ("Re: thách đấu", "vi")
    assert body(asked) == (
        "Vui lòng xác nhận: một thư từ alice@players.test yêu cầu tôi thực hiện `challenge "
        "bob@players.test white`, nhưng thư đó không mang khóa của bạn (ai cũng có thể ghi "
        "địa chỉ người gửi tùy ý), nên tôi chưa thực hiện. Để thực hiện, hãy trả lời thư này "
        "bằng `yes` (hoặc `có`). Nếu bạn không gửi thư đó, hãy bỏ qua thư này: sẽ không có "
        f"gì thay đổi. Yêu cầu này hết hạn vào {format_moment(row['expires_at'], 'vi')}.\n")
    await mail.post.send(ALICE, "có", reply_to=asked)
    made = await mail.relay.next_to(ALICE)
    challenge = await mail.service.challenges.get_challenge(1)
    assert head(made) == ("Thách đấu #1: Alice đấu với bob — Đại chiến Chỉ huy", "vi")
    assert body(made) == (
        "Thách đấu #1 gửi bob: Đại chiến Chỉ huy, không tính giờ, Alice cầm Trắng, tính điểm. "
        f"Lời thách đấu hết hạn vào {format_moment(challenge.expires_at, 'vi')}. Lời mời đang được "
        "gửi qua thư; nếu không gửi được, tôi sẽ báo cho bạn và rút lại lời thách đấu.\n\n"
        "Hãy trả lời thư này với `cancel` ở dòng đầu tiên để rút lại lời thách đấu.\n")

    # the challenge Alice made reaches Bob in English, his language
    offer = await received(mail, BOB, ("Challenge #1: Alice vs bob — Clash of Command", "en"), (
        "Alice challenges you: Clash of Command, no clock, Alice plays White, rated. Answer "
        "with `accept #1` or `decline #1`.\n\n"
        "The challenge comes from Alice <alice@players.test>. You have not written to this "
        "service before: it mails an address unasked only once. To never get mail from it "
        "again, reply `stop`.\n\n"
        "Reply to this mail with `accept` or `decline` on the first line.\n"))

    await mail.post.send(BOB, "accept", reply_to=offer)
    await received(mail, BOB, GAME_EN, (
        "Challenge #1 accepted. Game #1 started: Alice (White) vs bob (Black), Clash of "
        "Command, no clock. Alice (White) moves first.\n\n"
        "Game #1: Alice (White) vs bob (Black), Clash of Command, no clock. Alice to move.\n\n"
        f"{START}\nWhite to move, move 1.\n\nNo moves yet.\n\n"
        "It is Alice's turn: you get a mail when they have moved. Meanwhile you may reply "
        "with `board`, `resign`, `takeback`, `export` or `help`.\n"))

    # Bob's accepting starts the game: Alice reads its news in Vietnamese
    described, said = await others(mail, "vi")
    yours = await received(mail, ALICE, GAME_VI, (
        "Ván #1 đã bắt đầu: Alice (Trắng) đấu với bob (Đen), Đại chiến Chỉ huy, không tính "
        "giờ. Alice (Trắng) đi trước.\n\n" + started_vi(described, said)))

    await mail.post.send(ALICE, "move b2-a3/D", reply_to=yours)
    played = await mail.relay.next_to(ALICE)
    described, said = await others(mail, "vi")
    assert head(played) == GAME_VI
    assert body(played) == ("Đã đi 1. b2-a3/D trong ván #1. Đến lượt bob (Đen).\n\n"
                            + moved_vi(described, said, WAITING_VI))

    # the move of a Vietnamese player reaches the English one in English
    english = (
        "Game #1: Alice (White) vs bob (Black), Clash of Command, no clock. bob to move.\n"
        "Last turn: Alice (White): 1. b2-a3/D.\n\n"
        f"{MOVED}\nBlack to move, move 1.\n\nMoves:\n  1. b2-a3/D\n\n"
        "Your move. Reply to this mail with your move on the first line, for example "
        "`move a7-a5` (or `moves` for the legal moves, `board`, `resign`, `takeback`, "
        "`help`).\n")
    moved = await received(mail, BOB, GAME_EN, (
        "Alice played 1. b2-a3/D in game #1 (Clash of Command). Your move. There is no "
        f"clock.\n\n{english}"))

    # a refusal: each in their own language, whatever the other reads
    await mail.post.send(BOB, "hello", reply_to=moved)
    await received(mail, BOB, GAME_EN, (
        "I found no command in your mail. Write it on the first line, above any quoted "
        f"text; what you may send is below.\n\n{english}"))
    await mail.post.send(ALICE, "hello", reply_to=played)
    await received(mail, ALICE, GAME_VI,
                   NO_COMMAND_VI + moved_vi(described, said, WAITING_VI))


async def test_a_player_who_chose_nothing_is_answered_in_the_language_of_their_mail(
        mail, game, offered):
    await mail.post.send(ALICE, "hello", reply_to=game[ALICE], language="vi-VN")
    described, said = await others(mail, "vi")
    answer = await received(mail, ALICE, GAME_VI, NO_COMMAND_VI + started_vi(described, said))

    # her move is answered in Vietnamese; Bob, who chose nothing, reads its news in English
    await mail.post.send(ALICE, "move b2-a3/D", reply_to=answer, language="vi")
    assert head(await mail.relay.next_to(ALICE))[1] == "vi"
    moved = await mail.relay.next_to(BOB)
    assert head(moved) == GAME_EN
    assert body(moved).startswith(
        "Alice played 1. b2-a3/D in game #1 (Clash of Command). Your move. There is no "
        "clock.\n\nGame #1: Alice (White) vs bob (Black)"), body(moved)

    # a new mail without a subject or a key: the subject of the answer is ours, in Vietnamese
    await mail.post.send("Carol <carol@players.test>", "hello", subject="", language="vi")
    await received(mail, "carol@players.test", ("Thư của bạn gửi commandpost", "vi"), (
        "Tôi không tìm thấy lệnh nào trong thư của bạn. Hãy viết một lệnh ở dòng đầu tiên, "
        "phía trên phần trích dẫn, ví dụ `help` (mọi lệnh), `games` (các ván của bạn) hoặc "
        "`challenge ĐỊA_CHỈ`.\n"))

    # the same without a language: English, as ever
    await mail.post.send("Dave <dave@players.test>", "hello", subject="")
    await received(mail, "dave@players.test", ("Your mail to commandpost", "en"), (
        "I found no command in your mail. Write one command on the first line, above any "
        "quoted text, for example `help` (all commands), `games` (your games) or `challenge "
        "ADDRESS`.\n"))


@pytest.mark.parametrize("name", ["A" * n for n in range(1, 41)])
def test_a_vietnamese_subject_keeps_every_space_however_it_is_folded(name):
    """The stdlib's folding (CPython gh-92081) drops the space between two encoded words:
    with a name of some length ``Đại chiến`` arrived as ``Đạichiến``. Each name length
    folds the subject at another place; it is sent as aiosmtplib flattens it."""
    subject = f"Thách đấu #12: {name} đấu với bob — Đại chiến Chỉ huy, Cờ Tư Lệnh"
    sent = compose("play@games.test", "bob@players.test", subject, "x", language="vi")
    flat = BytesIO()
    BytesGenerator(flat, policy=policy.SMTP).flatten(sent)
    lines = flat.getvalue().split(b"\r\n")
    assert max(len(line) for line in lines) <= 78
    received = BytesParser(policy=policy.default).parsebytes(flat.getvalue())
    assert head(received) == (subject, "vi")
    assert str(sent["Subject"]) == subject


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch):
    """The pseudo-language offered to readers, as a shipped language would be."""
    monkeypatch.setattr(i18n, "shipped", lambda: (i18n.SOURCE, PSEUDO))


async def bypassing(mail, sent: EmailMessage) -> list[str]:
    """The English words of a mail worded in the pseudo-language, just received, that no
    message of the catalogue gave, but for the players' names (the lines other parts write
    in a game mail, the variant's and the sides' names come from the catalogue too)."""
    text = body(sent)
    names = ["Alice", "bob"]
    return i18n.untranslated(text, allowed=names) + i18n.untranslated(
        str(sent["Subject"]), allowed=names)


async def test_every_mail_the_gateway_writes_comes_from_the_catalogue(mail, game, pseudo):
    alice = await mail.service.player("email", ALICE)
    await mail.service.set_preference(alice, i18n.LANGUAGE, PSEUDO)

    async def received() -> EmailMessage:
        sent = await mail.relay.next_to(ALICE)
        assert head(sent)[1] == PSEUDO
        assert await bypassing(mail, sent) == [], body(sent)
        return sent

    await mail.post.send(ALICE, "move b2-a3/D", reply_to=game[ALICE])
    await received()
    await mail.post.send(BOB, "move a7-a5", reply_to=await mail.relay.next_to(BOB))
    await mail.relay.next_to(BOB)
    news = await received()  # Bob's move, for Alice
    for line, to in [("hello", news),  # no command: what to send
                     ("resign #5", news),  # another game's number
                     ("move", news),  # no move
                     ("move c3-c4", game[ALICE]),  # a stale key
                     ("board\nmoves", news)]:  # a second command, not read
        await mail.post.send(ALICE, line, reply_to=to)
        await received()
    await mail.post.send(ALICE, "hello")  # no key: the games and challenges listed
    await received()


async def test_a_challenge_by_mail_comes_from_the_catalogue(mail, game, pseudo):
    alice = await mail.service.player("email", ALICE)
    await mail.service.set_preference(alice, i18n.LANGUAGE, PSEUDO)
    made = await mail.confirmed(BOB, f"challenge {ALICE} commander")
    assert head(made) == ("Challenge #2: bob vs Alice — Commander Chess (Cờ Tư Lệnh)", "en")
    offer = await mail.relay.next_to(ALICE)
    names = ["Alice", "bob"]
    assert head(offer)[1] == PSEUDO
    assert i18n.untranslated(head(offer)[0], allowed=names) == [], head(offer)
    assert i18n.untranslated(body(offer), allowed=[*names, "players", "test"]) == [], \
        body(offer)
    await mail.post.send(ALICE, "hello", reply_to=offer)
    refused = await mail.relay.next_to(ALICE)
    assert head(refused) == head(offer)
    assert i18n.untranslated(body(refused), allowed=names) == [], body(refused)


async def test_a_watcher_reads_the_moves_in_their_own_language(mail, game, offered):
    carol = "carol@players.test"
    await mail.confirmed(f"Carol <{carol}>", "language vi")
    link = f"https://games.test/game/1-{await mail.service.watching.watch_token(1)}"
    await mail.confirmed(f"Carol <{carol}>", f"watch {link}")
    await mail.post.send(ALICE, "move b2-a3/D", reply_to=game[ALICE])
    assert head(await mail.relay.next_to(ALICE)) == GAME_EN
    copy = await mail.relay.next_to(carol)
    described, said = await others(mail, "vi")
    assert head(copy) == GAME_VI
    assert body(copy) == "Đã đi 1. b2-a3/D trong ván #1. Đến lượt bob (Đen).\n\n" + moved_vi(
        described, said, "Bạn đang theo dõi ván này; gửi `unwatch #1` để ngừng nhận các thư "
                         "này.\n")


async def test_refusals_to_a_stranger_come_from_the_catalogue(mail, pseudo):
    """A stranger writing in the pseudo-language: a command that needs a key, then mails
    without a command until the answers stop (a mail loop)."""
    dave = "dave@players.test"
    for text in ["resign", "hello", "hello", "hello", "hello"]:
        await mail.post.send(f"Dave <{dave}>", text, subject="", language=PSEUDO)
        answer = await mail.relay.next_to(dave)
        assert head(answer) == ("[Ýöûr màîl tö çömmàñdpöšt ~~~~~~~~~~]", PSEUDO)
        assert i18n.untranslated(body(answer)) == [], body(answer)
    # the last answer ends with the notice of the loop, worded too
    assert body(answer).split("\n\n")[-1].startswith(
        "[Î föûñd ñö çömmàñd îñ ýöûr làšt 4 màîlš, šö Î wîll ñöt àñšwér"), body(answer)


async def test_the_notice_of_a_mail_loop_writes_its_time_as_vietnamese_writes_dates(
        mail, offered):
    dave = "dave@players.test"
    for _ in range(4):  # the fourth mail without a command starts the silence
        await mail.post.send(f"Dave <{dave}>", "hello", subject="", language="vi")
        answer = await mail.relay.next_to(dave)
        assert head(answer) == ("Thư của bạn gửi commandpost", "vi")
    quiet_until = (await mail.service.mail.mail_address(dave))["quiet_until"]
    assert body(answer).split("\n\n")[-1] == (
        "Tôi không tìm thấy lệnh nào trong 4 thư gần nhất của bạn, nên tôi sẽ không trả lời "
        "thư không có lệnh của bạn cho đến "
        f"{format_moment(quiet_until, 'vi')}: việc này để chặn vòng lặp thư với các thư trả "
        "lời tự động. Thư có lệnh vẫn được thực hiện và trả lời như thường.\n")
