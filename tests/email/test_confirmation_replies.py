"""Replies to a request to confirm, as mail programs write them (Outlook, Gmail, Apple Mail
on an iPhone, in English, German and Vietnamese), over real SMTP on loopback: a yes with
thanks, please, a greeting or a signature around it confirms (joining, leaving and
withdrawing from a tournament, resigning a game), as the guide promises; a yes with a doubt,
a question or other words confirms nothing, and is told so with the request still open."""

from __future__ import annotations

import pytest

from bot.email_gateway.authority import YES_LINE_CHARS, YES_LINE_WORDS, says_yes
from bot.email_gateway.reading import LINE_CHARS
from bot.service.model import Player

from .conftest import apple_mail_reply, gmail_reply, outlook_reply
from .test_tournament_mail import ALICE, BOB, CAROL, about, text

HOA, DAN = "hoa@players.test", "dan@players.test"
NAMES = {BOB: "Bob Smith", HOA: "Hoa", DAN: "Dan"}
CLIENTS = {"outlook": outlook_reply, "gmail": gmail_reply, "apple": apple_mail_reply}
JOINED = {"en": "You joined tournament T1 (Club); 1 player so far.\n",
          "vi": "Bạn đã tham gia giải đấu T1 (Club); hiện có 1 người chơi.\n"}
UNCLEAR = {
    "en": "I did not carry out `join T1`: your reply is not a plain `yes`. To confirm, reply "
          "with just `yes`; if you did not ask for it, reply `no` or ignore this mail: "
          "nothing changes.\n",
    "vi": "Tôi chưa thực hiện `join T1`: thư trả lời của bạn không chỉ ghi `yes`. Để xác "
          "nhận, hãy trả lời đúng một chữ `yes` (hoặc `có`); nếu bạn không yêu cầu việc này, "
          "hãy trả lời `no` (hoặc `không`) hoặc bỏ qua thư này: sẽ không có gì thay đổi.\n",
}
REQUEST = {"en": "Please confirm: ", "vi": "Vui lòng xác nhận: "}


async def club(mail) -> Player:
    """Tournament T1 (Club), a round-robin signing up, made by Alice; Alice."""
    alice = await mail.service.player("email", ALICE, "Alice")
    await mail.service.tournaments.create(alice, "email:mail", "clash", "round-robin",
                                          name="Club")
    return alice


async def asked_to_confirm(mail, address: str, line: str, language: str = "en"):
    """``line`` sent without a key from ``address`` (named as `NAMES` says); the request
    to confirm it that comes back."""
    await mail.post.send(f"{NAMES[address]} <{address}>", line)
    return await about(mail, address, "Re: hi", REQUEST[language])


async def answered(mail, address: str, client: str, request, answer: str,
                   language: str = "en", subject: str = "Re: Re: hi",
                   opening: str = "") -> str:
    """The text of the answer to ``answer``, replied to ``request`` as ``client`` writes it
    in ``language`` (the answer's ``subject``: a game's, for a game's command, beginning
    with ``opening``)."""
    await mail.post.send(address, raw=CLIENTS[client](f"{NAMES[address]} <{address}>",
                                                      request, answer, language=language))
    return text(await about(mail, address, subject, opening))


async def reader(mail, address: str, language: str) -> str:
    """The language the answers to ``address`` are worded in: Vietnamese once chosen (by a
    confirmed `language vi`; Gmail and Apple Mail say no language of their own)."""
    if language != "vi":
        return "en"
    await mail.confirmed(f"{NAMES[address]} <{address}>", "language vi")
    return "vi"


