"""Running the gateway: the IMAP mailbox poller (against a small IMAP server on loopback), the
whole `run_email_gateway` on a real port, and reading command lines out of replies."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace
from email.message import EmailMessage

import pytest

from bot.config import ConfigError
from bot.email_gateway.gateway import EmailGateway
from bot.email_gateway.inbound import command_lines
from bot.email_gateway.runner import run_email_gateway
from bot.email_gateway.server import poll_imap_once
from bot.service import outbox

ALICE = "alice@players.test"
MAILBOX = "play@games.test"


class Mailbox:
    """A small IMAP server on loopback holding some mails: what the poller needs of IMAP4rev1
    (LOGIN, SELECT, UID SEARCH UNSEEN, UID FETCH, UID STORE, LOGOUT)."""

    def __init__(self, mails: list[bytes]) -> None:
        self.mails = dict(enumerate(mails, 1))
        self.seen: set[int] = set()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"* OK [CAPABILITY IMAP4rev1] ready\r\n")
        while line := await reader.readline():
            tag, command, *args = line.decode().split()
            command = command.upper()
            if command == "UID":
                command, *args = args[0].upper(), *args[1:]
            writer.write(self.answer(command, args) + f"{tag} OK {command} done\r\n".encode())
            await writer.drain()
            if command == "LOGOUT":
                break
        writer.close()

    def answer(self, command: str, args: list[str]) -> bytes:
        if command == "CAPABILITY":
            return b"* CAPABILITY IMAP4rev1\r\n"
        if command == "SELECT":
            return f"* {len(self.mails)} EXISTS\r\n* FLAGS (\\Seen)\r\n".encode()
        if command == "SEARCH":
            unseen = " ".join(str(uid) for uid in self.mails if uid not in self.seen)
            return f"* SEARCH {unseen}\r\n".encode()
        if command == "FETCH":
            raw = self.mails[int(args[0])]
            return (f"* {args[0]} FETCH (UID {args[0]} BODY[] {{{len(raw)}}}\r\n".encode()
                    + raw + b")\r\n")
        if command == "STORE":
            self.seen.add(int(args[0]))
            return f"* {args[0]} FETCH (UID {args[0]} FLAGS (\\Seen))\r\n".encode()
        if command == "LOGOUT":
            return b"* BYE\r\n"
        return b""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_mail_in_a_polled_mailbox_is_answered_and_marked_seen(mail):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = f"Alice <{ALICE}>", MAILBOX, "hello"
    message["Message-ID"] = "<one@players.test>"
    message.set_content("help\n\n-- \nAlice")
    mailbox = Mailbox([message.as_bytes()])
    server = await asyncio.start_server(mailbox.serve, "127.0.0.1", 0)
    settings = replace(mail.settings, imap_host="127.0.0.1",
                       imap_port=server.sockets[0].getsockname()[1], imap_user=MAILBOX,
                       imap_password="secret")
    try:
        assert await poll_imap_once(mail.gateway, settings) == 1
        answer = await mail.relay.next_to(ALICE)
        assert "Commands" in mail.text_of(answer)
        assert answer["In-Reply-To"] == "<one@players.test>"
        assert mailbox.seen == {1}
        assert await poll_imap_once(mail.gateway, settings) == 0  # seen: not read twice
    finally:
        server.close()


async def test_run_email_gateway_receives_and_sends_until_stopped(mail):
    settings = replace(mail.settings, email_listen_port=_free_port(),
                       db_path=mail.settings.db_path)
    stop = asyncio.Event()
    started: asyncio.Future = asyncio.get_running_loop().create_future()
    running = asyncio.create_task(run_email_gateway(mail.service, settings, stop, started))
    await asyncio.wait_for(started, 5)
    mail.post.port = settings.email_listen_port
    answer = await mail.confirmed(f"Alice <{ALICE}>", "challenge bob@players.test")
    assert "Challenge #1" in mail.text_of(answer)
    assert "challenges you" in mail.text_of(await mail.relay.next_to("bob@players.test"))
    stop.set()
    await asyncio.wait_for(running, 5)


async def test_run_email_gateway_needs_our_address(mail):
    with pytest.raises(ConfigError):
        await run_email_gateway(mail.service, replace(mail.settings, email_address=""))


@pytest.mark.parametrize(("text", "lines"), [
    ("move c3-d4\n", ("move c3-d4",)),
    ("\n\n  move   c3-d4  \nboard\n\nGood game!\n", ("move c3-d4", "board", "Good game!")),
    ("resign\n-- \nAlice\nmove a1-a2", ("resign",)),
    ("draw\n\nOn Mon, 2 Mar 2026, commandpost wrote:\n> move a1-a2", ("draw",)),
    ("> move a1-a2\n> board\n\nboard\n", ("board",)),
    ("export\r\n-----Original Message-----\r\nmove a1-a2", ("export",)),
    ("help\nSent from my phone", ("help",)),
    ("> only quoted\n", ()),
])
def test_commands_are_the_first_lines_not_quotes_or_signatures(text, lines):
    assert command_lines(text) == lines


async def test_an_answer_the_relay_refuses_is_sent_later_and_the_command_runs_once(
        mail, monkeypatch):
    monkeypatch.setattr(outbox, "FIRST_RETRY", 0.0)  # a failed try is tried again at once
    sent: list = []
    failures = [ConnectionError("relay down")]

    async def flaky(message) -> None:
        if failures and ALICE in str(message["To"]):  # the answer to Alice is refused once
            raise failures.pop()
        sent.append(message)

    gateway = EmailGateway(mail.service, mail.settings, send=flaky)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = f"Alice <{ALICE}>", MAILBOX, "a game"
    message.set_content("challenge bob@players.test")
    assert await gateway.receive(message.as_bytes(), ALICE, [MAILBOX]) == "asked: confirm"
    await gateway.deliver_outbox()
    [asking] = sent
    sent.clear()
    confirm = EmailMessage()
    confirm["From"], confirm["Subject"] = f"Alice <{ALICE}>", "Re: a game"
    confirm["To"] = str(asking["Reply-To"])
    confirm.set_content("yes")
    assert await gateway.receive(confirm.as_bytes(), ALICE, [str(asking["Reply-To"])]) == \
        "ran challenge"
    assert sent == []
    failures.append(ConnectionError("relay down"))
    await gateway.deliver_outbox()  # the answer to Alice is refused, then tried again
    [answer] = [m for m in sent if ALICE in str(m["To"])]
    assert failures == [] and "Challenge #1" in mail.text_of(answer)
    alice = await mail.service.player("email", ALICE)
    assert len(await mail.service.challenges.pending(alice)) == 1
