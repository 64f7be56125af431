"""Real SMTP on loopback: the bot's SMTP server receives players' mail, and a second
aiosmtpd server stands in for the relay, collecting every mail the bot sends."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid, parseaddr
from pathlib import Path
from typing import Any

import aiosmtplib
import pytest
from aiosmtpd.smtp import SMTP

from bot.config import Settings
from bot.email_gateway.gateway import EmailGateway
from bot.email_gateway.runner import deliver_forever
from bot.email_gateway.server import start_smtp_server
from bot.service import GameService
from bot.service.clock import format_time

OURS = "play@games.test"
WAIT = 10.0


class Relay:
    """The relay on loopback: every mail handed to it, by recipient. `answer` makes it
    answer the next tries for a recipient otherwise (``450 4.7.1 Greylisted``, ``550 ...``,
    ``421 ...``, or ``TIMEOUT``: no answer until the sender gives up)."""

    TIMEOUT = "TIMEOUT"

    def __init__(self) -> None:
        self.mails: asyncio.Queue[tuple[list[str], EmailMessage]] = asyncio.Queue()
        self.held: list[tuple[list[str], EmailMessage]] = []
        self.answers: dict[str, list[str]] = {}
        self.tries: dict[str, int] = {}  # RCPT commands seen, by recipient

    def answer(self, address: str, *answers: str) -> None:
        """Answer the next ``len(answers)`` tries for ``address`` with these, in order."""
        self.answers.setdefault(address, []).extend(answers)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        self.tries[address] = self.tries.get(address, 0) + 1
        if self.answers.get(address):
            said = self.answers[address].pop(0)
            if said == self.TIMEOUT:
                await asyncio.sleep(3600)  # the sender's timeout ends the try
            return said
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        await self.mails.put((list(envelope.rcpt_tos), mail))  # type: ignore[arg-type]
        return "250 OK"

    async def next_to(self, address: str, timeout: float = WAIT) -> EmailMessage:
        """The next mail sent to ``address`` (others wait their turn)."""
        for k, (tos, mail) in enumerate(self.held):
            if address in tos:
                del self.held[k]
                return mail
        async with asyncio.timeout(timeout):
            while True:
                tos, mail = await self.mails.get()
                if address in tos:
                    return mail
                self.held.append((tos, mail))

    async def nothing_to(self, address: str, wait: float = 0.3) -> bool:
        """Whether no mail reaches ``address`` within ``wait`` seconds."""
        try:
            await self.next_to(address, wait)
        except TimeoutError:
            return True
        return False


@dataclass
class Post:
    """Sends players' mail to the bot's SMTP server."""

    port: int
    sent: list[EmailMessage] = field(default_factory=list)

    async def send(self, sender: str, text: str = "", *, to: str = OURS, subject: str = "hi",
                   reply_to: EmailMessage | None = None, html: str | None = None,
                   headers: dict[str, str] | None = None, raw: bytes | None = None,
                   envelope_from: str | None = None, language: str | None = None) -> None:
        """A mail from ``sender``, a reply to ``reply_to`` or a new one; with ``language``,
        it says it is in that language (Content-Language, as Thunderbird and Outlook write
        it)."""
        if raw is not None:  # as is, from ``envelope_from`` ("" for a bounce's <>)
            client = aiosmtplib.SMTP(hostname="127.0.0.1", port=self.port)
            async with client:
                await client.sendmail(sender if envelope_from is None else envelope_from,
                                      [to], raw)
            return
        envelope_from = envelope_from or parseaddr(sender)[1]
        mail = EmailMessage()
        mail["From"] = sender
        mail["To"] = to
        mail["Subject"] = subject
        mail["Message-ID"] = make_msgid(domain="players.test")
        if reply_to is not None:
            del mail["To"], mail["Subject"]
            mail["To"] = str(reply_to["Reply-To"])
            mail["Subject"] = "Re: " + str(reply_to["Subject"])
            mail["In-Reply-To"] = str(reply_to["Message-ID"])
            mail["References"] = (str(reply_to.get("References", "")) + " "
                                  + str(reply_to["Message-ID"])).strip()
        for name, value in (headers or {}).items():
            mail[name] = value
        if html is not None and not text:
            mail.set_content(html, subtype="html")
        else:
            mail.set_content(text)
            if html is not None:
                mail.add_alternative(html, subtype="html")
        if language is not None:
            mail["Content-Language"] = language  # after the content, which would drop it
        self.sent.append(mail)
        await aiosmtplib.send(mail, sender=envelope_from,
                              recipients=[str(mail["To"]).strip("<>")],
                              hostname="127.0.0.1", port=self.port)


async def asked(mail: Mail, address: str, what: str) -> str:
    """The exact text of the latest confirmation request mailed to ``address``, asking
    for ``what`` (the command as quoted)."""
    async with mail.service.db.snapshot() as s:
        row = await s.one("SELECT expires_at FROM mail_confirmations WHERE address = ? "
                          "ORDER BY id DESC LIMIT 1", (address,))
    return (f"Please confirm: a mail from {address} asked me for {what}, but it carries no key "
            f"of yours (anyone can write a sender's address), so I have not carried it out "
            f"yet. To carry it out, reply `yes` to this mail. If you did not send "
            f"it, ignore this mail: nothing changes. This request expires "
            f"{format_time(row['expires_at'])}.\r\n")


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def png_of(mail: EmailMessage) -> bytes | None:
    for part in mail.iter_attachments():
        if part.get_content_type() == "image/png":
            return bytes(part.get_content())
    return None


CONFIRM_OPENING = {"en": "Please confirm: ", "vi": "Vui lòng xác nhận: "}


@dataclass
class Mail:
    """Everything an e-mail test needs: the service, the gateway, the relay, the post."""

    service: GameService
    gateway: EmailGateway
    relay: Relay
    post: Post
    settings: Settings
    text_of = staticmethod(text_of)
    png_of = staticmethod(png_of)

    async def confirmed(self, sender: str, text: str, **options: Any) -> EmailMessage:
        """Send ``text`` from ``sender`` without a key, answer the confirmation request
        (worded in the sender's language) with `yes`, and return the answer to that (the
        command's own)."""
        address = parseaddr(sender)[1]
        await self.post.send(sender, text, **options)
        asked = await self.relay.next_to(address)
        opening = CONFIRM_OPENING[str(asked["Content-Language"])]
        assert text_of(asked).startswith(opening), text_of(asked)
        await self.post.send(sender, "yes", reply_to=asked)
        return await self.relay.next_to(address)


@pytest.fixture
async def relay_server() -> AsyncIterator[tuple[Relay, int]]:
    relay = Relay()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(relay), "127.0.0.1", 0)
    yield relay, server.sockets[0].getsockname()[1]
    server.close()


