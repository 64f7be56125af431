"""Where players' mail comes in: an SMTP server on the bot's event loop (aiosmtpd), for hosts
who point a (sub)domain's mail at the bot, or an IMAP mailbox polled (aioimaplib), for
hosts who only have a mailbox.

The SMTP server accepts mail only for our domain and answers 250 once the mail has been
judged, its command run and its answer stored in the outbox; a mail that fails before (451)
is sent again by the sender's server, while the answer is mailed by the outbox's delivery
(retried while the relay is down, across restarts), so that no command runs twice and no
answer is lost. A mail larger than
`OVERSIZE_FACTOR` times the configured limit, and than `OVERSIZE_FLOOR` (40 MiB), is not
even read (552); one above the limit but below that is read far enough to answer it, so
that its sender gets our answer rather than their own server's bounce.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl
from typing import Any

import aioimaplib
from aiosmtpd.smtp import SMTP

from ..config import ConfigError, Settings
from ..service.results import STORAGE_DOWN
from ..storage import StorageError
from .gateway import EmailGateway
from .outbound import domain_of

log = logging.getLogger(__name__)
OVERSIZE_FACTOR = 8
OVERSIZE_FLOOR = 40 * 1024 * 1024  # a mail with big attachments is still taken, and answered
FETCH_SIZE = re.compile(rb"\{(\d+)\}$")


class InboundHandler:
    """aiosmtpd's handler: recipients of our domain only, each mail to the gateway."""

    def __init__(self, gateway: EmailGateway) -> None:
        self.gateway = gateway
        self.domain = domain_of(gateway.address)

    async def handle_RCPT(self, server: SMTP, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if domain_of(address) != self.domain:
            return "550 5.7.1 This server takes mail only for " + self.domain
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content or b""
        try:
            outcome = await self.gateway.receive(bytes(raw), envelope.mail_from,
                                                 list(envelope.rcpt_tos))
        except StorageError as err:
            # the sender's server keeps the mail and tries again later (and tells the
            # player in these words if it gives up), so the command runs once it can
            log.error("mail from %s not carried out: %s", envelope.mail_from, err)
            return "451 4.3.0 " + STORAGE_DOWN
        except Exception:
            log.exception("mail from %s could not be handled", envelope.mail_from)
            return "451 4.3.0 Temporary failure, please try again later"
        log.info("mail from %s: %s", envelope.mail_from, outcome)
        return "250 OK"


def largest_mail(settings: Settings) -> int:
    """The size of the largest mail the server takes (and answers if it is over the
    limit): 8 times the limit, and at least 40 MiB."""
    return max(OVERSIZE_FLOOR, settings.email_max_bytes * OVERSIZE_FACTOR)


def tls_context(settings: Settings) -> ssl.SSLContext | None:
    """The server's TLS context when a certificate and its key are configured (STARTTLS is
    then offered, not required: a sending server that cannot do TLS still gets through)."""
    if not settings.email_tls_cert and not settings.email_tls_key:
        return None
    if not settings.email_tls_cert or not settings.email_tls_key:
        raise ConfigError("set both COMMANDPOST_EMAIL_TLS_CERT and COMMANDPOST_EMAIL_TLS_KEY "
                          "(PEM files) to offer STARTTLS, or neither")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(settings.email_tls_cert, settings.email_tls_key)
    except (OSError, ssl.SSLError) as err:
        raise ConfigError(f"cannot load the TLS certificate {settings.email_tls_cert} with "
                          f"its key {settings.email_tls_key}: {err}") from err
    return context


async def start_smtp_server(gateway: EmailGateway, host: str, port: int) -> asyncio.Server:
    """The SMTP server listening on ``host:port`` (port 0: any free port), offering
    STARTTLS when a certificate is configured."""
    handler = InboundHandler(gateway)
    context = tls_context(gateway.settings)
    loop = asyncio.get_running_loop()
    return await loop.create_server(
        lambda: SMTP(handler, data_size_limit=largest_mail(gateway.settings), enable_SMTPUTF8=True,
                     hostname=handler.domain, ident="commandpost", tls_context=context),
        host, port)


async def poll_imap_once(gateway: EmailGateway, settings: Settings) -> int:
    """Read every unseen mail in the mailbox, mark it seen; how many were read."""
    if settings.imap_port == 993:
        client: aioimaplib.IMAP4 = aioimaplib.IMAP4_SSL(
            settings.imap_host, settings.imap_port, ssl_context=ssl.create_default_context())
    else:
        client = aioimaplib.IMAP4(settings.imap_host, settings.imap_port)
    await client.wait_hello_from_server()
    await _ok(client.login(settings.imap_user, settings.imap_password), "login")
    try:
        await _ok(client.select(settings.imap_folder), "select")
        found = await _ok(client.uid_search("UNSEEN", charset=None), "search")
        uids = [u for line in found.lines[:1] for u in bytes(line).split() if u.isdigit()]
        for uid in uids:
            fetched = await _ok(client.uid("fetch", uid.decode(), "(BODY.PEEK[])"), "fetch")
            raw = _message_bytes(fetched.lines)
            if raw is not None:
                outcome = await gateway.receive(raw, None, ())
                log.info("mailbox mail %s: %s", uid.decode(), outcome)
            await _ok(client.uid("store", uid.decode(), "+FLAGS", "(\\Seen)"), "store")
        return len(uids)
    finally:
        await client.logout()


async def _ok(call: Any, what: str) -> Any:
    response = await call
    if response.result != "OK":
        raise ConnectionError(f"IMAP {what} failed: {response.result} {response.lines!r}")
    return response


def _message_bytes(lines: list[Any]) -> bytes | None:
    """The message in a FETCH answer: the literal after the line announcing its size."""
    for k, line in enumerate(lines[:-1]):
        if isinstance(line, bytes | bytearray) and FETCH_SIZE.search(bytes(line)):
            return bytes(lines[k + 1])
    return None


async def poll_imap(gateway: EmailGateway, settings: Settings, stop: asyncio.Event) -> None:
    """Poll the mailbox until ``stop`` is set; a failed poll is logged and retried."""
    while not stop.is_set():
        try:
            await poll_imap_once(gateway, settings)
        except Exception:
            log.exception("polling the mailbox %s failed; retrying", settings.imap_host)
        try:
            await asyncio.wait_for(stop.wait(), timeout=settings.imap_poll_seconds)
        except TimeoutError:
            pass
