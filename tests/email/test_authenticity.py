"""A domain that signs its mail must have signed it: DKIM signatures made here with test
keys, DNS answered by the tests (`fake_dns`): nothing leaves the machine."""

from __future__ import annotations

import base64
import socketserver
import threading
from dataclasses import replace
from email.utils import make_msgid

import dkim
import dns.message
import dns.rcode
import dns.resolver
import dns.rrset
import nacl.signing
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from bot.email_gateway import authenticity
from bot.email_gateway.authenticity import (
    Budget,
    DnsTrouble,
    Forged,
    Unverified,
    Verified,
    judge,
    resolve_txt,
)
from bot.email_gateway.inbound import NOT_AUTHENTIC, Drop, Inbound, Refusal, read_mail

OURS = "play@games.test"
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
RSA_PEM = RSA_KEY.private_bytes(serialization.Encoding.PEM,
                                serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption())
RSA_RECORD = "v=DKIM1; k=rsa; p=" + base64.b64encode(RSA_KEY.public_key().public_bytes(
    serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).decode()
ED_KEY = nacl.signing.SigningKey(bytes(range(32)))
ED_RECORD = "v=DKIM1; k=ed25519; p=" + base64.b64encode(bytes(ED_KEY.verify_key)).decode()
TAIL = ("If you sent it, your mail program or a forwarder changed it on the way: please send "
        "it again directly from your own mail program. If you did not, someone used your "
        "address, and you can ignore this mail.")


def plain(sender: str, text: str = "help", *, to: str = OURS,
          headers: tuple[str, ...] = ()) -> bytes:
    """A plain-text mail as a mail program sends it (CRLF lines)."""
    head = [f"From: {sender}", f"To: {to}", "Subject: hi",
            f"Message-ID: {make_msgid(domain='players.test')}",
            "Date: Tue, 24 Nov 2026 10:00:00 +0000", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", *headers]
    return ("\r\n".join(head) + "\r\n\r\n" + text.replace("\n", "\r\n") + "\r\n").encode()


def signed(raw: bytes, domain: str, *, selector: str = "s1", ed25519: bool = False,
           canonicalize: tuple[bytes, bytes] = (b"relaxed", b"relaxed")) -> bytes:
    """``raw`` with a DKIM signature of ``domain`` on top, as its mail server adds it."""
    if ed25519:
        key, algorithm = base64.b64encode(bytes(ED_KEY)), b"ed25519-sha256"
    else:
        key, algorithm = RSA_PEM, b"rsa-sha256"
    header = dkim.sign(raw, selector.encode(), domain.encode(), key, canonicalize=canonicalize,
                       signature_algorithm=algorithm,
                       include_headers=[b"from", b"to", b"subject", b"date", b"message-id"])
    return header + raw


def publish(fake_dns, domain: str, *, dmarc: str | None = None, selector: str = "s1",
            ed25519: bool = False) -> None:
    """``domain``'s key for ``selector`` (and its DMARC record) in the DNS."""
    fake_dns.add(f"{selector}._domainkey.{domain}", ED_RECORD if ed25519 else RSA_RECORD)
    if dmarc is not None:
        fake_dns.add(f"_dmarc.{domain}", dmarc)


def refused(domain: str, what: str) -> str:
    return (f"Your mail claims to come from {domain}, which signs its mail, but {what}, so I "
            f"did not read it. {TAIL}")


def read(raw: bytes, **options) -> Inbound | Refusal | Drop:
    return read_mail(raw, None, [OURS], our_address=OURS, max_bytes=200_000, **options)


# --- our own checks ----------------------------------------------------------------------
@pytest.mark.parametrize("ed25519", [False, True], ids=["rsa", "ed25519"])
def test_a_valid_signature_of_the_from_domain_passes(fake_dns, ed25519):
    publish(fake_dns, "signed.test", dmarc="v=DMARC1; p=reject", ed25519=ed25519)
    raw = signed(plain("Alice <alice@signed.test>"), "signed.test", ed25519=ed25519)
    assert judge(raw, "signed.test") == Verified("signed.test", "dkim")
    mail = read(raw)
    assert isinstance(mail, Inbound) and mail.lines == ("help",)


def test_a_body_changed_after_signing_is_refused(fake_dns):
    publish(fake_dns, "signed.test")  # no DMARC: the signature alone makes it a signing domain
    raw = signed(plain("Alice <alice@signed.test>", "resign"), "signed.test")
    raw = raw.replace(b"resign", b"move a1-a3/B")
    verdict = judge(raw, "signed.test")
    assert verdict == Forged("signed.test", "did-not-verify",
                             refused("signed.test", "its signature did not verify"))
    mail = read(raw)
    assert isinstance(mail, Refusal) and mail.reason == NOT_AUTHENTIC
    assert mail.text == refused("signed.test", "its signature did not verify")


def test_a_key_that_is_not_published_fails_the_signature(fake_dns):
    raw = signed(plain("alice@signed.test"), "signed.test")
    assert judge(raw, "signed.test") == Forged(
        "signed.test", "did-not-verify", refused("signed.test", "its signature did not verify"))


def test_no_signature_from_a_domain_whose_policy_is_reject_is_refused(fake_dns):
    fake_dns.add("_dmarc.signed.test", "v=DMARC1; p=reject; rua=mailto:d@signed.test")
    verdict = judge(plain("alice@signed.test"), "signed.test")
    assert verdict == Forged("signed.test", "missing",
                             refused("signed.test", "it carried no signature of signed.test"))


def test_quarantine_is_enforced_as_reject_is_and_none_is_not(fake_dns):
    fake_dns.add("_dmarc.strict.test", "v=DMARC1; p=quarantine")
    fake_dns.add("_dmarc.relaxed.test", "v=DMARC1; p=none")
    assert isinstance(judge(plain("a@strict.test"), "strict.test"), Forged)
    assert judge(plain("a@relaxed.test"), "relaxed.test") == Unverified(
        "no DMARC policy and no signature of the domain")


def test_no_signature_from_a_domain_without_dmarc_is_read_as_before(fake_dns):
    raw = plain("Carol <carol@players.test>")
    assert judge(raw, "players.test") == Unverified(
        "no DMARC policy and no signature of the domain")
    assert fake_dns.asked == ["_dmarc.players.test"]
    mail = read(raw)
    assert isinstance(mail, Inbound) and mail.sender == "carol@players.test"


def test_a_signature_of_another_domain_does_not_stand_for_the_from_domain(fake_dns):
    publish(fake_dns, "lists.test")
    fake_dns.add("_dmarc.signed.test", "v=DMARC1; p=reject")
    raw = signed(plain("alice@signed.test"), "lists.test")
    assert judge(raw, "signed.test") == Forged(
        "signed.test", "other-domain",
        refused("signed.test", "its signature was for another domain (lists.test)"))
    # a domain without a policy: a list's signature is fine, the mail is read as before
    assert isinstance(judge(signed(plain("carol@players.test"), "lists.test"), "players.test"),
                      Unverified)


def test_relaxed_alignment_takes_the_organisational_domain_and_strict_does_not(fake_dns):
    publish(fake_dns, "example.org", dmarc="v=DMARC1; p=reject")
    raw = signed(plain("alice@mail.example.org"), "example.org")
    assert judge(raw, "mail.example.org") == Verified("example.org", "dkim")
    fake_dns.records["_dmarc.example.org"] = [b"v=DMARC1; p=reject; adkim=s"]
    assert judge(raw, "mail.example.org") == Forged(
        "mail.example.org", "other-domain",
        refused("mail.example.org", "its signature was for another domain (example.org)"))


def test_a_subdomain_takes_the_organisational_domains_subdomain_policy(fake_dns):
    fake_dns.add("_dmarc.example.co.uk", "v=DMARC1; p=reject; sp=none")
    assert isinstance(judge(plain("a@news.example.co.uk"), "news.example.co.uk"), Unverified)
    assert fake_dns.asked == ["_dmarc.news.example.co.uk", "_dmarc.example.co.uk"]
    fake_dns.records["_dmarc.example.co.uk"] = [b"v=DMARC1; p=reject"]
    assert judge(plain("a@news.example.co.uk"), "news.example.co.uk") == Forged(
        "news.example.co.uk", "missing",
        refused("news.example.co.uk", "it carried no signature of news.example.co.uk"))
    fake_dns.add("_dmarc.news.example.co.uk", "v=DMARC1; p=none")  # its own record wins
    assert isinstance(judge(plain("a@news.example.co.uk"), "news.example.co.uk"), Unverified)


def test_a_subdomain_signed_by_its_organisation_passes_with_relaxed_alignment(fake_dns):
    publish(fake_dns, "news.example.org")
    raw = signed(plain("a@example.org"), "news.example.org")
    assert judge(raw, "example.org") == Verified("news.example.org", "dkim")


@pytest.mark.parametrize("down", ["s1._domainkey.signed.test", "_dmarc.signed.test"])
def test_a_dns_timeout_reads_the_mail_as_unverified(fake_dns, down):
    publish(fake_dns, "signed.test", dmarc="v=DMARC1; p=reject")
    fake_dns.down.add(down)
    raw = signed(plain("alice@signed.test"), "signed.test")
    if down.startswith("_dmarc"):
        raw = plain("alice@signed.test")  # unsigned: the policy decides, and cannot be read
    verdict = judge(raw, "signed.test")
    assert verdict == Unverified(f"DNS failed: {down}: Timeout")
    assert isinstance(read(raw), Inbound)


def test_blanks_in_the_body_keep_their_hash_in_both_canonicalisations(fake_dns):
    """The body is given to dkimpy with runs of blanks made one (its relaxed canonicalisation
    is quadratic in them): the hash of a relaxed signature is the same, and a simple
    signature still sees every blank."""
    publish(fake_dns, "signed.test", dmarc="v=DMARC1; p=reject")
    text = "move \t  a1-a3/B   \n\n" + " " * 5000 + "x \t\n" + "\t" * 3000 + "\n"
    for body_canon in (b"relaxed", b"simple"):
        raw = signed(plain("a@signed.test", text), "signed.test",
                     canonicalize=(b"relaxed", body_canon))
        assert judge(raw, "signed.test") == Verified("signed.test", "dkim")
    changed = raw.replace(b"move \t  a1", b"move a1")  # blanks count under simple
    assert isinstance(judge(changed, "signed.test"), Forged)
    relaxed = signed(plain("a@signed.test", text), "signed.test")
    assert judge(relaxed.replace(b"move \t  a1", b"move a1"), "signed.test") == \
        Verified("signed.test", "dkim")  # ... and not under relaxed


def test_an_oversized_header_block_is_not_given_to_dkimpy(fake_dns):
    publish(fake_dns, "signed.test")
    raw = signed(plain("a@signed.test"), "signed.test")
    folded = "X-Filler: x" + "\r\n y" * 1200
    raw = raw.replace(b"MIME-Version", folded.encode() + b"\r\nMIME-Version", 1)
    assert judge(raw, "signed.test").why == "did-not-verify"


# --- a trusted front mail server -------------------------------------------------------
@pytest.mark.parametrize(("results", "verdict"), [
    ("mx.games.test; dkim=pass header.d=players.test; spf=fail", "read"),
    ("mx.games.test; dkim=pass header.d=news.players.test", "read"),
    ("mx.games.test; dmarc=pass header.from=players.test", "read"),
    ("mx.games.test; spf=pass smtp.mailfrom=carol@players.test", "read"),
    ("mx.games.test; dkim=pass header.d=evilplayers.test; spf=fail", "dropped"),
    ("mx.games.test; dkim=none; dmarc=none", "dropped"),
    ("other.test; dmarc=pass header.from=players.test", "dropped"),
    ("mx.games.test; dkim=fail header.d=players.test; dmarc=fail header.from=players.test",
     "its signature did not verify"),
    ("mx.games.test; dkim=pass header.d=lists.test; dmarc=fail header.from=players.test",
     "its signature was for another domain (lists.test)"),
    ("mx.games.test; dkim=none; dmarc=fail (p=reject) header.from=players.test",
     "it carried no signature of players.test"),
])
def test_a_trusted_front_servers_results_decide_instead_of_our_checks(fake_dns, results,
                                                                      verdict):
    fake_dns.down.add("*")  # our own checks are not made
    mail = read(plain("Carol <carol@players.test>",
                      headers=(f"Authentication-Results: {results}",)),
                authserv="mx.games.test")
    if verdict == "read":
        assert isinstance(mail, Inbound)
    elif verdict == "dropped":
        assert isinstance(mail, Drop)
    else:
        assert isinstance(mail, Refusal) and mail.text == refused("players.test", verdict)
    assert fake_dns.asked == []


def test_only_the_outermost_results_of_the_trusted_server_count(fake_dns):
    """The front server adds its header on top; one below with its name came with the mail
    (a forgery its server should have removed) and is not read."""
    mail = read(plain("carol@players.test", headers=(
        "Authentication-Results: mx.games.test; dkim=fail header.d=players.test",
        "Authentication-Results: mx.games.test; dmarc=pass header.from=players.test")),
        authserv="mx.games.test")
    assert isinstance(mail, Refusal) and mail.reason == NOT_AUTHENTIC


def test_a_forged_results_header_of_another_host_is_ignored(fake_dns):
    fake_dns.add("_dmarc.signed.test", "v=DMARC1; p=reject")
    raw = plain("alice@signed.test", headers=(
        "Authentication-Results: mx.games.test; dkim=pass header.d=signed.test",))
    assert isinstance(read(raw), Refusal)  # we check ourselves: the header means nothing
    assert isinstance(read(raw, authserv="mx.other.test"), Drop)


def test_the_old_variable_name_still_sets_the_trusted_server():
    from bot.config import Settings

    old = Settings.from_env({"COMMANDPOST_EMAIL_TRUSTED_AUTHSERV": "mx.old.test"})
    assert old.email_trust_auth_results == "mx.old.test"
    both = Settings.from_env({"COMMANDPOST_EMAIL_TRUSTED_AUTHSERV": "mx.old.test",
                              "COMMANDPOST_EMAIL_TRUST_AUTH_RESULTS": "mx.new.test"})
    assert both.email_trust_auth_results == "mx.new.test"


# --- through the gateway, over SMTP on loopback -----------------------------------------
ALICE, BOB = "alice@players.test", "bob@players.test"


def _reply(sender: str, to_mail, text: str) -> bytes:
    return plain(sender, text, to=str(to_mail["Reply-To"]), headers=(
        f"In-Reply-To: {to_mail['Message-ID']}", f"References: {to_mail['Message-ID']}"))


async def _legal(mail) -> str:
    return (await mail.service.legal_moves(await mail.service.game(1)))[0]


async def test_a_forged_move_is_refused_over_smtp_and_a_signed_one_played(mail, game, fake_dns):
    """players.test publishes p=reject after the game began: Alice's key alone no longer
    plays; her sender is told once an hour; her own server's signature plays the move."""
    fake_dns.add("_dmarc.players.test", "v=DMARC1; p=reject")
    move = await _legal(mail)
    to = str(game[ALICE]["Reply-To"])
    forged = _reply(f"Alice <{ALICE}>", game[ALICE], f"move {move}")
    await mail.post.send(ALICE, raw=forged, to=to)
    answer = await mail.relay.next_to(ALICE)
    assert mail.text_of(answer) == refused(
        "players.test", "it carried no signature of players.test") + "\r\n"
    assert str(answer["Reply-To"]) == OURS  # no key goes to whoever reads the forged address
    assert answer["In-Reply-To"] == forged.split(b"Message-ID: ")[1].split(b"\r\n")[0].decode()
    assert (await mail.service.game(1)).ply == 0
    await mail.post.send(ALICE, raw=_reply(f"Alice <{ALICE}>", game[ALICE], f"move {move}"),
                         to=to)
    assert await mail.relay.nothing_to(ALICE)  # told once within the hour
    assert (await mail.service.game(1)).ply == 0
    publish(fake_dns, "players.test")
    await mail.post.send(ALICE, raw=signed(forged, "players.test"), to=to)
    answer = await mail.relay.next_to(ALICE)
    assert f"{move} played in game #1" in mail.text_of(answer)
    assert (await mail.service.game(1)).ply == 1


async def test_a_refused_mail_does_not_count_as_the_address_having_written(mail, fake_dns):
    publish(fake_dns, "signed.test", dmarc="v=DMARC1; p=reject")
    raw = signed(plain("Dora <dora@signed.test>", "help"), "signed.test").replace(
        b"help", b"stop")
    await mail.post.send("dora@signed.test", raw=raw)
    answer = await mail.relay.next_to("dora@signed.test")
    assert mail.text_of(answer) == refused("signed.test", "its signature did not verify") + "\r\n"
    known = await mail.service.mail.mail_address("dora@signed.test")
    assert all(value is None for value in known.values())  # nothing is known of it
    async with mail.service.db.snapshot() as s:
        assert await s.all("SELECT id FROM players WHERE address = ?", ("dora@signed.test",)) == []


async def test_a_dns_timeout_over_smtp_reads_the_mail_as_before(mail, fake_dns):
    fake_dns.down.add("*")
    await mail.post.send("Carol <carol@players.test>", "help")
    answer = await mail.relay.next_to("carol@players.test")
    assert mail.text_of(answer).startswith("Commands (")
    assert fake_dns.asked == ["_dmarc.players.test"]
    # DNS is asked off the event loop: waiting for it holds neither mail nor Discord
    assert all(name.startswith("mail-reader") for name in fake_dns.threads)


class LoopbackDns(socketserver.BaseRequestHandler):
    """A DNS server on loopback: TXT records of `ZONE`; NXDOMAIN for other names; no
    answer at all for silent.test."""

    ZONE = {"s1._domainkey.signed.test": ['"v=DKIM1; k=rsa; " "p=ABCD"', '"other text"']}

    def handle(self) -> None:
        data, sock = self.request
        query = dns.message.from_wire(data)
        name = query.question[0].name
        if str(name).rstrip(".") == "silent.test":
            return
        response = dns.message.make_response(query)
        records = self.ZONE.get(str(name).rstrip("."))
        if records:
            response.answer.append(dns.rrset.from_text(name, 60, "IN", "TXT", *records))
        else:
            response.set_rcode(dns.rcode.NXDOMAIN)
        sock.sendto(response.to_wire(), self.client_address)


def test_the_system_resolver_reads_txt_records_and_gives_up_in_time(monkeypatch):
    server = socketserver.ThreadingUDPServer(("127.0.0.1", 0), LoopbackDns)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers, resolver.port = ["127.0.0.1"], server.server_address[1]
    monkeypatch.setattr(authenticity, "_resolver", lambda: resolver)
    try:
        assert sorted(resolve_txt("s1._domainkey.signed.test", 2.0)) == [  # a set in DNS
            b"other text", b"v=DKIM1; k=rsa; p=ABCD"]
        assert Budget(resolve_txt).dkim_key(b"s1._domainkey.signed.test.") == \
            b"v=DKIM1; k=rsa; p=ABCD"
        assert resolve_txt("_dmarc.nothing.test", 2.0) == []
        with pytest.raises(DnsTrouble, match="^silent.test: LifetimeTimeout$"):
            resolve_txt("silent.test", 0.2)
    finally:
        server.shutdown()
        server.server_close()


async def test_the_trusted_front_server_refuses_a_failed_signature_over_smtp(mail):
    mail.gateway.settings = replace(mail.gateway.settings,
                                    email_trust_auth_results="mx.games.test")
    await mail.post.send("Carol <carol@players.test>", "help", headers={
        "Authentication-Results": "mx.games.test; dkim=fail header.d=players.test"})
    answer = await mail.relay.next_to("carol@players.test")
    assert mail.text_of(answer) == refused("players.test",
                                           "its signature did not verify") + "\r\n"


async def test_an_address_that_said_stop_is_not_told_of_a_refused_mail(mail, fake_dns):
    fake_dns.add("_dmarc.signed.test", "v=DMARC1; p=reject")
    await mail.service.mail.mark_address("dora@signed.test", "stopped_at")
    await mail.post.send("Dora <dora@signed.test>", "help")
    assert await mail.relay.nothing_to("dora@signed.test")
    assert await mail.gateway.receive(plain("dora@signed.test"), "dora@signed.test", [OURS]) \
        == "dropped: not authentic (the address said stop)"
