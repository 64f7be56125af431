"""The mail side's own answers in the reader's language, over real SMTP on loopback: mail
that cannot be read, confirmations of commands sent without a key, and linked addresses,
worded in the language the player chose (`language vi`), else in the one the mail names
(Content-Language), else in English; each says its language (Content-Language). The tests
that need Vietnamese offered say so (the `offered` fixture)."""

from __future__ import annotations

from dataclasses import replace
from email import policy
from email.utils import make_msgid

import pytest

from bot import i18n
from bot.email_gateway import authenticity
from bot.i18n import format_moment

from .conftest import asked

CAROL = "carol@players.test"
DAVE = "dave@players.test"
PHONE = "carol@phone.test"
OURS = "play@games.test"
BROKEN = ("Tôi không đọc được thư của bạn: cấu trúc MIME của thư bị hỏng (thư nhiều phần nhưng "
          "thiếu các phần, hoặc mã hóa bị hỏng). Vui lòng gửi lại lệnh dưới dạng văn bản "
          "thuần.\n")


def broken_mime(sender: str, language: str | None = None) -> bytes:
    """A multipart mail without its parts (its MIME structure is broken)."""
    head = [f"From: {sender}", f"To: {OURS}", "Subject: x",
            f"Message-ID: {make_msgid(domain='players.test')}", "MIME-Version: 1.0",
            'Content-Type: multipart/mixed; boundary="zzz"']
    if language:
        head.append(f"Content-Language: {language}")
    return ("\r\n".join(head) + "\r\n\r\nhelp\r\n").encode()


async def expires(mail, address: str) -> str:
    """When the latest confirmation request mailed to ``address`` expires, as it says in
    Vietnamese."""
    async with mail.service.db.snapshot() as s:
        row = await s.one("SELECT expires_at FROM mail_confirmations WHERE address = ? "
                          "ORDER BY id DESC LIMIT 1", (address,))
    return format_moment(row["expires_at"], "vi")


async def asked_in_vietnamese(mail, address: str, what: str) -> str:
    """The exact text of the latest confirmation request mailed to ``address``, asking for
    ``what`` (the command as quoted), in Vietnamese (`asked` in English)."""
    return (f"Vui lòng xác nhận: một thư từ {address} yêu cầu tôi thực hiện {what}, nhưng thư "
            f"đó không mang khóa của bạn (ai cũng có thể ghi địa chỉ người gửi tùy ý), nên tôi "
            f"chưa thực hiện. Để thực hiện, hãy trả lời thư này bằng `yes` (hoặc `có`). Nếu bạn "
            f"không gửi thư đó, hãy bỏ qua thư này: sẽ không có gì thay đổi. Yêu cầu này hết hạn "
            f"vào {await expires(mail, address)}.\n")


async def vietnamese_carol(mail) -> None:
    """Carol writes for the first time and chooses Vietnamese (`language vi`, confirmed)."""
    mail.gateway.settings = replace(mail.gateway.settings, email_rate_limit=50)
    await mail.confirmed(f"Carol <{CAROL}>", "language vi")
    carol = await mail.service.player("email", CAROL)
    assert carol.preferences["language"] == "vi"


