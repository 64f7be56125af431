"""Choosing a language by mail: a reply's Content-Language words the answer in it, and a
player's `language` wins over it; a language not offered (`not_offered`: as Vietnamese
was while it was translated) is answered in English."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from bot import i18n

ALICE = "alice@players.test"


async def reply(mail, to: EmailMessage, text: str, language: str) -> None:
    """Alice's reply to ``to`` saying ``text``, in a mail that says it is in ``language``
    (Content-Language, as Thunderbird and Outlook write it)."""
    message = EmailMessage()
    message["From"] = f"Alice <{ALICE}>"
    message["To"] = str(to["Reply-To"])
    message["Subject"] = "Re: " + str(to["Subject"])
    message["Message-ID"] = make_msgid(domain="players.test")
    message["In-Reply-To"] = str(to["Message-ID"])
    message.set_content(text)
    message["Content-Language"] = language  # after the content, which would drop it
    await mail.post.send(ALICE, to=str(to["Reply-To"]), raw=bytes(message))




async def test_a_move_mailed_in_vietnamese_is_answered_in_vietnamese(mail, game, offered):
    await reply(mail, game[ALICE], "move b2-a3/D", "vi-VN")
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith("Đã đi 1. b2-a3/D trong ván #1. Đến lượt bob (Đen)."), answer


async def test_without_vietnamese_offered_the_answer_is_english(mail, game, not_offered):
    await reply(mail, game[ALICE], "move b2-a3/D", "vi-VN")
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith("1. b2-a3/D played in game #1. bob (Black) is to move."), answer


async def test_a_language_header_at_the_size_limit_is_read_quickly_and_ignored(mail, game,
                                                                                offered):
    await reply(mail, game[ALICE], "move b2-a3/D", "x" * 900 + ", vi")
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.startswith("1. b2-a3/D played in game #1."), answer


async def test_a_stranger_without_a_key_is_asked_to_confirm_a_language(mail, offered):
    """A forged mail must not change someone's language: `language` by mail is confirmed
    by a reply, as `name` is, and then the player reads their own language."""
    answer = await mail.confirmed("Carol <carol@players.test>", "language vi")
    assert mail.text_of(answer).startswith("Từ nay ngôn ngữ của bạn là Tiếng Việt (vi)."), \
        mail.text_of(answer)
    carol = await mail.service.player("email", "carol@players.test")
    assert carol.preferences["language"] == "vi"


async def test_a_language_not_offered_is_refused_by_mail_in_english(not_offered, mail):
    i18n.shipped.cache_clear()
    answer = await mail.confirmed("Carol <carol@players.test>", "language vi")
    assert mail.text_of(answer).startswith(
        "Tiếng Việt (vi) is not offered yet: its words are being translated. Languages "
        "offered: English (en)."), mail.text_of(answer)
