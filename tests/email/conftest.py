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

OURS = "play@games.test"
WAIT = 10.0


class Relay:
    """The relay on loopback: every mail handed to it, by recipient."""

    def __init__(self) -> None:
        self.mails: asyncio.Queue[tuple[list[str], EmailMessage]] = asyncio.Queue()
        self.held: list[tuple[list[str], EmailMessage]] = []

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
                   envelope_from: str | None = None) -> None:
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
        self.sent.append(mail)
        await aiosmtplib.send(mail, sender=envelope_from,
                              recipients=[str(mail["To"]).strip("<>")],
                              hostname="127.0.0.1", port=self.port)


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def png_of(mail: EmailMessage) -> bytes | None:
    for part in mail.iter_attachments():
        if part.get_content_type() == "image/png":
            return bytes(part.get_content())
    return None


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
