"""The answer a mail is owed is stored with the change it reports: a process that dies
after the command, before its answer, still answers after the restart, once."""

from __future__ import annotations

import random
import time

import aiosmtplib
import pytest

from bot.email_gateway.gateway import CARRIED_OUT, EmailGateway
from bot.email_gateway.server import start_smtp_server
from bot.service import GameService, answers, outbox

from .conftest import text_of
from .test_email_refusals import game  # noqa: F401  (the fixture: a game by mail)

ALICE = "alice@players.test"


def _later() -> float:
    return time.time() + answers.HOLD + 1  # the restarted process: the hold has run out


async def _move_dies_before_its_answer(mail, game, monkeypatch) -> None:  # noqa: F811
    """Alice mails a move; the process dies after carrying it out, before answering, so
    her mail gets no 250 (her server will send it again)."""
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]

    async def dies(*args: object) -> None:
        raise RuntimeError("the process died")

    monkeypatch.setattr(EmailGateway, "_answer", dies)
    with pytest.raises(aiosmtplib.SMTPResponseException):
        await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game["alice"])
    monkeypatch.undo()


async def test_a_move_whose_answer_died_with_the_process_is_answered_after_the_restart(
        mail, game, monkeypatch):  # noqa: F811
    await _move_dies_before_its_answer(mail, game, monkeypatch)
    assert await mail.relay.nothing_to(ALICE)  # the placeholder is held meanwhile
    service = await GameService.open(mail.settings, now=_later, rng=random.Random(3))
    try:
        assert (await service.game(1)).ply == 1  # the move is stored
        assert await EmailGateway(service, mail.settings).deliver_outbox() >= 1
        answer = await mail.relay.next_to(ALICE)
        text = text_of(answer).replace("\r\n", "\n")
        assert text == (CARRIED_OUT + "\n\nYour games and challenges (to act in one, reply "
                                      "to its latest mail, or send `board #N` for a fresh mail "
                                      "of game N):\n  Game #1: Alice vs Bob (Clash of "
                                      "Command), Bob to move\n")
        assert CARRIED_OUT == ("Your mail was received and carried out, but its answer was "
                               "lost on the way; here is where your games stand now.")
        assert str(answer["Reply-To"]).startswith("play+1.1.")  # her key, there alone
        assert str(answer["In-Reply-To"]) == str(mail.post.sent[-1]["Message-ID"])
        assert await mail.relay.nothing_to(ALICE)  # once
        assert not [n for n in await outbox.stuck(service.db) if n.kind == "answer"]
    finally:
        await service.close()


async def test_a_move_answered_as_usual_leaves_nothing_owed(mail, game):  # noqa: F811
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game["alice"])
    text = text_of(await mail.relay.next_to(ALICE))
    assert move in text and CARRIED_OUT not in text
    service = await GameService.open(mail.settings, now=_later, rng=random.Random(3))
    try:
        await EmailGateway(service, mail.settings).deliver_outbox()
        assert await mail.relay.nothing_to(ALICE)  # the placeholder never goes
        assert not [n for n in await outbox.stuck(service.db) if n.kind == "answer"]
    finally:
        await service.close()


async def test_a_mail_sent_again_after_the_crash_gets_no_second_answer(
        mail, game, monkeypatch):  # noqa: F811
    await _move_dies_before_its_answer(mail, game, monkeypatch)
    first = mail.post.sent[-1]
    service = await GameService.open(mail.settings, now=_later, rng=random.Random(3))
    gateway = EmailGateway(service, mail.settings)
    server = await start_smtp_server(gateway, "127.0.0.1", 0)  # the restarted process
    try:
        # the sender's server tries again with the very same mail (same Message-ID)
        await aiosmtplib.send(first, sender=ALICE, recipients=[str(first["To"])],
                              hostname="127.0.0.1", port=server.sockets[0].getsockname()[1])
        assert (await service.game(1)).ply == 1  # carried out once
        await gateway.deliver_outbox()
        answer = await mail.relay.next_to(ALICE)
        assert text_of(answer).startswith(CARRIED_OUT)  # the answer owed since the crash
        assert str(answer["In-Reply-To"]) == str(first["Message-ID"])
        assert await mail.relay.nothing_to(ALICE)  # and no "Not played: ..." as stale
        assert not await outbox.stuck(service.db)
    finally:
        server.close()
        await service.close()
