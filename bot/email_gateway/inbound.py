"""Reading a player's mail safely: who sent it, whether to answer it at all, the game key it
carries and the command lines in its text.

Checks run in a fixed order, and each ends in an `Inbound` (a command to run), a `Refusal`
(answered with a reply saying why) or a `Drop` (not answered: answering mail that machines
sent, or our own mail, is how mail loops start). The plain part of a mail is read, else its
HTML part as a reader sees it (`mailtext.html_text`); quoted reply text and signatures are
ignored (`replies`).

Nothing a stranger sends costs much time: the header section is cut before the stdlib
parses it (`cap_header`: a field over 8 KiB and fields after the 500th are ignored, a
section over 64 KiB is refused with an answer), a mail of more than `MIME_PARTS` parts is
not parsed, and the text read is bounded before it is looked at (`replies.bounded_lines`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from email import policy
from email.errors import MessageDefect
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parseaddr

from ..i18n import _
from .authenticity import Authenticity, Forged, TxtLookup, Unverified, judge, judge_by_results
from .headers import HEADER_BYTES, cap_header
from .machine import is_machine_mail
from .mailtext import html_text, join_wrapped_if, unflow, unwrap
from .reading import NAME_CHARS, SUBJECT_CHARS, clean_header, decode_header_value, normalise
from .replies import bounded_lines, reply_lines, said_anywhere

MAX_COMMAND_LINES = 40
NOT_AUTHENTIC = "not-authentic"  # a Refusal's reason: a signing domain's unsigned mail
# a game key (game.move-number.token), a challenge key (cCHALLENGE.token) or a confirmation
# key (okNUMBER.token)
TAG_PATTERN = (r"(?:(\d{1,9})\.(\d{1,6})|[cC](\d{1,9})|[oO][kK](\d{1,9}))"
               r"\.([0-9a-fA-F]{20})")
ADDRESS_TAG = re.compile(r"\+" + TAG_PATTERN + r"@")
MAX_ID_CHARS = 250  # a longer Message-ID is ignored
MAX_REFERENCES = 20  # the last Message-IDs of a thread kept in an answer's References
ADDRESS = re.compile(r"^[^\s\x00-\x1f\x7f<>()\[\],;:\\\"]+@[a-z0-9.-]+$")
ANGLE_ADDRESS = re.compile(r"^(.*)<([^<>\s]+)>$")
MIME_PARTS = 100  # a mail with more parts is not read
MAX_LANGUAGE = 200  # characters of a language header kept (a list of tags)


@dataclass(frozen=True)
class GameTag:
    """The game key of a reply: the game, the move number it answers and the player's token."""

    game_id: int
    ply: int
    token: str

    def __str__(self) -> str:
        return f"{self.game_id}.{self.ply}.{self.token}"


@dataclass(frozen=True)
class ChallengeTag:
    """The challenge key of a reply: the challenge and the player's token for it."""

    challenge_id: int
    token: str

    def __str__(self) -> str:
        return f"c{self.challenge_id}.{self.token}"


@dataclass(frozen=True)
class ConfirmTag:
    """The key of a confirmation request: the request and its one-time token."""

    confirmation_id: int
    token: str

    def __str__(self) -> str:
        return f"ok{self.confirmation_id}.{self.token}"


Tag = GameTag | ChallengeTag | ConfirmTag


@dataclass(frozen=True)
class Inbound:
    """A mail that passed every check: its sender, command lines and game key."""

    sender: str  # the From address, lower case
    name: str  # the From display name, or the address's local part
    subject: str
    message_id: str | None
    references: tuple[str, ...]
    lines: tuple[str, ...]
    tag: Tag | None
    said: tuple[str, ...] = ()  # every unquoted line (`replies.said_anywhere`)
    language: str = ""  # what the mail says it is written in, or its writer reads


@dataclass(frozen=True)
class Refusal:
    """A mail that is answered with ``text`` and otherwise left alone."""

    sender: str
    subject: str
    message_id: str | None
    references: tuple[str, ...]
    reason: str  # too-large, no-text, malformed, no-command, not-authentic
    text: str
    name: str = ""
    tag: Tag | None = None
    language: str = ""  # what the mail says it is written in, or its writer reads


@dataclass(frozen=True)
class Drop:
    """A mail that is not answered at all, and why (for the log)."""

    reason: str


def raw_header(message: EmailMessage, name: str) -> str:
    """The first ``name`` header as it came (encoded-words and 8-bit bytes undecoded)."""
    for key, value in message.raw_items():
        if key.lower() == name.lower():
            return str(value)
    return ""


