"""``commandpost scheduler [--db FILE|URL]``: the scheduler as a process of its own.

It applies what falls due — time-outs, reminders, expiring challenges, ending vacations,
digests, pruning of delivered notifications — and the computer's answers, until SIGINT or
SIGTERM. A host with several processes on one PostgreSQL database runs it beside the bots
and the e-mail gateway (their own schedulers may run too: every piece of due work is
claimed by one of them, so nothing is applied twice). Notifications are sent by the
transports' processes, which hold the connections to Discord and the relay.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal

from .. import redact
from ..config import Settings, add_db_option, settings_or_say
from ..service.computer import Computer
from ..service.scheduler import Scheduler
from ..startup import open_service

log = logging.getLogger(__name__)


async def run(settings: Settings) -> int:
    """The scheduler and the computer on the configured database, until stopped."""
    service = await open_service(settings)
    if service is None:
        return 1
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, stop.set)
        except NotImplementedError:  # not on this platform
            pass
    async with service:
        computer = Computer(service)
        log.info("scheduler running")
        try:
            await asyncio.gather(Scheduler(service).run(stop), computer.run(stop))
        finally:
            computer.close()
    log.info("scheduler stopped")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="commandpost scheduler",
        description="Apply time-outs, reminders and expiries, and play the computer's moves.")
    add_db_option(parser)
    args = parser.parse_args(argv)
    settings = settings_or_say(args)
    if settings is None:
        return 2
    redact.configure(settings.log_level)
    return asyncio.run(run(settings))
