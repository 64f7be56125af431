"""Clean headers, rate limits that cannot be turned against a player, duplicates, mail to
addresses that never wrote, result mails, help, STARTTLS, and a whole game played only by
replying to the latest mail received."""

from __future__ import annotations

import random
import re
import shutil
import ssl
import subprocess
from dataclasses import replace
from email import policy
from email.parser import BytesParser

import aiosmtplib
import pytest

from bot.email_gateway.gateway import HOUR, EmailGateway
from bot.email_gateway.server import start_smtp_server
from bot.service import GameService
from bot.service.clock import format_time

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"
OURS = "play@games.test"


async def _legal(mail, game_id: int = 1) -> str:
    return (await mail.service.legal_moves(await mail.service.game(game_id)))[0]


async def _name_of(service, address: str) -> str | None:
    async with service.db.snapshot() as s:
        row = await s.one("SELECT display_name FROM players WHERE address = ?", (address,))
    return row["display_name"] if row else None


def _raw(headers: bytes, body: bytes = b"help\r\n") -> bytes:
    return headers + b"\r\nTo: play@games.test\r\nMessage-ID: <h1@players.test>\r\n\r\n" + body


# --- clean headers -----------------------------------------------------------------------
@pytest.mark.parametrize(("headers", "name", "subject"), [
    (b"From: Carol <carol@players.test>\r\nSubject: Hello\x00world", "Carol",
     "Re: Hello world"),
    (b"From: =?utf-8?q?Carol=0D=0ABcc:_x@evil.test?= <carol@players.test>\r\n"
     b"Subject: =?utf-8?q?Hi=0D=0ABcc:_victim@evil.test?=", "Carol Bcc: x@evil.test",
     "Re: Hi Bcc: victim@evil.test"),
    (b"From: =?utf-8?b?w6[?= <carol@players.test>\r\nSubject: =?x-unknown?q?abc?=", "carol",
     "Your mail to commandpost"),
    ("From: Zo\u00eb <carol@players.test>\r\nSubject: Gr\u00fc\u00dfe".encode(),
     "Zo\u00eb", "Re: Gr\u00fc\u00dfe"),
    ("From: Zo\u00eb <carol@players.test>\r\nSubject: Gr\u00fc\u00dfe".encode("latin-1"),
     "Zo\u00eb", "Re: Gr\u00fc\u00dfe"),
    (b"From: Carol <carol@players.test>\r\nSubject: " + b"long " * 60, "Carol",
     "Re: " + ("long " * 24).strip() + "\u2026"),
])
async def test_headers_are_decoded_cleaned_and_re_encoded(mail, headers, name, subject):
    await mail.post.send(CAROL, raw=_raw(headers, b"digest on\r\n"), envelope_from=CAROL)
    answer = await mail.relay.next_to(CAROL)
    assert answer["Subject"] == subject
    assert answer.get_all("Bcc") is None and "\n" not in str(answer["Subject"])
    assert await _name_of(mail.service, CAROL) is None  # not a player before confirming
    await mail.post.send(CAROL, "yes", reply_to=answer)
    await mail.relay.next_to(CAROL)
    assert await _name_of(mail.service, CAROL) == name  # named as the asking mail said


# --- rate limits ------------------------------------------------------------------------
async def test_a_keyed_move_over_the_limit_is_answered_with_when_to_retry(mail, game):
    mail.gateway.settings = replace(mail.gateway.settings, email_key_rate_limit=2)
    for _ in range(2):
        await mail.post.send(f"Alice <{ALICE}>", "board", reply_to=game[ALICE])
        await mail.relay.next_to(ALICE)
    async with mail.service.db.snapshot() as s:
        row = await s.one("SELECT window_start FROM mail_rates WHERE bucket = 'key:g1.1'")
    retry = format_time(row["window_start"] + HOUR)
    move = await _legal(mail)
    for _ in range(2):  # a move is never dropped in silence
        await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
        answer = await mail.relay.next_to(ALICE)
        assert mail.text_of(answer).startswith(
            f"You have sent more than 2 mails with this key within an hour, so I did not carry "
            f"out this one. Please send it again after {retry}.")
        assert "+1.0." in str(answer["Reply-To"])
    await mail.post.send(f"Alice <{ALICE}>", "board", reply_to=game[ALICE])
    assert await mail.relay.nothing_to(ALICE)  # other mail: told once, then not answered
    assert (await mail.service.game(1)).ply == 0


