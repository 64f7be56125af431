"""Reading replies: where the writer's text ends (quotes, attributions, header blocks,
signatures, in many languages), format=flowed and hard-wrapped lines, HTML as a reader
sees it, and our own lines in a reply; then wrapped conditional moves over real SMTP."""

from __future__ import annotations

import textwrap

import pytest

from bot.email_gateway.inbound import command_lines
from bot.email_gateway.mailtext import html_text, join_wrapped_if, unflow
from bot.email_gateway.reading import (
    fingerprints_of,
    is_reply_subject,
    without_quoted_lines,
)
from bot.email_gateway.replies import LINE_CHARS, READ_LINES, bounded_lines
from bot.service.sent_lines import KEEP_DAYS

ALICE = "alice@players.test"
BOB = "bob@players.test"
QUOTE = "Your move. Reply to this mail with your move on the first line, for example:\n" \
        "    move a1-a3/B\nMoves:\n  1. c3-d4"


@pytest.mark.parametrize(("text", "lines"), [
    # attributions, also wrapped over two lines
    (f"e3-f4\n\nAm Di., 24. Nov. 2026 um 09:58 Uhr schrieb commandpost <\nplay@games.test>:\n"
     f"> {QUOTE}", ("e3-f4",)),
    (f"d4-e5\nLe mar. 24 nov. 2026 à 09:58, commandpost <play@games.test> a\nécrit :\n\n"
     f"{QUOTE}", ("d4-e5",)),
    (f"Cảm ơn!\nVào Th 3, 24 thg 11, 2026 lúc 09:58 commandpost đã viết:\n{QUOTE}",
     ("Cảm ơn!",)),
    (f"g3-f4\ncommandpost <play@games.test> schrieb am Di., 24. Nov. 2026, 09:58:\n{QUOTE}",
     ("g3-f4",)),
    (f"h2-h4/H\nEl mar, 24 nov 2026 a las 9:58, commandpost escribió:\n{QUOTE}", ("h2-h4/H",)),
    # header blocks without ">", in several languages
    (f"Tack!\n\nFrån: commandpost <play@games.test>\nSkickat: den 24 november 2026 09:58\n"
     f"Till: alice@players.test\n\n{QUOTE}", ("Tack!",)),
    # a bottom-posted answer below a ">" quote; an unmarked quote below an attribution
    ("On Tue, Alice wrote:\n" + "\n".join("> " + line for line in QUOTE.splitlines())
     + "\n\ne3-f4\n", ("e3-f4",)),
    (f"On Tue, Alice wrote:\n{QUOTE}\n", ()),
    # a line that merely mentions a header word or a verb is the writer's
    ("From: here on I play carefully\ne3-f4", ("From: here on I play carefully", "e3-f4")),
    ("She wrote to me\ne3-f4", ("She wrote to me", "e3-f4")),
])
def test_the_writers_own_lines(text, lines):
    assert command_lines(text) == lines


@pytest.mark.parametrize("ending", [
    # header blocks without ">", separators, signatures
    "Von: commandpost\nGesendet: Dienstag", "De : commandpost\nEnvoyé : mardi",
    "*From:* commandpost\n*Sent:* Tuesday", "Từ: commandpost\nĐã gửi: Thứ Ba",
    "-----Ursprüngliche Nachricht-----", "---------- Tin nhắn đã chuyển tiếp ---------",
    "Begin forwarded message:\n", "Début du message réexpédié :",
    "________________________________", "Von meinem iPhone gesendet", "Envoyé de mon iPhone",
    "Gửi từ iPhone của tôi", "--\nAlice",
    # Outlook in Russian, Ukrainian, Czech, Japanese, Chinese, Korean
    "От: commandpost\nОтправлено: 24 ноября 2026 г. 9:58",
    "Від: commandpost\nНадіслано: 24 листопада 2026 р. 9:58",
    "Od: commandpost\nOdesláno: úterý 24. listopadu 2026 9:58",
    "差出人: commandpost\n送信日時: 2026年11月24日 9:58",
    "发件人: commandpost\n发送时间: 2026年11月24日 9:58",
    "寄件者: commandpost\n寄件日期: 2026年11月24日",
    "보낸 사람: commandpost\n보낸 날짜: 2026년 11월 24일",
    "发件人：commandpost\n收件人：alice@players.test",
    # Gmail in Polish, Japanese, Chinese
    "W dniu wt., 24.11.2026 o 09:58 commandpost <play@games.test> napisał(a):",
    "W dniu 24.11.2026 o 09:58, commandpost pisze:",
    "2026年11月24日(火) 9:58 commandpost <play@games.test>:",
    "commandpost <play@games.test> 于2026年11月24日周二 09:58写道：",
])
def test_where_a_reply_ends(ending):
    assert command_lines(f"e3-f4\n{ending}\n{QUOTE}") == ("e3-f4",)


