"""Mail when the relay misbehaves: one recipient refused (550) while the others get their
mail at once, a relay that is down and comes back after a restart (every answer arrives,
once), and a relay that accepts slowly."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP

from bot.email_gateway import runner
from bot.email_gateway.gateway import EmailGateway
from bot.email_gateway.runner import deliver_forever
from bot.email_gateway.server import start_smtp_server
from bot.service import GameService, outbox

from .conftest import Post, Relay, text_of
from .test_email_refusals import game  # noqa: F401  (the fixture: a game by mail)

ALICE = "alice@players.test"
BOB = "bob@players.test"
CAROL = "carol@players.test"
UNKNOWN = "550 5.1.1 User unknown"


class FaultyRelay(Relay):
    """The relay, with faults to switch on: recipients it refuses, a time when it is
    down (451 to every recipient), recipients it accepts slowly."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: set[str] = set()
        self.down = False
        self.slow: dict[str, float] = {}

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        if self.down:
            return "451 4.3.0 Mail system busy, try again later"
        if address in self.refused:
            return UNKNOWN
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        for address in envelope.rcpt_tos:
            await asyncio.sleep(self.slow.get(address, 0.0))
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
async def relay_server() -> Any:
    """The relay, its port, and a switch that closes or reopens its port."""
    relay = FaultyRelay()
    loop = asyncio.get_running_loop()
    servers = [await loop.create_server(lambda: SMTP(relay), "127.0.0.1", 0)]
    port = servers[0].sockets[0].getsockname()[1]

    async def listening(on: bool) -> None:
        if on:
            servers.append(await loop.create_server(lambda: SMTP(relay), "127.0.0.1", port))
        else:
            servers[-1].close()
            await servers[-1].wait_closed()

    yield relay, port, listening
    servers[-1].close()


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The back-off and the delivery loop's period in hundredths of seconds, so that a
    test sees several tries (the schedule's shape is tested in tests/bot/test_outbox.py)."""
    monkeypatch.setattr(outbox, "FIRST_RETRY", 0.02)
    monkeypatch.setattr(runner, "OUTBOX_SECONDS", 0.02)


async def _until(check, timeout: float = 10.0) -> Any:
    """Wait for ``check()`` (an awaitable's result) to be true; that result."""
    async with asyncio.timeout(timeout):
        while not (result := await check()):
            await asyncio.sleep(0.02)
    return result


async def test_a_refused_recipient_delays_no_one_and_the_opponent_is_told(
        mail, game, quick_retries):  # noqa: F811
    mail.relay.refused.add(BOB)  # Bob's mailbox is gone
    move = (await mail.service.legal_moves(await mail.service.game(1)))[0]
    await mail.post.send(f"Alice <{ALICE}>", f"move {move}", reply_to=game["alice"])
    assert move in mail.text_of(await mail.relay.next_to(ALICE))
    await mail.post.send(f"Carol <{CAROL}>", "help")  # someone else, meanwhile
    assert "help" in mail.text_of(await mail.relay.next_to(CAROL, timeout=2)).lower()
    told = mail.text_of(await mail.relay.next_to(ALICE))
    # Bob is named as Alice's challenge named him: a mail's From renames nobody
    # the address is left out: the place's copy of this news is public (a tester's finding)
    assert told.startswith(f"Bob cannot be reached by mail (the relay refused their address: "
                           f"{UNKNOWN}); the game has no clock, so it waits for them.")
    [failed] = await outbox.stuck(mail.service.db, failed=True)
    # a 5xx for the recipient is the verdict at once, and marks the address bounced
    assert (failed.address, failed.kind, failed.attempts) == (BOB, "your-move", 1)
    assert failed.failure == f"the relay refused {BOB}: {UNKNOWN}"
    known = await mail.service.mail.mail_address(BOB)
    assert known["bounced_at"] is not None
    assert known["bounce_reason"] == f"the relay refused {BOB}: {UNKNOWN}"


class Gateway:
    """The e-mail side of the service as a process that can be stopped and started again
    on the same database: service, gateway, SMTP server, delivery loop."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings

    async def start(self) -> Post:
        self.service = await GameService.open(self.settings, rng=random.Random(3))
        self.gateway = EmailGateway(self.service, self.settings)
        self.server = await start_smtp_server(self.gateway, "127.0.0.1", 0)
        self.stop = asyncio.Event()
        self.delivering = asyncio.create_task(deliver_forever(self.gateway, self.stop))
        return Post(self.server.sockets[0].getsockname()[1])

    async def halt(self) -> None:
        self.stop.set()
        await self.delivering
        self.server.close()
        await self.service.close()


@pytest.mark.parametrize("down", ["451 busy", "connection refused"])
async def test_answers_kept_while_the_relay_is_down_arrive_once_after_a_restart(
        email_settings, relay_server, quick_retries, down):
    relay, _, listening = relay_server
    if down == "451 busy":
        relay.down = True
    else:
        await listening(False)
    process = Gateway(email_settings)
    post = await process.start()
    try:
        await post.send(f"Alice <{ALICE}>", "help")
        await post.send(f"Bob <{BOB}>", "challenge alice@players.test")
        await _until(lambda: _tried(process.service, 2))  # each answer tried, and refused
        failures = sorted({n.failure for n in await outbox.stuck(process.service.db)})
    finally:
        await process.halt()  # the process stops with the answers unsent
    if relay.down:  # retried: a 4xx is not a verdict
        assert failures == [f"the relay refused {who}: 451 4.3.0 Mail system busy, try again "
                            f"later" for who in (ALICE, BOB)]
    else:
        assert len(failures) == 1 and failures[0].startswith("the relay cannot be reached: ")
    if relay.down:
        relay.down = False
    else:
        await listening(True)
    process = Gateway(email_settings)
    post = await process.start()
    try:
        assert "help" in text_of(await relay.next_to(ALICE)).lower()  # the answer to her help
        asking = await relay.next_to(BOB)  # the question his challenge asked, kept meanwhile
        assert text_of(asking).startswith("Please confirm: a mail from bob@players.test asked "
                                          "me for `challenge alice@players.test`")
        await post.send(f"Bob <{BOB}>", "yes", reply_to=asking)
        assert text_of(await relay.next_to(ALICE)).startswith("Bob challenges you: ")
        to_bob = await relay.next_to(BOB)  # his answer, with his key for the challenge
        assert "challenge #1" in text_of(to_bob).lower()
        assert str(to_bob["Reply-To"]).startswith("play+c1.")
        # her `help` made no player: she is named as his challenge named her
        assert str(to_bob["Subject"]) == "Challenge #1: Bob vs alice — Clash of Command"
        assert await relay.nothing_to(ALICE) and await relay.nothing_to(BOB)  # once each
        assert not await outbox.stuck(process.service.db)
    finally:
        await process.halt()


async def _tried(service: GameService, count: int) -> bool:
    waiting = await outbox.stuck(service.db)
    return len(waiting) == count and all(n.attempts for n in waiting)


async def test_a_slow_relay_for_one_address_holds_up_no_other(mail):
    mail.relay.slow[CAROL] = 1.5
    await mail.post.send(f"Carol <{CAROL}>", "help")
    started = time.monotonic()
    await mail.post.send(f"Alice <{ALICE}>", "help")
    await mail.relay.next_to(ALICE, timeout=1.0)
    assert time.monotonic() - started < 1.0  # while Carol's answer is still being accepted
    await mail.relay.next_to(CAROL)