@pytest.fixture
def email_settings(tmp_path: Path, relay_server: tuple[Relay, int]) -> Settings:
    return Settings(db_path=tmp_path / "games.db", pictures_dir=tmp_path / "boards",
                    email_address=OURS, email_listen_host="127.0.0.1", email_listen_port=0,
                    email_relay_host="127.0.0.1", email_relay_port=relay_server[1],
                    email_relay_tls="none", email_max_bytes=200_000, email_rate_limit=5)


@pytest.fixture
async def mail(email_settings: Settings,
               relay_server: tuple[Relay, int]) -> AsyncIterator[Mail]:
    service = await GameService.open(email_settings, rng=random.Random(3))
    gateway = EmailGateway(service, email_settings)
    server = await start_smtp_server(gateway, "127.0.0.1", 0)
    stop = asyncio.Event()
    delivering = asyncio.create_task(deliver_forever(gateway, stop))
    yield Mail(service, gateway, relay_server[0], Post(server.sockets[0].getsockname()[1]),
               email_settings)
    stop.set()
    await delivering
    server.close()
    await service.close()


def _quoted(mail: EmailMessage) -> str:
    return "\n".join("> " + line for line in text_of(mail).splitlines())


def _reply_mail(sender: str, to_mail: EmailMessage, subject: str | None) -> EmailMessage:
    """A reply's message with its headers (`_reply_headers`), its parts still to come."""
    mail = EmailMessage()
    for line in _reply_headers(sender, to_mail, subject):
        name, _, value = line.partition(": ")
        if name != "MIME-Version":
            mail[name] = value
    return mail


def _reply_headers(sender: str, to_mail: EmailMessage, subject: str | None) -> list[str]:
    refs = (str(to_mail.get("References", "")) + " " + str(to_mail["Message-ID"])).strip()
    return [f"From: {sender}", f"To: {to_mail['Reply-To']}",
            f"Subject: {subject if subject is not None else 'Re: ' + str(to_mail['Subject'])}",
            f"Message-ID: {make_msgid(domain='players.test')}",
            f"In-Reply-To: {to_mail['Message-ID']}", f"References: {refs}",
            "Date: Tue, 24 Nov 2026 10:00:00 +0000", "MIME-Version: 1.0"]


