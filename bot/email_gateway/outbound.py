"""Mail we send: replies and game mails with threading headers and the board as a PNG, and
the relay they go through.

Every mail about a game belongs to one thread: it refers to the game's root Message-ID
(``<game-12.HASH@domain>``, unique to the database: see `machine.root_id`), which every
mail client threads on, and has one subject that never changes (``Game #12: Alice vs Bob —
Clash of Command``, kept from its first mail in each language its readers read), which
Gmail threads on. Every mail says the language it is worded in (Content-Language). A player's
game mail carries the player's game key (game, move number, token) only in its Reply-To
address, never in the subject or the text, so that answering it is all a player has to do
and a forward passes on no key; a watcher's copy carries none. Header values are cleaned (see
`reading.clean_header`) and encoded by the stdlib ``email`` policy, but for a subject that is
not ASCII (a Vietnamese one), which is encoded here (`encoded_subject`): the policy's folding
drops the space between two encoded words (``Đại chiến`` read as ``Đạichiến``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from email.header import Header
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

import aiosmtplib

from ..config import Settings
from ..i18n import SOURCE
from ..service.outbox import DeliveryFailure
from .inbound import Tag, display_address
from .reading import clean_header

log = logging.getLogger(__name__)
SENDER_NAME = "commandpost"
SUBJECT_LIMIT = 200  # characters of a subject we send
SEND_TIMEOUT = 60.0  # seconds the relay has to answer each step of a send


def domain_of(address: str) -> str:
    return address.rsplit("@", 1)[-1].lower()


def encoded_subject(subject: str) -> str:
    """``subject``, not ASCII, as RFC 2047 encoded words folded to lines of at most 76
    characters, every space inside an encoded word so that no reader drops one."""
    return Header(subject, "utf-8", header_name="Subject").encode(linesep="\n")


def reply_address(our_address: str, tag: Tag | None) -> str:
    """Our address with the player's game or challenge key after a ``+`` (plus
    addressing)."""
    if tag is None:
        return our_address
    local, _, domain = our_address.partition("@")
    return f"{local}+{tag}@{domain}"


@dataclass(frozen=True)
class Picture:
    """A board picture to attach."""

    png: bytes
    filename: str


def compose(our_address: str, to: str, subject: str, text: str, *,
            tag: Tag | None = None, root: str | None = None,
            in_reply_to: str | None = None, references: Sequence[str] = (),
            message_id: str | None = None, picture: Picture | None = None,
            auto: str = "auto-replied", language: str = SOURCE) -> EmailMessage:
    """One mail from us to ``to``, threaded under the game's ``root`` Message-ID (if any)
    and the mail answered, its Content-Language the ``language`` it is worded in."""
    mail = EmailMessage()
    mail["From"] = display_address(our_address, SENDER_NAME)
    mail["To"] = to
    subject = clean_header(subject, SUBJECT_LIMIT) or "commandpost"
    if subject.isascii():
        mail["Subject"] = subject
    else:  # kept as encoded here: the policy would not refold it (see the module's text)
        mail.set_raw("Subject", encoded_subject(subject))
    mail["Reply-To"] = reply_address(our_address, tag)
    mail["Date"] = formatdate(localtime=False, usegmt=True)
    mail["Message-ID"] = message_id or make_msgid(domain=domain_of(our_address))
    thread = [root] if root is not None else []
    thread += [r for r in references if r not in thread]
    if in_reply_to and in_reply_to not in thread:
        thread.append(in_reply_to)
    if thread:
        mail["In-Reply-To"] = in_reply_to or thread[-1]
        mail["References"] = " ".join(thread)
    # RFC 3834: our mail is automatic, so well-behaved autoresponders do not answer it
    mail["Auto-Submitted"] = auto
    mail["X-Auto-Response-Suppress"] = "All"
    mail.set_content(text)
    if picture is not None:
        mail.add_attachment(picture.png, maintype="image", subtype="png",
                            filename=picture.filename)
    mail["Content-Language"] = language  # last: setting the content would drop it
    return mail


def failure_of(error: Exception) -> DeliveryFailure:
    """The relay's answer to a mail that did not go, judged by its SMTP reply code: a 5xx
    for the recipient (550 User unknown) or the mail is permanent; a 4xx, a lost connection
    or a timeout is worth trying again."""
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused) and error.recipients:
        return failure_of(error.recipients[0])
    if isinstance(error, aiosmtplib.SMTPResponseException):
        whom = getattr(error, "recipient", None)
        said = f"{error.code} {error.message}".strip()
        reason = f"the relay refused {whom}: {said}" if whom else f"the relay answered {said}"
        # a 5xx for the recipient is the verdict (RFC 5321): no later try can change it
        return DeliveryFailure(reason, permanent=error.code >= 500,
                               final=bool(whom) and error.code >= 500)
    if isinstance(error, aiosmtplib.SMTPException | OSError | TimeoutError):
        return DeliveryFailure(f"the relay cannot be reached: {error}", permanent=False)
    return DeliveryFailure(f"{type(error).__name__}: {error}", permanent=False)


def refused_recipient(error: Exception) -> str | None:
    """The address a relay refused for good (a 5xx for the recipient), else None."""
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused) and error.recipients:
        error = error.recipients[0]
    if isinstance(error, aiosmtplib.SMTPRecipientRefused) and error.code >= 500:
        return str(error.recipient).strip("<>").lower()
    return None


class Mailer:
    """Sends mail through the configured SMTP relay."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def send(self, mail: EmailMessage) -> None:
        s = self.settings
        tls = s.email_relay_tls
        await aiosmtplib.send(
            mail, sender=s.email_address, hostname=s.email_relay_host, port=s.email_relay_port,
            username=s.email_relay_user or None, password=s.email_relay_password or None,
            use_tls=tls == "tls", start_tls={"starttls": True, "none": False}.get(tls),
            timeout=SEND_TIMEOUT)
        log.info("sent %s to %s", mail["Message-ID"], mail["To"])