async def test_mail_that_cannot_be_read_is_refused_in_the_language_the_player_chose(
        mail, offered):
    await vietnamese_carol(mail)
    await mail.post.send(CAROL, raw=broken_mime(f"Carol <{CAROL}>"))
    assert mail.text_of(await mail.relay.next_to(CAROL)) == BROKEN

    limit = mail.settings.email_max_bytes
    await mail.post.send(f"Carol <{CAROL}>", "help\n\n" + "x" * 76 * (2 * limit // 76))
    size = len(mail.post.sent[-1].as_bytes(policy=policy.SMTP)) // 1024
    assert mail.text_of(await mail.relay.next_to(CAROL)) == (
        f"Thư của bạn nặng {size} KiB, vượt quá {limit // 1024} KiB mà tôi nhận, nên tôi đã "
        f"không đọc thư. Vui lòng trả lời mà không kèm tệp đính kèm hay hình ảnh trích dẫn, "
        f"chỉ ghi lệnh của bạn.\n")


async def test_a_command_without_a_key_is_asked_back_in_the_players_language(mail, offered):
    await vietnamese_carol(mail)
    await mail.post.send(f"Carol <{CAROL}>", "name Caro")
    request = await mail.relay.next_to(CAROL)
    assert str(request["Content-Language"]) == "vi"
    assert mail.text_of(request) == await asked_in_vietnamese(mail, CAROL, "`name Caro`")

    await mail.post.send(CAROL, "Ai gửi thư này?", reply_to=request)
    assert mail.text_of(await mail.relay.next_to(CAROL)) == (
        "Tôi chưa thực hiện `name Caro`: thư trả lời của bạn không chỉ ghi `yes`. Để xác "
        "nhận, hãy trả lời đúng một chữ `yes` (hoặc `có`); nếu bạn không yêu cầu việc này, "
        "hãy trả lời `no` (hoặc `không`) hoặc bỏ qua thư này: sẽ không có gì thay đổi.\n")

    await mail.post.send(CAROL, "Có", reply_to=request)  # a Vietnamese yes confirms
    await mail.relay.next_to(CAROL)
    assert (await mail.service.player("email", CAROL)).display_name == "Caro"
    await mail.post.send(CAROL, "có", reply_to=request)
    assert mail.text_of(await mail.relay.next_to(CAROL)) == (
        "Yêu cầu xác nhận này đã được dùng rồi: việc được yêu cầu đã thực hiện một lần và sẽ "
        "không thực hiện lại.\n")

    await mail.post.send(CAROL, "có", to=f"play+ok99.{'0' * 20}@games.test")
    assert mail.text_of(await mail.relay.next_to(CAROL)) == (
        f"Sai khóa: địa chỉ bạn gửi thư tới không phải của yêu cầu xác nhận nào tôi đã gửi "
        f"cho {CAROL}, nên tôi không thực hiện gì cả.\n")


async def test_a_strangers_mail_is_answered_in_the_language_it_names(mail, offered):
    await mail.post.send(f"Dave <{DAVE}>", "name Dave", language="vi")
    request = await mail.relay.next_to(DAVE)
    assert str(request["Content-Language"]) == "vi"
    assert mail.text_of(request) == await asked_in_vietnamese(mail, DAVE, "`name Dave`")
    await mail.post.send(DAVE, raw=broken_mime(f"Dave <{DAVE}>", "vi-VN"))
    assert mail.text_of(await mail.relay.next_to(DAVE)) == BROKEN
    # without a language, English, as before
    await mail.post.send(f"Dave <{DAVE}>", "name Dave")
    assert mail.text_of(await mail.relay.next_to(DAVE)) == await asked(mail, DAVE,
                                                                        "`name Dave`")


async def test_a_request_to_confirm_a_language_is_worded_in_the_language_asked_for(mail,
                                                                                 offered):
    lan = "lan@vn.test"
    # a first mail, naming no language, asks for Vietnamese: asked back in Vietnamese
    await mail.post.send(f"Lan <{lan}>", "language vi", subject="")
    request = await mail.relay.next_to(lan)
    assert str(request["Content-Language"]) == "vi"
    assert str(request["Subject"]) == "Thư của bạn gửi commandpost"
    assert mail.text_of(request) == await asked_in_vietnamese(mail, lan, "`language vi`")
    await mail.post.send(lan, "có", reply_to=request)
    assert mail.text_of(await mail.relay.next_to(lan)) == (
        "Từ nay ngôn ngữ của bạn là Tiếng Việt (vi).\r\n")
    # any other command, and a language not offered, are asked in English as before
    for line in ("name Dave", "language xx"):
        await mail.post.send(f"Dave <{DAVE}>", line)
        request = await mail.relay.next_to(DAVE)
        assert str(request["Content-Language"]) == "en"
        assert mail.text_of(request) == await asked(mail, DAVE, f"`{line}`")


async def test_a_second_address_is_asked_and_told_in_the_players_language(mail, offered):
    await vietnamese_carol(mail)
    await mail.post.send(f"Carol <{CAROL}>", f"link {PHONE}")
    await mail.post.send(CAROL, "có", reply_to=await mail.relay.next_to(CAROL))
    await mail.relay.next_to(CAROL)  # the answer of `link` (the commands' words)
    request = await mail.relay.next_to(PHONE)
    assert str(request["Subject"]) == "Vui lòng xác nhận: liên kết địa chỉ này"
    assert str(request["Content-Language"]) == "vi"
    assert mail.text_of(request) == (
        f"Carol <{CAROL}> muốn dùng địa chỉ này ({PHONE}) cho các ván của họ tại {OURS}: thư "
        f"gửi từ địa chỉ này sẽ được coi là của họ. Để đồng ý, hãy trả lời thư này bằng `yes` "
        f"(hoặc `có`). Nếu bạn không yêu cầu việc này, hãy bỏ qua thư này: sẽ không có gì "
        f"thay đổi, và tôi sẽ không tự gửi thư cho bạn nữa. Yêu cầu này hết hạn vào "
        f"{await expires(mail, PHONE)}.\n")

    await mail.post.send(PHONE, "có", reply_to=request)
    assert mail.text_of(await mail.relay.next_to(PHONE)) == (
        f"Đã liên kết: từ nay thư gửi từ {PHONE} được coi là của Carol. Khóa của bạn vẫn đi "
        f"kèm mỗi thư: muốn chơi một ván, hãy trả lời thư mới nhất của ván đó, từ địa chỉ nào "
        f"cũng được.\n")
    told = await mail.relay.next_to(CAROL)
    assert str(told["Subject"]) == "Một địa chỉ thư đã được liên kết với bạn"
    assert mail.text_of(told) == (
        f"{PHONE} giờ đã được liên kết với bạn: thư gửi từ địa chỉ đó được coi là của bạn "
        f"trong các ván của bạn ở đây. Nếu bạn không yêu cầu việc này, hãy gửi "
        f"`unlink {PHONE}` từ địa chỉ này.\n")


def test_mail_that_is_not_authentic_is_refused_in_every_readers_language():
    refused = authenticity.refusal("players.test", "other-domain", "elsewhere.test")
    assert refused.text == (
        "Your mail claims to come from players.test, which signs its mail, but its signature "
        "was for another domain (elsewhere.test), so I did not read it. If you sent it, your "
        "mail program or a forwarder changed it on the way: please send it again directly "
        "from your own mail program. If you did not, someone used your address, and you can "
        "ignore this mail.")
    assert i18n.render(refused.text, "vi") == (
        "Thư của bạn ghi là gửi từ players.test, một tên miền luôn ký thư của mình, nhưng "
        "chữ ký của thư thuộc về một tên miền khác (elsewhere.test), nên tôi đã không đọc "
        "thư. Nếu đúng là bạn đã gửi, thì chương trình thư hoặc dịch vụ chuyển tiếp đã làm "
        "thay đổi thư trên đường đi: vui lòng gửi lại trực tiếp từ chương trình thư của chính "
        "bạn. Nếu không phải bạn gửi, thì ai đó đã dùng địa chỉ của bạn, và bạn có thể bỏ "
        "qua thư này.")
    assert i18n.untranslated(i18n.render(refused.text, i18n.PSEUDO),
                             allowed=["players", "test", "elsewhere"]) == []


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch):
    """The pseudo-language offered to readers, as a language a mail may name."""
    monkeypatch.setattr(i18n, "shipped", lambda: (i18n.SOURCE, i18n.PSEUDO))


async def test_the_answers_of_mail_reading_all_come_from_the_catalogue(mail, pseudo):
    names = ["dave", "players", "test", "games", "play", "UTC"]  # addresses, a time zone
    await mail.post.send(f"Dave <{DAVE}>", "name Dave", language=i18n.PSEUDO)
    request = await mail.relay.next_to(DAVE)
    answers = [mail.text_of(request)]
    await mail.post.send(DAVE, "Who are you?", reply_to=request, language=i18n.PSEUDO)
    answers.append(mail.text_of(await mail.relay.next_to(DAVE)))
    await mail.post.send(DAVE, "yes", to=f"play+ok99.{'0' * 20}@games.test",
                         language=i18n.PSEUDO)
    answers.append(mail.text_of(await mail.relay.next_to(DAVE)))
    await mail.post.send(DAVE, raw=broken_mime(f"Dave <{DAVE}>", i18n.PSEUDO))
    answers.append(mail.text_of(await mail.relay.next_to(DAVE)))
    limit = mail.settings.email_max_bytes
    erin = "erin@players.test"  # a fifth mail without a command would end in a loop notice
    await mail.post.send(erin, "help\n\n" + "x" * 76 * (2 * limit // 76),
                         language=i18n.PSEUDO)
    answers.append(mail.text_of(await mail.relay.next_to(erin)))
    assert [a[:2] for a in answers] == ["[P", "[Î", "[W", "[Î", "[Ý"]  # each one worded
    assert [i18n.untranslated(a, allowed=names) for a in answers] == [[], [], [], [], []]


async def test_unsigned_mail_of_a_signing_domain_is_refused_in_the_readers_language(mail,
                                                                                   offered):
    await vietnamese_carol(mail)
    mail.gateway.settings = replace(mail.gateway.settings,
                                    email_trust_auth_results="mx.games.test")
    failed = {"Authentication-Results": "mx.games.test; dkim=fail header.d=players.test"}
    unsigned = ("Thư của bạn ghi là gửi từ players.test, một tên miền luôn ký thư của mình, "
                "nhưng chữ ký của thư không hợp lệ, nên tôi đã không đọc thư. Nếu đúng là bạn "
                "đã gửi, thì chương trình thư hoặc dịch vụ chuyển tiếp đã làm thay đổi thư "
                "trên đường đi: vui lòng gửi lại trực tiếp từ chương trình thư của chính bạn. "
                "Nếu không phải bạn gửi, thì ai đó đã dùng địa chỉ của bạn, và bạn có thể bỏ "
                "qua thư này.\n")
    await mail.post.send(f"Carol <{CAROL}>", "help", headers=failed)  # her choice
    assert mail.text_of(await mail.relay.next_to(CAROL)) == unsigned
    await mail.post.send(f"Dave <{DAVE}>", "help", headers=failed,
                         language="vi")  # what a stranger's mail says
    assert mail.text_of(await mail.relay.next_to(DAVE)) == unsigned


async def test_a_challenge_to_an_address_that_said_stop_is_refused_in_vietnamese(mail,
                                                                                  offered):
    await vietnamese_carol(mail)
    await mail.service.mail.mark_address("dora@signed.test", "stopped_at")
    await mail.post.send(f"Carol <{CAROL}>", "challenge dora@signed.test")
    await mail.post.send(CAROL, "có", reply_to=await mail.relay.next_to(CAROL))
    assert mail.text_of(await mail.relay.next_to(CAROL)) == (
        "dora@signed.test đã yêu cầu không bao giờ nhận thư từ dịch vụ này, nên tôi không "
        "thể gửi lời thách đấu cho họ.\n")


async def test_the_example_of_a_challenge_by_mail_names_an_address(mail, offered):
    await mail.post.send(f"Dave <{DAVE}>", "moves")
    assert mail.text_of(await mail.relay.next_to(DAVE)).startswith(
        "You have no game in progress. Start one with `challenge NAME`.")
    await vietnamese_carol(mail)
    await mail.post.send(f"Carol <{CAROL}>", "moves")
    assert mail.text_of(await mail.relay.next_to(CAROL)) == (
        "Bạn không có ván nào đang chơi. Hãy bắt đầu một ván bằng `challenge ĐỊA_CHỈ`.\n")