def thunderbird_reply(sender: str, to_mail: EmailMessage, text: str, *,
                      charset: str = "utf-8", subject: str | None = None) -> bytes:
    """A reply as Thunderbird writes it: 8-bit text/plain (format=flowed), the answer on
    top, then the attribution line and the quoted mail, then the signature."""
    body = (f"{text}\n\nOn 24/11/2026 09:58, commandpost wrote:\n{_quoted(to_mail)}\n\n"
            f"-- \nSent with care\n")
    head = _reply_headers(sender, to_mail, subject) + [
        f"Content-Type: text/plain; charset={charset}; format=flowed",
        "Content-Transfer-Encoding: 8bit", "User-Agent: Mozilla Thunderbird"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + \
        body.replace("\n", "\r\n").encode(charset)


# how Gmail introduces the quote, by the language of its user
GMAIL_WROTE = {"en": "On Tue, Nov 24, 2026 at 9:58 AM {who} wrote:",
               "de": "Am Di., 24. Nov. 2026 um 09:58 Uhr schrieb {who}:",
               "vi": "Vào Th 3, 24 thg 11, 2026 vào lúc 09:58 {who} đã viết:"}


def gmail_reply(sender: str, to_mail: EmailMessage, text: str, *,
                subject: str | None = None, language: str = "en") -> bytes:
    """A reply as Gmail writes it: multipart/alternative with the HTML part first here
    (as some clients order it), quoted-printable UTF-8, top-posted above the quote,
    introduced in its user's ``language``."""
    ours = to_mail["From"].addresses[0].addr_spec
    attribution = GMAIL_WROTE[language].format(who=f"commandpost <{ours}>")
    plain = f"{text}\n\n{attribution}\n\n{_quoted(to_mail)}\n"
    html = (f"<div dir=\"ltr\">{text.replace(chr(10), '<br>')}</div><br>"
            f"<div class=\"gmail_quote\">{attribution}<blockquote>...</blockquote></div>")
    mail = _reply_mail(sender, to_mail, subject)
    mail.set_content(html, subtype="html", cte="quoted-printable")
    mail.add_alternative(plain, cte="quoted-printable")
    return mail.as_bytes(policy=policy.SMTP)


# Outlook's header block above the mail it answers, by the language of its user
OUTLOOK_HEADERS = {
    "en": ("From", "Sent", "To", "Subject", "Tuesday, November 24, 2026 9:58 AM"),
    "de": ("Von", "Gesendet", "An", "Betreff", "Dienstag, 24. November 2026 09:58"),
    "vi": ("Từ", "Đã gửi", "Đến", "Chủ đề", "Thứ Ba, ngày 24 tháng 11 năm 2026 09:58"),
}


def outlook_reply(sender: str, to_mail: EmailMessage, text: str, *,
                  language: str = "en") -> bytes:
    """A reply as Outlook writes it: multipart/alternative, plain text first, the answer
    on top, then a line of underscores, a header block in its user's ``language`` and the
    mail answered, unquoted; the HTML part cut at ``divRplyFwdMsg``; Content-Language and
    Thread-Index as Outlook sets them."""
    ours = to_mail["From"].addresses[0].addr_spec
    name_from, name_sent, name_to, name_subject, when = OUTLOOK_HEADERS[language]
    block = (f"{'_' * 32}\n{name_from}: commandpost <{ours}>\n{name_sent}: {when}\n"
             f"{name_to}: {sender}\n{name_subject}: {to_mail['Subject']}\n\n")
    plain = f"{text}\n\n{block}{text_of(to_mail)}"
    html = (f"<html><body><div>{text.replace(chr(10), '<br>')}</div><hr>"
            f"<div id=\"divRplyFwdMsg\">{block.replace(chr(10), '<br>')}</div>"
            f"<div>{text_of(to_mail)}</div></body></html>")
    mail = _reply_mail(sender, to_mail, None)
    mail["Thread-Index"] = "AQHbPxyzAbCdEfGhIjKlMnOpQrStUv=="
    mail.set_content(plain, cte="quoted-printable")
    mail.add_alternative(html, subtype="html", cte="quoted-printable")
    mail["Content-Language"] = {"en": "en-US", "de": "de-DE", "vi": "vi-VN"}[language]
    return mail.as_bytes(policy=policy.SMTP)


# how Apple Mail on an iPhone signs and introduces the quote, by the language of its user
APPLE_MAIL = {
    "en": ("Sent from my iPhone", "On 24 Nov 2026, at 09:58, {who} wrote:"),
    "de": ("Von meinem iPhone gesendet", "Am 24.11.2026 um 09:58 schrieb {who}:"),
    "vi": ("Gửi từ iPhone của tôi", "Vào 09:58, ngày 24 thg 11, 2026, {who} đã viết:"),
}


def apple_mail_reply(sender: str, to_mail: EmailMessage, text: str, *,
                     language: str = "en") -> bytes:
    """A reply as Apple Mail on an iPhone writes it: text/plain, quoted-printable UTF-8,
    the answer, its "Sent from my iPhone" line in its user's ``language``, then the
    attribution and the mail answered, all quoted with ``>``."""
    ours = to_mail["From"].addresses[0].addr_spec
    sent_from, wrote = APPLE_MAIL[language]
    quoted = "\n".join(f"> {line}".rstrip() for line in
                       [wrote.format(who=f"commandpost <{ours}>"), "",
                        *text_of(to_mail).splitlines()])
    mail = _reply_mail(sender, to_mail, None)
    mail["X-Mailer"] = "iPhone Mail (22B91)"
    mail.set_content(f"{text}\n\n{sent_from}\n\n{quoted}\n", cte="quoted-printable")
    return mail.as_bytes(policy=policy.SMTP)


@pytest.fixture
async def game(mail: Mail) -> dict[str, EmailMessage]:
    """A game by mail between Alice (White, to move) and Bob: the latest mail of each, by
    address (Bob's key came with the challenge; Alice's with the game's start)."""
    alice, bob = "alice@players.test", "bob@players.test"
    await mail.confirmed(f"Alice <{alice}>", f"challenge {bob} white")
    offer = await mail.relay.next_to(bob)
    await mail.post.send(bob, "accept", reply_to=offer)  # no display name: still "bob"
    return {bob: await mail.relay.next_to(bob), alice: await mail.relay.next_to(alice)}