# a yes with thanks, a greeting or a signature joins; a yes with a doubt or other words
# confirms nothing, and the request stays open
@pytest.mark.parametrize(("client", "language", "answer", "joins"), [
    ("outlook", "en", "Yes, thanks\n\nBob Smith", True),
    ("outlook", "en", "Hi,\n\nYes please!\n\nKind regards,\nBob Smith", True),
    ("outlook", "de", "Ja, danke!\n\nViele Grüße\nBob Smith", True),
    ("outlook", "vi", "Có, cảm ơn bạn.\n\nTrân trọng,\nHoa", True),
    ("gmail", "en", "yes.", True),
    ("gmail", "en", "OK, go ahead. Thanks a lot!", True),
    ("gmail", "de", "Hallo,\n\nja, bitte.\n\nLG Bob", True),
    ("gmail", "vi", "Dạ vâng, cảm ơn ạ!", True),
    ("apple", "en", "Yes, thanks\n--\nBob Smith", True),
    ("apple", "en", "Oui", True),
    ("apple", "de", "Ja", True),
    ("apple", "vi", "Có", True),
    ("apple", "vi", "Đồng ý nhé", True),
    ("outlook", "en", "Yes, thanks, but I never sent this.", False),
    ("outlook", "en", "Yes, I received your message and will reply when I am back.", False),
    ("outlook", "de", "Ja, danke – aber wer sind Sie?", False),
    ("outlook", "vi", "Có, nhưng không phải tôi gửi.", False),
    ("gmail", "en", "Yes thanks\n\nWait, who is this?", False),
    ("gmail", "de", "Ja danke, aber das war ich nicht.", False),
    ("gmail", "vi", "Có ai đó đã giả mạo thư của tôi.", False),
    ("apple", "en", "Yes, thanks\n--\nBob Smith\nPS: I did not ask for this.", False),
    ("apple", "en", "Yeah right, nice try.", False),
    ("apple", "de", "Ja?", False),
    ("apple", "vi", "Vâng, tôi sẽ trả lời sau.", False),
])
async def test_a_polite_yes_joins_and_a_doubtful_one_confirms_nothing(mail, client, language,
                                                                       answer, joins):
    await club(mail)
    address = HOA if language == "vi" else BOB
    worded = await reader(mail, address, language)
    request = await asked_to_confirm(mail, address, "join T1", worded)
    assert await answered(mail, address, client, request, answer, language) == (
        JOINED if joins else UNCLEAR)[worded]
    assert (await mail.service.tournaments.listing())[0][1] == int(joins)


async def test_leaving_withdrawing_and_resigning_are_confirmed_by_a_polite_yes(mail):
    alice = await club(mail)
    players = {a: await mail.service.player("email", a, NAMES.get(a, "Carol"))
               for a in (BOB, CAROL, DAN)}
    for player in players.values():
        await mail.service.tournaments.join(player, 1)
    # leaving before the start
    request = await asked_to_confirm(mail, DAN, "leave T1")
    assert await answered(mail, DAN, "apple", request,
                          "Yes, thanks\n--\nDan") == "You left tournament T1.\n"
    await mail.service.tournaments.join(players[DAN], 1)
    await mail.service.tournaments.start(alice, 1)
    # resigning a game without its key
    request = await asked_to_confirm(mail, BOB, "resign #1")
    assert text(request).startswith(
        "Please confirm: a mail from bob@players.test asked me for `resign #1`, but ")
    said = await answered(mail, BOB, "gmail", request, "Ja, danke!", "de",
                          "Game #1: Bob Smith vs Dan — Clash of Command", "You resigned")
    assert said.startswith("You resigned game #1: Dan (Black) wins: Bob Smith resigned "
                           "(0-1)"), said
    assert (await mail.service.game(1)).is_over
    # withdrawing during play
    request = await asked_to_confirm(mail, BOB, "withdraw T1")
    said = await answered(mail, BOB, "outlook", request, "Yes please, thanks.\n\nBob Smith")
    assert said.startswith("You withdrew from tournament T1"), said


@pytest.mark.parametrize(("lines", "yes"), [
    (("Yes, thanks",), True), (("Yes please!",), True), (("yes.",), True), (("Ja",), True),
    (("Có",), True), (("Oui",), True), (("Y",), True), (("Hi, yes please",), True),
    (("I confirm, thanks",), True), (("Oui, c'est moi, merci !",), True),
    (("Sí, fui yo. Gracias",), True), (("Xin chào, có ạ",), True),
    (("Hello,", "Yes - thank you very much.", "Many thanks and best regards,", "Bob"), True),
    (("Yes", "Yes"), False),  # one yes, not a chorus
    (("Thanks",), False), (("Hi",), False), (("Yes Bob",), False), (("yes right",), False),
    (("Yes, thanks, but I never sent this",), False), (("Ja danke aber wer bist du",), False),
    (("Có, nhưng không phải tôi",), False), (("Ok - your message has been received",), False),
    (("Yes", "I am out of the office until Monday."), False),
    (("Yes", "Dear Sir or Madam,"), False),
])
def test_what_a_reply_to_a_request_says(lines, yes):
    assert says_yes(lines) is yes


def test_a_yes_is_short_and_read_in_bounded_time():
    """A yes with thanks is a few words on a short line: one word more, or a character
    more, and it is something else; the worst line (as long as a line is read, every word
    the start of a phrase) is judged looking at each of its few words a few times."""
    most = "Yes" + ", thanks" * (YES_LINE_WORDS - 1)
    assert says_yes((most,))
    assert not says_yes((most + ", thanks",))
    padded = "Yes" + "," * (YES_LINE_CHARS - 10) + " thanks"
    assert len(padded) == YES_LINE_CHARS and says_yes((padded,))
    assert not says_yes(("Yes" + "," * (YES_LINE_CHARS - 9) + " thanks",))
    assert not says_yes(("thank " * (LINE_CHARS // 6),))
    assert not says_yes(("yes " + "many thanks and best " * 50,))
