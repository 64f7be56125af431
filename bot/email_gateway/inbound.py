"""Reading a player's mail safely: who sent it, whether to answer it at all, the game key it
carries and the command lines in its text.

Checks run in a fixed order, and each ends in an `Inbound` (a command to run), a `Refusal`
(answered with a reply saying why) or a `Drop` (not answered: answering mail that machines
sent, or our own mail, is how mail loops start). Only text/plain is read — the plain part of
a multipart mail — never HTML; quoted reply text and signatures are ignored.
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

from .authenticity import Authenticity, Forged, TxtLookup, Unverified, judge, judge_by_results
from .machine import is_machine_mail
from .reading import NAME_CHARS, SUBJECT_CHARS, clean_header, decode_header_value, normalise

HEADER_BYTES = 64 * 1024  # what is read of an oversize mail, to answer it
MAX_COMMAND_LINES = 40
NOT_AUTHENTIC = "not-authentic"  # a Refusal's reason: a signing domain's unsigned mail
# a game key (game.move-number.token), a challenge key (cCHALLENGE.token) or a confirmation
# key (okNUMBER.token)
TAG_PATTERN = (r"(?:(\d{1,9})\.(\d{1,6})|[cC](\d{1,9})|[oO][kK](\d{1,9}))"
               r"\.([0-9a-fA-F]{20})")
ADDRESS_TAG = re.compile(r"\+" + TAG_PATTERN + r"@")
# a line that starts the quoted mail below a reply: "On Mon, ... Alice wrote:", Outlook's
# "-----Original Message-----" or "From: ..." header block
ATTRIBUTION = re.compile(r"^(on\b.*\bwrote:?|-{2,}\s*original message\s*-{2,}|from:\s.*|"
                         r"_{10,}|le\b.*\ba écrit ?:|am\b.*\bschrieb.*:)$", re.IGNORECASE)
MAX_ID_CHARS = 250  # a longer Message-ID is ignored
MAX_REFERENCES = 20  # the last Message-IDs of a thread kept in an answer's References
ADDRESS = re.compile(r"^[^\s\x00-\x1f\x7f<>()\[\],;:\\\"]+@[a-z0-9.-]+$")
ANGLE_ADDRESS = re.compile(r"^(.*)<([^<>\s]+)>$")
SIGNATURE_LINES = ("-- ", "--")  # the signature separator, and it with its space lost
SIGNATURE_STARTS = ("__", "sent from my ")


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


@dataclass(frozen=True)
class Refusal:
    """A mail that is answered with ``text`` and otherwise left alone."""

    sender: str
    subject: str
    message_id: str | None
    references: tuple[str, ...]
    reason: str  # too-large, html-only, no-text, malformed, no-command, not-authentic
    text: str
    name: str = ""
    tag: Tag | None = None


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
        addresses += [a[:MAX_ADDRESS_CHARS] for _, a in getaddresses(values)]
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


def command_lines(text: str) -> tuple[str, ...]:
    """The lines of a reply that are neither quoted nor signature, normalised (see
    `reading.normalise`): the command is among them (see `reading.find_command`)."""
    lines: list[str] = []
    for raw in normalise(text).replace("\r\n", "\n").split("\n"):
        line = raw.strip()
        if line.startswith(">") or ATTRIBUTION.match(line):
            if lines:
                break
            continue
        if raw.rstrip("\r") in SIGNATURE_LINES or line.lower().startswith(SIGNATURE_STARTS):
            break
        if not line:
            continue
        lines.append(" ".join(line.split()))
        if len(lines) == MAX_COMMAND_LINES:
            break
    return tuple(lines)


def _ids(value: object) -> tuple[str, ...]:
    return tuple(i for i in re.findall(r"<[^<>\s\x00-\x1f\x7f]+>", str(value or ""))
                 if len(i) <= MAX_ID_CHARS)


def read_mail(raw: bytes, envelope_from: str | None, rcpt_tos: Iterable[str], *,
              our_address: str, max_bytes: int,
              authserv: str = "", lookup: TxtLookup | None = None) -> Inbound | Refusal | Drop:
    """Judge one incoming mail, in order: size, sender, machine mail and loops, whether it
    comes from its From domain (`authenticity`), MIME structure, a text part, command lines.
    A signing domain's mail without its valid signature is refused (`NOT_AUTHENTIC`). With
    ``authserv`` (a trusted front mail server) its ``Authentication-Results`` decide instead
    of our own checks, and mail it did not verify is dropped (answering it would mail
    whoever was forged). ``lookup`` answers DNS (default: the system's resolver); it may
    wait for DNS, so the gateway calls this in a thread. (Rate limits are the gateway's:
    they depend on whether the key is valid.)"""
    oversize = len(raw) > max_bytes
    if oversize:
        message = BytesHeaderParser(policy=policy.default).parsebytes(raw[:HEADER_BYTES])
    else:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(message, EmailMessage)
    sender, name = sender_of(message, envelope_from)
    if not sender:
        return Drop("no sender address to answer")
    if is_our_own(sender, our_address):
        return Drop(f"our own address {sender}")
    if why := is_machine_mail(message, envelope_from):
        return Drop(f"sent by a machine ({why})")
    authenticity = _authenticity(raw, message, sender, authserv, lookup, oversize)
    if authserv and isinstance(authenticity, Unverified):
        return Drop(f"{authserv} did not verify that the mail comes from {sender}")
    subject = _subject(message)
    message_id = next(iter(_ids(message.get("Message-ID"))), None)
    refs = _ids(message.get("References")) or _ids(message.get("In-Reply-To"))
    refs = refs[-MAX_REFERENCES:]

    def refuse(reason: str, text: str) -> Refusal:
        return Refusal(sender, subject, message_id, refs, reason, text, name,
                       find_tag(message, rcpt_tos))

    if isinstance(authenticity, Forged):
        return refuse(NOT_AUTHENTIC, authenticity.text)
    if oversize:
        return refuse("too-large", f"Your mail is {len(raw) // 1024} KiB, more than the "
                                   f"{max_bytes // 1024} KiB I accept, so I did not read it. "
                                   f"Please reply without attachments or quoted pictures, "
                                   f"with just your command.")
    if _structure_defects(message):
        return refuse("malformed", "I could not read your mail: its MIME structure is broken "
                                   "(a multipart mail without its parts, or damaged encoding). "
                                   "Please send your command again as plain text.")
    body = message.get_body(preferencelist=("plain",))
    if body is None:
        if message.get_body(preferencelist=("html",)) is not None:
            return refuse("html-only", "Your mail has only an HTML version, and I read only plain "
                                       "text (HTML can hide text). Please switch your mail "
                                       "program to plain text, or add a plain-text version, "
                                       "and send your command again.")
        return refuse("no-text", "Your mail has no text for me to read. Write your command "
                                 "on the first line, for example `help`.")
    try:
        text = body.get_content()
    except (LookupError, UnicodeError, ValueError, AssertionError):
        return refuse("malformed", "I could not read the text of your mail (an unknown or "
                                   "damaged character encoding). Please send it again as "
                                   "plain text in UTF-8.")
    lines = command_lines(str(text))
    return Inbound(sender, name, subject, message_id, refs, lines,
                   find_tag(message, rcpt_tos))


def _authenticity(raw: bytes, message: EmailMessage, sender: str, authserv: str,
                  lookup: TxtLookup | None, oversize: bool) -> Authenticity:
    """Whether the mail comes from its sender's domain: as the trusted front server says,
    else by our own checks (not of an oversize mail, whose body is not read: it is only
    answered that it is too large)."""
    domain = sender.rsplit("@", 1)[-1]
    if authserv:
        return judge_by_results(message, authserv, domain)
    if oversize:
        return Unverified("too large to verify")
    return judge(raw, domain, lookup)


def _subject(message: EmailMessage) -> str:
    return clean_header(decode_header_value(" ".join(raw_header(message, "Subject").split()))
                        or "", SUBJECT_CHARS)


def display_address(address: str, name: str = "") -> str:
    """``Name <address>`` as a header value."""
    local, _, domain = address.partition("@")
    return str(Address(display_name=name, username=local, domain=domain))