def sender_of(message: EmailMessage, envelope_from: str | None) -> tuple[str, str]:
    """The sender's address (lower case) and name (decoded and cleaned; the address's local
    part when the name cannot be decoded), from From, else the envelope."""
    raw = " ".join(raw_header(message, "From").split())
    if found := ANGLE_ADDRESS.match(raw):  # Name <address>, whatever the name holds
        raw_name, address = found[1].strip().strip('"'), found[2]
    else:
        raw_name, address = parseaddr(raw)
    if "@" not in address and envelope_from:
        raw_name, address = "", envelope_from
    address = address.strip().strip("<>").lower()
    if address.count("@") != 1 or not address.isascii() or not ADDRESS.match(address):
        return "", ""
    name = clean_header(decode_header_value(raw_name) or "", NAME_CHARS)
    return address, (name or address.split("@")[0])




def is_our_own(sender: str, our_address: str) -> bool:
    """Whether ``sender`` is our address, or another of our domain (a tagged reply address)."""
    our_domain = our_address.rsplit("@", 1)[-1].lower()
    return sender == our_address.lower() or sender.rsplit("@", 1)[-1] == our_domain


def _structure_defects(message: EmailMessage) -> list[MessageDefect]:
    defects: list[MessageDefect] = []
    for part in message.walk():
        defects += [d for d in part.defects if type(d).__name__ in STRUCTURE_DEFECTS]
    return defects


# defects after which the text found may not be what the sender wrote
STRUCTURE_DEFECTS = frozenset({
    "NoBoundaryInMultipartDefect", "StartBoundaryNotFoundDefect", "CloseBoundaryNotFoundDefect",
    "MultipartInvariantViolationDefect", "InvalidMultipartContentTransferEncodingDefect",
    "MissingHeaderBodySeparatorDefect", "InvalidBase64PaddingDefect",
    "InvalidBase64CharactersDefect", "InvalidBase64LengthDefect",
})


def find_tag(message: EmailMessage, rcpt_tos: Iterable[str]) -> Tag | None:
    """The key in the addresses the mail was sent to (the envelope, To, Cc, Delivered-To,
    X-Original-To), and only there: a key written in a subject or a text (a forwarded game
    mail, a quote) is never read, so forwarding a mail to the plain address hands nothing
    over."""
    addresses = [str(a)[:MAX_ADDRESS_CHARS] for a in rcpt_tos]
    for header in ("To", "Cc", "Delivered-To", "X-Original-To"):
        values = [str(v)[:MAX_HEADER_CHARS] for v in message.get_all(header, [])]
        addresses += [a[:MAX_ADDRESS_CHARS] for _unused, a in getaddresses(values)]
    for address in addresses:
        if found := ADDRESS_TAG.search(address):
            return _tag(found)
    return None


MAX_ADDRESS_CHARS = 320  # RFC 5321: 64 for the local part, 255 for the domain, and the @
MAX_HEADER_CHARS = 8192  # of one recipient header: a longer one is read only so far


def _tag(found: re.Match[str]) -> Tag:
    if found[3]:
        return ChallengeTag(int(found[3]), found[5].lower())
    if found[4]:
        return ConfirmTag(int(found[4]), found[5].lower())
    return GameTag(int(found[1]), int(found[2]), found[5].lower())


def command_lines(text: str, flowed: bool = False, delsp: bool = False) -> tuple[str, ...]:
    """The lines of a reply that are neither quoted nor signature (`replies.reply_lines`),
    normalised (see `reading.normalise`), format=flowed lines joined first, a wrapped
    conditional move joined: the command is among them (see `reading.find_command`)."""
    lines = bounded_lines(text)
    if flowed:
        lines = unflow(lines, delsp)
    own = join_wrapped_if(unwrap(reply_lines(lines)))
    return tuple(" ".join(normalise(line).split()) for line in own
                 if line.strip())[:MAX_COMMAND_LINES]


def _ids(value: object) -> tuple[str, ...]:
    return tuple(i for i in re.findall(r"<[^<>\s\x00-\x1f\x7f]+>", str(value or ""))
                 if len(i) <= MAX_ID_CHARS)


