"""`commandpost discord` (the main job when a Discord token is configured): the Discord
bot, and beside it on the same service the e-mail gateway when an e-mail address is
configured (the bot's scheduler serves both) and the game pages when a web address is.
The transports never import each other; this runner is where they meet."""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from ..config import ConfigError, Settings
from ..discord_bot.app import Beside, CommandPost, shard_ids, sync
from ..discord_bot.app import run as run_bot
from ..email_gateway.runner import run_email_gateway
from ..i18n import _
from ..service import GameService
from ..web.runner import CannotServe, listen
from . import say

log = logging.getLogger(__name__)

@asynccontextmanager
async def email_beside(settings: Settings, service: GameService,
                       bot: CommandPost) -> AsyncIterator[None]:
    """The e-mail gateway on the bot's service, stopped when the bot stops."""
    mail = asyncio.create_task(run_email_gateway(service, settings, computer=bot.computer))
    try:
        yield
    finally:
        mail.cancel()
        await asyncio.gather(mail, return_exceptions=True)


@asynccontextmanager
async def web_beside(settings: Settings, service: GameService,
                     bot: CommandPost) -> AsyncIterator[None]:
    """The game pages on the bot's service, closed when the bot stops. An address that
    cannot be listened on (a port in use) is logged in one sentence and the bot runs on
    without its pages: the players' games matter more than the spectators' view."""
    try:
        web = await listen(service, settings)
    except CannotServe as err:
        log.error("the game pages are not served: %s", err)
        yield
        return
    try:
        yield
    finally:
        await web.cleanup()


async def run(settings: Settings) -> int:
    """Run the bot, with what ``settings`` asks to run beside it, until it is stopped."""
    beside: list[Beside] = []
    if settings.email_address:
        beside.append(functools.partial(email_beside, settings))
    if settings.web_url:
        beside.append(functools.partial(web_beside, settings))
    return await run_bot(settings, beside)


def shard_refusal(settings: Settings, ids_from: str, count_from: str) -> str | None:
    """Why the shards ``settings`` name cannot be run (None: they can), naming the option
    or variable each came ``from``. discord.py needs the shard count with a share of the
    shards, and every process must say the same count, so none is guessed."""
    count = settings.discord_shard_count
    if count < 0:
        return (f"{count_from} is {count}; it must be the bot's number of shards in all, or 0 "
                f"for as many as Discord recommends")
    try:
        shards = shard_ids(settings.discord_shard_ids)
    except ValueError as err:
        return f"{ids_from} is {settings.discord_shard_ids!r}; {err}"
    if shards and not count:
        return (f"{ids_from} is {settings.discord_shard_ids!r}, a share of the shards, so "
                f"their number in all must be set too (COMMANDPOST_SHARD_COUNT or "
                f"--shard-count)")
    if shards and max(shards) >= count:
        return (f"shard {max(shards)} is beyond the {count} shards of {count_from} (numbered "
                f"from 0)")
    return None


def main(argv: list[str]) -> int:
    """``commandpost discord [--shards IDS] [--shard-count N]``: run the Discord bot with
    the settings from the environment (the options override `COMMANDPOST_SHARD_IDS` and
    `COMMANDPOST_SHARD_COUNT`); ``commandpost discord sync``: upload its slash commands
    now."""
    parser = argparse.ArgumentParser(prog="commandpost discord",
                                     description="Run the Discord bot (or `sync` its "
                                                 "commands).")
    parser.add_argument("action", nargs="?", choices=("sync",))
    parser.add_argument("--shards", metavar="IDS",
                        help="the shards this process runs, as 0-3 or 0,1,2,3")
    parser.add_argument("--shard-count", metavar="N", type=int,
                        help="the bot's total number of shards")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # a wrong word or option: argparse said why
        return int(exit_.code or 0)
    try:
        settings = Settings.from_env()
    except ConfigError as err:
        print(f"commandpost discord: {err}")
        return 2
    if args.shards is not None:
        settings = replace(settings, discord_shard_ids=args.shards)
    if args.shard_count is not None:
        settings = replace(settings, discord_shard_count=args.shard_count)
    refusal = shard_refusal(settings, "--shards" if args.shards is not None
                            else "COMMANDPOST_SHARD_IDS", "--shard-count"
                            if args.shard_count is not None else "COMMANDPOST_SHARD_COUNT")
    if refusal:
        print(f"commandpost discord: {refusal}")
        return 2
    if not settings.discord_token:
        say(_("commandpost discord: set COMMANDPOST_DISCORD_TOKEN to the bot's token"))
        return 2
    return asyncio.run(sync(settings) if args.action else run(settings))
