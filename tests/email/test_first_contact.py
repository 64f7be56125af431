"""First contact that cannot be lost: a greylisted invitation is tried again and shown
pending meanwhile, a refused one (550) is a failure the challenger is told of, mail that
may not be sent is a failure with its reason (never "delivered"), and the address a relay
refused for good is not challenged again until it writes."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.__main__ import main
from bot.email_gateway import outbound, runner
from bot.email_gateway.gateway import EmailGateway
from bot.email_gateway.runner import deliver_forever
from bot.email_gateway.server import start_smtp_server
from bot.service import GameService, outbox
from bot.service.clock import DAY, format_time

from .conftest import OURS, Mail, Post, Relay

ALICE = "alice@players.test"
BOB = "bob@players.test"
DAVE = "dave@players.test"
GREYLISTED = "450 4.7.1 Greylisted, please try again later"
UNKNOWN = "550 5.1.1 User unknown"

def _first_line(text: str) -> str:
    return text.splitlines()[0]


@pytest.fixture
async def clocked(email_settings: Any, relay_server: tuple[Relay, int],
                  monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Mail, list[float]]]:
    """The mail fixture on a clock the test moves: a retry comes when the test says."""
    monkeypatch.setattr(runner, "OUTBOX_SECONDS", 0.02)
    clock = [time.time() + 400 * DAY]  # later than the outbox command's own clock
    service = await GameService.open(email_settings, rng=random.Random(3),
                                     now=lambda: clock[0])
    gateway = EmailGateway(service, email_settings)
    server = await start_smtp_server(gateway, "127.0.0.1", 0)
    stop = asyncio.Event()
    delivering = asyncio.create_task(deliver_forever(gateway, stop))
    yield Mail(service, gateway, relay_server[0], Post(server.sockets[0].getsockname()[1]),
               email_settings), clock
    stop.set()
    await delivering
    server.close()
    await service.close()


async def _until(check: Any, timeout: float = 10.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (result := await check()):
            await asyncio.sleep(0.02)
    return result


async def _tried(service: GameService, address: str) -> list[outbox.Notification]:
    return [n for n in await outbox.stuck(service.db) if n.address == address and n.attempts]


async def _outbox_cli(settings: Any, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["outbox", "--db", str(settings.db_path), *args]) == 0
    return capsys.readouterr().out


async def test_a_greylisted_invitation_is_pending_then_arrives_on_the_next_try(
        clocked, capsys):
    mail, clock = clocked
    mail.relay.answer(BOB, GREYLISTED)
    answer = await mail.confirmed(f"Alice <{ALICE}>", f"challenge {BOB}")
    # not "sent": the invitation waits for the greylisting server
    assert mail.text_of(answer).split("\r\n\r\n")[0] == (
        f"Challenge #1 for bob: Clash of Command, no clock, side chosen at random, rated. "
        f"It expires {format_time(clock[0] + 7 * DAY)}. The invitation is on its way by "
        f"mail; if it cannot be delivered, I will tell you and withdraw the challenge.")
    [waiting] = await _until(lambda: _tried(mail.service, BOB))
    assert (await mail.service.mail.mail_address(BOB))["invited_at"] is None  # not sent yet
    assert waiting.next_attempt_at is not None
    assert await _outbox_cli(mail.settings, capsys, "--pending") == (
        f"#{waiting.id} email to {BOB} challenge, 1 try, pending, next try "
        f"{format_time(waiting.next_attempt_at)}: the relay refused {BOB}: {GREYLISTED}\n")
    assert await _outbox_cli(mail.settings, capsys, "--failed") == (
        "Nothing is waiting: every notification was delivered.\n")
    clock[0] += outbox.LONGEST_WAIT  # the greylisting server takes the second try
    invitation = mail.text_of(await mail.relay.next_to(BOB))
    assert invitation.startswith("Alice challenges you: ")
    assert mail.relay.tries[BOB] == 2
    assert await _until(lambda: _nothing_waits(mail.service))
    assert (await mail.service.mail.mail_address(BOB))["invited_at"] == clock[0]
    assert await mail.relay.nothing_to(ALICE)  # nothing to tell her


async def _nothing_waits(service: GameService) -> bool:
    return not await outbox.stuck(service.db)


async def test_a_refused_invitation_fails_marks_the_address_and_tells_the_challenger(mail):
    mail.relay.answer(BOB, UNKNOWN)
    answer = await mail.confirmed(f"Alice <{ALICE}>", f"challenge {BOB}")
    assert mail.text_of(answer).startswith("Challenge #1 for bob")
    told = await mail.relay.next_to(ALICE)
    reason = f"the relay refused {BOB}: {UNKNOWN}"
    assert _first_line(mail.text_of(told)) == (
        f"Your challenge to {BOB} could not be delivered: {reason}. I have withdrawn "
        f"challenge #1; check the address and challenge again.")
    assert (await mail.service.challenges.get_challenge(1)).status == "undelivered"
    assert str(told["Subject"]) == "Challenge #1: Alice vs bob — Clash of Command"
    [failed] = await outbox.stuck(mail.service.db, failed=True)
    assert (failed.address, failed.kind, failed.attempts, failed.failure) == (
        BOB, "challenge", 1, reason)
    known = await mail.service.mail.mail_address(BOB)
    assert known["bounced_at"] is not None and known["bounce_reason"] == reason
    assert known["invited_at"] is None
    assert mail.relay.tries[BOB] == 1  # a 5xx is the verdict: no second try

    await mail.post.send(f"Bob <{BOB}>", "accept #1")  # what never arrived is not open
    assert mail.text_of(await mail.relay.next_to(BOB)) == (
        "You have no game or challenge in progress, so there is nothing for `accept` to "
        "change. Write `help` for the commands, or `challenge ADDRESS` to start a game.\r\n")
    assert (await mail.service.mail.mail_address(BOB))["bounced_at"] is None  # he wrote
    await mail.service.mail.mark_bounced(BOB, reason)  # as the relay said before

    again = await mail.confirmed(f"Alice <{ALICE}>", f"challenge {BOB}")  # not again
    assert mail.text_of(again).startswith(
        f"Mail to {BOB} bounced ({reason}), so I cannot challenge them by mail. It works "
        f"again once they write to {OURS}.")
    await mail.post.send(f"Bob <{BOB}>", "help")  # he writes: his address works
    await mail.relay.next_to(BOB)
    assert (await mail.service.mail.mail_address(BOB))["bounced_at"] is None


async def test_a_discord_challenger_is_told_on_discord(mail):
    mail.relay.answer(BOB, UNKNOWN)
    lee = await mail.service.player("discord", "1234", "lee")
    bob = await mail.gateway.find_player(BOB)
    await mail.service.challenges.challenge(lee, "email:mail", bob)
    await mail.gateway.deliver_outbox()
    [told] = await mail.service.pending_notifications("discord")
    assert (told.player_id, told.kind, told.text) == (
        lee.id, "unreachable",
        f"Your challenge to {BOB} could not be delivered: the relay refused {BOB}: {UNKNOWN}. "
        f"I have withdrawn challenge #1; check the address and challenge again.")
    assert told.payload["dm"] is True


async def test_a_second_unasked_invitation_is_a_failure_with_its_reason(mail):
    alice = await mail.gateway.find_player(ALICE)
    bob = await mail.gateway.find_player(BOB)
    dave = await mail.gateway.find_player(DAVE)
    await mail.service.challenges.challenge(alice, "email:mail", dave)
    await mail.service.challenges.challenge(bob, "email:mail", dave)  # made before the first went
    await mail.gateway.deliver_outbox()
    assert mail.text_of(await mail.relay.next_to(DAVE)).startswith("alice challenges you: ")
    reason = (f"{DAVE} has never written to this service and was mailed a challenge once "
              f"already")
    [failed] = await outbox.stuck(mail.service.db, failed=True)
    assert (failed.address, failed.kind, failed.failure) == (DAVE, "challenge", reason)
    await mail.gateway.deliver_outbox()
    told = mail.text_of(await mail.relay.next_to(BOB))
    assert _first_line(told) == (f"Your challenge to {DAVE} could not be delivered: "
                                 f"{reason}. I have withdrawn challenge #2; check the address "
                                 f"and challenge again.")
    assert [(await mail.service.challenges.get_challenge(n)).status for n in (1, 2)] == [
        "open", "undelivered"]
    assert mail.relay.tries[DAVE] == 1


async def test_news_for_a_stopped_address_is_a_failure_the_opponent_is_told(mail, game):
    await mail.service.mail.mark_address(BOB, "stopped_at")
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game[ALICE])
    assert f"{move} played" in mail.text_of(await mail.relay.next_to(ALICE))
    reason = f"{BOB} asked never to get mail from this service (`stop`)"
    # the opponent (and the place: public) read it without the address
    assert _first_line(mail.text_of(await mail.relay.next_to(ALICE))) == (
        "bob cannot be reached by mail (their address asked never to get mail from this "
        "service (`stop`)); the game has no clock, so it waits for them.")
    [failed] = await outbox.stuck(mail.service.db, failed=True)
    assert (failed.address, failed.kind, failed.failure) == (BOB, "your-move", reason)


async def test_a_relay_that_never_answers_is_tried_again(mail, monkeypatch):
    monkeypatch.setattr(outbound, "SEND_TIMEOUT", 0.3)
    mail.relay.answer(BOB, Relay.TIMEOUT)
    await mail.service.player("email", BOB, "Bob")  # known (a stranger's help makes no player)
    await mail.post.send(f"Bob <{BOB}>", "help")
    [waiting] = await _until(lambda: _tried(mail.service, BOB))
    assert waiting.failed_at is None and waiting.failure is not None
    assert waiting.failure.startswith("the relay cannot be reached: ")


async def test_a_421_is_tried_again(mail):
    mail.relay.answer(BOB, "421 4.3.2 Service shutting down")
    await mail.service.player("email", BOB, "Bob")  # known (a stranger's help makes no player)
    await mail.post.send(f"Bob <{BOB}>", "help")
    [waiting] = await _until(lambda: _tried(mail.service, BOB))
    assert waiting.failed_at is None
    assert waiting.failure == f"the relay refused {BOB}: 421 4.3.2 Service shutting down"
