"""The answer a mail is owed is stored with the change it reports: a process that dies
after the command, before its answer, still answers after the restart, once."""

from __future__ import annotations

import random
import time

import aiosmtplib
import pytest

from bot.email_gateway.gateway import CARRIED_OUT, EmailGateway
from bot.service import GameService, answers, outbox

from .conftest import text_of
from .test_email_refusals import game  # noqa: F401  (the fixture: a game by mail)

ALICE = "alice@players.test"


def _later() -> float:
    return time.time() + answers.HOLD + 1  # the restarted process: the hold has run out


async def test_a_move_whose_answer_died_with_the_process_is_answered_after_the_restart(
        mail, game, monkeypatch):  # noqa: F811
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]

    async def dies(*args: object) -> None:
        raise RuntimeError("the process died")  # after the command, before its answer

    monkeypatch.setattr(EmailGateway, "_answer", dies)
    with pytest.raises(aiosmtplib.SMTPResponseException):  # no 250 for the mail
        await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game["alice"])
    monkeypatch.undo()
    assert await mail.relay.nothing_to(ALICE)  # the placeholder is held meanwhile
    service = await GameService.open(mail.settings, now=_later, rng=random.Random(3))
    try:
        assert (await service.game(1)).ply == 1  # the move is stored
        assert await EmailGateway(service, mail.settings).deliver_outbox() >= 1
        answer = await mail.relay.next_to(ALICE)
        text = text_of(answer).replace("\r\n", "\n")
        assert text.startswith(CARRIED_OUT + "\n\nYour games and challenges, each with the "
                                             "address to write to:\n  Game #1: Alice vs bob ")
        assert CARRIED_OUT == ("Your mail was received and carried out, but its answer was "
                               "lost on the way; here is where your games stand now.")
        assert "(Clash of Command), bob to move: play+1.1." in text  # her keyed address
        assert str(answer["Reply-To"]).startswith("play+1.1.")
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
