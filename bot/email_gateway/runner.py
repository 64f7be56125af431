"""Running the e-mail gateway: on its own (``commandpost email``, with the scheduler), or
beside the Discord bot on the same service (`run_email_gateway`).

    commandpost email [--db FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Awaitable, Callable

from .. import redact
from ..config import ConfigError, Settings, add_db_option, settings_for
from ..service import GameService
from ..service.computer import Computer
from ..service.scheduler import Scheduler
from ..startup import open_service
from .gateway import EmailGateway
from .server import poll_imap, start_smtp_server, tls_context

log = logging.getLogger(__name__)
OUTBOX_SECONDS = 5.0  # how often notifications queued by other transports are looked for


async def deliver_forever(gateway: EmailGateway, stop: asyncio.Event) -> None:
    """Mail the outbox whenever a command may have filled it, and every few seconds. Each
    pass runs on its own, so that a slow relay answer for one address holds up only that
    address's lane, never the next pass (the outbox starts only lanes not in progress)."""
    passes: set[asyncio.Task[None]] = set()
    while not stop.is_set():
        gateway.outbox_ready.clear()
        delivering = asyncio.create_task(_one_pass(gateway))
        passes.add(delivering)
        delivering.add_done_callback(passes.discard)
        waits = [asyncio.ensure_future(stop.wait()),
                 asyncio.ensure_future(gateway.outbox_ready.wait())]
        await asyncio.wait(waits, timeout=OUTBOX_SECONDS, return_when=asyncio.FIRST_COMPLETED)
        for waiting in waits:
            waiting.cancel()
    for delivering in list(passes):  # a send cut short stays pending: sent after a start
        delivering.cancel()
    await asyncio.gather(*passes, return_exceptions=True)
    await gateway.courier.stop()


async def _one_pass(gateway: EmailGateway) -> None:
    try:
        await gateway.deliver_outbox()
    except Exception:
        log.exception("delivering mail failed; the next pass tries again")


async def run_email_gateway(service: GameService, settings: Settings,
                            stop: asyncio.Event | None = None,
                            started: asyncio.Future[EmailGateway] | None = None,
                            computer: Computer | None = None) -> None:
    """Receive (SMTP server and/or IMAP mailbox) and send mail for ``service`` until
    ``stop`` is set (or the task is cancelled). ``started`` gets the gateway once the
    server listens. The caller runs the scheduler and the ``computer`` (the Discord bot
    does)."""
    if not settings.email_address:
        raise ConfigError("set COMMANDPOST_EMAIL_ADDRESS to run the e-mail gateway")
    stop = stop or asyncio.Event()
    gateway = EmailGateway(service, settings, computer=computer)
    if computer is not None:
        computer.on_answer.append(_ready(gateway))
    server = None
    if settings.email_listen_port:
        server = await start_smtp_server(gateway, settings.email_listen_host,
                                         settings.email_listen_port)
        log.info("receiving mail for %s on %s:%s", settings.email_address,
                 settings.email_listen_host, settings.email_listen_port)
    tasks = [asyncio.create_task(deliver_forever(gateway, stop))]
    if settings.imap_host:
        tasks.append(asyncio.create_task(poll_imap(gateway, settings, stop)))
    if started is not None:
        started.set_result(gateway)
    try:
        await stop.wait()
    finally:
        stop.set()
        if server is not None:
            server.close()
        await asyncio.gather(*tasks, return_exceptions=True)


async def run(settings: Settings) -> int:
    """The gateway and the scheduler on the configured database, until interrupted."""
    service = await open_service(settings)
    if service is None:
        return 1
    async with service:
        stop = asyncio.Event()
        computer = Computer(service)
        scheduler = asyncio.create_task(Scheduler(service).run(stop))
        thinking = asyncio.create_task(computer.run(stop))
        try:
            await run_email_gateway(service, settings, stop, computer=computer)
        finally:
            stop.set()
            await scheduler
            await thinking
            computer.close()
    return 0


def _ready(gateway: EmailGateway) -> Callable[[], Awaitable[None]]:
    """A listener that has the gateway mail what the computer's answer queued."""
    async def ready() -> None:
        gateway.outbox_ready.set()
    return ready


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="commandpost email",
                                     description="Play correspondence games by e-mail.")
    add_db_option(parser)
    args = parser.parse_args(argv)
    try:
        settings = settings_for(args)
        if not settings.email_address:
            raise ConfigError("set COMMANDPOST_EMAIL_ADDRESS (the address players write to) to "
                              "run the e-mail gateway")
        tls_context(settings)  # a certificate that cannot be loaded stops us at once
    except ConfigError as err:
        print(f"commandpost: {err}")
        return 2
    redact.configure(settings.log_level)
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's every SMTP line
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0