def test_text_is_bounded_before_it_is_read():
    lines = bounded_lines("x" * (3 * LINE_CHARS) + "\n" + "y\n" * (2 * READ_LINES))
    assert len(lines) == READ_LINES and len(lines[0]) == LINE_CHARS


def test_format_flowed_lines_are_joined():
    assert unflow(["if h8-i7/D then ", "a3-b4/D", "", "> quoted ", "> on", "-- ", "Alice"],
                  delsp=False) == ["if h8-i7/D then a3-b4/D", "", "> quoted on", "-- ", "Alice"]
    assert unflow(["Zug: e3- ", "f4", " From me"], delsp=True) == ["Zug: e3-f4", "From me"]
    assert unflow(["word ", "next"], delsp=True) == ["wordnext"]


def test_a_hard_wrapped_conditional_move_is_joined():
    assert join_wrapped_if(["if h8-i7/D", "then a3-b4/D", "Alice"]) == \
        ["if h8-i7/D then a3-b4/D", "Alice"]
    assert join_wrapped_if(["if h8-i7/D then", "a3-b4/D"]) == ["if h8-i7/D then a3-b4/D"]
    assert join_wrapped_if(["if h8-i7/D then a3-b4/D", "thanks"]) == \
        ["if h8-i7/D then a3-b4/D", "thanks"]
    # bounded: a line without `then` takes at most four more
    assert join_wrapped_if(["if x"] + ["y"] * 6) == ["if x y y y y", "y", "y"]


@pytest.mark.parametrize(("markup", "text"), [
    ("<div>e3-f4</div><blockquote>move a1-a3/B</blockquote>", "e3-f4"),
    ("<div>e3-f4</div><div class='gmail_quote'>On Tue wrote:<br>move a1-a3/B</div>", "e3-f4"),
    ("<p>e3-f4</p><div id='appendonsend'></div><hr><div id='divRplyFwdMsg'>From: x</div>"
     "<p>move a1-a3/B</p>", "e3-f4"),
    ("<p>e3-f4</p><hr><div><b>From:</b> commandpost</div><p>move a1-a3/B</p>", "e3-f4"),
    ("<p>e3-f4</p><hr><p>a thought</p>", "e3-f4\na thought"),
    ("<html><head><title>resign</title><style>p {}</style><script>resign</script></head>"
     "<body><p style='display: none'>resign</p><p hidden>resign</p>"
     "<span style='visibility:hidden'>resign</span>e3-f4</body></html>", "e3-f4"),
])
def test_html_is_read_as_a_reader_sees_it(markup, text):
    read = [line.strip() for line in html_text(markup).splitlines()]
    assert [line for line in read if line] == text.splitlines()


@pytest.mark.parametrize("subject", ["Re: e3-f4", "RE: e3-f4", "AW: e3-f4", "SV: e3-f4",
                                     "Fwd: e3-f4", "WG: e3-f4", "Re[2]: e3-f4", "TR: e3-f4"])
def test_reply_and_forward_subjects(subject):
    assert is_reply_subject(subject)


@pytest.mark.parametrize("subject", ["e3-f4", "move e3-f4", "Re e3-f4", "board", ""])
def test_new_subjects(subject):
    assert not is_reply_subject(subject)