def read_mail(raw: bytes, envelope_from: str | None, rcpt_tos: Iterable[str], *,
              our_address: str, max_bytes: int,
              authserv: str = "", lookup: TxtLookup | None = None) -> Inbound | Refusal | Drop:
    """Judge one incoming mail, in order: size (of the mail, of its header, its number of
    parts), sender, machine mail and loops, whether it comes from its From domain
    (`authenticity`), MIME structure, a text part, command lines. A signing domain's mail
    without its valid signature is refused (`NOT_AUTHENTIC`). With ``authserv`` (a trusted
    front mail server) its ``Authentication-Results`` decide instead of our own checks, and
    mail it did not verify is dropped (answering it would mail whoever was forged).
    ``lookup`` answers DNS (default: the system's resolver); it may wait for DNS, so the
    gateway calls this in a thread. (Rate limits are the gateway's: they depend on whether
    the key is valid.)"""
    oversize = len(raw) > max_bytes
    capped, header_bytes = cap_header(raw[:max(HEADER_BYTES, max_bytes) + HEADER_BYTES])
    parts = capped.lower().count(b"\ncontent-type:")
    unread = oversize or header_bytes > HEADER_BYTES or parts > MIME_PARTS
    if unread:
        message = BytesHeaderParser(policy=policy.default).parsebytes(capped[:HEADER_BYTES])
    else:
        message = BytesParser(policy=policy.default).parsebytes(capped)
    assert isinstance(message, EmailMessage)
    sender, name = sender_of(message, envelope_from)
    if not sender:
        return Drop("no sender address to answer")
    if is_our_own(sender, our_address):
        return Drop(f"our own address {sender}")
    if why := is_machine_mail(message, envelope_from):
        return Drop(f"sent by a machine ({why})")
    authenticity = _authenticity(raw, message, sender, authserv, lookup, unread)
    if authserv and isinstance(authenticity, Unverified):
        return Drop(f"{authserv} did not verify that the mail comes from {sender}")
    subject = _subject(message)
    message_id = next(iter(_ids(message.get("Message-ID"))), None)
    refs = _ids(message.get("References")) or _ids(message.get("In-Reply-To"))
    refs = refs[-MAX_REFERENCES:]
    language = (raw_header(message, "Content-Language")
                or raw_header(message, "Accept-Language"))[:MAX_LANGUAGE]

    def refuse(reason: str, text: str) -> Refusal:
        return Refusal(sender, subject, message_id, refs, reason, text, name,
                       find_tag(message, rcpt_tos), language)

    if isinstance(authenticity, Forged):
        return refuse(NOT_AUTHENTIC, authenticity.text)
    if header_bytes > HEADER_BYTES:
        return refuse("too-large", _("The header of your mail is {size} KiB, more than the "
                                     "{limit} KiB I read, so I did not read your mail. Please "
                                     "write a new mail with just your command.",
                                     size=header_bytes // 1024, limit=HEADER_BYTES // 1024))
    if oversize:
        return refuse("too-large", _("Your mail is {size} KiB, more than the {limit} KiB I "
                                     "accept, so I did not read it. Please reply without "
                                     "attachments or quoted pictures, with just your command.",
                                     size=len(raw) // 1024, limit=max_bytes // 1024))
    if parts > MIME_PARTS:
        return refuse("malformed", _("Your mail has {parts} parts, more than the {limit} I "
                                     "read, so I did not read it. Please send your command "
                                     "again as plain text.", parts=parts, limit=MIME_PARTS))
    if _structure_defects(message):
        return refuse("malformed", _("I could not read your mail: its MIME structure is "
                                     "broken (a multipart mail without its parts, or damaged "
                                     "encoding). Please send your command again as plain "
                                     "text."))
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        return refuse("no-text", _("Your mail has no text for me to read. Write your command "
                                   "on the first line, for example `help`."))
    try:
        text = str(body.get_content())
    except (LookupError, UnicodeError, ValueError, AssertionError):
        return refuse("malformed", _("I could not read the text of your mail (an unknown or "
                                     "damaged character encoding). Please send it again as "
                                     "plain text in UTF-8."))
    if body.get_content_subtype() == "html":
        text = html_text(text)
        lines = command_lines(text)
    else:
        lines = command_lines(text, flowed=str(body.get_param("format", "")).lower() == "flowed",
                              delsp=str(body.get_param("delsp", "")).lower() == "yes")
    return Inbound(sender, name, subject, message_id, refs, lines,
                   find_tag(message, rcpt_tos), said_anywhere(text), language)


def _authenticity(raw: bytes, message: EmailMessage, sender: str, authserv: str,
                  lookup: TxtLookup | None, unread: bool) -> Authenticity:
    """Whether the mail comes from its sender's domain: as the trusted front server says,
    else by our own checks (not of a mail whose body is not read: too large, a header too
    large, too many parts; it is only answered why it was not read)."""
    domain = sender.rsplit("@", 1)[-1]
    if authserv:
        return judge_by_results(message, authserv, domain)
    if unread:
        return Unverified("not read, so not verified")
    return judge(raw, domain, lookup)


def _subject(message: EmailMessage) -> str:
    return clean_header(decode_header_value(" ".join(raw_header(message, "Subject").split()))
                        or "", SUBJECT_CHARS)


def display_address(address: str, name: str = "") -> str:
    """``Name <address>`` as a header value."""
    local, _at, domain = address.partition("@")
    return str(Address(display_name=name, username=local, domain=domain))
