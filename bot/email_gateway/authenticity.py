"""Whether a mail comes from the domain its From header names: DKIM signatures (verified with
`dkimpy`) and the From domain's DMARC policy, or the word of a trusted front mail server.

The rule: a domain that publishes a DMARC policy of ``reject`` or ``quarantine``, or whose
mail carries a DKIM signature of its own (of the From domain or of its organisational
domain: a *signing domain*), must pass — a valid DKIM signature aligned with the From
domain (relaxed alignment unless its DMARC record says ``adkim=s``). Its mail that does not
is refused (`Forged`). Mail of a domain without such a policy and without its signature is
read as before (`Unverified`): keys still protect games.

What we chose where the issue is silent:

- **SPF is not checked.** It needs the IP address of the server that connected to ours, and
  mail may reach us through a relay or a polled mailbox, where that address is not known.
  A front mail server that receives mail first checks SPF: set
  ``COMMANDPOST_EMAIL_TRUST_AUTH_RESULTS`` to its name and its ``Authentication-Results``
  header is trusted instead of our own checks (`judge_by_results`). The cost: a domain
  with a ``reject`` or ``quarantine`` policy whose mail passes DMARC by SPF alone (sent
  without its own DKIM signature) is refused here; such a service needs the front server.
- **A DNS failure (timeout, SERVFAIL) is a temporary error, and the mail is read as
  unverified** (`Unverified`, logged), not held back: a resolver that is down must not stop
  play, and over IMAP there is no sender to ask to retry. A forger cannot make the DNS of
  the domain they forge fail for us, so this opens no door that keys do not close.
- **Time is bounded**: each DNS query gets `QUERY_SECONDS`, a mail `MAIL_SECONDS` in all; at
  most `MAX_SIGNATURES` signatures are tried; a mail whose header block is larger than
  `MAX_HEADER_BYTES` or `MAX_HEADER_LINES`, or whose signature header is longer than
  `MAX_SIGNATURE_BYTES`, is not given to dkimpy (whose header parser is quadratic in the
  number of folded lines of one field) and counts as not verified. dkimpy's relaxed body
  canonicalisation is quadratic in a run of blanks (its pattern ``[\\t ]+\\r\\n``): the body is
  given to it with each run of blanks already made one space, which relaxed
  canonicalisation does anyway, so the hash is the same and the cost linear.
- ``p=quarantine`` counts as ``reject`` (we have no spam folder), and ``pct=`` is not
  applied: a domain that asks for its failing mail to be refused gets all of it refused.
- ARC seals (which some mailing lists add after breaking a signature) are not trusted: such
  mail is refused, and its sender is told to send it directly.
- `authheaders` was compared and not used: it wants the connecting IP, envelope sender and
  HELO for SPF (which we do not have), carries its own copy of the public suffix list, runs
  the same dkimpy verification (so the same quadratic body canonicalisation), and returns
  an ``Authentication-Results`` text that we would parse again. Its DMARC part for DKIM
  alone is the few lines of `dmarc_policy` and `aligned`.
- This runs in a thread (the gateway reads mail off the event loop), so waiting for DNS
  never holds the Discord bot or other mail.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from functools import cache

import dkim
import dns.exception
import dns.resolver
from publicsuffixlist import PublicSuffixList

from ..i18n import Text, _

log = logging.getLogger(__name__)

QUERY_SECONDS = 3.0  # one DNS query
MAIL_SECONDS = 6.0  # all the DNS queries of one mail
MAX_SIGNATURES = 5
MAX_HEADER_BYTES = 64 * 1024
MAX_HEADER_LINES = 1000
MAX_SIGNATURE_BYTES = 4096
MAX_RECORD_BYTES = 4096  # a longer DMARC record is ignored
BLANKS = re.compile(rb"[\t ]+")
HEADER_END = re.compile(rb"\r?\n\r?\n")


def tail() -> Text:
    """What every refusal of a mail that is not authentic ends with."""
    return _("If you sent it, your mail program or a forwarder changed it on the way: please "
             "send it again directly from your own mail program. If you did not, someone "
             "used your address, and you can ignore this mail.")


class DnsTrouble(Exception):
    """A DNS query that got no answer (timeout, SERVFAIL, no resolver): a temporary error."""


# a TXT lookup: the TXT records of a name (each one's strings joined), [] when the name or
# its TXT records do not exist; raises DnsTrouble when DNS does not answer in ``timeout``
TxtLookup = Callable[[str, float], list[bytes]]


@dataclass(frozen=True)
class Verified:
    """A valid DKIM signature aligned with the From domain (or the front server's word)."""

    domain: str  # the signing domain
    how: str


@dataclass(frozen=True)
class Unverified:
    """A domain that neither signs nor publishes a policy asking for it (or DNS failed):
    read as any mail is, keys protect games."""

    why: str


@dataclass(frozen=True)
class Forged:
    """A signing domain's mail without a valid aligned signature: refused with ``text``."""

    domain: str
    why: str  # for the log: did-not-verify, missing, other-domain
    text: str


Authenticity = Verified | Unverified | Forged


def resolve_txt(name: str, timeout: float) -> list[bytes]:
    """The TXT records of ``name`` from the system's resolver (dnspython)."""
    try:
        answer = _resolver().resolve(name, "TXT", lifetime=timeout, search=False,
                                     raise_on_no_answer=False)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return []
    except (dns.exception.DNSException, OSError) as error:
        raise DnsTrouble(f"{name}: {type(error).__name__}") from error
    return [b"".join(record.strings) for record in answer]


@cache
def _resolver() -> dns.resolver.Resolver:
    """The system's resolver (``/etc/resolv.conf``), made once."""
    resolver = dns.resolver.Resolver()
    resolver.timeout = QUERY_SECONDS
    return resolver


@cache
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList()


def organisational_domain(domain: str) -> str:
    """The registered domain ``domain`` belongs to (``mail.example.co.uk`` ->
    ``example.co.uk``), from the public suffix list; the domain itself when it is a suffix."""
    return _suffixes().privatesuffix(domain.lower()) or domain.lower()


def aligned(signer: str, domain: str, strict: bool) -> bool:
    """Whether a signature of ``signer`` is aligned with the From ``domain`` (RFC 7489 3.1)."""
    signer, domain = signer.lower().rstrip("."), domain.lower().rstrip(".")
    if strict:
        return signer == domain
    return organisational_domain(signer) == organisational_domain(domain)


class Budget:
    """One mail's DNS: each query gets at most `QUERY_SECONDS`, all of them `MAIL_SECONDS`."""

    def __init__(self, lookup: TxtLookup, seconds: float = MAIL_SECONDS) -> None:
        self.lookup = lookup
        self.deadline = time.monotonic() + seconds

    def txt(self, name: str) -> list[bytes]:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise DnsTrouble(f"{name}: no time left for this mail's DNS")
        return self.lookup(name, min(QUERY_SECONDS, left))

    def dkim_key(self, name: bytes | str, timeout: float = QUERY_SECONDS) -> bytes | None:
        """dkimpy's ``dnsfunc``: the key record of ``selector._domainkey.domain``."""
        text = name.decode("ascii", "replace") if isinstance(name, bytes) else name
        records = self.txt(text.rstrip("."))
        keys = [r for r in records if b"p=" in r]  # other TXT records may share the name
        return keys[0] if keys else (records[0] if records else None)


@dataclass(frozen=True)
class Policy:
    """The DMARC record that applies to a From domain."""

    action: str  # none, quarantine, reject
    strict_dkim: bool


def dmarc_policy(domain: str, budget: Budget) -> Policy | None:
    """The DMARC policy of ``domain``: its own ``_dmarc`` record, else its organisational
    domain's (with ``sp=`` for a subdomain); None when there is none."""
    domain = domain.lower().rstrip(".")
    tags = _dmarc_record(domain, budget)
    action = tags.get("p") if tags else None
    organisation = organisational_domain(domain)
    if tags is None and organisation != domain:
        tags = _dmarc_record(organisation, budget)
        action = (tags.get("sp") or tags.get("p")) if tags else None
    if tags is None:
        return None
    action = (action or "").lower()
    if action not in ("none", "quarantine", "reject"):
        action = "none"  # RFC 7489 6.6.3: a record with a bad p= is read as p=none ...
    return Policy(action, tags.get("adkim", "r").lower() == "s")


def _dmarc_record(domain: str, budget: Budget) -> dict[str, str] | None:
    """The tags of the one DMARC record at ``_dmarc.domain`` (None: none, or several)."""
    found = [r for r in budget.txt(f"_dmarc.{domain}")
             if len(r) <= MAX_RECORD_BYTES and r[:8].lower() == b"v=dmarc1"]
    if len(found) != 1:
        return None
    tags: dict[str, str] = {}
    for part in found[0].decode("ascii", "replace").split(";"):
        name, _eq, value = part.partition("=")
        tags.setdefault(name.strip().lower(), value.strip())
    return tags


@dataclass(frozen=True)
class Signature:
    """One DKIM signature of the mail and what became of it."""

    domain: str
    valid: bool


def judge(raw: bytes, domain: str, lookup: TxtLookup | None = None) -> Authenticity:
    """Whether the mail ``raw``, From an address at ``domain``, comes from that domain
    (``lookup`` answers DNS; default: `resolve_txt`)."""
    budget = Budget(lookup or resolve_txt)
    try:
        signatures = verify_signatures(raw, budget)
        if any(s.valid and s.domain == domain.lower() for s in signatures):
            return Verified(domain, "dkim")  # aligned however the policy reads
        policy = dmarc_policy(domain, budget)
    except DnsTrouble as trouble:
        log.warning("DNS failed while checking mail from %s (read as unverified): %s",
                    domain, trouble)
        return Unverified(f"DNS failed: {trouble}")
    strict = policy is not None and policy.strict_dkim
    if passed := next((s for s in signatures if s.valid and aligned(s.domain, domain, strict)),
                      None):
        return Verified(passed.domain, "dkim")
    own = [s for s in signatures if aligned(s.domain, domain, strict=False)]
    if own and not any(s.valid for s in own):
        return refusal(domain, "did-not-verify")
    if policy is None or policy.action == "none":
        if own:  # signed by its own organisation, but not aligned strictly enough
            return refusal(domain, "other-domain", own[0].domain)
        return Unverified("no DMARC policy and no signature of the domain")
    others = [s.domain for s in signatures if s.valid]
    if others:
        return refusal(domain, "other-domain", others[0])
    return refusal(domain, "missing")


def refusal(domain: str, why: str, signer: str = "") -> Forged:
    """The refusal of a signing domain's mail, and what its sender is told."""
    what = {"did-not-verify": lambda: _("its signature did not verify"),
            "missing": lambda: _("it carried no signature of {domain}", domain=domain),
            "other-domain": lambda: _("its signature was for another domain ({signer})",
                                      signer=signer)}[why]()
    return Forged(domain, why, _("Your mail claims to come from {domain}, which signs its "
                                 "mail, but {what}, so I did not read it. {tail}",
                                 domain=domain, what=what, tail=tail()))


def verify_signatures(raw: bytes, budget: Budget) -> list[Signature]:
    """Every DKIM signature of ``raw`` (up to `MAX_SIGNATURES`), verified with dkimpy."""
    head = HEADER_END.search(raw)
    header_block = raw[:head.start()] if head else raw
    count = sum(1 for _unused in _signature_headers(header_block))
    if not count:
        return []
    if len(header_block) > MAX_HEADER_BYTES or header_block.count(b"\n") >= MAX_HEADER_LINES:
        return [Signature(d, False) for d in _signature_domains(header_block)]
    try:
        checker = dkim.DKIM(raw, minkey=1024, timeout=QUERY_SECONDS)
    except dkim.DKIMException:
        return [Signature(d, False) for d in _signature_domains(header_block)]
    body, blanked = checker.body, BLANKS.sub(b" ", checker.body)
    found = []
    for index in range(min(count, MAX_SIGNATURES)):
        found.append(_verify_one(checker, index, body, blanked, budget))
    return [s for s in found if s is not None]


def _verify_one(checker: dkim.DKIM, index: int, body: bytes, blanked: bytes,
                budget: Budget) -> Signature | None:
    """The signature ``index`` of the mail, verified (None: not a signature at all)."""
    try:
        headers = [v for k, v in checker.headers if k.lower() == b"dkim-signature"]
        if len(headers[index]) > MAX_SIGNATURE_BYTES:
            return Signature(_domain_in(headers[index]), False)
        prepared = checker.verify_headerprep(index)
        if not prepared:
            return None
        sig, include, sig_headers = prepared
        _head, slash, body_canon = sig.get(b"c", b"simple/simple").partition(b"/")
        checker.body = blanked if slash and body_canon.strip().lower() == b"relaxed" else body
        domain = sig[b"d"].decode("ascii", "replace").lower().rstrip(".")
        valid = bool(checker.verify_sig(sig, include, sig_headers[index], budget.dkim_key))
        return Signature(domain, valid)
    except (dkim.DKIMException, ValueError, KeyError, TypeError) as error:
        log.info("a DKIM signature does not verify: %s", error)
        headers = [v for k, v in checker.headers if k.lower() == b"dkim-signature"]
        return Signature(_domain_in(headers[index]), False)
    finally:
        checker.body = body


def _signature_headers(header_block: bytes) -> list[bytes]:
    """The raw values of the DKIM-Signature fields in a header block (folded lines joined)."""
    values: list[bytes] = []
    current: list[bytes] | None = None
    for line in header_block.split(b"\n"):
        if line[:1] in (b" ", b"\t"):
            if current is not None:
                current.append(line)
            continue
        if current is not None:
            values.append(b"".join(current))
        current = [line[15:]] if line[:15].lower() == b"dkim-signature:" else None
    if current is not None:
        values.append(b"".join(current))
    return values


def _signature_domains(header_block: bytes) -> list[str]:
    return [_domain_in(v) for v in _signature_headers(header_block)[:MAX_SIGNATURES]]


def _domain_in(value: bytes) -> str:
    """The d= of a DKIM-Signature value, read without dkimpy ("" when there is none)."""
    for part in value[:MAX_SIGNATURE_BYTES].split(b";"):
        name, _eq, domain = part.partition(b"=")
        if name.strip().lower() == b"d":
            return domain.strip().decode("ascii", "replace").lower().rstrip(".")
    return ""


def judge_by_results(message: EmailMessage, authserv: str, domain: str) -> Authenticity:
    """What our front mail server ``authserv`` found, in the outermost
    ``Authentication-Results`` header that carries its name (RFC 8601; it must remove such
    headers that come with the mail): ``dmarc=pass``, or ``dkim=pass``/``spf=pass`` of a
    domain aligned with ``domain`` (relaxed), verifies; ``dmarc=fail`` or a failed aligned
    DKIM signature is a forgery; anything else is unverified, and the gateway drops it (with
    this setting only verified mail is answered, as before)."""
    for value in message.get_all("Authentication-Results", [])[:50]:
        head, _semi, results = str(value)[:8192].partition(";")
        if [w.lower() for w in head.split()[:1]] != [authserv.lower()]:
            continue
        return _read_results(results, authserv, domain)
    return Unverified(f"no Authentication-Results of {authserv}")


def _read_results(results: str, authserv: str, domain: str) -> Authenticity:
    verdicts: list[tuple[str, str, Sequence[str]]] = []
    for result in results.split(";"):
        words = result.strip().lower().split()
        if words:
            method, _eq, verdict = words[0].partition("=")
            values = [w.split("=", 1)[1].rsplit("@", 1)[-1].strip("<>").rstrip(".")
                      for w in words[1:] if "=" in w]
            verdicts.append((method, verdict, values))
    for method, verdict, values in verdicts:
        if verdict == "pass" and (method == "dmarc" or (method in ("dkim", "spf") and any(
                aligned(v, domain, strict=False) for v in values))):
            return Verified(domain, f"{authserv}: {method}=pass")
    if any(m == "dkim" and r in ("fail", "neutral", "policy", "permerror")
           and any(aligned(v, domain, strict=False) for v in vs) for m, r, vs in verdicts):
        return refusal(domain, "did-not-verify")
    if any(m == "dmarc" and r == "fail" for m, r, _unused in verdicts):
        signers = [v for m, r, vs in verdicts if m == "dkim" and r == "pass" for v in vs
                   if "." in v and not aligned(v, domain, strict=False)]
        return refusal(domain, "other-domain", signers[0]) if signers \
            else refusal(domain, "missing")
    return Unverified(f"{authserv} did not verify that the mail comes from {domain}")