def test_our_own_lines_are_never_the_writers():
    ours = fingerprints_of("Your move.\n    move a1-a3/B\n(or `moves` for the legal moves)\n")
    assert without_quoted_lines(("Thanks", "Your move.", "move a1-a3/B", "e3-f4"), ours) == \
        ("Thanks",)
    assert without_quoted_lines(("move a1-a3/B", "Alice"), ours) == ("Alice",)
    assert without_quoted_lines(("MOVE  a1-a3/B",), ours) == ()
    assert without_quoted_lines(("Danke!", "move a1-a3/B", "e3-f4"), ours) == ("Danke!", "e3-f4")
    assert without_quoted_lines(("move a1-a3/B",), set()) == ("move a1-a3/B",)


async def test_sent_lines_are_kept_ninety_days(mail):
    lines = mail.service.sent_lines
    clock = [1_000_000.0]
    lines.now = lambda: clock[0]
    await lines.record("<old@games.test>", ["a", "b"])
    clock[0] += KEEP_DAYS * 86400 - 1
    await lines.record("<new@games.test>", ["c"])
    assert await lines.of(["<old@games.test>", "<new@games.test>", "<x@else.test>"]) == \
        frozenset({"a", "b", "c"})
    clock[0] += 2
    await lines.record("<newer@games.test>", ["d"])
    assert await lines.of(["<old@games.test>", "<new@games.test>"]) == frozenset({"c"})
    assert await lines.of([]) == frozenset()


async def test_every_mail_sent_has_its_lines_recorded(mail):
    await mail.post.send(f"Alice <{ALICE}>", "help")
    answer = await mail.relay.next_to(ALICE)
    recorded = await mail.service.sent_lines.of([str(answer["Message-ID"])])
    assert recorded == fingerprints_of(mail.text_of(answer))


async def test_a_command_in_the_subject_of_a_reply_is_not_read(mail):
    await mail.post.send(f"Alice <{ALICE}>", "Thanks!", subject="Re: help")
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        "I found no command in your mail.")
    await mail.post.send(f"Alice <{ALICE}>", "Sent from my iPhone", subject="help")
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith("Commands")


async def _conditional_ready(mail) -> str:
    """Alice has moved in a game with Bob; her key now (for a conditional move)."""
    alice = await mail.service.player("email", ALICE, "Alice")
    bob = await mail.service.player("email", BOB, "Bob")
    made = await mail.service.challenges.challenge(alice, "email:mail", bob, side=0)
    await mail.service.challenges.accept(bob, made.challenge.id)
    await mail.gateway.deliver_outbox()
    await mail.relay.next_to(ALICE)
    await mail.relay.next_to(BOB)

    async def key() -> str:
        ply = (await mail.service.game(1)).ply
        return f"play+1.{ply}.{await mail.service.tokens.game_token(1, alice.id)}@games.test"

    await mail.post.send(f"Alice <{ALICE}>", "b2-a3/D", to=await key())
    await mail.relay.next_to(ALICE)
    await mail.relay.next_to(BOB)
    return await key()


def _raw(to: str, content_type: str, body: str) -> bytes:
    head = [f"From: Alice <{ALICE}>", f"To: {to}", "Subject: my line",
            "Message-ID: <wrapped@players.test>", "MIME-Version: 1.0",
            f"Content-Type: {content_type}", "Content-Transfer-Encoding: 7bit"]
    return ("\r\n".join(head) + "\r\n\r\n" + body.replace("\n", "\r\n")).encode()


RECORDED = ("Conditional line recorded in game #1: if h8-i7/D then a3-b4/D. Only you see it "
            "until it is played.")


async def test_a_conditional_move_wrapped_by_format_flowed(mail):
    key = await _conditional_ready(mail)
    body = "if h8-i7/D then \na3-b4/D\n\n-- \nAlice\n"
    await mail.post.send(ALICE, raw=_raw(key, "text/plain; charset=utf-8; format=flowed",
                                         body), to=key)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(RECORDED)


async def test_a_conditional_move_hard_wrapped_by_outlook(mail):
    key = await _conditional_ready(mail)
    body = "if h8-i7/D\nthen a3-b4/D\n\nAlice\n"
    await mail.post.send(ALICE, raw=_raw(key, "text/plain; charset=us-ascii", body), to=key)
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(RECORDED)


