"""E-mail under faults, over real SMTP on loopback: the deliverer, the mailbox poller and the
scheduler survive a pass that raises and run the next; a mail that meets a storage fault is
answered 451 in the words every transport uses (its sender's server retries it); a display
name with a line separator cannot block mail; no game key ever reaches the log."""

from __future__ import annotations

import asyncio
import io
import logging
import sqlite3
from dataclasses import replace

import aiosmtplib
import pytest

import bot.email_gateway.server as server_module
from bot import redact
from bot.email_gateway.inbound import ADDRESS_TAG
from bot.email_gateway.runner import deliver_forever
from bot.service.results import STORAGE_DOWN
from bot.service.scheduler import Scheduler
from bot.storage import StorageError, storage_error

from .test_email_game import test_a_whole_game_by_email

ALICE = "alice@players.test"
BOB = "bob@players.test"


def _disk_full() -> StorageError:
    return storage_error(sqlite3.OperationalError("database or disk is full"))


def _failing_then(event: asyncio.Event, failures: list[BaseException]):
    """A pass that raises each of ``failures`` in turn, then sets ``event``."""
    passes: list[str] = []

    async def one_pass(*args: object, **kwargs: object) -> int:
        if failures:
            passes.append("failed")
            raise failures.pop(0)
        passes.append("ok")
        event.set()
        return 0

    return one_pass, passes


async def test_the_deliverer_survives_failed_passes(mail, monkeypatch):
    done = asyncio.Event()
    one_pass, passes = _failing_then(done, [_disk_full(), RuntimeError("a bug")])
    monkeypatch.setattr(mail.gateway, "deliver_outbox", one_pass)
    stop = asyncio.Event()
    delivering = asyncio.create_task(deliver_forever(mail.gateway, stop))
    while not done.is_set():  # each pass is woken as a command would wake it
        mail.gateway.outbox_ready.set()
        await asyncio.sleep(0)
    stop.set()
    await delivering
    assert passes[:3] == ["failed", "failed", "ok"]


async def test_the_mailbox_poller_survives_failed_polls(mail, monkeypatch):
    done = asyncio.Event()
    one_pass, passes = _failing_then(done, [_disk_full(), ConnectionResetError("gone")])
    monkeypatch.setattr(server_module, "poll_imap_once", one_pass)
    settings = replace(mail.settings, imap_host="imap.test", imap_poll_seconds=0.001)
    await _run_until(done, lambda stop: server_module.poll_imap(mail.gateway, settings, stop))
    assert passes[:3] == ["failed", "failed", "ok"]


async def test_the_scheduler_survives_failed_passes(mail, monkeypatch):
    done = asyncio.Event()
    one_pass, passes = _failing_then(done, [_disk_full(), KeyError("a bug")])
    monkeypatch.setattr(mail.service, "process_due", one_pass)
    await _run_until(done, Scheduler(mail.service, max_wait=0.001).run)
    assert passes[:3] == ["failed", "failed", "ok"]


async def _run_until(done: asyncio.Event, loop) -> None:
    """Run ``loop(stop)`` until ``done`` is set, then stop it."""
    stop = asyncio.Event()
    running = asyncio.create_task(loop(stop))
    await asyncio.wait_for(done.wait(), 10)
    stop.set()
    await running


async def test_a_mail_meeting_a_full_disk_is_answered_451_and_changes_nothing(mail, monkeypatch):
    async def find_player(*args: object) -> None:
        raise _disk_full()

    monkeypatch.setattr(mail.service, "find_player", find_player)
    with pytest.raises(aiosmtplib.SMTPDataError) as refused:
        await mail.post.send(f"Alice <{ALICE}>", f"challenge {BOB}")
    assert refused.value.code == 451
    assert refused.value.message == "4.3.0 " + STORAGE_DOWN
    monkeypatch.undo()
    assert await mail.service.challenges.pending() == []
    answer = await mail.confirmed(f"Alice <{ALICE}>", f"challenge {BOB}")  # once it works
    assert "Challenge #1 for" in mail.text_of(answer)


@pytest.mark.parametrize("separator", ["\u2028", "\x0b", "\x0c", "\x85"])
async def test_a_name_with_a_line_separator_cannot_block_mail(mail, separator):
    name = "=?utf-8?q?" + "".join(f"={b:02X}" for b in f"Ann{separator}Lee".encode()) + "?="
    raw = (f"From: {name} <{ALICE}>\r\nTo: play@games.test\r\nSubject: hi\r\n"
           f"Message-ID: <ann-1@players.test>\r\n\r\nchallenge {BOB} white\r\n").encode()
    await mail.post.send(ALICE, raw=raw)
    asking = await mail.relay.next_to(ALICE)  # a new player is made as she confirms
    await mail.post.send(f"Alice <{ALICE}>", "yes", reply_to=asking)
    assert "Challenge #1 for bob" in mail.text_of(await mail.relay.next_to(ALICE))
    offer = await mail.relay.next_to(BOB)
    await mail.post.send(f"Bob <{BOB}>", "accept #1", reply_to=offer)
    for address in (BOB, ALICE):  # the game's mails, with both names in their subjects
        subject = str((await mail.relay.next_to(address))["Subject"])
        assert subject.startswith("Game #1: Ann Lee vs Bob"), subject
    player = await mail.service.find_player("email", ALICE)
    assert player.display_name == "Ann Lee"


async def test_no_game_key_reaches_the_log_of_a_whole_game_at_debug(mail):
    log = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    handler = redact.configure("DEBUG", stream=log)
    logging.getLogger("mail.log").setLevel(logging.DEBUG)  # aiosmtpd's every SMTP line
    try:
        await test_a_whole_game_by_email(mail)
    finally:
        root.handlers[:], _ = saved
        root.setLevel(saved[1])
        logging.getLogger("mail.log").setLevel(logging.NOTSET)
        handler.close()
    text = log.getvalue()
    tokens = await _tokens(mail)
    assert len(tokens) > 10 and "RCPT TO" in text and "[key]" in text
    assert not [t for t in tokens if t in text.lower()]


async def _tokens(mail) -> list[str]:
    """Each player's secret, and every key of every move number derived from it."""
    async with mail.service.db.snapshot() as s:
        rows = await s.all("SELECT game_id, player_id, token FROM game_tokens")
    found = [str(r["token"]) for r in rows]
    for r in rows:
        game = await mail.service.game(r["game_id"])
        found += [await mail.service.tokens.game_token(game.id, r["player_id"], ply)
                  for ply in range(game.ply + 1)]
    return found


def test_redact_keeps_game_and_move_numbers():
    line = "RCPT TO:<play+501.12.d3e2aa00bb11cc22dd33@games.test> and [7.0.D3E2AA00BB11CC22DD33]"
    assert redact.redact(line) == "RCPT TO:<play+501.12.[key]@games.test> and [7.0.[key]]"
    assert ADDRESS_TAG.search(line)


def test_redact_hides_watch_tokens_and_addresses_of_any_domain():
    """A game page's watch token (24 hex digits) is a secret as a game key is; an address
    at a domain without a dot, or in brackets, loses its local part like any other."""
    line = "GET /game/3-0123456789abcdef01234567 from zoe@localhost and ann@[192.0.2.7]"
    assert redact.redact_addresses(redact.redact(line)) == (
        "GET /game/3-[key] from …@localhost and …@[192.0.2.7]")
    assert redact.redact("0123456789abcdef0123456789") == "0123456789abcdef0123456789"  # 26