async def test_forged_mail_cannot_lock_a_player_out_and_the_count_survives_a_restart(
        mail, game, email_settings):
    limit = mail.settings.email_rate_limit
    for _ in range(limit - 2):  # someone writing From: alice, without her key (her
        await mail.post.send(f"Alice <{ALICE}>", "games")  # challenge and its confirmation
        # were the first two)
        assert mail.text_of(await mail.relay.next_to(ALICE)).startswith("Games in progress")
    await mail.post.send(f"Alice <{ALICE}>", "games")
    assert mail.text_of(await mail.relay.next_to(ALICE)).startswith(
        f"You have sent more than {limit} mails within an hour")
    await mail.post.send(f"Alice <{ALICE}>", "games")
    assert await mail.relay.nothing_to(ALICE)
    move = await _legal(mail)
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.split(" ", 1)[1].startswith(f"{move} played")  # after the turn's number

    reopened = await GameService.open(email_settings, rng=random.Random(1))  # a restart
    sent = []
    gateway = EmailGateway(reopened, email_settings, send=sent.append)  # type: ignore[arg-type]
    raw = (f"From: Alice <{ALICE}>\r\nTo: {OURS}\r\nMessage-ID: <again@players.test>\r\n"
           f"Subject: x\r\n\r\ngames\r\n").encode()
    try:
        assert await gateway.receive(raw) == "dropped: over the rate limit"
    finally:
        await reopened.close()
    assert sent == []


# --- duplicates -------------------------------------------------------------------------
async def test_the_same_mail_delivered_twice_gets_one_answer(mail, game):
    move = await _legal(mail)
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    answer = mail.text_of(await mail.relay.next_to(ALICE))
    assert answer.split(" ", 1)[1].startswith(f"{move} played")  # after the turn's number
    await mail.relay.next_to(BOB)
    again = mail.post.sent[-1].as_bytes()
    await mail.post.send(ALICE, raw=again, to=str(game[ALICE]["Reply-To"]))
    assert await mail.relay.nothing_to(ALICE)
    assert len(await mail.service.played_moves(1)) == 1


# --- addresses that never wrote -----------------------------------------------------------
async def test_an_address_that_never_wrote_is_mailed_once_and_can_say_stop(mail):
    await mail.confirmed(f"Alice <{ALICE}>", "challenge carol@players.test")
    invitation = await mail.relay.next_to(CAROL)
    text = mail.text_of(invitation)
    assert (f"The challenge comes from Alice <{ALICE}>. You have not written to this service "
            f"before: it mails an address unasked only once. To never get mail from it again, "
            f"reply `stop`.") in text
    refused = mail.text_of(await mail.confirmed(f"Alice <{ALICE}>",
                                                "challenge carol@players.test clash"))
    assert refused.startswith(
        f"{CAROL} has never written to this service and was mailed a challenge once already; "
        f"I mail an address unasked only once. Ask them to write `help` to {OURS} first.")
    assert len(await mail.service.challenges.pending()) == 1
    assert await mail.relay.nothing_to(CAROL)

    await mail.post.send(f"Carol Builder <{CAROL}>", "games")  # her first mail: no rename
    assert mail.text_of(await mail.relay.next_to(CAROL)).startswith("No games in progress.")
    assert await _name_of(mail.service, CAROL) == "carol"
    await mail.post.send(CAROL, "stop", reply_to=invitation)
    assert mail.text_of(await mail.relay.next_to(CAROL)).startswith(
        "Done: this is the last mail you get from me.")
    assert mail.text_of(await mail.confirmed(f"Bob <{BOB}>", "challenge carol@players.test")
                        ).startswith(
        f"{CAROL} has asked never to get mail from this service, so I cannot challenge them.")
    assert await mail.relay.nothing_to(CAROL)
    assert (await mail.service.mail.mail_address(CAROL))["stopped_at"] is not None


# --- results, export, help ----------------------------------------------------------------
async def test_both_result_mails_carry_the_ratings_and_export_works_from_the_last(mail, game):
    await mail.post.send(f"Bob <{BOB}>", "resign", reply_to=game[BOB])
    to_bob = await mail.relay.next_to(BOB)
    to_alice = await mail.relay.next_to(ALICE)
    winner = re.search(r"Ratings: Alice 1500 → (\d+), bob 1500 → (\d+)\.",
                       mail.text_of(to_alice))
    assert winner, mail.text_of(to_alice)
    assert f"Ratings now: Alice {winner[1]}, bob {winner[2]}." in mail.text_of(to_bob)
    await mail.post.send(f"Bob <{BOB}>", "export", reply_to=to_bob)
    record = mail.text_of(await mail.relay.next_to(BOB))
    assert '[White "Alice"]' in record or "Alice" in record.splitlines()[0]
    await mail.post.send(f"Alice <{ALICE}>", "board", reply_to=to_alice)
    assert "Alice (White) wins: bob resigned" in mail.text_of(await mail.relay.next_to(ALICE))