async def test_a_line_of_the_mail_answered_is_never_a_command(mail, game):
    """A thank-you note with one line of our mail copied below it, unquoted and without a
    header block (the `Moves:` heading is a command word): no command, no list of moves."""
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    await mail.relay.next_to(ALICE)
    news = await mail.relay.next_to(BOB)
    assert "\r\nMoves:\r\n" in mail.text_of(news)
    await mail.post.send(f"Bob <{BOB}>", "Tack!\n\nMoves:\n\n/Bob", reply_to=news)
    answer = mail.text_of(await mail.relay.next_to(BOB))
    assert answer.startswith("I found no command in your mail.")
    assert "can move in game #1" not in answer
    assert (await mail.service.game(1)).ply == 1


async def test_a_mistyped_point_gets_the_rules_answer_not_no_command(mail, game):
    """`a7-a55` (a rank off the board) is a move written wrong: the answer says why it
    cannot be played, as for any illegal move, and nothing is played."""
    await mail.post.send(f"Alice <{ALICE}>", "a7-a55", reply_to=game[ALICE])
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.split("\r\n")[0] == (
        "I cannot read 'a7-a55' as a move: a55 is not a point of the board (points are a1, "
        "c1, ... i9 where the file number plus the rank is even).")
    assert (await mail.service.game(1)).ply == 0


CHALLENGE = "challenge robert.fischer@players.test combined-arms 3d+1d max10d total60d"


@pytest.mark.parametrize(("text", "lines"), [
    # Outlook's 76-column wrap: the next word would not have fitted
    ("if c1=Brute then b8=Droid then if e1=Brute then d8=Droid then if g1=Brute\n"
     "then f8=Hawk\n\nAlice",
     ("if c1=Brute then b8=Droid then if e1=Brute then d8=Droid then if g1=Brute then "
      "f8=Hawk", "Alice")),
    (f"{CHALLENGE}\nwhite unrated\nThanks!", (f"{CHALLENGE} white unrated", "Thanks!")),
    # a conditional goes on in a line that starts with `then`, whatever its length
    ("if c1=Brute then b8=Droid\nthen if e1=Brute then d8=Droid\nAlice",
     ("if c1=Brute then b8=Droid then if e1=Brute then d8=Droid", "Alice")),
    # short lines were not wrapped: the greeting below stays a line of its own
    ("move c3-d4\nThanks for the game!", ("move c3-d4", "Thanks for the game!")),
    ("if c1=Brute then b8=Droid\nThanks", ("if c1=Brute then b8=Droid", "Thanks")),
    # a line of 67-70 characters that was not wrapped: a sign-off below it, after an
    # empty line or one that would have fitted, stays apart
    ("challenge d@e.org combined-arms 3d+1d max10d total60d white unrated\n\nThanks",
     ("challenge d@e.org combined-arms 3d+1d max10d total60d white unrated", "Thanks")),
    ("challenge d@e.org combined-arms 3d+1d max10d total60d white unrated\nCheers,",
     ("challenge d@e.org combined-arms 3d+1d max10d total60d white unrated", "Cheers,")),
    ("if c7-d6 then g3-h4 then if g7-f6 then e3-f4 then if a7-a5 then i3-i5\n\nGina",
     ("if c7-d6 then g3-h4 then if g7-f6 then e3-f4 then if a7-a5 then i3-i5", "Gina")),
])
def test_a_command_broken_by_a_hard_wrap_is_joined(text, lines):
    assert command_lines(text) == lines


async def test_a_challenge_wrapped_at_76_columns_keeps_its_last_word(mail):
    line = ("challenge robert.fischer@players.test combined-arms 3d+1d max10d total60d white "
            "unrated")
    wrapped = textwrap.wrap(line, 76, break_long_words=False)
    assert wrapped[1] == "white unrated"  # as Outlook sends it
    answer = await mail.confirmed(f"Alice <{ALICE}>", "\n".join(wrapped) + "\n\nAlice")
    assert mail.text_of(answer).startswith("Challenge #1 for robert.fischer: ")
    assert (await mail.service.challenges.get_challenge(1)).rated is False