async def test_help_lists_every_command(mail):
    await mail.post.send(f"Carol <{CAROL}>", "help")
    text = mail.text_of(await mail.relay.next_to(CAROL))
    listed = re.findall(r"^  (\w+) ", text, re.MULTILINE)
    assert listed == mail.gateway.commands.words()
    assert {"watch", "unwatch", "name", "stop", "accept", "export"} <= set(listed)


# --- STARTTLS -------------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
async def test_the_smtp_server_offers_starttls_with_a_configured_certificate(mail, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=games.test", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    settings = replace(mail.settings, email_tls_cert=str(cert), email_tls_key=str(key))
    gateway = EmailGateway(mail.service, settings)
    gateway.send = mail.gateway.send
    server = await start_smtp_server(gateway, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    trusted = ssl.create_default_context(cafile=str(cert))
    trusted.check_hostname = False
    client = aiosmtplib.SMTP(hostname="127.0.0.1", port=port, start_tls=False,
                             tls_context=trusted)
    try:
        async with client:
            await client.ehlo()
            assert client.supports_extension("starttls")
            await client.starttls()
            peer = client.get_transport_info("ssl_object").getpeercert(binary_form=True)
            assert peer == ssl.PEM_cert_to_DER_cert(cert.read_text())
            await client.sendmail(CAROL, [OURS], (f"From: Carol <{CAROL}>\r\nTo: {OURS}\r\n"
                                                  f"Subject: tls\r\n\r\nhelp\r\n").encode())
        answer = await mail.relay.next_to(CAROL)
        assert mail.text_of(answer).startswith("Commands (`help WORD` for examples)")
    finally:
        server.close()


# --- a whole game by replying to the latest mail ------------------------------------------------
async def test_a_whole_game_played_only_by_replying_to_the_latest_mail(mail):
    """Each player only ever replies to the newest mail in their inbox, whatever it says:
    a challenge, a refusal, a help, the opponent's move, the result."""
    relay, post = mail.relay, mail.post
    latest = {}

    async def inbox(address: str) -> None:
        latest[address] = await relay.next_to(address)

    await post.send(f"Alice <{ALICE}>", "Hi!\nchallenge bob@players.test micro-chieftain white")
    await inbox(ALICE)  # asked back of her address
    await post.send(ALICE, "Yes, that was me.", reply_to=latest[ALICE])
    await inbox(ALICE)
    await inbox(BOB)
    await post.send(BOB, "Sure, why not.\naccept\n\nBob", reply_to=latest[BOB])
    await inbox(BOB)
    await inbox(ALICE)
    assert mail.text_of(latest[ALICE]).startswith("Game #1 started")
    await post.send(ALICE, "Good luck!", reply_to=latest[ALICE])  # no command: a help
    await inbox(ALICE)
    await post.send(BOB, "move a1-a2", reply_to=latest[BOB])  # not his turn
    await inbox(BOB)
    assert mail.text_of(latest[BOB]).startswith("It is not your turn in game #1")
    mover, other = ALICE, BOB
    for _ in range(6):
        move = await _legal(mail)
        await post.send(mover, f"{move}\n\nThanks", reply_to=latest[mover])
        await inbox(mover)
        assert mail.text_of(latest[mover]).split(" ", 1)[1].startswith(f"{move} played"), \
            mail.text_of(latest[mover])
        await inbox(other)
        mover, other = other, mover
    await post.send(mover, "resign", reply_to=latest[mover])
    await inbox(mover)
    await inbox(other)
    game = await mail.service.game(1)
    assert game.is_over and game.ply == 6
    for address in (ALICE, BOB):
        assert "Ratings" in mail.text_of(latest[address])
        assert latest[address]["Subject"] == "Game #1: Alice vs bob — micro-Chieftain"
    await post.send(other, "export", reply_to=latest[other])
    await inbox(other)
    record = mail.text_of(latest[other])
    assert record.startswith('[Event "') and '\n[Variant "micro-chieftain"]' in record


def test_mail_is_parsed_with_the_default_policy():
    """The stdlib policy re-encodes what we send: a header we set round-trips exactly."""
    from bot.email_gateway.outbound import compose

    sent = compose(OURS, CAROL, "Game #1: Zo\u00eb vs bob — Clash of Command", "x")
    parsed = BytesParser(policy=policy.default).parsebytes(sent.as_bytes())
    assert parsed["Subject"] == "Game #1: Zo\u00eb vs bob — Clash of Command"
